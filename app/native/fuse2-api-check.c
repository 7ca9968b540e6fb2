// By hand, not built: holds fuse2-api.h to libfuse 2.9's real headers (sizes and field offsets).
//
//   apt-get download libfuse-dev && dpkg-deb -x libfuse-dev_*.deb /tmp/fuse-dev
//   cc -D_FILE_OFFSET_BITS=64 -I/tmp/fuse-dev/usr/include/fuse fuse2-api-check.c -o /tmp/real
//   cc -D_FILE_OFFSET_BITS=64 -DUSE_OURS fuse2-api-check.c -o /tmp/ours
//   diff <(/tmp/real) <(/tmp/ours) && echo same
#include <stddef.h>
#include <stdio.h>
#ifdef USE_OURS
#include "fuse2-api.h"
#else
#define FUSE_USE_VERSION 26
#include <fuse.h>
#endif

#define SIZE(type) printf("sizeof %s %zu\n", #type, sizeof(struct type))
#define FIELD(type, field) printf("%s.%s %zu\n", #type, #field, offsetof(struct type, field))

int main(void) {
  SIZE(fuse_args);
  FIELD(fuse_args, argc);
  FIELD(fuse_args, argv);
  FIELD(fuse_args, allocated);
  SIZE(fuse_file_info);
  FIELD(fuse_file_info, flags);
  FIELD(fuse_file_info, fh_old);
  FIELD(fuse_file_info, writepage);
  FIELD(fuse_file_info, fh);
  FIELD(fuse_file_info, lock_owner);
  SIZE(fuse_conn_info);
  FIELD(fuse_conn_info, capable);
  FIELD(fuse_conn_info, want);
  SIZE(fuse_context);
  FIELD(fuse_context, uid);
  FIELD(fuse_context, pid);
  FIELD(fuse_context, private_data);
  FIELD(fuse_context, umask);
  SIZE(fuse_operations);
  FIELD(fuse_operations, getattr);
  FIELD(fuse_operations, truncate);
  FIELD(fuse_operations, open);
  FIELD(fuse_operations, read);
  FIELD(fuse_operations, release);
  FIELD(fuse_operations, setxattr);
  FIELD(fuse_operations, removexattr);
  FIELD(fuse_operations, readdir);
  FIELD(fuse_operations, init);
  FIELD(fuse_operations, access);
  FIELD(fuse_operations, create);
  FIELD(fuse_operations, ftruncate);
  FIELD(fuse_operations, fgetattr);
  FIELD(fuse_operations, utimens);
  FIELD(fuse_operations, bmap);
  FIELD(fuse_operations, ioctl);
  FIELD(fuse_operations, fallocate);
  // The flags are bits of one word after bmap: set one and find the word it lands in.
  struct fuse_operations ops = {0};
  ops.flag_nullpath_ok = 1;
  unsigned char *bytes = (unsigned char *)&ops;
  for (size_t i = 0; i < sizeof ops; i++) {
    if (bytes[i] != 0) printf("flag_nullpath_ok byte %zu value %u\n", i, bytes[i]);
  }
  struct fuse_file_info info = {0};
  info.keep_cache = 1;
  bytes = (unsigned char *)&info;
  for (size_t i = 0; i < sizeof info; i++) {
    if (bytes[i] != 0) printf("keep_cache byte %zu value %u\n", i, bytes[i]);
  }
  printf("FUSE_CAP_ATOMIC_O_TRUNC %d\n", FUSE_CAP_ATOMIC_O_TRUNC);
  return 0;
}
