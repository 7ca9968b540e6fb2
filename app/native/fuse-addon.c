// The on-demand mount's N-API side (mch_fuse): mounts a FUSE passthrough of the cache folder, takes the
// service's answers about hydrations, frees files, unmounts.
//
// libfuse2 is opened at run time (fuse2-api.h says why) and its multithreaded loop runs on threads of
// its own, so listing, stat, read and write never wait for JavaScript. JavaScript is called only to ask
// for a hydration (a thread-safe function); it answers through hydrationStarted/Progress/Done/Failed.
// A free runs on libuv's thread pool: it may wait for the state lock, never for a FUSE thread's work.
#define _GNU_SOURCE
#define NAPI_VERSION 8
#include <node_api.h>

#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fuse-mount.h"

typedef struct {
  uint32_t req;
  char *path;
  pid_t pid;
  char process[COMM_MAX + 1];
} HydrateCall;

typedef struct {
  napi_async_work work;
  napi_deferred deferred;
  char *path;
  uint64_t size;
  int64_t mtime_ns;
  int result;
  char message[256];
} FreeWork;

Fuse2Api fuse_api;
char *cache_root;
static void *library;
static char *mount_point;
static struct fuse_chan *chan;
static struct fuse *fuse;
static pthread_t loop_thread;
static bool mounted;
static napi_threadsafe_function on_hydrate;
// Told when libfuse's loop ends without unmount() (fusermount -u, umount from outside); NULL if not asked.
static napi_threadsafe_function on_ended;
static bool unmounting;

static void throw_coded(napi_env env, const char *code, const char *message) {
  napi_throw_error(env, code, message);
}

static char *string_value(napi_env env, napi_value value) {
  size_t length = 0;
  if (napi_get_value_string_utf8(env, value, NULL, 0, &length) != napi_ok) return NULL;
  char *text = malloc(length + 1);
  if (text != NULL) napi_get_value_string_utf8(env, value, text, length + 1, &length);
  return text;
}

static char *string_property(napi_env env, napi_value object, const char *name) {
  napi_value value;
  if (napi_get_named_property(env, object, name, &value) != napi_ok) return NULL;
  return string_value(env, value);
}

// Why libfuse2 cannot be used here, or NULL when it can; loads it on the first call.
static const char *fuse_missing(void) {
  if (access("/dev/fuse", R_OK | W_OK) != 0) {
    return "/dev/fuse is missing or not usable: files on demand need FUSE (the fuse kernel module, and "
           "/dev/fuse in a container)";
  }
  if (library != NULL) return NULL;
  void *handle = dlopen("libfuse.so.2", RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) return "libfuse.so.2 was not found: install the package libfuse2 (and fuse3 for fusermount3)";
#define SYMBOL(field, name, version)                                     \
  *(void **)&fuse_api.field = dlvsym(handle, name, version);             \
  if (fuse_api.field == NULL) *(void **)&fuse_api.field = dlsym(handle, name); \
  if (fuse_api.field == NULL) goto incomplete
  SYMBOL(mount, "fuse_mount", "FUSE_2.6");
  SYMBOL(unmount, "fuse_unmount", "FUSE_2.6");
  SYMBOL(new_fuse, "fuse_new", "FUSE_2.6");
  SYMBOL(destroy, "fuse_destroy", "FUSE_2.2");
  SYMBOL(loop_mt, "fuse_loop_mt", "FUSE_2.2");
  SYMBOL(exit_loop, "fuse_exit", "FUSE_2.2");
  SYMBOL(get_context, "fuse_get_context", "FUSE_2.8");
  SYMBOL(opt_add_arg, "fuse_opt_add_arg", "FUSE_2.5");
  SYMBOL(opt_free_args, "fuse_opt_free_args", "FUSE_2.5");
#undef SYMBOL
  library = handle;
  return NULL;
incomplete:
  dlclose(handle);
  return "libfuse.so.2 lacks the FUSE 2.6 functions: install the package libfuse2 (2.9)";
}

// ---- Hydration requests -------------------------------------------------------------------------

bool ask_hydration(uint32_t req, const char *path, pid_t pid, const char *process) {
  HydrateCall *call = calloc(1, sizeof *call);
  if (call == NULL || (call->path = strdup(path)) == NULL) {
    free(call);
    return false;
  }
  call->req = req;
  call->pid = pid;
  snprintf(call->process, sizeof call->process, "%s", process);
  if (napi_call_threadsafe_function(on_hydrate, call, napi_tsfn_nonblocking) == napi_ok) return true;
  free(call->path);
  free(call);
  return false;
}

static void call_hydrate(napi_env env, napi_value js_callback, void *context, void *data) {
  (void)context;
  HydrateCall *call = data;
  if (env != NULL) {
    napi_value args[4], undefined;
    napi_create_uint32(env, call->req, &args[0]);
    napi_create_string_utf8(env, call->path, NAPI_AUTO_LENGTH, &args[1]);
    napi_create_int32(env, call->pid, &args[2]);
    napi_create_string_utf8(env, call->process, NAPI_AUTO_LENGTH, &args[3]);
    napi_get_undefined(env, &undefined);
    napi_call_function(env, undefined, js_callback, 4, args, NULL);
  } else {
    // The function is being torn down: this request can never be answered.
    hydration_answer(call->req, FAILED, EIO);
  }
  free(call->path);
  free(call);
}

// ---- Mounting and unmounting --------------------------------------------------------------------

static void *run_loop(void *unused) {
  (void)unused;
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, NULL); // signals are Node's, on its own thread
  fuse_api.loop_mt(fuse);
  // The kernel ended the connection (an unmount from outside): whoever serves the folder must know, or
  // it would go on saying the folder shows the device's files while it shows an empty folder.
  if (!__atomic_load_n(&unmounting, __ATOMIC_SEQ_CST) && on_ended != NULL)
    napi_call_threadsafe_function(on_ended, NULL, napi_tsfn_nonblocking);
  return NULL;
}

static void release_callbacks(void) {
  napi_release_threadsafe_function(on_hydrate, napi_tsfn_abort);
  if (on_ended != NULL) napi_release_threadsafe_function(on_ended, napi_tsfn_abort);
  on_ended = NULL;
}

// mount({source, mountPoint, options, noDownload, onHydrate, onEnded?, answerTimeoutMs?}): mounts and
// returns once the loop runs.
static napi_value mount_js(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1], list, callback, name, timeout;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  if (mounted) return throw_coded(env, "MOUNT_FAILED", "this process already serves a mount"), NULL;
  const char *missing = fuse_missing();
  if (missing != NULL) return throw_coded(env, "FUSE_UNAVAILABLE", missing), NULL;
  char *options = string_property(env, argv[0], "options");
  cache_root = string_property(env, argv[0], "source");
  mount_point = string_property(env, argv[0], "mountPoint");
  uint32_t count = 0;
  napi_get_named_property(env, argv[0], "noDownload", &list);
  napi_get_array_length(env, list, &count);
  no_download = calloc(count + 1, sizeof *no_download);
  for (uint32_t i = 0; i < count && no_download != NULL; i++) {
    napi_value item;
    napi_get_element(env, list, i, &item);
    no_download[i] = string_value(env, item);
    if (no_download[i] != NULL) no_download_count++;
  }
  double timeout_ms = 0;
  if (napi_get_named_property(env, argv[0], "answerTimeoutMs", &timeout) == napi_ok &&
      napi_get_value_double(env, timeout, &timeout_ms) == napi_ok && timeout_ms > 0) {
    answer_timeout_ns = (uint64_t)(timeout_ms * 1e6);
  }
  napi_get_named_property(env, argv[0], "onHydrate", &callback);
  napi_create_string_utf8(env, "mch-hydrate", NAPI_AUTO_LENGTH, &name);
  if (options == NULL || cache_root == NULL || mount_point == NULL || no_download == NULL ||
      napi_create_threadsafe_function(env, callback, NULL, name, 0, 1, NULL, NULL, NULL, call_hydrate,
                                      &on_hydrate) != napi_ok) {
    free(options);
    return throw_coded(env, "MOUNT_FAILED", "mount() needs source, mountPoint, options, noDownload, onHydrate"), NULL;
  }
  napi_value ended;
  napi_valuetype type = napi_undefined;
  if (napi_get_named_property(env, argv[0], "onEnded", &ended) == napi_ok) napi_typeof(env, ended, &type);
  if (type == napi_function) {
    napi_create_string_utf8(env, "mch-ended", NAPI_AUTO_LENGTH, &name);
    if (napi_create_threadsafe_function(env, ended, NULL, name, 0, 1, NULL, NULL, NULL, NULL, &on_ended) == napi_ok)
      napi_unref_threadsafe_function(env, on_ended); // the process lives on for its own reasons, not this
  }
  struct fuse_args args = {0, NULL, 0};
  fuse_api.opt_add_arg(&args, "mch-sync");
  fuse_api.opt_add_arg(&args, "-o");
  fuse_api.opt_add_arg(&args, options);
  free(options);
  chan = fuse_api.mount(mount_point, &args);
  if (chan == NULL) {
    fuse_api.opt_free_args(&args);
    release_callbacks();
    return throw_coded(env, "MOUNT_FAILED", "libfuse could not mount the folder (its reason is on stderr)"), NULL;
  }
  fuse = fuse_api.new_fuse(chan, &args, &mount_operations, sizeof mount_operations, NULL);
  fuse_api.opt_free_args(&args);
  if (fuse == NULL || pthread_create(&loop_thread, NULL, run_loop, NULL) != 0) {
    fuse_api.unmount(mount_point, chan);
    if (fuse != NULL) fuse_api.destroy(fuse);
    release_callbacks();
    return throw_coded(env, "MOUNT_FAILED", "libfuse refused the mount options (its reason is on stderr)"), NULL;
  }
  mounted = true;
  return NULL;
}

// Detaches the mount as fusermount would (lazily: a program holding a file open keeps it until it closes).
static void detach(void) {
  if (geteuid() == 0 && umount2(mount_point, MNT_DETACH) == 0) return;
  pid_t pid = fork();
  if (pid == 0) {
    execlp("fusermount", "fusermount", "-u", "-q", "-z", "--", mount_point, (char *)NULL);
    execlp("fusermount3", "fusermount3", "-u", "-q", "-z", "--", mount_point, (char *)NULL);
    _exit(127);
  }
  if (pid > 0) waitpid(pid, NULL, 0);
}

// unmount(): fails the hydrations waiting, detaches the mount, and waits up to 2 s for libfuse's loop to
// end; true when it ended (false: a program still holds a file open; the process may exit anyway).
static napi_value unmount_js(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value result;
  if (!mounted) return napi_get_boolean(env, true, &result), result;
  __atomic_store_n(&unmounting, true, __ATOMIC_SEQ_CST);
  fail_all_hydrations();
  fuse_api.exit_loop(fuse);
  detach();
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += 2;
  bool ended = pthread_timedjoin_np(loop_thread, NULL, &until) == 0;
  if (ended) fuse_api.destroy(fuse); // also closes /dev/fuse
  release_callbacks();
  mounted = false;
  return napi_get_boolean(env, ended, &result), result;
}

// ---- The service's answers, and frees -----------------------------------------------------------

// hydrationStarted(req, size) / Progress(req, bytes) / Done(req) / Failed(req, errno).
static napi_value answer(napi_env env, napi_callback_info info, int state) {
  size_t argc = 2;
  napi_value argv[2];
  uint32_t req = 0;
  int64_t number = 0;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  napi_get_value_uint32(env, argv[0], &req);
  if (argc > 1) napi_get_value_int64(env, argv[1], &number);
  hydration_answer(req, state, number);
  return NULL;
}

static napi_value started_js(napi_env env, napi_callback_info info) { return answer(env, info, STARTED); }
static napi_value progress_js(napi_env env, napi_callback_info info) { return answer(env, info, REQUESTED); }
static napi_value done_js(napi_env env, napi_callback_info info) { return answer(env, info, DONE); }
static napi_value failed_js(napi_env env, napi_callback_info info) { return answer(env, info, FAILED); }

static void free_execute(napi_env env, void *data) {
  (void)env;
  FreeWork *work = data;
  work->result = free_file(work->path, work->size, work->mtime_ns, work->message, sizeof work->message);
}

static void free_complete(napi_env env, napi_status status, void *data) {
  FreeWork *work = data;
  napi_value outcome, errno_name, message;
  int result = status == napi_ok ? work->result : -EIO;
  if (result == 0) {
    napi_get_null(env, &outcome);
  } else {
    const char *name = result == -EBUSY ? "EBUSY" : result == -ESTALE ? "ESTALE" : result == -ENOENT ? "ENOENT" : "EIO";
    napi_create_object(env, &outcome);
    napi_create_string_utf8(env, name, NAPI_AUTO_LENGTH, &errno_name);
    napi_create_string_utf8(env, work->message, NAPI_AUTO_LENGTH, &message);
    napi_set_named_property(env, outcome, "errno", errno_name);
    napi_set_named_property(env, outcome, "message", message);
  }
  napi_resolve_deferred(env, work->deferred, outcome);
  napi_delete_async_work(env, work->work);
  free(work->path);
  free(work);
}

// free(path, size, mtimeNs): a promise of null (freed) or {errno, message} (left as it was).
static napi_value free_js(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3], promise, name;
  bool lossless = false;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  FreeWork *work = calloc(1, sizeof *work);
  int64_t size = -1;
  if (work == NULL || argc < 3 || (work->path = string_value(env, argv[0])) == NULL ||
      napi_get_value_int64(env, argv[1], &size) != napi_ok || size < 0 ||
      napi_get_value_bigint_int64(env, argv[2], &work->mtime_ns, &lossless) != napi_ok || !lossless) {
    if (work != NULL) free(work->path);
    free(work);
    return throw_coded(env, "MOUNT_FAILED", "free() needs a path, a size and an mtime in ns (a bigint)"), NULL;
  }
  work->size = (uint64_t)size;
  napi_create_promise(env, &work->deferred, &promise);
  napi_create_string_utf8(env, "mch-free", NAPI_AUTO_LENGTH, &name);
  napi_create_async_work(env, NULL, name, free_execute, free_complete, work, &work->work);
  napi_queue_async_work(env, work->work);
  return promise;
}

// fuseUnavailable(): why a mount cannot work here, or null.
static napi_value unavailable_js(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value result;
  const char *missing = fuse_missing();
  if (missing == NULL) return napi_get_null(env, &result), result;
  return napi_create_string_utf8(env, missing, NAPI_AUTO_LENGTH, &result), result;
}

// matchesNoDownload(name, patterns): the matcher the mount uses, for tests to hold it to no-download.ts.
static napi_value matches_js(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2], result;
  uint32_t count = 0;
  bool matched = false;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  char *name = string_value(env, argv[0]);
  napi_get_array_length(env, argv[1], &count);
  for (uint32_t i = 0; i < count && name != NULL && !matched; i++) {
    napi_value item;
    napi_get_element(env, argv[1], i, &item);
    char *pattern = string_value(env, item);
    matched = pattern != NULL && name[0] != '\0' && name_matches(name, pattern);
    free(pattern);
  }
  free(name);
  return napi_get_boolean(env, matched, &result), result;
}

NAPI_MODULE_INIT() {
  hydration_state_init();
  struct {
    const char *name;
    napi_callback callback;
  } functions[] = {
      {"mount", mount_js},
      {"unmount", unmount_js},
      {"hydrationStarted", started_js},
      {"hydrationProgress", progress_js},
      {"hydrationDone", done_js},
      {"hydrationFailed", failed_js},
      {"free", free_js},
      {"fuseUnavailable", unavailable_js},
      {"matchesNoDownload", matches_js},
  };
  for (size_t i = 0; i < sizeof functions / sizeof functions[0]; i++) {
    napi_value fn;
    napi_create_function(env, functions[i].name, NAPI_AUTO_LENGTH, functions[i].callback, NULL, &fn);
    napi_set_named_property(env, exports, functions[i].name, fn);
  }
  return exports;
}
