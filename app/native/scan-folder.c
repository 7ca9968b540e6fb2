// One folder of the local scan in one call: readdir plus fstatat on the folder's descriptor for each entry.
//
// Node's fs has no fstatat: an lstat per file resolves the whole path from the root again and makes a
// Stats object of 14 numbers. The local scan of a pass does that 100,000 times for 100,000 files, which
// is most of a pass with nothing to do (docs/benchmarks.md, "Sync pass with nothing changed"). Here a
// folder is opened once, each entry is looked up by its name relative to it, and the facts come back
// in three typed arrays. app/sync/local/native-scan.ts loads this addon; without it the scan uses node:fs.
#define NAPI_VERSION 8
#include <node_api.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/xattr.h>
#endif

#include "file-attributes.h"

// Kinds, as app/sync/local/native-scan.ts reads them; a negative kind is -errno of a failed fstatat.
enum { KIND_GONE = 0, KIND_FILE = 1, KIND_FOLDER = 2, KIND_SYMLINK = 3, KIND_SPECIAL = 4, KIND_BAD_NAME = 5 };

typedef struct {
  char **names;
  double *facts;    // per entry: kind, size
  uint64_t *inodes; // per entry
  int64_t *mtimes;  // per entry: nanoseconds since the epoch
  uint32_t *marked; // the entries (files only) that carry the attribute asked for
  size_t count, capacity, marked_count;
} Listing;

static void listing_free(Listing *listing) {
  for (size_t i = 0; i < listing->count; i++) free(listing->names[i]);
  free(listing->names);
  free(listing->facts);
  free(listing->inodes);
  free(listing->mtimes);
  free(listing->marked);
}

static int listing_grow(Listing *listing) {
  size_t capacity = listing->capacity == 0 ? 64 : listing->capacity * 2;
  char **names = realloc(listing->names, capacity * sizeof *names);
  if (names == NULL) return -1;
  listing->names = names;
  double *facts = realloc(listing->facts, capacity * 2 * sizeof *facts);
  if (facts == NULL) return -1;
  listing->facts = facts;
  uint64_t *inodes = realloc(listing->inodes, capacity * sizeof *inodes);
  if (inodes == NULL) return -1;
  listing->inodes = inodes;
  int64_t *mtimes = realloc(listing->mtimes, capacity * sizeof *mtimes);
  if (mtimes == NULL) return -1;
  listing->mtimes = mtimes;
  listing->capacity = capacity;
  return 0;
}

// Names are bytes on Linux; one that is not UTF-8 would come back to JavaScript with U+FFFD in it and
// then name nothing on disk, so it is reported as such instead of being looked at.
static int is_utf8(const unsigned char *s) {
  while (*s) {
    if (*s < 0x80) {
      s++;
      continue;
    }
    int extra = (*s & 0xe0) == 0xc0 ? 1 : (*s & 0xf0) == 0xe0 ? 2 : (*s & 0xf8) == 0xf0 ? 3 : -1;
    if (extra < 0) return 0;
    uint32_t code = *s & (0x3f >> extra);
    for (int i = 1; i <= extra; i++) {
      if ((s[i] & 0xc0) != 0x80) return 0;
      code = (code << 6) | (s[i] & 0x3f);
    }
    // Overlong forms, surrogates and code points past U+10FFFF are not UTF-8 either.
    if ((extra == 1 && code < 0x80) || (extra == 2 && code < 0x800) || (extra == 3 && code < 0x10000) ||
        (code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff) {
      return 0;
    }
    s += extra + 1;
  }
  return 1;
}

static int64_t mtime_ns(const struct stat *st) {
#ifdef __APPLE__
  return (int64_t)st->st_mtimespec.tv_sec * 1000000000 + st->st_mtimespec.tv_nsec;
#else
  return (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
#endif
}

// Byte order of the names, as libuv's scandir gives node:fs: a scan lists a folder the same either way.
static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

// Reads the folder into `listing`; 0, or an errno when the folder itself cannot be read.
// Whether the file `name` in the folder `path` carries `attribute` (an on-demand pair's placeholders).
// There is no fgetxattrat: the whole path is looked up again, only for files and only when asked.
static int has_attribute(const char *path, const char *name, const char *attribute) {
#ifdef __linux__
  size_t length = strlen(path) + strlen(name) + 2;
  char *full = malloc(length);
  if (full == NULL) return 0;
  snprintf(full, length, "%s/%s", path, name);
  ssize_t size = lgetxattr(full, attribute, NULL, 0);
  free(full);
  return size >= 0;
#else
  (void)path, (void)name, (void)attribute;
  return 0;
#endif
}

static int read_folder(const char *path, int follow, const char *attribute, Listing *listing) {
  int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW));
  if (fd < 0) return errno;
  DIR *dir = fdopendir(fd);
  if (dir == NULL) {
    int error = errno;
    close(fd);
    return error;
  }
  int error = 0;
  for (;;) {
    errno = 0;
    struct dirent *entry = readdir(dir);
    if (entry == NULL) {
      error = errno;
      break;
    }
    const char *name = entry->d_name;
    if (name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'))) continue;
    if (listing->count == listing->capacity && listing_grow(listing) != 0) {
      error = ENOMEM;
      break;
    }
    listing->names[listing->count] = strdup(name);
    if (listing->names[listing->count] == NULL) {
      error = ENOMEM;
      break;
    }
    listing->count++;
  }
  if (error == 0) qsort(listing->names, listing->count, sizeof *listing->names, by_name);
  for (size_t at = 0; error == 0 && at < listing->count; at++) {
    const char *name = listing->names[at];
    double kind = KIND_BAD_NAME;
    struct stat st;
    memset(&st, 0, sizeof st);
    if (is_utf8((const unsigned char *)name)) {
      if (fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
        kind = errno == ENOENT ? KIND_GONE : -(double)errno;
        memset(&st, 0, sizeof st);
      } else if (S_ISREG(st.st_mode)) {
        kind = KIND_FILE;
        if (attribute != NULL && has_attribute(path, name, attribute)) {
          // At most one mark per entry, so `count` entries always fit.
          if (listing->marked == NULL) listing->marked = malloc(listing->count * sizeof *listing->marked);
          if (listing->marked != NULL) listing->marked[listing->marked_count++] = (uint32_t)at;
        }
      } else if (S_ISDIR(st.st_mode)) {
        kind = KIND_FOLDER;
      } else if (S_ISLNK(st.st_mode)) {
        kind = KIND_SYMLINK;
      } else {
        kind = KIND_SPECIAL;
      }
    }
    listing->facts[at * 2] = kind;
    listing->facts[at * 2 + 1] = (double)st.st_size;
    listing->inodes[at] = (uint64_t)st.st_ino;
    listing->mtimes[at] = mtime_ns(&st);
  }
  closedir(dir);
  return error;
}

static napi_value typed_array(napi_env env, napi_typedarray_type type, const void *data, size_t count,
                              size_t size) {
  void *bytes = NULL;
  napi_value buffer, array;
  if (napi_create_arraybuffer(env, count * size, &bytes, &buffer) != napi_ok) return NULL;
  if (count > 0) memcpy(bytes, data, count * size);
  if (napi_create_typedarray(env, type, count, buffer, 0, &array) != napi_ok) return NULL;
  return array;
}

// listFolder(path, follow, attribute?) -> [names, facts (kind, size per entry), inodes, mtimes, marked]
// or an errno number; `marked` lists the files carrying `attribute` (empty without one).
static napi_value list_folder(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  size_t length = 0;
  if (argc < 2 || napi_get_value_string_utf8(env, argv[0], NULL, 0, &length) != napi_ok) {
    napi_throw_type_error(env, NULL, "listFolder(path: string, follow: boolean)");
    return NULL;
  }
  char *path = malloc(length + 1);
  if (path == NULL) {
    napi_throw_error(env, "ENOMEM", "out of memory");
    return NULL;
  }
  napi_get_value_string_utf8(env, argv[0], path, length + 1, &length);
  bool follow = false;
  napi_get_value_bool(env, argv[1], &follow);
  char *attribute = NULL;
  napi_valuetype type = napi_undefined;
  if (argc == 3) napi_typeof(env, argv[2], &type);
  if (type == napi_string) {
    size_t size = 0;
    napi_get_value_string_utf8(env, argv[2], NULL, 0, &size);
    attribute = malloc(size + 1);
    if (attribute != NULL) napi_get_value_string_utf8(env, argv[2], attribute, size + 1, &size);
  }

  Listing listing = {0};
  int error = read_folder(path, follow, attribute, &listing);
  free(path);
  free(attribute);
  napi_value result;
  if (error != 0) {
    listing_free(&listing);
    napi_create_int32(env, error, &result);
    return result;
  }
  napi_value names;
  napi_create_array_with_length(env, listing.count, &names);
  for (size_t i = 0; i < listing.count; i++) {
    napi_value name;
    napi_create_string_utf8(env, listing.names[i], NAPI_AUTO_LENGTH, &name);
    napi_set_element(env, names, (uint32_t)i, name);
  }
  napi_value facts = typed_array(env, napi_float64_array, listing.facts, listing.count * 2, sizeof(double));
  napi_value inodes = typed_array(env, napi_biguint64_array, listing.inodes, listing.count, sizeof(uint64_t));
  napi_value mtimes = typed_array(env, napi_bigint64_array, listing.mtimes, listing.count, sizeof(int64_t));
  napi_value marked = typed_array(env, napi_uint32_array, listing.marked, listing.marked_count, sizeof(uint32_t));
  listing_free(&listing);
  if (facts == NULL || inodes == NULL || mtimes == NULL || marked == NULL) return NULL;
  napi_create_array_with_length(env, 5, &result);
  napi_set_element(env, result, 0, names);
  napi_set_element(env, result, 1, facts);
  napi_set_element(env, result, 2, inodes);
  napi_set_element(env, result, 3, mtimes);
  napi_set_element(env, result, 4, marked);
  return result;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  napi_create_function(env, "listFolder", NAPI_AUTO_LENGTH, list_folder, NULL, &fn);
  napi_set_named_property(env, exports, "listFolder", fn);
  register_file_attributes(env, exports);
  return exports;
}
