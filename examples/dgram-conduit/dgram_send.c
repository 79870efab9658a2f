/* dgram_send.c: sending. Every datagram goes out with MSG_DONTWAIT; while
 * the receiver's queue is full the sender polls (a request sender
 * everything, a reply sender replies only, start-up control packets only)
 * and backs off, so a node waiting to send keeps draining its own queue and
 * two nodes flooding each other cannot block each other. */
#include "dgram_internal.h"

#include <errno.h>
#include <sched.h>
#include <string.h>
#include <time.h>

int gasnetc_try_send(gasnet_node_t dest, const struct iovec *iov, int iovcnt) {
  struct msghdr mh;
  memset(&mh, 0, sizeof(mh));
  mh.msg_name = &gasnetc_dgram.addr[dest];
  mh.msg_namelen = gasnetc_dgram.addrlen[dest];
  mh.msg_iov = (struct iovec *)iov;
  mh.msg_iovlen = (size_t)iovcnt;
  for (;;) {
    if (sendmsg(gasnetc_dgram.fd, &mh, MSG_DONTWAIT | MSG_NOSIGNAL) >= 0) return 0;
    if (errno != EINTR) return errno;
  }
}

static int gasnetc_no_room(int err) {
  return err == EAGAIN || err == EWOULDBLOCK || err == ENOBUFS || err == ENOMEM;
}

static int gasnetc_gone(int err) { return err == ECONNREFUSED || err == ENOENT; }

static double gasnetc_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void gasnetc_send(gasnet_node_t dest, const struct iovec *iov, int iovcnt, gasnetc_wait_t how) {
  unsigned spins = 0;
  double deadline = 0;
  for (;;) {
    int err = gasnetc_try_send(dest, iov, iovcnt);
    if (!err) return;
    if (gasnetc_gone(err) && how != GASNETC_WAIT_BOOT) gasnetc_peer_lost(dest);
    if (!gasnetc_no_room(err) && !gasnetc_gone(err))
      gasneti_fatalerror("dgram conduit: failed to send to node %u (sendmsg): %s", (unsigned)dest,
                         strerror(err));
    int work = 0;
    switch (how) {
      case GASNETC_WAIT_POLL: work = gasnetc_poll(0); break;
      case GASNETC_WAIT_REPLIES: work = gasnetc_poll(1); break;
      case GASNETC_WAIT_BOOT: {
        /* Start-up: the peer may not have bound its socket yet. */
        double now = gasnetc_now();
        if (deadline == 0) deadline = now + GASNETC_BOOT_TIMEOUT;
        if (now > deadline)
          gasneti_fatalerror("gasnet_init: node %u did not start within %d s (%s)", (unsigned)dest,
                             GASNETC_BOOT_TIMEOUT, strerror(err));
        gasnetc_lock();
        gasnetc_read(64);
        gasnetc_unlock();
        gasnetc_exit_check();
        struct timespec nap = {0, 200000};
        nanosleep(&nap, NULL);
        continue;
      }
    }
    /* The receiver is behind: let it run, even where waits spin. */
    if (!work) sched_yield();
    gasneti_wait_backoff(&spins);
  }
}

void gasnetc_send_ctrl(gasnet_node_t dest, gasnetc_hdr_t *hdr, gasnetc_wait_t how) {
  struct iovec iov = {hdr, sizeof(*hdr)};
  gasnetc_send(dest, &iov, 1, how);
}

/* ------------------------------------------------------------ credits */
/* Owed credits go back in a CREDIT packet once half the window is owed
 * (earlier, they ride on any AM packet to the peer). A CREDIT that finds
 * no room is retried at the next poll: credit_due counts such peers. */
static inline uint32_t gasnetc_credit_threshold(void) {
  return gasnetc_dgram.window > 1 ? gasnetc_dgram.window / 2 : 1;
}
static unsigned gasnetc_credit_due; /* atomic */

static void gasnetc_credit_take(gasnet_node_t dest) {
  uint32_t *c = &gasnetc_dgram.credits[dest];
  unsigned spins = 0;
  for (;;) {
    uint32_t v = __atomic_load_n(c, __ATOMIC_ACQUIRE);
    if (v) {
      if (__atomic_compare_exchange_n(c, &v, v - 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) return;
      continue;
    }
    gasneti_wait_step(&spins);
  }
}

static int gasnetc_credit_send(gasnet_node_t peer) {
  uint32_t n = __atomic_exchange_n(&gasnetc_dgram.owed[peer], 0, __ATOMIC_ACQ_REL);
  if (!n) return 1;
  if (peer == gasneti_mynode) {
    __atomic_fetch_add(&gasnetc_dgram.credits[peer], n, __ATOMIC_ACQ_REL);
    return 1;
  }
  gasnetc_hdr_t hdr;
  memset(&hdr, 0, sizeof(hdr));
  hdr.kind = GASNETC_K_CREDIT;
  hdr.src = gasneti_mynode;
  hdr.credits = n;
  struct iovec iov = {&hdr, sizeof(hdr)};
  int err = gasnetc_try_send(peer, &iov, 1);
  if (!err) return 1;
  if (gasnetc_gone(err)) gasnetc_peer_lost(peer);
  __atomic_fetch_add(&gasnetc_dgram.owed[peer], n, __ATOMIC_ACQ_REL);
  return 0;
}

void gasnetc_credit_owe(gasnet_node_t src) {
  uint32_t owed = __atomic_add_fetch(&gasnetc_dgram.owed[src], 1, __ATOMIC_ACQ_REL);
  if (owed >= gasnetc_credit_threshold() && !gasnetc_credit_send(src))
    __atomic_fetch_add(&gasnetc_credit_due, 1, __ATOMIC_ACQ_REL);
}

void gasnetc_credit_flush(void) {
  if (__builtin_expect(!__atomic_load_n(&gasnetc_credit_due, __ATOMIC_ACQUIRE), 1)) return;
  __atomic_store_n(&gasnetc_credit_due, 0, __ATOMIC_RELEASE);
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++)
    if (__atomic_load_n(&gasnetc_dgram.owed[i], __ATOMIC_ACQUIRE) >= gasnetc_credit_threshold() &&
        !gasnetc_credit_send(i))
      __atomic_fetch_add(&gasnetc_credit_due, 1, __ATOMIC_ACQ_REL);
}

/* ------------------------------------------------------------ active messages */
/* A Long payload larger than a packet goes first, as DATA datagrams the
 * receiver copies into its segment as they come; the header follows. */
static void gasnetc_send_long_data(gasnet_node_t dest, const gasneti_am_t *msg,
                                   gasnetc_wait_t how) {
  gasnetc_hdr_t hdr;
  memset(&hdr, 0, sizeof(hdr));
  hdr.kind = GASNETC_K_DATA;
  hdr.src = gasneti_mynode;
  for (size_t off = 0; off < msg->nbytes; off += GASNETC_DATA_MAX) {
    size_t n = msg->nbytes - off < GASNETC_DATA_MAX ? msg->nbytes - off : GASNETC_DATA_MAX;
    hdr.nbytes = n;
    hdr.addr = (uint64_t)(uintptr_t)msg->dest_addr + off;
    struct iovec iov[2] = {{&hdr, sizeof(hdr)}, {(uint8_t *)msg->payload + off, n}};
    gasnetc_send(dest, iov, 2, how);
  }
}

static void gasnetc_send_am(gasnet_node_t dest, gasneti_am_t *msg) {
  gasnetc_wait_t how = msg->is_request ? GASNETC_WAIT_POLL : GASNETC_WAIT_REPLIES;
  if (msg->is_request) gasnetc_credit_take(dest);
  gasnetc_hdr_t hdr;
  memset(&hdr, 0, sizeof(hdr));
  hdr.kind = msg->is_request ? GASNETC_K_REQUEST : GASNETC_K_REPLY;
  hdr.category = msg->category;
  hdr.handler = msg->handler;
  hdr.numargs = msg->numargs;
  hdr.src = gasneti_mynode;
  hdr.nbytes = msg->nbytes;
  hdr.addr = (uint64_t)(uintptr_t)msg->dest_addr;
  gasnet_handlerarg_t args[16] = {0};
  memcpy(args, msg->args, msg->numargs * sizeof(gasnet_handlerarg_t));
  struct iovec iov[3] = {{&hdr, sizeof(hdr)}, {args, gasnetc_args_bytes(msg->numargs)}};
  int n = 2;
  if (msg->category == GASNETI_AM_LONG && msg->nbytes > GASNETC_MAX_MEDIUM)
    gasnetc_send_long_data(dest, msg, how);
  else if (msg->nbytes)
    iov[n++] = (struct iovec){msg->payload, msg->nbytes};
  hdr.credits = __atomic_exchange_n(&gasnetc_dgram.owed[dest], 0, __ATOMIC_ACQ_REL);
  gasnetc_send(dest, iov, n, how);
}

void gasnetc_am_request(gasnet_node_t dest, gasneti_am_t *msg) { gasnetc_send_am(dest, msg); }

void gasnetc_am_reply(struct gasneti_token_s *token, gasneti_am_t *msg) {
  gasnetc_send_am(token->src, msg);
}
