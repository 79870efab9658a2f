/* gasnet_bootstrap.c: see gasnet_bootstrap.h. A star: node 0 accepts one
 * stream connection per other node, each introduced by its node number;
 * an allgather is every node's block, after its length, sent to node 0,
 * then the whole array, after its length, sent back. Every wait has a deadline and every closed connection is an
 * error that names the node, so a job whose node died ends instead of
 * hanging in start-up. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* accept4, SOCK_CLOEXEC */
#endif
#include "gasnet_bootstrap.h"
#ifdef GASNETI_BOOTSTRAP_PMIX
#include "gasnet_bootstrap_pmix.h"
#endif

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

int gasneti_boot_fail(gasneti_bootstrap_t *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(b->error, sizeof(b->error), fmt, ap);
  va_end(ap);
  return -1;
}

static double gasneti_boot_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double gasneti_boot_deadline(void) {
  return gasneti_boot_now() + GASNETI_BOOTSTRAP_TIMEOUT_S;
}

/* 1 when fd is ready for events, 0 when the deadline passed first, -1 on
 * an error (errno). */
static int gasneti_boot_wait(int fd, short events, double deadline) {
  for (;;) {
    double left = deadline - gasneti_boot_now();
    if (left <= 0) return 0;
    struct pollfd p = {fd, events, 0};
    int r = poll(&p, 1, (int)(left * 1000.0) + 1);
    if (r > 0) return 1;
    if (r < 0 && errno != EINTR) return -1;
  }
}

/* Send or receive exactly n bytes to or from node peer before the deadline. */
static int gasneti_boot_move(gasneti_bootstrap_t *b, int fd, void *buf, size_t n, int sending,
                             unsigned peer, double deadline) {
  char *p = buf;
  const char *what = sending ? "sending to" : "receiving from";
  while (n) {
    int ready = gasneti_boot_wait(fd, sending ? POLLOUT : POLLIN, deadline);
    if (ready == 0)
      return gasneti_boot_fail(b, "bootstrap exchange: node %u: no progress %s node %u in %d s",
                               b->node, what, peer, GASNETI_BOOTSTRAP_TIMEOUT_S);
    ssize_t r = ready < 0 ? -1
                : sending   ? send(fd, p, n, MSG_NOSIGNAL | MSG_DONTWAIT)
                            : recv(fd, p, n, MSG_DONTWAIT);
    if (r == 0)
      return gasneti_boot_fail(b, "bootstrap exchange: node %u: node %u left the job (its "
                                  "connection closed)", b->node, peer);
    if (r < 0) {
      if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) continue;
      if (errno == EPIPE || errno == ECONNRESET)
        return gasneti_boot_fail(b, "bootstrap exchange: node %u: node %u left the job (%s)",
                                 b->node, peer, strerror(errno));
      return gasneti_boot_fail(b, "bootstrap exchange: node %u: %s node %u: %s", b->node, what,
                               peer, strerror(errno));
    }
    p += r;
    n -= (size_t)r;
  }
  return 0;
}

static int gasneti_boot_env(gasneti_bootstrap_t *b, const char *name, unsigned long max,
                            unsigned *out) {
  const char *text = getenv(name);
  if (!text || !*text)
    return gasneti_boot_fail(b, "bootstrap exchange: %s is not set: start the program with its "
                                "conduit's launcher (gasnetrun_<conduit>)", name);
  char *end = NULL;
  errno = 0;
  unsigned long v = strtoul(text, &end, 10);
  if (*end || errno || v > max || text[0] == '-')
    return gasneti_boot_fail(b, "bootstrap exchange: %s=\"%s\" is not a number from 0 to %lu",
                             name, text, max);
  *out = (unsigned)v;
  return 0;
}

/* The job's socket: an abstract name (a leading NUL), so there is no file. */
static int gasneti_boot_address(gasneti_bootstrap_t *b, struct sockaddr_un *addr,
                                socklen_t *len) {
  const char *job = getenv("GASNETRUN_JOB");
  size_t n = job ? strlen(job) : 0;
  if (!n)
    return gasneti_boot_fail(b, "bootstrap exchange: GASNETRUN_JOB is not set: start the program "
                                "with its conduit's launcher (gasnetrun_<conduit>)");
  if (n > 80 || job[strspn(job, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")])
    return gasneti_boot_fail(b, "bootstrap exchange: GASNETRUN_JOB=\"%s\" is not 1 to 80 "
                                "letters, digits, '_', '.' or '-'", job);
  memset(addr, 0, sizeof(*addr));
  addr->sun_family = AF_UNIX;
  int w = snprintf(addr->sun_path + 1, sizeof(addr->sun_path) - 1, "gasnet-boot-%s", job);
  *len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)w);
  return 0;
}

/* Node 0: accept every other node, each saying its number first. */
static int gasneti_boot_accept_all(gasneti_bootstrap_t *b, int listener) {
  double deadline = gasneti_boot_deadline();
  for (unsigned joined = 1; joined < b->nodes; joined++) {
    int ready = gasneti_boot_wait(listener, POLLIN, deadline);
    if (ready <= 0) {
      unsigned missing = 1;
      while (missing < b->nodes && b->peer_fd[missing] >= 0) missing++;
      return gasneti_boot_fail(b, "bootstrap exchange: only %u of %u nodes joined in %d s "
                                  "(node %u did not)", joined, b->nodes,
                               GASNETI_BOOTSTRAP_TIMEOUT_S, missing);
    }
    int fd = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EINTR || errno == ECONNABORTED) {
        joined--;
        continue;
      }
      return gasneti_boot_fail(b, "bootstrap exchange: accept: %s", strerror(errno));
    }
    uint32_t who = 0;
    if (gasneti_boot_move(b, fd, &who, sizeof(who), 0, joined, deadline)) {
      close(fd);
      return -1;
    }
    if (who == 0 || who >= b->nodes || b->peer_fd[who] >= 0) {
      close(fd);
      return gasneti_boot_fail(b, "bootstrap exchange: a process joined job \"%s\" as node %u "
                                  "(of %u, or twice)", getenv("GASNETRUN_JOB"), (unsigned)who,
                               b->nodes);
    }
    b->peer_fd[who] = fd;
  }
  return 0;
}

static int gasneti_boot_listen(gasneti_bootstrap_t *b, const struct sockaddr_un *addr,
                               socklen_t len) {
  int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (s < 0) return gasneti_boot_fail(b, "bootstrap exchange: socket: %s", strerror(errno));
  if (bind(s, (const struct sockaddr *)addr, len) || listen(s, (int)b->nodes)) {
    int e = errno;
    close(s);
    if (e == EADDRINUSE)
      return gasneti_boot_fail(b, "bootstrap exchange: another job named \"%s\" is running on "
                                  "this host (GASNETRUN_JOB must be unique)", addr->sun_path + 13);
    return gasneti_boot_fail(b, "bootstrap exchange: listening: %s", strerror(e));
  }
  int r = gasneti_boot_accept_all(b, s);
  close(s); /* everyone is in: the name goes */
  return r;
}

/* A node other than 0: connect, retrying while node 0 is not listening yet. */
static int gasneti_boot_connect(gasneti_bootstrap_t *b, const struct sockaddr_un *addr,
                                socklen_t len) {
  double deadline = gasneti_boot_deadline();
  long nap_ns = 100000;
  for (;;) {
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return gasneti_boot_fail(b, "bootstrap exchange: socket: %s", strerror(errno));
    if (connect(fd, (const struct sockaddr *)addr, len) == 0) {
      b->fd = fd;
      uint32_t me = b->node;
      return gasneti_boot_move(b, fd, &me, sizeof(me), 1, 0, deadline);
    }
    int e = errno;
    close(fd);
    if (e != ECONNREFUSED && e != ENOENT && e != EAGAIN && e != EINTR)
      return gasneti_boot_fail(b, "bootstrap exchange: node %u: connecting to node 0: %s",
                               b->node, strerror(e));
    if (gasneti_boot_now() > deadline)
      return gasneti_boot_fail(b, "bootstrap exchange: node %u: node 0 of job \"%s\" did not "
                                  "open the exchange in %d s", b->node, getenv("GASNETRUN_JOB"),
                               GASNETI_BOOTSTRAP_TIMEOUT_S);
    struct timespec ts = {0, nap_ns};
    nanosleep(&ts, NULL);
    if (nap_ns < 10000000) nap_ns *= 2;
  }
}

/* Started by a PMIx launcher rather than by gasnetrun_<conduit>. */
static int gasneti_boot_under_pmix(void) {
  return !getenv("GASNETRUN_NODE") && getenv("PMIX_RANK");
}

int gasneti_bootstrap_open(gasneti_bootstrap_t *b) {
  memset(b, 0, sizeof(*b));
  b->fd = -1;
  if (gasneti_boot_under_pmix()) {
#ifdef GASNETI_BOOTSTRAP_PMIX
    return gasneti_bootstrap_pmix_open(b);
#else
    return gasneti_boot_fail(b, "bootstrap exchange: started by a PMIx launcher (PMIX_RANK is "
                             "set), but this conduit was built without PMIx: start the "
                             "program with its conduit's launcher (gasnetrun_<conduit>)");
#endif
  }
  struct sockaddr_un addr;
  socklen_t len = 0;
  if (gasneti_boot_env(b, "GASNETRUN_NODES", 65535, &b->nodes)) return -1;
  if (b->nodes == 0)
    return gasneti_boot_fail(b, "bootstrap exchange: GASNETRUN_NODES=0: a job has 1 node or more");
  if (gasneti_boot_env(b, "GASNETRUN_NODE", b->nodes - 1, &b->node)) return -1;
  if (gasneti_boot_address(b, &addr, &len)) return -1;
  if (b->nodes == 1) return 0;
  if (b->node) return gasneti_boot_connect(b, &addr, len);
  b->peer_fd = malloc(b->nodes * sizeof(*b->peer_fd));
  if (!b->peer_fd) return gasneti_boot_fail(b, "bootstrap exchange: out of memory");
  for (unsigned i = 0; i < b->nodes; i++) b->peer_fd[i] = -1;
  return gasneti_boot_listen(b, &addr, len);
}

/* Node 0: every block in, then the whole array out. */
static int gasneti_boot_gather_root(gasneti_bootstrap_t *b, size_t len, char *all) {
  double deadline = gasneti_boot_deadline();
  for (unsigned i = 1; i < b->nodes; i++) {
    uint64_t theirs = 0;
    if (gasneti_boot_move(b, b->peer_fd[i], &theirs, sizeof(theirs), 0, i, deadline)) return -1;
    if (theirs != len)
      return gasneti_boot_fail(b, "bootstrap exchange: node %u gave %llu bytes to an allgather "
                                  "where node 0 gave %zu (every node must give the same)", i,
                               (unsigned long long)theirs, len);
    if (gasneti_boot_move(b, b->peer_fd[i], all + i * len, len, 0, i, deadline)) return -1;
  }
  /* The answer starts with its length, so even an allgather of 0 bytes
   * (the barrier) waits for it. */
  uint64_t total = (uint64_t)b->nodes * len;
  for (unsigned i = 1; i < b->nodes; i++)
    if (gasneti_boot_move(b, b->peer_fd[i], &total, sizeof(total), 1, i, deadline) ||
        gasneti_boot_move(b, b->peer_fd[i], all, b->nodes * len, 1, i, deadline))
      return -1;
  return 0;
}

int gasneti_bootstrap_allgather(gasneti_bootstrap_t *b, const void *mine, size_t len, void *all) {
  if (len && (!mine || !all))
    return gasneti_boot_fail(b, "bootstrap exchange: allgather of %zu bytes without buffers", len);
  if (len) memmove((char *)all + (size_t)b->node * len, mine, len);
#ifdef GASNETI_BOOTSTRAP_PMIX
  if (b->pmix) return gasneti_bootstrap_pmix_allgather(b, len, all);
#endif
  if (b->nodes == 1) return 0;
  if (b->node == 0) return gasneti_boot_gather_root(b, len, all);
  double deadline = gasneti_boot_deadline();
  uint64_t n = len;
  if (gasneti_boot_move(b, b->fd, &n, sizeof(n), 1, 0, deadline) ||
      gasneti_boot_move(b, b->fd, (void *)(uintptr_t)mine, len, 1, 0, deadline))
    return -1;
  uint64_t total = 0;
  if (gasneti_boot_move(b, b->fd, &total, sizeof(total), 0, 0, deadline)) return -1;
  if (total != (uint64_t)b->nodes * len)
    return gasneti_boot_fail(b, "bootstrap exchange: node %u: node 0 answered an allgather of "
                                "%zu bytes a node with %llu bytes", b->node, len,
                             (unsigned long long)total);
  return gasneti_boot_move(b, b->fd, all, b->nodes * len, 0, 0, deadline);
}

int gasneti_bootstrap_barrier(gasneti_bootstrap_t *b) {
  return gasneti_bootstrap_allgather(b, NULL, 0, NULL);
}

void gasneti_bootstrap_close(gasneti_bootstrap_t *b) {
#ifdef GASNETI_BOOTSTRAP_PMIX
  if (b->pmix) gasneti_bootstrap_pmix_close(b);
#endif
  if (b->fd >= 0) close(b->fd);
  b->fd = -1;
  if (b->peer_fd) {
    for (unsigned i = 1; i < b->nodes; i++)
      if (b->peer_fd[i] >= 0) close(b->peer_fd[i]);
    free(b->peer_fd);
    b->peer_fd = NULL;
  }
}
