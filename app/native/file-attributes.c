// Extended attributes and nanosecond mtimes for placeholders of on-demand pairs; Node's fs has neither.
//
// A placeholder in an on-demand pair's cache folder is a sparse file marked by an attribute
// (app/mount/hydration-protocol.ts). The engine writes the mark, the upload guard reads it from the
// descriptor it reads content from, and hydration puts back the placeholder's exact mtime (a double of
// seconds, all fs.utimes takes, cannot hold every nanosecond the index compares).
#define NAPI_VERSION 8
#include <node_api.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#ifdef __linux__
#include <sys/xattr.h>
#endif

#include "file-attributes.h"

#define MAX_VALUE 65536

// Throws an Error whose `code` is the errno's name, as node:fs errors have.
static void throw_errno(napi_env env, int error, const char *call) {
  const char *code = error == ENOENT       ? "ENOENT"
                     : error == ENOTSUP    ? "ENOTSUP"
                     : error == EACCES     ? "EACCES"
                     : error == EPERM      ? "EPERM"
                     : error == ERANGE     ? "ERANGE"
                     : error == EBADF      ? "EBADF"
                     : error == ENOSPC     ? "ENOSPC"
                     : error == ENOTDIR    ? "ENOTDIR"
                     : error == ELOOP      ? "ELOOP"
                     : error == EROFS      ? "EROFS"
                     : error == E2BIG      ? "E2BIG"
                                           : "EIO";
  char message[160];
  snprintf(message, sizeof message, "%s: %s", call, strerror(error));
  napi_throw_error(env, code, message);
}

// The string argument at `index`, malloc'd; NULL (with a TypeError thrown) when it is not a string.
static char *string_arg(napi_env env, napi_value value) {
  size_t length = 0;
  if (napi_get_value_string_utf8(env, value, NULL, 0, &length) != napi_ok) return NULL;
  char *text = malloc(length + 1);
  if (text == NULL) return NULL;
  napi_get_value_string_utf8(env, value, text, length + 1, &length);
  return text;
}

// A target is a path (string, symlinks not followed) or an open descriptor (number).
typedef struct {
  char *path;
  int fd;
} Target;

static int target_arg(napi_env env, napi_value value, Target *target) {
  napi_valuetype type;
  napi_typeof(env, value, &type);
  target->path = NULL;
  target->fd = -1;
  if (type == napi_number) return napi_get_value_int32(env, value, &target->fd) == napi_ok ? 0 : -1;
  target->path = string_arg(env, value);
  return target->path == NULL ? -1 : 0;
}

// The (target, name) arguments every call starts with: 0, or -1 with nothing left allocated (the caller
// throws its usage). `target` is set before anything else, so its path can always be freed after.
static int target_and_name(napi_env env, size_t argc, size_t wanted, napi_value *argv, Target *target,
                           char **name) {
  target->path = NULL;
  target->fd = -1;
  *name = NULL;
  if (argc != wanted || target_arg(env, argv[0], target) != 0) return -1;
  *name = string_arg(env, argv[1]);
  if (*name != NULL) return 0;
  free(target->path);
  target->path = NULL;
  return -1;
}

static ssize_t get_attribute(const Target *target, const char *name, void *value, size_t size) {
#ifdef __linux__
  return target->path ? lgetxattr(target->path, name, value, size) : fgetxattr(target->fd, name, value, size);
#else
  (void)target, (void)name, (void)value, (void)size;
  errno = ENOTSUP;
  return -1;
#endif
}

// getAttribute(pathOrFd, name) -> Buffer, or null when the item has no such attribute.
static napi_value get_attribute_js(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2], result = NULL;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  Target target;
  char *name;
  if (target_and_name(env, argc, 2, argv, &target, &name) != 0) {
    napi_throw_type_error(env, NULL, "getAttribute(pathOrFd: string | number, name: string)");
    return NULL;
  }
  char *value = malloc(MAX_VALUE);
  ssize_t size = value == NULL ? (errno = ENOMEM, -1) : get_attribute(&target, name, value, MAX_VALUE);
  if (size >= 0) {
    void *data = NULL;
    if (napi_create_buffer_copy(env, (size_t)size, value, &data, &result) != napi_ok) result = NULL;
  } else if (errno == ENODATA) {
    napi_get_null(env, &result);
  } else {
    throw_errno(env, errno, "getxattr");
  }
  free(value);
  free(name);
  free(target.path);
  return result;
}

// setAttribute(pathOrFd, name, value: Buffer) -> undefined.
static napi_value set_attribute_js(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  Target target;
  void *data = NULL;
  size_t length = 0;
  bool is_buffer = false;
  char *name;
  if (target_and_name(env, argc, 3, argv, &target, &name) == 0) napi_is_buffer(env, argv[2], &is_buffer);
  if (!is_buffer) {
    free(name);
    free(target.path);
    napi_throw_type_error(env, NULL, "setAttribute(pathOrFd: string | number, name: string, value: Buffer)");
    return NULL;
  }
  napi_get_buffer_info(env, argv[2], &data, &length);
#ifdef __linux__
  int done = target.path ? lsetxattr(target.path, name, data, length, 0)
                         : fsetxattr(target.fd, name, data, length, 0);
#else
  int done = (errno = ENOTSUP, -1);
#endif
  if (done != 0) throw_errno(env, errno, "setxattr");
  free(name);
  free(target.path);
  return NULL;
}

// removeAttribute(pathOrFd, name) -> true, or false when there was no such attribute.
static napi_value remove_attribute_js(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2], result = NULL;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  Target target;
  char *name;
  if (target_and_name(env, argc, 2, argv, &target, &name) != 0) {
    napi_throw_type_error(env, NULL, "removeAttribute(pathOrFd: string | number, name: string)");
    return NULL;
  }
#ifdef __linux__
  int done = target.path ? lremovexattr(target.path, name) : fremovexattr(target.fd, name);
#else
  int done = (errno = ENOTSUP, -1);
#endif
  if (done == 0 || errno == ENODATA) {
    napi_get_boolean(env, done == 0, &result);
  } else {
    throw_errno(env, errno, "removexattr");
  }
  free(name);
  free(target.path);
  return result;
}

// setMtimeNs(pathOrFd, mtimeNs: bigint) -> undefined; the access time is left as it is.
static napi_value set_mtime_ns_js(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  Target target = {NULL, -1};
  int64_t ns = 0;
  bool lossless = false;
  if (argc != 2 || target_arg(env, argv[0], &target) != 0 ||
      napi_get_value_bigint_int64(env, argv[1], &ns, &lossless) != napi_ok || !lossless) {
    free(target.path);
    napi_throw_type_error(env, NULL, "setMtimeNs(pathOrFd: string | number, mtimeNs: bigint)");
    return NULL;
  }
  int64_t seconds = ns / 1000000000, rest = ns % 1000000000;
  if (rest < 0) rest += 1000000000, seconds -= 1;
  struct timespec times[2] = {{0, UTIME_OMIT}, {(time_t)seconds, (long)rest}};
  int done = target.path ? utimensat(AT_FDCWD, target.path, times, AT_SYMLINK_NOFOLLOW) : futimens(target.fd, times);
  if (done != 0) throw_errno(env, errno, "utimensat");
  free(target.path);
  return NULL;
}

void register_file_attributes(napi_env env, napi_value exports) {
  struct {
    const char *name;
    napi_callback callback;
  } functions[] = {
      {"getAttribute", get_attribute_js},
      {"setAttribute", set_attribute_js},
      {"removeAttribute", remove_attribute_js},
      {"setMtimeNs", set_mtime_ns_js},
  };
  for (size_t i = 0; i < sizeof functions / sizeof functions[0]; i++) {
    napi_value fn;
    napi_create_function(env, functions[i].name, NAPI_AUTO_LENGTH, functions[i].callback, NULL, &fn);
    napi_set_named_property(env, exports, functions[i].name, fn);
  }
}
