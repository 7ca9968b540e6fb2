// Who is asking the mount: the calling process and thread, and whether either is on the no-download list.
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuse-mount.h"

char **no_download;
size_t no_download_count;

// The pattern syntax and the 15-byte cut are app/mount/no-download.ts's; both must agree.
bool name_matches(const char *name, const char *pattern) {
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

bool caller_may_download(pid_t *pid, char *process) {
  pid_t tid = fuse_api.get_context()->pid;
  char thread_name[COMM_MAX + 1];
  *pid = tid > 0 ? thread_group(tid) : 0;
  read_comm(*pid, process);
  if (tid > 0 && tid != *pid) {
    read_comm(tid, thread_name);
    if (on_no_download_list(thread_name)) return false;
  }
  return !on_no_download_list(process);
}
