/* coll_readfan.h: a fan of one-copy reads from peers' buffers, the building
 * block of the direct algorithms (gasneti_xmem_read, gasnet_hooks.h).
 *
 * Every transfer is one block of args.nbytes: a reader reads it from a
 * server's announced buffer, at an offset, into its own memory. A server
 * announces its buffer with a READY signal (carrying the address) to each
 * of its readers; a reader reads once the READY is in and then signals
 * DONE. A node is done when its reads are done and every reader of its
 * buffer has signalled DONE (its buffer stays valid until then). Each
 * pair (reader, server) moves at most one block per op.
 *
 * A server that is otherwise idle (the root of a broadcast or scatter)
 * can take part of each copy: its readers then read only the head of the
 * block, and send WHERE (their dst, the offset and the tail's length) so
 * that the server writes the tail straight into their dst
 * (gasneti_xmem_write) and signals WRITTEN. The split puts the tail's start
 * on a page boundary of the reader's dst, so the two copies never share a
 * page.
 *
 * A read or write can fail even where the conduit said transfers may work
 * (a refusal at run time): a reader whose read failed sends NEED carrying
 * the offset and the length of its head, the server sends those bytes in
 * AM chunks; a server whose write failed sends the tail the same way. A
 * reader signals DONE once its whole block is in. Algorithms describe the
 * reads, the announcements and the server's share in their setup; this
 * file does the rest. */
#ifndef COLL_READFAN_H
#define COLL_READFAN_H

#include "engine/engine.h"

typedef struct {
  gasnet_node_t rank; /* the server */
  void *dst;          /* where the block lands here */
  uint64_t offset;    /* into the server's announced buffer */
  size_t head;        /* bytes read here; the server writes the rest */
  size_t received;    /* atomic: fallback bytes of the head in dst */
  size_t tail_in;     /* atomic: bytes of the tail in dst */
  uint8_t state;      /* 0 waiting for READY, 1 awaiting the head's fallback, 2 head in, 3 done */
} gasnete_coll_read_t;

/* What a reader asked its server to write (WHERE), as the server keeps it. */
typedef struct {
  uint64_t dst, offset, tail;
  uint8_t state; /* atomic: 0 not asked, 1 asked, 2 written */
} gasnete_coll_help_t;

typedef struct {
  const void *my_buffer; /* what this node announces */
  uint32_t nannounce;
  gasnet_node_t *announce; /* ranks this node announces to (its readers) */
  int announced;
  uint32_t nreads;
  gasnete_coll_read_t *reads;
  int32_t *read_of;     /* [team size]: server rank -> index in reads, or -1 */
  uint64_t *peer_base;  /* [team size]: announced buffers */
  uint8_t *peer_ready;  /* [team size], atomic */
  uint64_t *need_off;   /* [team size]: offset a reader asked for */
  uint64_t *need_len;   /* [team size]: and how many bytes */
  uint8_t *need;        /* [team size], atomic: 1 asked, 2 served */
  gasnete_coll_help_t *help; /* [team size]: tails to write, when this node serves a share */
  unsigned share_permille;   /* of each block read here, what the server is asked to write */
  uint32_t reads_left;  /* reads not yet complete */
  uint32_t done_received;   /* atomic */
  /* This node's own block, copied right after the announcements (the
   * announced buffer is always a src, which that copy does not write). */
  void *own_dst;
  const void *own_src;
  int own_copied;
} gasnete_coll_readfan_t;

/* Make the op's fan (op->priv) for nreads reads and nannounce readers of
 * this node's buffer; the setup then fills reads[] with
 * gasnete_coll_readfan_add_read and announce[]. */
extern gasnete_coll_readfan_t *gasnete_coll_readfan_new(gasnete_coll_op_t *op, uint32_t nreads,
                                                        uint32_t nannounce, const void *buffer);
extern void gasnete_coll_readfan_add_read(gasnete_coll_readfan_t *fan, gasnet_node_t rank,
                                          void *dst, uint64_t offset);
/* Ask every server of this node's reads to write about permille / 1000 of
 * each block (the tail; 0, the default: read it all). */
static inline void gasnete_coll_readfan_ask_share(gasnete_coll_readfan_t *fan, unsigned permille) {
  fan->share_permille = permille;
}
/* The share (per mille) of each reader's block that the root of a rooted
 * fan (broadcast, scatter: size - 1 readers) writes itself. */
extern unsigned gasnete_coll_readfan_root_share(gasnet_node_t size);
/* Whether this host's processor is AMD's (known from
 * gasnete_coll_readfan_init on): the root's share was measured apart on
 * AMD and Intel hosts (the ranks that read each other share a host, so
 * they agree). */
extern int gasnete_coll_host_is_amd(void);
/* The share (per mille) of its own block that each of the size - 1 ranks
 * read by a gather's root writes into the root's dst itself. */
extern unsigned gasnete_coll_readfan_leaf_share(gasnet_node_t size);
/* The block this node copies to itself (not when dst is src: the spec's
 * overlap exception). */
static inline void gasnete_coll_readfan_own_block(gasnete_coll_readfan_t *fan, void *dst,
                                                  const void *src) {
  fan->own_dst = dst;
  fan->own_src = src;
}

/* The rest of every direct algorithm's entry in its table. */
extern gasnete_coll_progress_t gasnete_coll_readfan_progress(gasnete_coll_op_t *op);
extern void gasnete_coll_readfan_deliver(gasnete_coll_op_t *op, const gasnete_coll_msg_t *msg);
extern void gasnete_coll_readfan_cleanup(gasnete_coll_op_t *op);

/* Can every node of the job be read with gasneti_xmem_read? Decided once
 * at gasnet_coll_init (gasnete_coll_readfan_init) from the conduit's
 * job-wide answer, so the same on every node: the direct algorithms are
 * eligible only then. */
extern void gasnete_coll_readfan_init(void);
extern int gasnete_coll_readfan_available(void);
extern int gasnete_coll_direct_eligible(const gasnete_coll_args_t *args,
                                        const gasnete_coll_team_t *team);

#define GASNETE_COLL_DIRECT_ALG(kind_, desc_, setup_)                                          \
  {"direct", desc_, kind_, 0, gasnete_coll_direct_eligible, setup_,                           \
   gasnete_coll_readfan_progress, gasnete_coll_readfan_deliver, gasnete_coll_readfan_cleanup}

#endif
