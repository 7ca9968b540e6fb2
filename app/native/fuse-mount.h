// What the files of the on-demand mount (fuse-*.c, the addon mch_fuse) share: its state and their calls.
//
// fuse-addon.c is the N-API side (mount, unmount, the service's answers, free); fuse-passthrough.c and
// fuse-files.c are libfuse's operations; fuse-hydration.c keeps the per-inode state every operation
// that changes a file's content goes through (open handles, hydrations, frees), under one lock;
// fuse-free.c makes a file a placeholder again; fuse-caller.c tells who is asking. The rules are
// app/mount/README.md's. Nothing here ever touches the mount point's contents: a synchronous access
// from the serving process would deadlock.
#ifndef MCH_FUSE_MOUNT_H
#define MCH_FUSE_MOUNT_H

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "fuse2-api.h"

#define PLACEHOLDER_XATTR "user.mch.placeholder" // app/mount/hydration-protocol.ts
#define PLACEHOLDER_MARK "1"
#define STATE_FOLDER ".mch-sync" // the engine's folder marker and trash, at the cache folder's root
#define COMM_MAX 15              // /proc/<pid>/comm keeps the first 15 bytes of a name

enum { REQUESTED, STARTED, DONE, FAILED };

// One hydration, shared by every handle that opened the file (same dev and inode) while it runs.
typedef struct Hydration {
  dev_t dev;
  ino_t ino;
  uint32_t req;
  int state;
  uint64_t size, bytes;
  int error;      // errno when FAILED
  int refs;       // the active list's and each waiting or open handle's
  uint64_t heard; // CLOCK_MONOTONIC ns of the request or of the service's last word on it
  struct Hydration *next;
} Hydration;

// A file open through the mount.
typedef struct {
  int fd;
  dev_t dev; // the inode it counts as open (fuse-hydration.c's inode_enter)
  ino_t ino;
  Hydration *hydration; // non-NULL while the file this handle reads was hydrating at open
  bool deferred;        // a placeholder opened write-only: hydrated at its first write or truncate > 0
} Handle;

// ---- fuse-addon.c: the mount and the way to JavaScript
extern Fuse2Api fuse_api;
extern char *cache_root; // the cache folder, without a trailing slash
// Asks JavaScript (on its thread) for a hydration; false when it cannot be asked any more.
bool ask_hydration(uint32_t req, const char *path, pid_t pid, const char *process);

// ---- fuse-caller.c
extern char **no_download;
extern size_t no_download_count;
bool name_matches(const char *name, const char *pattern);
// The caller's process id and name; false when the caller (its program or its thread) may not download.
bool caller_may_download(pid_t *pid, char *process);

// ---- fuse-hydration.c
extern bool stopping;               // set by unmount: no new hydration is asked for
extern uint64_t answer_timeout_ns;  // silence of the service after which waiting opens and reads get EIO
void hydration_state_init(void);
int placeholder_fd(int fd);
// Counts an inode as open through the mount (waiting while it is being freed); -errno on failure.
int inode_enter(dev_t dev, ino_t ino);
void inode_leave(dev_t dev, ino_t ino);
// A free of the inode may begin (-EBUSY: open through the mount, hydrating, or being freed already).
int inode_begin_free(dev_t dev, ino_t ino);
void inode_end_free(dev_t dev, ino_t ino);
int hydrate_start(const char *path, int fd, pid_t pid, const char *process, Hydration **out);
int wait_for_bytes(Hydration *h, uint64_t end);
void release_hydration(Hydration *h);
int hydrate_whole(const char *path, int fd);
int empty_placeholder(int fd);
int truncate_fd(const char *path, int fd, off_t size);
// The service's answer to request `req` (state REQUESTED means progress); `number` is size, bytes or errno.
void hydration_answer(uint32_t req, int state, int64_t number);
void fail_all_hydrations(void);

// ---- fuse-free.c
// Makes the cache folder's file at `relative` a placeholder again; 0 or -EBUSY, -ESTALE, -ENOENT, -EIO
// with a sentence in `message`.
int free_file(const char *relative, uint64_t size, int64_t mtime_ns, char *message, size_t message_size);

// ---- fuse-passthrough.c and fuse-files.c
extern const struct fuse_operations mount_operations;
bool hidden_path(const char *path);

// The cache folder's path for a path of the mount; every operation stays inside the cache folder, and
// the engine's state folder at its root is not there (ENOENT; EPERM to make something by its name).
#define CACHE_PATH_OR(name, path, hidden_errno)                                               \
  char name[PATH_MAX];                                                                        \
  if (hidden_path(path)) return -(hidden_errno);                                              \
  if (snprintf(name, sizeof name, "%s%s", cache_root, path) >= (int)sizeof name) return -ENAMETOOLONG
#define CACHE_PATH(name, path) CACHE_PATH_OR(name, path, ENOENT)
#define NEW_CACHE_PATH(name, path) CACHE_PATH_OR(name, path, EPERM)

#define HANDLE(fi) ((Handle *)(uintptr_t)(fi)->fh)

int op_fgetattr(const char *path, struct stat *st, struct fuse_file_info *fi);
int op_truncate(const char *path, off_t size);
int op_ftruncate(const char *path, off_t size, struct fuse_file_info *fi);
int op_utimens(const char *path, const struct timespec times[2]);
int op_open(const char *path, struct fuse_file_info *fi);
int op_create(const char *path, mode_t mode, struct fuse_file_info *fi);
int op_read(const char *path, char *buffer, size_t size, off_t offset, struct fuse_file_info *fi);
int op_write(const char *path, const char *buffer, size_t size, off_t offset, struct fuse_file_info *fi);
int op_flush(const char *path, struct fuse_file_info *fi);
int op_release(const char *path, struct fuse_file_info *fi);
int op_fsync(const char *path, int data_only, struct fuse_file_info *fi);

#endif
