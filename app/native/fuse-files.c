// libfuse's operations on a file's content: open (hydrating a placeholder), read, write, truncate,
// utimens, release. Each descriptor they hold on a cache folder file counts its inode as open
// (inode_enter), so that a free waits for none of them and none sees a file half freed.
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "fuse-mount.h"

// Counts the inode of `fd` as open; -errno when it cannot.
static int enter_fd(int fd, dev_t *dev, ino_t *ino) {
  struct stat st;
  if (fstat(fd, &st) != 0) return -errno;
  *dev = st.st_dev;
  *ino = st.st_ino;
  return inode_enter(st.st_dev, st.st_ino);
}

int op_fgetattr(const char *path, struct stat *st, struct fuse_file_info *fi) {
  (void)path;
  return fstat(HANDLE(fi)->fd, st) == 0 ? 0 : -errno;
}

int op_truncate(const char *path, off_t size) {
  CACHE_PATH(p, path);
  int fd = open(p, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return -errno;
  dev_t dev = 0;
  ino_t ino = 0;
  int result = enter_fd(fd, &dev, &ino);
  if (result == 0) {
    result = truncate_fd(path, fd, size);
    inode_leave(dev, ino);
  }
  close(fd);
  return result;
}

int op_ftruncate(const char *path, off_t size, struct fuse_file_info *fi) {
  Handle *handle = HANDLE(fi);
  if (handle->hydration != NULL) {
    int result = wait_for_bytes(handle->hydration, UINT64_MAX);
    if (result != 0) return result;
  }
  handle->deferred = false;
  return truncate_fd(path, handle->fd, size);
}

int op_utimens(const char *path, const struct timespec times[2]) {
  CACHE_PATH(p, path);
  struct stat st;
  if (lstat(p, &st) != 0) return -errno;
  if (!S_ISREG(st.st_mode)) return utimensat(AT_FDCWD, p, times, AT_SYMLINK_NOFOLLOW) == 0 ? 0 : -errno;
  // A file's times are part of what a free checks: counted as open while they change.
  int result = inode_enter(st.st_dev, st.st_ino);
  if (result != 0) return result;
  if (lgetxattr(p, PLACEHOLDER_XATTR, NULL, 0) >= 0) {
    int fd = open(p, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    result = fd < 0 ? -errno : hydrate_whole(path, fd);
    if (fd >= 0) close(fd);
  }
  if (result == 0 && utimensat(AT_FDCWD, p, times, AT_SYMLINK_NOFOLLOW) != 0) result = -errno;
  inode_leave(st.st_dev, st.st_ino);
  return result;
}

// Opens (or creates) the cache folder's file. A placeholder opened to be emptied (O_TRUNC) is emptied
// without a download; opened write-only, hydrated at its first write (or truncate above 0); opened to
// read, hydrated now. A caller on the no-download list gets EACCES instead.
static int open_file(const char *path, int flags, mode_t mode, struct fuse_file_info *fi) {
  CACHE_PATH_OR(p, path, (flags & O_CREAT) != 0 ? EPERM : ENOENT);
  bool truncate = (flags & O_TRUNC) != 0 && (flags & O_ACCMODE) != O_RDONLY;
  int fd = open(p, (flags & ~O_TRUNC) | O_NOFOLLOW | O_CLOEXEC, mode);
  if (fd < 0) return -errno;
  Handle *handle = calloc(1, sizeof *handle);
  if (handle == NULL) {
    close(fd);
    return -ENOMEM;
  }
  // Counted before the mark is read: a free that ran meanwhile has been waited for, and shows.
  int result = enter_fd(fd, &handle->dev, &handle->ino);
  if (result != 0) {
    close(fd);
    free(handle);
    return result;
  }
  result = placeholder_fd(fd);
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
    inode_leave(handle->dev, handle->ino);
    close(fd);
    free(handle);
    return result;
  }
  handle->fd = fd;
  fi->fh = (uint64_t)(uintptr_t)handle;
  return 0;
}

int op_open(const char *path, struct fuse_file_info *fi) { return open_file(path, fi->flags, 0, fi); }

int op_create(const char *path, mode_t mode, struct fuse_file_info *fi) {
  return open_file(path, fi->flags | O_CREAT, mode, fi);
}

int op_read(const char *path, char *buffer, size_t size, off_t offset, struct fuse_file_info *fi) {
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

int op_write(const char *path, const char *buffer, size_t size, off_t offset, struct fuse_file_info *fi) {
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

int op_flush(const char *path, struct fuse_file_info *fi) {
  (void)path;
  // close() of a duplicate reports the errors a close of the file would (NFS, quota), as libfuse's example.
  int fd = dup(HANDLE(fi)->fd);
  if (fd < 0) return -errno;
  return close(fd) == 0 ? 0 : -errno;
}

int op_release(const char *path, struct fuse_file_info *fi) {
  (void)path;
  Handle *handle = HANDLE(fi);
  close(handle->fd);
  inode_leave(handle->dev, handle->ino);
  if (handle->hydration != NULL) release_hydration(handle->hydration);
  free(handle);
  return 0;
}

int op_fsync(const char *path, int data_only, struct fuse_file_info *fi) {
  (void)path;
  int fd = HANDLE(fi)->fd;
  return (data_only ? fdatasync(fd) : fsync(fd)) == 0 ? 0 : -errno;
}
