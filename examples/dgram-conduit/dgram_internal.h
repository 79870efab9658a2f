/* dgram_internal.h: the dgram conduit's state and packet format.
 *
 * Every node binds one Unix-domain datagram socket in the abstract
 * namespace, "gasnet-dgram-<job>-<node>", and every message is one or more
 * datagrams sent to it. A datagram is a 32-byte header, the handler
 * arguments (padded to 16 bytes) and a payload. The kernel keeps the
 * datagrams from one socket to another in order and loses none; when a
 * receiver's queue is full a send fails with EAGAIN (never blocks: every
 * send is MSG_DONTWAIT) and the sender polls while it waits, so two nodes
 * flooding each other both keep reading.
 *
 * Order: a node's messages to one peer leave in the order its threads send
 * them and arrive in that order; the receiver keeps requests and replies
 * in two queues in arrival order and lets one thread at a time deliver
 * each queue (dgram_poll.c).
 *
 * Flow control: a node may have GASNET_DGRAM_CREDITS requests not yet
 * delivered at each peer (credits, returned on any packet to the sender or
 * by an explicit CREDIT packet); replies need none, as each answers a
 * request still counted against its sender. So the queues a node keeps in
 * memory are bounded, and a reply never waits for a credit; it may wait
 * for room in the receiver's socket, which every poll empties, reply-only
 * polls included.
 *
 * A Long whose payload does not fit the packet travels as DATA datagrams
 * (each copied into the segment when read) followed by the header packet,
 * which the receiver tells from an inline one by its length. */
#ifndef DGRAM_INTERNAL_H
#define DGRAM_INTERNAL_H

#include "gasnet_internal.h"

#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/un.h>

typedef enum {
  GASNETC_K_REQUEST = 1, /* an AM request */
  GASNETC_K_REPLY,       /* an AM reply */
  GASNETC_K_DATA,        /* a piece of a Long payload: nbytes at addr */
  GASNETC_K_CREDIT,      /* credits handed back, nothing else */
  GASNETC_K_HELLO,       /* start-up: aux = pid, nbytes = largest local segment,
                          * addr = credits per peer */
  GASNETC_K_SEGINFO,     /* attach: addr, nbytes = segment, aux = errno of a failed map */
  GASNETC_K_EXIT         /* the sender is ending: aux = its code (dgram_exit.c) */
} gasnetc_kind_t;

typedef struct {
  uint8_t kind; /* gasnetc_kind_t */
  uint8_t category;
  uint8_t handler;
  uint8_t numargs;
  uint32_t src;
  uint32_t credits; /* request credits handed back to the receiver */
  uint32_t aux;
  uint64_t nbytes;
  uint64_t addr;
} gasnetc_hdr_t;
_Static_assert(sizeof(gasnetc_hdr_t) == 32, "the packet header is 32 bytes");

/* Arguments follow the header, padded so a payload starts 16-byte aligned. */
static inline size_t gasnetc_args_bytes(unsigned numargs) {
  return ((size_t)numargs * sizeof(gasnet_handlerarg_t) + 15) & ~(size_t)15;
}
/* The largest datagram: a full header, 16 arguments and a Medium. */
#define GASNETC_PACKET_MAX (sizeof(gasnetc_hdr_t) + 64 + GASNETC_MAX_MEDIUM)
/* The Long payload carried by one DATA datagram. */
#define GASNETC_DATA_MAX ((size_t)GASNETC_MAX_MEDIUM)
/* Requests a node may have undelivered at each peer, by default
 * (GASNET_DGRAM_CREDITS; the nodes agree on the smallest). */
#define GASNETC_CREDITS_DEFAULT 32

/* A node that has not bound its socket, or answered at start-up or
 * attach, within this many seconds is taken to have failed. */
#define GASNETC_BOOT_TIMEOUT 120

/* A datagram read and kept until delivery. */
typedef struct gasnetc_pkt_s {
  struct gasnetc_pkt_s *next;
  size_t len;
  _Alignas(16) gasnetc_hdr_t hdr; /* followed by args and payload */
} gasnetc_pkt_t;

typedef struct {
  gasnetc_pkt_t *head, *tail;
} gasnetc_queue_t;

typedef struct {
  int fd;
  struct sockaddr_un *addr; /* every node's address */
  socklen_t *addrlen;
  pid_t *pid;               /* every node's process, from its HELLO */
  uint64_t *max_segsize;    /* every node's local maximum, from its HELLO */
  uint32_t window;          /* credits per peer */
  uint32_t *credits;        /* per peer: requests we may still send it (atomic) */
  uint32_t *owed;           /* per peer: credits we owe it (atomic) */
  uint8_t *hello;           /* per peer: its HELLO came */
  gasnetc_hdr_t *seginfo;   /* per peer: its SEGINFO, kind 0 until it came */
  gasnetc_queue_t requests, replies; /* read, not yet delivered */
  int delivering[2];        /* a thread is delivering the requests / replies */
  gasnetc_pkt_t *free;      /* spare packet buffers */
} gasnetc_dgram_t;

extern gasnetc_dgram_t gasnetc_dgram;

/* ------------------------------------------------------------ locking
 * In PAR one mutex covers reading the socket and the queues; sends and
 * credits need no lock (the kernel orders datagrams, credits are atomic),
 * and handlers run without it. The exit path takes no lock at all: it may
 * run in a signal handler or a thread that holds it. */
#ifdef GASNETI_THREADS
extern pthread_mutex_t gasnetc_dgram_lock;
static inline void gasnetc_lock(void) { pthread_mutex_lock(&gasnetc_dgram_lock); }
static inline void gasnetc_unlock(void) { pthread_mutex_unlock(&gasnetc_dgram_lock); }
static inline int gasnetc_trylock(void) { return pthread_mutex_trylock(&gasnetc_dgram_lock) == 0; }
#else
static inline void gasnetc_lock(void) {}
static inline void gasnetc_unlock(void) {}
static inline int gasnetc_trylock(void) { return 1; }
#endif

/* ------------------------------------------------------------ dgram_send.c */
/* How a send waits while the receiver has no room. */
typedef enum {
  GASNETC_WAIT_POLL,    /* poll everything (requests) */
  GASNETC_WAIT_REPLIES, /* poll replies only (replies) */
  GASNETC_WAIT_BOOT     /* read control packets only (start-up, attach) */
} gasnetc_wait_t;
/* Send one datagram; returns when the kernel took it. */
extern void gasnetc_send(gasnet_node_t dest, const struct iovec *iov, int iovcnt,
                         gasnetc_wait_t how);
/* Try once: 0 when taken, else the errno (EAGAIN: no room now). */
extern int gasnetc_try_send(gasnet_node_t dest, const struct iovec *iov, int iovcnt);
extern void gasnetc_send_ctrl(gasnet_node_t dest, gasnetc_hdr_t *hdr, gasnetc_wait_t how);
/* A request from src is being delivered: owe src its credit. */
extern void gasnetc_credit_owe(gasnet_node_t src);
/* Retry CREDIT packets that found no room. */
extern void gasnetc_credit_flush(void);

/* ------------------------------------------------------------ dgram_poll.c */
/* Read what has arrived (at most max datagrams; lock held): control packets
 * are acted on, AM packets queued. Returns the number read. */
extern int gasnetc_read(int max);
/* Read, napping, until done(arg) is true; for start-up and attach. */
extern void gasnetc_boot_wait(int (*done)(void *), void *arg, const char *what);
extern int gasnetc_poll(int replies_only);

/* ------------------------------------------------------------ dgram_exit.c */
extern void gasnetc_exit_init(void);
/* Node src says it is ending with code. */
extern void gasnetc_exit_notice(gasnet_node_t src, int code);
/* Before attach: end this node if another has ended the job. */
extern void gasnetc_exit_check_boot(void);
/* If another node has ended the job, end this one too (no lock held). */
extern void gasnetc_exit_check(void);
/* Every so often, look for nodes that died without a word. */
extern void gasnetc_liveness_check(void);
/* A send found node dest gone. */
extern void gasnetc_peer_lost(gasnet_node_t dest);

#endif
