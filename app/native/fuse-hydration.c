// The mount's per-inode state, under one lock: which inodes are open through the mount, which are being
// hydrated (one request per file, joined by every later open) and which are being freed.
//
// JavaScript is asked for a hydration through ask_hydration and answers through hydration_answer; the
// FUSE threads that wait for bytes sleep on one condition variable. A free waits for nothing: it is
// refused while the inode is open or hydrating, and an open arriving meanwhile waits for it to end.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "fuse-mount.h"

// An inode open through the mount (opens > 0) or being freed.
typedef struct OpenInode {
  dev_t dev;
  ino_t ino;
  int opens;
  bool freeing;
  struct OpenInode *next;
} OpenInode;

bool stopping;
uint64_t answer_timeout_ns = 120ull * 1000000000ull; // the service's own stall limit is 15 s
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed;
static Hydration *active;
static OpenInode *inodes;
static uint32_t next_req;

static void init_changed(void) {
  // On the monotonic clock: a change of the wall clock must not end (or stretch) a wait for the service.
  pthread_condattr_t attributes;
  pthread_condattr_init(&attributes);
  pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
  pthread_cond_init(&changed, &attributes);
  pthread_condattr_destroy(&attributes);
}

void hydration_state_init(void) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, init_changed);
}

static uint64_t now_ns(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
}

int placeholder_fd(int fd) {
  if (fgetxattr(fd, PLACEHOLDER_XATTR, NULL, 0) >= 0) return 1;
  return errno == ENODATA || errno == ENOTSUP ? 0 : -errno;
}

// ---- Open inodes and frees ------------------------------------------------------------------------

// With the lock held.
static OpenInode *find_inode(dev_t dev, ino_t ino) {
  for (OpenInode *node = inodes; node != NULL; node = node->next) {
    if (node->dev == dev && node->ino == ino) return node;
  }
  return NULL;
}

// With the lock held: forgets `node` once nothing holds it.
static void drop_inode_if_unused(OpenInode *node) {
  if (node->opens > 0 || node->freeing) return;
  for (OpenInode **at = &inodes; *at != NULL; at = &(*at)->next) {
    if (*at == node) {
      *at = node->next;
      free(node);
      return;
    }
  }
}

static Hydration *find_by_inode(dev_t dev, ino_t ino) {
  for (Hydration *h = active; h != NULL; h = h->next) {
    if (h->dev == dev && h->ino == ino) return h;
  }
  return NULL;
}

int inode_enter(dev_t dev, ino_t ino) {
  pthread_mutex_lock(&lock);
  OpenInode *node;
  // A free is quick (a mark, two truncates): the open then sees a placeholder, and hydrates it again.
  while ((node = find_inode(dev, ino)) != NULL && node->freeing) pthread_cond_wait(&changed, &lock);
  if (node == NULL && (node = calloc(1, sizeof *node)) != NULL) {
    *node = (OpenInode){dev, ino, 0, false, inodes};
    inodes = node;
  }
  if (node != NULL) node->opens++;
  pthread_mutex_unlock(&lock);
  return node == NULL ? -ENOMEM : 0;
}

void inode_leave(dev_t dev, ino_t ino) {
  pthread_mutex_lock(&lock);
  OpenInode *node = find_inode(dev, ino);
  if (node != NULL) {
    node->opens--;
    drop_inode_if_unused(node);
  }
  pthread_mutex_unlock(&lock);
}

int inode_begin_free(dev_t dev, ino_t ino) {
  pthread_mutex_lock(&lock);
  OpenInode *node = find_inode(dev, ino);
  int result = 0;
  if (node != NULL || find_by_inode(dev, ino) != NULL) {
    result = -EBUSY;
  } else if ((node = calloc(1, sizeof *node)) == NULL) {
    result = -ENOMEM;
  } else {
    *node = (OpenInode){dev, ino, 0, true, inodes};
    inodes = node;
  }
  pthread_mutex_unlock(&lock);
  return result;
}

void inode_end_free(dev_t dev, ino_t ino) {
  pthread_mutex_lock(&lock);
  OpenInode *node = find_inode(dev, ino);
  if (node != NULL) {
    node->freeing = false;
    drop_inode_if_unused(node);
  }
  pthread_cond_broadcast(&changed);
  pthread_mutex_unlock(&lock);
}

// ---- Hydrations -----------------------------------------------------------------------------------

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

static bool running(const Hydration *h) { return h->state == REQUESTED || h->state == STARTED; }

// With the lock held and a reference to the running `h`: waits for any change. A service silent on
// `h` for answer_timeout_ns is stuck (its own stall limit is far shorter): `h` fails with EIO, so no open
// or read waits for ever; a late answer is then ignored and the next open asks again.
static void wait_for_change(Hydration *h) {
  uint64_t deadline = h->heard + answer_timeout_ns;
  if (now_ns() < deadline) {
    struct timespec until = {(time_t)(deadline / 1000000000ull), (long)(deadline % 1000000000ull)};
    pthread_cond_timedwait(&changed, &lock, &until);
  }
  if (running(h) && now_ns() >= h->heard + answer_timeout_ns) {
    fprintf(stderr, "mch-mount: no answer from the service about request %u for %llu ms: it fails with EIO\n",
            h->req, (unsigned long long)(answer_timeout_ns / 1000000ull));
    settle(h, FAILED, EIO);
  }
}

// Joins the file's running hydration or asks JavaScript for one. 0 with `*out` NULL: not a placeholder
// (any more); 0 with `*out` set: started or done, and the caller holds a reference; else -errno.
int hydrate_start(const char *path, int fd, pid_t pid, const char *process, Hydration **out) {
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
    if ((h = calloc(1, sizeof *h)) == NULL) {
      pthread_mutex_unlock(&lock);
      return -ENOMEM;
    }
    *h = (Hydration){st.st_dev, st.st_ino, ++next_req, REQUESTED, (uint64_t)st.st_size, 0, 0, 1, now_ns(), active};
    active = h;
    if (!ask_hydration(h->req, path + 1, pid, process)) settle(h, FAILED, EIO);
  }
  h->refs++;
  while (h->state == REQUESTED) wait_for_change(h);
  int result = h->state == FAILED ? -h->error : 0;
  if (result != 0) {
    unref(h);
  } else {
    *out = h;
  }
  pthread_mutex_unlock(&lock);
  return result;
}

int wait_for_bytes(Hydration *h, uint64_t end) {
  pthread_mutex_lock(&lock);
  if (end != UINT64_MAX && end > h->size) end = h->size;
  while (h->state == REQUESTED || (h->state == STARTED && (end == UINT64_MAX || h->bytes < end))) {
    wait_for_change(h);
  }
  int result = h->state == FAILED ? -h->error : 0;
  pthread_mutex_unlock(&lock);
  return result;
}

void release_hydration(Hydration *h) {
  pthread_mutex_lock(&lock);
  unref(h);
  pthread_mutex_unlock(&lock);
}

// A placeholder about to be changed (truncate > 0, utimens, a write open): hydrated whole first.
int hydrate_whole(const char *path, int fd) {
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
int empty_placeholder(int fd) {
  struct stat st;
  if (fstat(fd, &st) != 0) return -errno;
  pthread_mutex_lock(&lock);
  Hydration *h = find_by_inode(st.st_dev, st.st_ino);
  if (h != NULL) {
    h->refs++;
    while (running(h)) wait_for_change(h);
    unref(h);
  }
  pthread_mutex_unlock(&lock);
  if (ftruncate(fd, 0) != 0) return -errno;
  if (fremovexattr(fd, PLACEHOLDER_XATTR) != 0 && errno != ENODATA) return -errno;
  return 0;
}

int truncate_fd(const char *path, int fd, off_t size) {
  int is_placeholder = placeholder_fd(fd);
  if (is_placeholder < 0) return is_placeholder;
  if (is_placeholder && size == 0) return empty_placeholder(fd);
  if (is_placeholder) {
    int result = hydrate_whole(path, fd);
    if (result != 0) return result;
  }
  return ftruncate(fd, size) == 0 ? 0 : -errno;
}

void hydration_answer(uint32_t req, int state, int64_t number) {
  pthread_mutex_lock(&lock);
  for (Hydration *h = active; h != NULL; h = h->next) {
    if (h->req != req) continue;
    h->heard = now_ns();
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
}

void fail_all_hydrations(void) {
  pthread_mutex_lock(&lock);
  stopping = true;
  while (active != NULL) settle(active, FAILED, EIO);
  pthread_mutex_unlock(&lock);
}
