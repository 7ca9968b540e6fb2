// Our own declarations of the part of libfuse 2.9's high-level API (FUSE_USE_VERSION 26) the mount uses.
//
// libfuse2 is opened at run time (dlopen "libfuse.so.2") so that building needs no libfuse headers:
// users have the library (package libfuse2), rarely libfuse-dev. The layouts below are copied from
// libfuse 2.9's fuse.h, fuse_common.h and fuse_opt.h and must stay byte for byte the same:
// fuse2-api-check.c compares them with the real header, by hand (see app/native/README.md).
#ifndef MCH_FUSE2_API_H
#define MCH_FUSE2_API_H

#include <fcntl.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <time.h>
#include <utime.h>

#if !defined(_FILE_OFFSET_BITS) || _FILE_OFFSET_BITS != 64
#if !defined(__LP64__)
#error "libfuse2's interface uses a 64-bit off_t: build with -D_FILE_OFFSET_BITS=64"
#endif
#endif

struct fuse;
struct fuse_chan;
struct fuse_session;
struct fuse_pollhandle;
struct fuse_bufvec;
struct fuse_dirhandle;

// fuse_opt.h
struct fuse_args {
  int argc;
  char **argv;
  int allocated;
};

// fuse_common.h
struct fuse_file_info {
  int flags;
  unsigned long fh_old;
  int writepage;
  unsigned int direct_io : 1;
  unsigned int keep_cache : 1;
  unsigned int flush : 1;
  unsigned int nonseekable : 1;
  unsigned int flock_release : 1;
  unsigned int padding : 27;
  uint64_t fh;
  uint64_t lock_owner;
};

struct fuse_conn_info {
  unsigned proto_major;
  unsigned proto_minor;
  unsigned async_read;
  unsigned max_write;
  unsigned max_readahead;
  unsigned capable;
  unsigned want;
  unsigned max_background;
  unsigned congestion_threshold;
  unsigned reserved[23];
};

#define FUSE_CAP_ATOMIC_O_TRUNC (1 << 3)
#define FUSE_CAP_BIG_WRITES (1 << 5)

// fuse.h
typedef int (*fuse_fill_dir_t)(void *buf, const char *name, const struct stat *stbuf, off_t off);
typedef struct fuse_dirhandle *fuse_dirh_t;
typedef int (*fuse_dirfil_t)(fuse_dirh_t h, const char *name, int type, ino_t ino);

struct fuse_operations {
  int (*getattr)(const char *, struct stat *);
  int (*readlink)(const char *, char *, size_t);
  int (*getdir)(const char *, fuse_dirh_t, fuse_dirfil_t);
  int (*mknod)(const char *, mode_t, dev_t);
  int (*mkdir)(const char *, mode_t);
  int (*unlink)(const char *);
  int (*rmdir)(const char *);
  int (*symlink)(const char *, const char *);
  int (*rename)(const char *, const char *);
  int (*link)(const char *, const char *);
  int (*chmod)(const char *, mode_t);
  int (*chown)(const char *, uid_t, gid_t);
  int (*truncate)(const char *, off_t);
  int (*utime)(const char *, struct utimbuf *);
  int (*open)(const char *, struct fuse_file_info *);
  int (*read)(const char *, char *, size_t, off_t, struct fuse_file_info *);
  int (*write)(const char *, const char *, size_t, off_t, struct fuse_file_info *);
  int (*statfs)(const char *, struct statvfs *);
  int (*flush)(const char *, struct fuse_file_info *);
  int (*release)(const char *, struct fuse_file_info *);
  int (*fsync)(const char *, int, struct fuse_file_info *);
  int (*setxattr)(const char *, const char *, const char *, size_t, int);
  int (*getxattr)(const char *, const char *, char *, size_t);
  int (*listxattr)(const char *, char *, size_t);
  int (*removexattr)(const char *, const char *);
  int (*opendir)(const char *, struct fuse_file_info *);
  int (*readdir)(const char *, void *, fuse_fill_dir_t, off_t, struct fuse_file_info *);
  int (*releasedir)(const char *, struct fuse_file_info *);
  int (*fsyncdir)(const char *, int, struct fuse_file_info *);
  void *(*init)(struct fuse_conn_info *conn);
  void (*destroy)(void *);
  int (*access)(const char *, int);
  int (*create)(const char *, mode_t, struct fuse_file_info *);
  int (*ftruncate)(const char *, off_t, struct fuse_file_info *);
  int (*fgetattr)(const char *, struct stat *, struct fuse_file_info *);
  int (*lock)(const char *, struct fuse_file_info *, int cmd, struct flock *);
  int (*utimens)(const char *, const struct timespec tv[2]);
  int (*bmap)(const char *, size_t blocksize, uint64_t *idx);
  unsigned int flag_nullpath_ok : 1;
  unsigned int flag_nopath : 1;
  unsigned int flag_utime_omit_ok : 1;
  unsigned int flag_reserved : 29;
  int (*ioctl)(const char *, int cmd, void *arg, struct fuse_file_info *, unsigned int flags, void *data);
  int (*poll)(const char *, struct fuse_file_info *, struct fuse_pollhandle *ph, unsigned *reventsp);
  int (*write_buf)(const char *, struct fuse_bufvec *buf, off_t off, struct fuse_file_info *);
  int (*read_buf)(const char *, struct fuse_bufvec **bufp, size_t size, off_t off, struct fuse_file_info *);
  int (*flock)(const char *, struct fuse_file_info *, int op);
  int (*fallocate)(const char *, int, off_t, off_t, struct fuse_file_info *);
};

struct fuse_context {
  struct fuse *fuse;
  uid_t uid;
  gid_t gid;
  pid_t pid;
  void *private_data;
  mode_t umask;
};

// The functions the mount calls, as pointers filled by dlsym; the symbol versions are libfuse 2.9's
// defaults for FUSE_USE_VERSION 26 (fuse_mount@@FUSE_2.6, fuse_new@@FUSE_2.6...).
typedef struct {
  struct fuse_chan *(*mount)(const char *mountpoint, struct fuse_args *args);
  void (*unmount)(const char *mountpoint, struct fuse_chan *ch);
  struct fuse *(*new_fuse)(struct fuse_chan *ch, struct fuse_args *args, const struct fuse_operations *op,
                           size_t op_size, void *user_data);
  void (*destroy)(struct fuse *f);
  int (*loop_mt)(struct fuse *f);
  void (*exit_loop)(struct fuse *f);
  struct fuse_context *(*get_context)(void);
  int (*opt_add_arg)(struct fuse_args *args, const char *arg);
  void (*opt_free_args)(struct fuse_args *args);
} Fuse2Api;

#endif
