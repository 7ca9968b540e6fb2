// Freeing: the service asks the mount to make a whole file a placeholder again, in place (its inode,
// size and mtime kept, so the index needs no change). The rules are hydration-protocol.ts's FreeRequest.
//
// Only the mount knows whether a program has the file open, and only it can hold back an open while the
// file is emptied: fuse-hydration.c refuses the free while the inode is open through the mount or
// hydrating, and makes an open arriving meanwhile wait, then find a placeholder (and hydrate it again).
#define _GNU_SOURCE
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "fuse-mount.h"

static int64_t mtime_of(const struct stat *st) {
  return (int64_t)st->st_mtim.tv_sec * 1000000000LL + st->st_mtim.tv_nsec;
}

static int refuse(int error, char *message, size_t message_size, const char *what, int cause) {
  if (cause != 0) {
    snprintf(message, message_size, "%s: %s", what, strerror(cause));
  } else {
    snprintf(message, message_size, "%s", what);
  }
  return -error;
}

// With the inode marked as being freed: the checks on what is there, then the mark, the emptying and
// the mtime. The mark comes first: a crash after it leaves a placeholder with its content (which a
// hydration writes over), never an emptied file taken for content.
static int free_inode(const char *path, const struct stat *st, uint64_t size, int64_t mtime_ns,
                      char *message, size_t message_size) {
  if (lgetxattr(path, PLACEHOLDER_XATTR, NULL, 0) >= 0) return 0;
  if (errno != ENODATA) return refuse(EIO, message, message_size, "reading its mark failed", errno);
  if ((uint64_t)st->st_size != size || mtime_of(st) != mtime_ns) {
    return refuse(ESTALE, message, message_size, "it changed since the index saw it", 0);
  }
  int fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    int error = errno;
    if (error == ENOENT || error == ELOOP) {
      return refuse(ENOENT, message, message_size, "it is no longer a file", 0);
    }
    return refuse(EIO, message, message_size, "opening it failed", error);
  }
  struct stat now;
  const char *failed = NULL;
  int error = 0;
  if (fstat(fd, &now) != 0) {
    failed = "reading its size failed";
  } else if (now.st_dev != st->st_dev || now.st_ino != st->st_ino || now.st_size != st->st_size ||
             mtime_of(&now) != mtime_ns) {
    close(fd);
    return refuse(ESTALE, message, message_size, "it changed while being freed", 0);
  } else if (fsetxattr(fd, PLACEHOLDER_XATTR, PLACEHOLDER_MARK, strlen(PLACEHOLDER_MARK), 0) != 0) {
    failed = "setting its mark failed";
  } else if (ftruncate(fd, 0) != 0 || ftruncate(fd, (off_t)size) != 0) {
    failed = "emptying it failed";
  } else {
    int64_t seconds = mtime_ns / 1000000000LL, nanoseconds = mtime_ns % 1000000000LL;
    if (nanoseconds < 0) {
      nanoseconds += 1000000000LL;
      seconds--;
    }
    const struct timespec times[2] = {{0, UTIME_OMIT}, {(time_t)seconds, (long)nanoseconds}};
    if (futimens(fd, times) != 0) failed = "putting back its mtime failed";
  }
  error = errno;
  if (close(fd) != 0 && failed == NULL) {
    failed = "closing it failed";
    error = errno;
  }
  return failed == NULL ? 0 : refuse(EIO, message, message_size, failed, error);
}

int free_file(const char *relative, uint64_t size, int64_t mtime_ns, char *message, size_t message_size) {
  char path[PATH_MAX];
  message[0] = '\0';
  if (cache_root == NULL) return refuse(EIO, message, message_size, "nothing is mounted", 0);
  if (snprintf(path, sizeof path, "%s/%s", cache_root, relative) >= (int)sizeof path) {
    return refuse(ENOENT, message, message_size, "the path is too long", 0);
  }
  struct stat st;
  if (lstat(path, &st) != 0) {
    int error = errno;
    if (error == ENOENT || error == ENOTDIR) return refuse(ENOENT, message, message_size, "no file there", 0);
    return refuse(EIO, message, message_size, "reading it failed", error);
  }
  if (!S_ISREG(st.st_mode)) return refuse(ENOENT, message, message_size, "not a regular file", 0);
  int result = inode_begin_free(st.st_dev, st.st_ino);
  if (result == -EBUSY) {
    return refuse(EBUSY, message, message_size, "a program has it open through the mount, or it is being filled", 0);
  }
  if (result != 0) return refuse(EIO, message, message_size, "out of memory", 0);
  result = free_inode(path, &st, size, mtime_ns, message, message_size);
  inode_end_free(st.st_dev, st.st_ino);
  return result;
}
