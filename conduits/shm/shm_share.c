/* shm_share.c: passing the region's memfd from the leader that created it
 * to the other members of its supernode, processes started independently
 * of it (the mpi conduit's): a Unix socket in the abstract namespace,
 * whose name exists only while the leader holds it open (nothing in the
 * file system, nothing to leak), and the descriptor as SCM_RIGHTS.
 *
 * The conduit runs it as: the leader calls gasnetc_shm_listen, which binds
 * a fresh name (gasnet-<pid>-<random>-shm); the conduit tells the members
 * the name and the leader's pid, and the leader the members' pids; the
 * leader serves each member once (gasnetc_shm_serve) while each member
 * fetches (gasnetc_shm_fetch). Both check who is at the other end
 * (SO_PEERCRED): the leader gives the memfd only to the expected pids of
 * its own user, a member takes it only from the leader. Once all are
 * served the socket is closed and the name is gone. */
#define _GNU_SOURCE
#include "shm_internal.h"

#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static double gasnetc_shm_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Milliseconds left until deadline (at least 0). */
static int gasnetc_shm_ms_left(double deadline) {
  double left = deadline - gasnetc_shm_now();
  return left > 0 ? (int)(left * 1000) + 1 : 0;
}

/* The abstract address of name: a leading NUL, then the name (no NUL). */
static socklen_t gasnetc_shm_address(const char *name, struct sockaddr_un *addr) {
  size_t len = strlen(name);
  if (len + 1 > sizeof(addr->sun_path))
    gasneti_fatalerror("gasnet_init: socket name %s is too long", name);
  memset(addr, 0, sizeof(*addr));
  addr->sun_family = AF_UNIX;
  memcpy(addr->sun_path + 1, name, len);
  return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + len);
}

static int gasnetc_shm_socket(void) {
  int sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (sock < 0)
    gasneti_fatalerror("gasnet_init: failed to create a Unix socket: %s", strerror(errno));
  return sock;
}

static struct ucred gasnetc_shm_peer(int sock) {
  struct ucred cred;
  socklen_t len = sizeof(cred);
  if (getsockopt(sock, SOL_SOCKET, SO_PEERCRED, &cred, &len))
    gasneti_fatalerror("gasnet_init: failed to learn who is at the other end of the socket "
                       "(SO_PEERCRED): %s", strerror(errno));
  return cred;
}

int gasnetc_shm_listen(char name_p[GASNETC_SHM_NAME_MAX]) {
  uint64_t nonce = 0;
  if (getrandom(&nonce, sizeof(nonce), 0) != (ssize_t)sizeof(nonce))
    nonce = (uint64_t)(gasnetc_shm_now() * 1e9) ^ ((uint64_t)getpid() << 32);
  snprintf(name_p, GASNETC_SHM_NAME_MAX, "gasnet-%ld-%016llx-shm", (long)getpid(),
           (unsigned long long)nonce);
  struct sockaddr_un addr;
  socklen_t len = gasnetc_shm_address(name_p, &addr);
  int sock = gasnetc_shm_socket();
  if (bind(sock, (struct sockaddr *)&addr, len) || listen(sock, SOMAXCONN))
    gasneti_fatalerror("gasnet_init: failed to listen on the abstract socket @%s: %s", name_p,
                       strerror(errno));
  return sock;
}

static void gasnetc_shm_send_fd(int conn, int fd) {
  char byte = 'm';
  struct iovec iov = {&byte, 1};
  union {
    struct cmsghdr align;
    char buf[CMSG_SPACE(sizeof(int))];
  } control;
  memset(&control, 0, sizeof(control));
  struct msghdr msg = {0};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control.buf;
  msg.msg_controllen = sizeof(control.buf);
  struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);
  cmsg->cmsg_level = SOL_SOCKET;
  cmsg->cmsg_type = SCM_RIGHTS;
  cmsg->cmsg_len = CMSG_LEN(sizeof(int));
  memcpy(CMSG_DATA(cmsg), &fd, sizeof(int));
  ssize_t rc;
  do rc = sendmsg(conn, &msg, MSG_NOSIGNAL);
  while (rc < 0 && errno == EINTR);
  if (rc != 1)
    gasneti_fatalerror("gasnet_init: failed to pass the shared memory to a supernode member: %s",
                       rc < 0 ? strerror(errno) : "short write");
}

/* The index of pid among the npids expected and not yet served, or -1. */
static int gasnetc_shm_expected(pid_t pid, const pid_t *pids, const char *served, unsigned npids) {
  for (unsigned i = 0; i < npids; i++)
    if (pids[i] == pid && !served[i]) return (int)i;
  return -1;
}

void gasnetc_shm_serve(int sock, const pid_t *pids, unsigned npids) {
  char *served = calloc(npids ? npids : 1, 1);
  if (!served) gasneti_fatalerror("gasnet_init: out of memory");
  double deadline = gasnetc_shm_now() + GASNETC_SHM_SHARE_TIMEOUT;
  unsigned left = npids;
  while (left) {
    struct pollfd pfd = {sock, POLLIN, 0};
    int ready = poll(&pfd, 1, gasnetc_shm_ms_left(deadline));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0)
      gasneti_fatalerror("gasnet_init: %u of %u supernode members did not fetch the shared "
                         "memory within %d s", left, npids, GASNETC_SHM_SHARE_TIMEOUT);
    int conn = accept4(sock, NULL, NULL, SOCK_CLOEXEC);
    if (conn < 0) continue; /* the peer gave up meanwhile */
    struct ucred who = gasnetc_shm_peer(conn);
    int i = who.uid == getuid() ? gasnetc_shm_expected(who.pid, pids, served, npids) : -1;
    if (i >= 0) {
      gasnetc_shm_send_fd(conn, gasnetc_shm.fd);
      served[i] = 1;
      left--;
    }
    close(conn); /* a stranger gets nothing */
  }
  free(served);
  close(sock);
}

static int gasnetc_shm_connect(const char *name, double deadline) {
  struct sockaddr_un addr;
  socklen_t len = gasnetc_shm_address(name, &addr);
  for (;;) {
    int sock = gasnetc_shm_socket();
    if (connect(sock, (struct sockaddr *)&addr, len) == 0) return sock;
    int err = errno;
    close(sock);
    if (err != EINTR && err != ECONNREFUSED && err != EAGAIN)
      gasneti_fatalerror("gasnet_init: failed to reach the supernode's leader at @%s: %s", name,
                         strerror(err));
    if (!gasnetc_shm_ms_left(deadline))
      gasneti_fatalerror("gasnet_init: the supernode's leader did not answer at @%s within %d s",
                         name, GASNETC_SHM_SHARE_TIMEOUT);
    struct timespec nap = {0, 1000000};
    nanosleep(&nap, NULL);
  }
}

/* The descriptor carried by the one-byte message on conn. */
static int gasnetc_shm_receive_fd(int conn, double deadline) {
  char byte;
  struct iovec iov = {&byte, 1};
  union {
    struct cmsghdr align;
    char buf[CMSG_SPACE(sizeof(int))];
  } control;
  struct msghdr msg = {0};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control.buf;
  msg.msg_controllen = sizeof(control.buf);
  ssize_t rc;
  for (;;) {
    struct pollfd pfd = {conn, POLLIN, 0};
    int ready = poll(&pfd, 1, gasnetc_shm_ms_left(deadline));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0)
      gasneti_fatalerror("gasnet_init: the supernode's leader did not pass the shared memory "
                         "within %d s", GASNETC_SHM_SHARE_TIMEOUT);
    rc = recvmsg(conn, &msg, MSG_CMSG_CLOEXEC);
    if (rc < 0 && errno == EINTR) continue;
    break;
  }
  struct cmsghdr *cmsg = rc == 1 ? CMSG_FIRSTHDR(&msg) : NULL;
  if (!cmsg || cmsg->cmsg_level != SOL_SOCKET || cmsg->cmsg_type != SCM_RIGHTS ||
      cmsg->cmsg_len != CMSG_LEN(sizeof(int)))
    gasneti_fatalerror("gasnet_init: the supernode's leader closed the socket without passing "
                       "the shared memory%s%s", rc < 0 ? ": " : "", rc < 0 ? strerror(errno) : "");
  int fd;
  memcpy(&fd, CMSG_DATA(cmsg), sizeof(int));
  return fd;
}

int gasnetc_shm_fetch(const char *name, pid_t leader) {
  double deadline = gasnetc_shm_now() + GASNETC_SHM_SHARE_TIMEOUT;
  int conn = gasnetc_shm_connect(name, deadline);
  struct ucred who = gasnetc_shm_peer(conn);
  if (who.pid != leader || who.uid != getuid())
    gasneti_fatalerror("gasnet_init: @%s is held by pid %ld of uid %ld, not the supernode's "
                       "leader (pid %ld)", name, (long)who.pid, (long)who.uid, (long)leader);
  int fd = gasnetc_shm_receive_fd(conn, deadline);
  close(conn);
  return fd;
}
