// libfuse's operations on names, folders and attributes: passed through to the cache folder as they
// are, never following a symlink out of it, with two things kept from other programs: the client's own
// attributes (user.mch.*) and the engine's state folder at the root (STATE_FOLDER). The operations on
// content are fuse-files.c's; the table of all of them is here.
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "fuse-mount.h"

// A folder open through the mount; the root's listing leaves out the state folder.
typedef struct {
  DIR *dir;
  bool root;
} Folder;

// The engine's folder marker and fallback trash: through the mount, a user could delete the marker (and
// the engine would take the folder for one that is gone) or fill the trash. So it is not there.
bool hidden_path(const char *path) {
  static const char prefix[] = "/" STATE_FOLDER;
  size_t length = sizeof prefix - 1;
  return path != NULL && strncmp(path, prefix, length) == 0 && (path[length] == '\0' || path[length] == '/');
}

static int op_getattr(const char *path, struct stat *st) {
  CACHE_PATH(p, path);
  return lstat(p, st) == 0 ? 0 : -errno;
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
  NEW_CACHE_PATH(p, path);
  return mknod(p, mode, rdev) == 0 ? 0 : -errno;
}

static int op_mkdir(const char *path, mode_t mode) {
  NEW_CACHE_PATH(p, path);
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
  NEW_CACHE_PATH(p, path);
  return symlink(target, p) == 0 ? 0 : -errno;
}

static int op_rename(const char *from, const char *to) {
  CACHE_PATH(p, from);
  NEW_CACHE_PATH(q, to);
  return rename(p, q) == 0 ? 0 : -errno;
}

static int op_link(const char *from, const char *to) {
  CACHE_PATH(p, from);
  NEW_CACHE_PATH(q, to);
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

static int op_statfs(const char *path, struct statvfs *st) {
  (void)path;
  return statvfs(cache_root, st) == 0 ? 0 : -errno;
}

// No extended attributes through the mount: the device keeps none, the client's own (user.mch.*) are
// not for other programs, and leaving the four calls out (ENOSYS) makes the kernel stop asking. Answered,
// `ls -l` asks twice per file (security.selinux, system.posix_acl_access) and the kernel caches no
// "none": two round trips of three per entry (docs/benchmarks.md, files on demand).

static int op_opendir(const char *path, struct fuse_file_info *fi) {
  CACHE_PATH(p, path);
  Folder *folder = calloc(1, sizeof *folder);
  if (folder == NULL) return -ENOMEM;
  int fd = open(p, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0 || (folder->dir = fdopendir(fd)) == NULL) {
    int error = errno;
    if (fd >= 0) close(fd);
    free(folder);
    return -error;
  }
  folder->root = strcmp(path, "/") == 0;
  fi->fh = (uint64_t)(uintptr_t)folder;
  return 0;
}

static int op_readdir(const char *path, void *buffer, fuse_fill_dir_t fill, off_t offset,
                      struct fuse_file_info *fi) {
  (void)path;
  (void)offset; // offsets of 0: libfuse takes the whole listing in one call
  Folder *folder = (Folder *)(uintptr_t)fi->fh;
  rewinddir(folder->dir);
  struct dirent *entry;
  errno = 0;
  while ((entry = readdir(folder->dir)) != NULL) {
    if (folder->root && strcmp(entry->d_name, STATE_FOLDER) == 0) continue;
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
  Folder *folder = (Folder *)(uintptr_t)fi->fh;
  closedir(folder->dir);
  free(folder);
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

const struct fuse_operations mount_operations = {
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
