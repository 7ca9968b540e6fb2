// The on-demand mount: a FUSE passthrough of the cache folder that hydrates placeholders when opened.
//
// libfuse2 is opened at run time (fuse2-api.h says why) and its multithreaded loop runs on threads of
// its own, so listing, stat, read and write never wait for JavaScript. JavaScript is called only to ask
// for a hydration (a thread-safe function); it answers through hydrationStarted/Progress/Done/Failed,
// and the FUSE threads that wait for bytes sleep on one condition variable. The rules (which opens
// hydrate, which processes never do, the hidden attributes) are app/mount/README.md's. Nothing here ever
// touches the mount point's contents: a synchronous access from the serving process would deadlock.
#define _GNU_SOURCE
#define _FILE_OFFSET_BITS 64
#define NAPI_VERSION 8
#include <node_api.h>

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "fuse2-api.h"

#define PLACEHOLDER_XATTR "user.mch.placeholder" // app/mount/hydration-protocol.ts
#define OWN_PREFIX "user.mch."
#define COMM_MAX 15 // /proc/<pid>/comm keeps the first 15 bytes of a name

enum { REQUESTED, STARTED, DONE, FAILED };

// One hydration, shared by every handle that opened the file (same dev and inode) while it runs.
typedef struct Hydration {
  dev_t dev;
  ino_t ino;
  uint32_t req;
  int state;
  uint64_t size, bytes;
  int error; // errno when FAILED
  int refs;  // the active list's and each waiting or open handle's
  struct Hydration *next;
} Hydration;

typedef struct {
  int fd;
  Hydration *hydration; // non-NULL while the file this handle reads was hydrating at open
  bool deferred;        // a placeholder opened write-only: hydrated at its first write or truncate > 0
} Handle;

typedef struct {
  uint32_t req;
  char *path;
  pid_t pid;
  char process[COMM_MAX + 1];
} HydrateCall;

static Fuse2Api api;
static void *library;
static char *source; // the cache folder, without a trailing slash
static char *mount_point;
static struct fuse_chan *chan;
static struct fuse *fuse;
static pthread_t loop_thread;
static bool mounted, stopping;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static Hydration *active;
static uint32_t next_req;
static napi_threadsafe_function on_hydrate;
static char **no_download;
static size_t no_download_count;

// ---- Who is asking ------------------------------------------------------------------------------

// The pattern syntax and the 15-byte cut are app/mount/no-download.ts's; both must agree.
static bool name_matches(const char *name, const char *pattern) {
  size_t length = strlen(pattern), name_length = strlen(name);
  if (length >= 2 && pattern[0] == '*' && pattern[length - 1] == '*') {
    char part[256];
    size_t part_length = length - 2;
    if (part_length == 0 || part_length >= sizeof part) return false;
    memcpy(part, pattern + 1, part_length);
    part[part_length] = '\0';
    if (strstr(name, part) != NULL) return true;
    // A cut name may end inside the word ("evince-thumbnai"): a tail of 4 bytes or more that starts it.
    if (name_length != COMM_MAX) return false;
    for (size_t tail = part_length - 1; tail >= 4 && tail > 0; tail--) {
      if (tail <= name_length && memcmp(name + name_length - tail, part, tail) == 0) return true;
    }
    return false;
  }
  if (length >= 1 && pattern[length - 1] == '*') {
    size_t prefix = length - 1 < COMM_MAX ? length - 1 : COMM_MAX;
    return strncmp(name, pattern, prefix) == 0;
  }
  if (strcmp(name, pattern) == 0) return true;
  return length > COMM_MAX && name_length == COMM_MAX && strncmp(name, pattern, COMM_MAX) == 0;
}

static bool on_no_download_list(const char *name) {
  if (name[0] == '\0') return false;
  for (size_t i = 0; i < no_download_count; i++) {
    if (name_matches(name, no_download[i])) return true;
  }
  return false;
}

static void read_comm(pid_t pid, char *name) {
  char file[64];
  name[0] = '\0';
  snprintf(file, sizeof file, "/proc/%d/comm", (int)pid);
  int fd = open(file, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  ssize_t n = read(fd, name, COMM_MAX + 1);
  close(fd);
  if (n <= 0) return;
  name[n > COMM_MAX ? COMM_MAX : n] = '\0';
  char *newline = strchr(name, '\n');
  if (newline != NULL) *newline = '\0';
}

// FUSE gives the calling thread's id: the process is its thread group, whose name is the program's.
static pid_t thread_group(pid_t tid) {
  char file[64], text[1024];
  snprintf(file, sizeof file, "/proc/%d/status", (int)tid);
  int fd = open(file, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return tid;
  ssize_t n = read(fd, text, sizeof text - 1);
  close(fd);
  if (n <= 0) return tid;
  text[n] = '\0';
  const char *line = strstr(text, "\nTgid:");
  return line == NULL ? tid : (pid_t)atoi(line + 6);
}

// The caller's process id and name; false when the caller (its program or this thread) may not download.
static bool caller_may_download(pid_t *pid, char *process) {
  pid_t tid = api.get_context()->pid;
  char thread_name[COMM_MAX + 1];
  *pid = tid > 0 ? thread_group(tid) : 0;
  read_comm(*pid, process);
  if (tid > 0 && tid != *pid) {
    read_comm(tid, thread_name);
    if (on_no_download_list(thread_name)) return false;
  }
  return !on_no_download_list(process);
}

// ---- Hydrations -----------------------------------------------------------------------------------

static int placeholder_fd(int fd) {
  if (fgetxattr(fd, PLACEHOLDER_XATTR, NULL, 0) >= 0) return 1;
  return errno == ENODATA || errno == ENOTSUP ? 0 : -errno;
}

static Hydration *find_by_inode(dev_t dev, ino_t ino) {
  for (Hydration *h = active; h != NULL; h = h->next) {
    if (h->dev == dev && h->ino == ino) return h;
  }
  return NULL;
}

// With the lock held.
static void unref(Hydration *h) {
  if (--h->refs == 0) free(h);
}

// With the lock held: takes `h` off the active list in its final state and wakes every waiter.
static void settle(Hydration *h, int state, int error) {
  h->state = state;
  h->error = error;
  for (Hydration **at = &active; *at != NULL; at = &(*at)->next) {
    if (*at == h) {
      *at = h->next;
      unref(h);
      break;
    }
  }
  pthread_cond_broadcast(&changed);
}

// Joins the file's running hydration or asks JavaScript for one. 0 with `*out` NULL: not a placeholder
// (any more); 0 with `*out` set: started or done, and the caller holds a reference; else -errno.
static int hydrate_start(const char *path, int fd, pid_t pid, const char *process, Hydration **out) {
  struct stat st;
  *out = NULL;
  if (fstat(fd, &st) != 0) return -errno;
  pthread_mutex_lock(&lock);
  Hydration *h = find_by_inode(st.st_dev, st.st_ino);
  if (h == NULL) {
    // Checked again under the lock: a hydration that just ended has removed the attribute first.
    int is_placeholder = placeholder_fd(fd);
    if (is_placeholder <= 0 || stopping || path == NULL) {
      pthread_mutex_unlock(&lock);
      return is_placeholder < 0 ? is_placeholder : stopping || path == NULL ? -EIO : 0;
    }
    h = calloc(1, sizeof *h);
    HydrateCall *call = calloc(1, sizeof *call);
    if (h == NULL || call == NULL || (call->path = strdup(path + 1)) == NULL) {
      pthread_mutex_unlock(&lock);
      free(h);
      free(call);
      return -ENOMEM;
    }
    *h = (Hydration){st.st_dev, st.st_ino, ++next_req, REQUESTED, (uint64_t)st.st_size, 0, 0, 1, active};
    active = h;
    call->req = h->req;
    call->pid = pid;
    snprintf(call->process, sizeof call->process, "%s", process);
    if (napi_call_threadsafe_function(on_hydrate, call, napi_tsfn_nonblocking) != napi_ok) {
      free(call->path);
      free(call);
      settle(h, FAILED, EIO);
    }
  }
  h->refs++;
  while (h->state == REQUESTED) pthread_cond_wait(&changed, &lock);
  int result = h->state == FAILED ? -h->error : 0;
  if (result != 0) {
    unref(h);
  } else {
    *out = h;
  }
  pthread_mutex_unlock(&lock);
  return result;
}

// Waits until the first `end` bytes are written (UINT64_MAX: until done); -errno if it failed.
static int wait_for_bytes(Hydration *h, uint64_t end) {
  pthread_mutex_lock(&lock);
  if (end != UINT64_MAX && end > h->size) end = h->size;
  while (h->state == REQUESTED || (h->state == STARTED && (end == UINT64_MAX || h->bytes < end))) {
    pthread_cond_wait(&changed, &lock);
  }
  int result = h->state == FAILED ? -h->error : 0;
  pthread_mutex_unlock(&lock);
  return result;
}

static void release_hydration(Hydration *h) {
  pthread_mutex_lock(&lock);
  unref(h);
  pthread_mutex_unlock(&lock);
}

// A placeholder about to be changed (truncate > 0, utimens, a write open): hydrated whole first.
static int hydrate_whole(const char *path, int fd) {
  pid_t pid;
  char process[COMM_MAX + 1];
  if (!caller_may_download(&pid, process)) return -EACCES;
  Hydration *h;
  int result = hydrate_start(path, fd, pid, process, &h);
  if (result != 0 || h == NULL) return result;
  result = wait_for_bytes(h, UINT64_MAX);
  release_hydration(h);
  return result;
}

// Emptying a placeholder needs no download: wait for a running hydration, truncate, then unmark. In
// this order a crash between the two leaves a placeholder (safe), never an empty file marked as one.
static int empty_placeholder(int fd) {
  struct stat st;
  if (fstat(fd, &st) != 0) return -errno;
  pthread_mutex_lock(&lock);
  Hydration *h = find_by_inode(st.st_dev, st.st_ino);
  if (h != NULL) {
    h->refs++;
    while (h->state == REQUESTED || h->state == STARTED) pthread_cond_wait(&changed, &lock);
    unref(h);
  }
  pthread_mutex_unlock(&lock);
  if (ftruncate(fd, 0) != 0) return -errno;
  if (fremovexattr(fd, PLACEHOLDER_XATTR) != 0 && errno != ENODATA) return -errno;
  return 0;
}

static int truncate_fd(const char *path, int fd, off_t size) {
  int is_placeholder = placeholder_fd(fd);
  if (is_placeholder < 0) return is_placeholder;
  if (is_placeholder && size == 0) return empty_placeholder(fd);
  if (is_placeholder) {
    int result = hydrate_whole(path, fd);
    if (result != 0) return result;
  }
  return ftruncate(fd, size) == 0 ? 0 : -errno;
}


// ---- The passthrough ------------------------------------------------------------------------------

// The cache folder's path for a path of the mount; every operation stays inside the cache folder.
#define CACHE_PATH(name, path)                                                        \
  char name[PATH_MAX];                                                                \
  if (snprintf(name, sizeof name, "%s%s", source, path) >= (int)sizeof name) return -ENAMETOOLONG

#define HANDLE(fi) ((Handle *)(uintptr_t)(fi)->fh)

static bool own_attribute(const char *name) { return strncmp(name, OWN_PREFIX, strlen(OWN_PREFIX)) == 0; }

static int op_getattr(const char *path, struct stat *st) {
  CACHE_PATH(p, path);
  return lstat(p, st) == 0 ? 0 : -errno;
}

static int op_fgetattr(const char *path, struct stat *st, struct fuse_file_info *fi) {
  (void)path;
  return fstat(HANDLE(fi)->fd, st) == 0 ? 0 : -errno;
}

static int op_readlink(const char *path, char *buffer, size_t size) {
  CACHE_PATH(p, path);
  if (size == 0) return -EINVAL;
  ssize_t n = readlink(p, buffer, size - 1);
  if (n < 0) return -errno;
  buffer[n] = '\0';
  return 0;
}

static int op_mknod(const char *path, mode_t mode, dev_t rdev) {
  CACHE_PATH(p, path);
  return mknod(p, mode, rdev) == 0 ? 0 : -errno;
}

static int op_mkdir(const char *path, mode_t mode) {
  CACHE_PATH(p, path);
  return mkdir(p, mode) == 0 ? 0 : -errno;
}

static int op_unlink(const char *path) {
  CACHE_PATH(p, path);
  return unlink(p) == 0 ? 0 : -errno;
}

static int op_rmdir(const char *path) {
  CACHE_PATH(p, path);
  return rmdir(p) == 0 ? 0 : -errno;
}

static int op_symlink(const char *target, const char *path) {
  CACHE_PATH(p, path);
  return symlink(target, p) == 0 ? 0 : -errno;
}

static int op_rename(const char *from, const char *to) {
  CACHE_PATH(p, from);
  CACHE_PATH(q, to);
  return rename(p, q) == 0 ? 0 : -errno;
}

static int op_link(const char *from, const char *to) {
  CACHE_PATH(p, from);
  CACHE_PATH(q, to);
  return link(p, q) == 0 ? 0 : -errno;
}

static int op_chmod(const char *path, mode_t mode) {
  CACHE_PATH(p, path);
  return fchmodat(AT_FDCWD, p, mode, 0) == 0 ? 0 : -errno;
}

static int op_chown(const char *path, uid_t uid, gid_t gid) {
  CACHE_PATH(p, path);
  return lchown(p, uid, gid) == 0 ? 0 : -errno;
}

static int op_truncate(const char *path, off_t size) {
  CACHE_PATH(p, path);
  int fd = open(p, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return -errno;
  int result = truncate_fd(path, fd, size);
  close(fd);
  return result;
}

static int op_ftruncate(const char *path, off_t size, struct fuse_file_info *fi) {
  Handle *handle = HANDLE(fi);
  if (handle->hydration != NULL) {
    int result = wait_for_bytes(handle->hydration, UINT64_MAX);
    if (result != 0) return result;
  }
  handle->deferred = false;
  return truncate_fd(path, handle->fd, size);
}

static int op_utimens(const char *path, const struct timespec times[2]) {
  CACHE_PATH(p, path);
  struct stat st;
  if (lstat(p, &st) != 0) return -errno;
  if (S_ISREG(st.st_mode) && lgetxattr(p, PLACEHOLDER_XATTR, NULL, 0) >= 0) {
    int fd = open(p, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return -errno;
    int result = hydrate_whole(path, fd);
    close(fd);
    if (result != 0) return result;
  }
  return utimensat(AT_FDCWD, p, times, AT_SYMLINK_NOFOLLOW) == 0 ? 0 : -errno;
}

// Opens (or creates) the cache folder's file. A placeholder opened to be emptied (O_TRUNC) is emptied
// without a download; opened write-only, hydrated at its first write (or truncate above 0); opened to
// read, hydrated now. A caller on the no-download list gets EACCES instead.
static int open_file(const char *path, int flags, mode_t mode, struct fuse_file_info *fi) {
  CACHE_PATH(p, path);
  bool truncate = (flags & O_TRUNC) != 0 && (flags & O_ACCMODE) != O_RDONLY;
  int fd = open(p, (flags & ~O_TRUNC) | O_NOFOLLOW | O_CLOEXEC, mode);
  if (fd < 0) return -errno;
  Handle *handle = calloc(1, sizeof *handle);
  int result = handle == NULL ? -ENOMEM : placeholder_fd(fd);
  if (result == 1 && truncate) {
    result = empty_placeholder(fd);
  } else if (result == 1 && (flags & O_ACCMODE) == O_WRONLY) {
    // `truncate -s 0` opens for writing without O_TRUNC, then truncates: wait and see what comes.
    pid_t pid;
    char process[COMM_MAX + 1];
    result = caller_may_download(&pid, process) ? 0 : -EACCES;
    handle->deferred = true;
  } else if (result == 1) {
    pid_t pid;
    char process[COMM_MAX + 1];
    result = caller_may_download(&pid, process)
                 ? hydrate_start(path, fd, pid, process, &handle->hydration)
                 : -EACCES;
  } else if (result == 0 && truncate && ftruncate(fd, 0) != 0) {
    result = -errno;
  }
  if (result != 0) {
    close(fd);
    free(handle);
    return result;
  }
  handle->fd = fd;
  fi->fh = (uint64_t)(uintptr_t)handle;
  return 0;
}

static int op_open(const char *path, struct fuse_file_info *fi) { return open_file(path, fi->flags, 0, fi); }

static int op_create(const char *path, mode_t mode, struct fuse_file_info *fi) {
  return open_file(path, fi->flags | O_CREAT, mode, fi);
}

static int op_read(const char *path, char *buffer, size_t size, off_t offset, struct fuse_file_info *fi) {
  (void)path;
  Handle *handle = HANDLE(fi);
  if (handle->hydration != NULL) {
    int result = wait_for_bytes(handle->hydration, (uint64_t)offset + size);
    if (result != 0) return result;
  }
  size_t done = 0;
  while (done < size) {
    ssize_t n = pread(handle->fd, buffer + done, size - done, offset + (off_t)done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return done > 0 ? (int)done : -errno;
    if (n == 0) break;
    done += (size_t)n;
  }
  return (int)done;
}

static int op_write(const char *path, const char *buffer, size_t size, off_t offset,
                    struct fuse_file_info *fi) {
  (void)path;
  Handle *handle = HANDLE(fi);
  if (handle->hydration != NULL) {
    int result = wait_for_bytes(handle->hydration, UINT64_MAX);
    if (result != 0) return result;
  }
  if (handle->deferred) {
    // Joins or starts the file's hydration: a write lands on the whole content, never on zeros.
    int result = hydrate_whole(path, handle->fd);
    if (result != 0) return result;
    handle->deferred = false;
  }
  ssize_t n = pwrite(handle->fd, buffer, size, offset);
  return n < 0 ? -errno : (int)n;
}

static int op_statfs(const char *path, struct statvfs *st) {
  (void)path;
  return statvfs(source, st) == 0 ? 0 : -errno;
}

static int op_flush(const char *path, struct fuse_file_info *fi) {
  (void)path;
  // close() of a duplicate reports the errors a close of the file would (NFS, quota), as libfuse's example.
  int fd = dup(HANDLE(fi)->fd);
  if (fd < 0) return -errno;
  return close(fd) == 0 ? 0 : -errno;
}

static int op_release(const char *path, struct fuse_file_info *fi) {
  (void)path;
  Handle *handle = HANDLE(fi);
  close(handle->fd);
  if (handle->hydration != NULL) release_hydration(handle->hydration);
  free(handle);
  return 0;
}

static int op_fsync(const char *path, int data_only, struct fuse_file_info *fi) {
  (void)path;
  int fd = HANDLE(fi)->fd;
  return (data_only ? fdatasync(fd) : fsync(fd)) == 0 ? 0 : -errno;
}

// The client's own attributes (user.mch.*) are not there for other programs, and not theirs to change.
static int op_setxattr(const char *path, const char *name, const char *value, size_t size, int flags) {
  CACHE_PATH(p, path);
  if (own_attribute(name)) return -EPERM;
  return lsetxattr(p, name, value, size, flags) == 0 ? 0 : -errno;
}

static int op_getxattr(const char *path, const char *name, char *value, size_t size) {
  CACHE_PATH(p, path);
  if (own_attribute(name)) return -ENODATA;
  ssize_t n = lgetxattr(p, name, value, size);
  return n < 0 ? -errno : (int)n;
}

static int op_listxattr(const char *path, char *list, size_t size) {
  CACHE_PATH(p, path);
  ssize_t n = llistxattr(p, NULL, 0);
  if (n <= 0) return n < 0 ? -errno : 0;
  char *all = malloc((size_t)n);
  if (all == NULL) return -ENOMEM;
  n = llistxattr(p, all, (size_t)n);
  if (n < 0) {
    free(all);
    return errno == ERANGE ? -EAGAIN : -errno;
  }
  size_t kept = 0;
  for (char *name = all; name < all + n; name += strlen(name) + 1) {
    size_t length = strlen(name) + 1;
    if (own_attribute(name)) continue;
    if (size > 0 && kept + length > size) {
      free(all);
      return -ERANGE;
    }
    if (size > 0) memcpy(list + kept, name, length);
    kept += length;
  }
  free(all);
  return (int)kept;
}

static int op_removexattr(const char *path, const char *name) {
  CACHE_PATH(p, path);
  if (own_attribute(name)) return -EPERM;
  return lremovexattr(p, name) == 0 ? 0 : -errno;
}

static int op_opendir(const char *path, struct fuse_file_info *fi) {
  CACHE_PATH(p, path);
  int fd = open(p, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return -errno;
  DIR *dir = fdopendir(fd);
  if (dir == NULL) {
    int error = errno;
    close(fd);
    return -error;
  }
  fi->fh = (uint64_t)(uintptr_t)dir;
  return 0;
}

static int op_readdir(const char *path, void *buffer, fuse_fill_dir_t fill, off_t offset,
                      struct fuse_file_info *fi) {
  (void)path;
  (void)offset; // offsets of 0: libfuse takes the whole listing in one call
  DIR *dir = (DIR *)(uintptr_t)fi->fh;
  rewinddir(dir);
  struct dirent *entry;
  errno = 0;
  while ((entry = readdir(dir)) != NULL) {
    struct stat st;
    memset(&st, 0, sizeof st);
    st.st_ino = entry->d_ino;
    st.st_mode = (mode_t)DTTOIF(entry->d_type);
    if (fill(buffer, entry->d_name, &st, 0) != 0) break;
  }
  return errno != 0 ? -errno : 0;
}

static int op_releasedir(const char *path, struct fuse_file_info *fi) {
  (void)path;
  closedir((DIR *)(uintptr_t)fi->fh);
  return 0;
}

static int op_access(const char *path, int mask) {
  CACHE_PATH(p, path);
  return access(p, mask) == 0 ? 0 : -errno;
}

static void *op_init(struct fuse_conn_info *conn) {
  // O_TRUNC must reach open (else the kernel opens for writing, which hydrates, then truncates).
  conn->want |= FUSE_CAP_ATOMIC_O_TRUNC;
  return NULL;
}

static const struct fuse_operations operations = {
    .getattr = op_getattr,
    .readlink = op_readlink,
    .mknod = op_mknod,
    .mkdir = op_mkdir,
    .unlink = op_unlink,
    .rmdir = op_rmdir,
    .symlink = op_symlink,
    .rename = op_rename,
    .link = op_link,
    .chmod = op_chmod,
    .chown = op_chown,
    .truncate = op_truncate,
    .open = op_open,
    .read = op_read,
    .write = op_write,
    .statfs = op_statfs,
    .flush = op_flush,
    .release = op_release,
    .fsync = op_fsync,
    .setxattr = op_setxattr,
    .getxattr = op_getxattr,
    .listxattr = op_listxattr,
    .removexattr = op_removexattr,
    .opendir = op_opendir,
    .readdir = op_readdir,
    .releasedir = op_releasedir,
    .init = op_init,
    .access = op_access,
    .create = op_create,
    .ftruncate = op_ftruncate,
    .fgetattr = op_fgetattr,
    .utimens = op_utimens,
    // hard_remove: an unlinked open file is gone from the cache folder at once (no .fuse_hidden file
    // the engine would sync); the operations on its handle then get no path and use the descriptor.
    .flag_nullpath_ok = 1,
};

// ---- Mounting and the JavaScript side -------------------------------------------------------------

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
#define SYMBOL(field, name, version)                            \
  *(void **)&api.field = dlvsym(handle, name, version);         \
  if (api.field == NULL) *(void **)&api.field = dlsym(handle, name); \
  if (api.field == NULL) goto incomplete
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
    pthread_mutex_lock(&lock);
    for (Hydration *h = active; h != NULL; h = h->next) {
      if (h->req == call->req) {
        settle(h, FAILED, EIO);
        break;
      }
    }
    pthread_mutex_unlock(&lock);
  }
  free(call->path);
  free(call);
}

static void *run_loop(void *unused) {
  (void)unused;
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, NULL); // signals are Node's, on its own thread
  api.loop_mt(fuse);
  return NULL;
}

// mount({source, mountPoint, options, noDownload, onHydrate}): mounts and returns once the loop runs.
static napi_value mount_js(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1], list, callback, name;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  if (mounted) return throw_coded(env, "MOUNT_FAILED", "this process already serves a mount"), NULL;
  const char *missing = fuse_missing();
  if (missing != NULL) return throw_coded(env, "FUSE_UNAVAILABLE", missing), NULL;
  char *options = string_property(env, argv[0], "options");
  source = string_property(env, argv[0], "source");
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
  napi_get_named_property(env, argv[0], "onHydrate", &callback);
  napi_create_string_utf8(env, "mch-hydrate", NAPI_AUTO_LENGTH, &name);
  if (options == NULL || source == NULL || mount_point == NULL || no_download == NULL ||
      napi_create_threadsafe_function(env, callback, NULL, name, 0, 1, NULL, NULL, NULL, call_hydrate,
                                      &on_hydrate) != napi_ok) {
    free(options);
    return throw_coded(env, "MOUNT_FAILED", "mount() needs source, mountPoint, options, noDownload, onHydrate"), NULL;
  }
  struct fuse_args args = {0, NULL, 0};
  api.opt_add_arg(&args, "mch-sync");
  api.opt_add_arg(&args, "-o");
  api.opt_add_arg(&args, options);
  free(options);
  chan = api.mount(mount_point, &args);
  if (chan == NULL) {
    api.opt_free_args(&args);
    napi_release_threadsafe_function(on_hydrate, napi_tsfn_abort);
    return throw_coded(env, "MOUNT_FAILED", "libfuse could not mount the folder (its reason is on stderr)"), NULL;
  }
  fuse = api.new_fuse(chan, &args, &operations, sizeof operations, NULL);
  api.opt_free_args(&args);
  if (fuse == NULL || pthread_create(&loop_thread, NULL, run_loop, NULL) != 0) {
    api.unmount(mount_point, chan);
    if (fuse != NULL) api.destroy(fuse);
    napi_release_threadsafe_function(on_hydrate, napi_tsfn_abort);
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
  pthread_mutex_lock(&lock);
  stopping = true;
  while (active != NULL) settle(active, FAILED, EIO);
  pthread_mutex_unlock(&lock);
  api.exit_loop(fuse);
  detach();
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += 2;
  bool ended = pthread_timedjoin_np(loop_thread, NULL, &until) == 0;
  if (ended) api.destroy(fuse); // also closes /dev/fuse
  napi_release_threadsafe_function(on_hydrate, napi_tsfn_abort);
  mounted = false;
  return napi_get_boolean(env, ended, &result), result;
}

// hydrationStarted(req, size) / Progress(req, bytes) / Done(req) / Failed(req, errno): the service's answers.
static napi_value answer(napi_env env, napi_callback_info info, int state) {
  size_t argc = 2;
  napi_value argv[2];
  uint32_t req = 0;
  int64_t number = 0;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  napi_get_value_uint32(env, argv[0], &req);
  if (argc > 1) napi_get_value_int64(env, argv[1], &number);
  pthread_mutex_lock(&lock);
  for (Hydration *h = active; h != NULL; h = h->next) {
    if (h->req != req) continue;
    if (state == STARTED) {
      h->state = STARTED;
      h->size = (uint64_t)number;
      pthread_cond_broadcast(&changed);
    } else if (state == REQUESTED) { // progress
      if (h->state == REQUESTED) h->state = STARTED;
      if ((uint64_t)number > h->bytes) h->bytes = (uint64_t)number;
      pthread_cond_broadcast(&changed);
    } else {
      settle(h, state, state == FAILED ? (int)(number > 0 ? number : EIO) : 0);
    }
    break;
  }
  pthread_mutex_unlock(&lock);
  return NULL;
}

static napi_value started_js(napi_env env, napi_callback_info info) { return answer(env, info, STARTED); }
static napi_value progress_js(napi_env env, napi_callback_info info) { return answer(env, info, REQUESTED); }
static napi_value done_js(napi_env env, napi_callback_info info) { return answer(env, info, DONE); }
static napi_value failed_js(napi_env env, napi_callback_info info) { return answer(env, info, FAILED); }

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
