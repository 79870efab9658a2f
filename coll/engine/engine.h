/* engine.h: the engine floor of the collectives (coll/engine/), the
 * floor every other one stands on (docs/design.md, "The collectives
 * engine").
 *
 * A collective is an op: a private copy of its arguments, a per-team
 * sequence number (initiation order is the same on every node, so the
 * number names the same collective everywhere), an engine state and an
 * algorithm. Ops sit in a table of live ops and advance from the poll
 * function registered with the core; messages carry (team, sequence, tag)
 * and go to the op they name, or wait in the early-arrival store until the
 * op exists here. The engine knows no particular collective, image or
 * reduction function: the floors above give it their algorithms as tables
 * of function pointers (gasnete_coll_alg_t, gasnete_coll_select_register)
 * and keep their own state behind the opaque pointers of a team. This
 * library uses only gasnet.h, gasnet_hooks.h and the extended API: it is
 * built once and linked with any conduit. */
#ifndef COLL_ENGINE_H
#define COLL_ENGINE_H

#include <gasnet.h>
#include <gasnet_coll.h>
#include <gasnet_hooks.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/rank_math.h"
#include "engine/seq_table.h"

#if defined(GASNET_PAR) || defined(GASNET_PARSYNC)
#define GASNETE_COLL_THREADS 1
#include <pthread.h>
#endif

/* A count that a message handler or an op's end raises and an op or a
 * handle reads with an acquire load (an algorithm's bytes received, a
 * handle's ops pending). With threads another thread may run the handler
 * or end the op, so the add is atomic; a SEQ build runs every handler on
 * its one thread, in a poll (the engine's lock is not even taken there),
 * and a plain add spares a locked instruction per message. Unsigned: an
 * add of (size_t)-1 takes one away. */
static inline void gasnete_coll_count_add(size_t *count, size_t n) {
#ifdef GASNETE_COLL_THREADS
  __atomic_fetch_add(count, n, __ATOMIC_ACQ_REL);
#else
  __atomic_store_n(count, *count + n, __ATOMIC_RELAXED);
#endif
}

typedef struct gasnete_coll_op_s gasnete_coll_op_t;
typedef struct gasnete_coll_team_s gasnete_coll_team_t;
typedef struct gasnete_coll_handle_s gasnete_coll_handle_t;

typedef enum {
  GASNETE_COLL_BROADCAST,
  GASNETE_COLL_SCATTER,
  GASNETE_COLL_GATHER,
  GASNETE_COLL_GATHER_ALL,
  GASNETE_COLL_EXCHANGE,
  GASNETE_COLL_REDUCE,
  GASNETE_COLL_SCAN,
  GASNETE_COLL_KIND_COUNT, /* the kinds above: each has a selector table, counted by the profile */
  /* A team barrier (team_barrier.c) runs as an op with its own algorithm. */
  GASNETE_COLL_TEAM_BARRIER = GASNETE_COLL_KIND_COUNT
} gasnete_coll_kind_t;

/* What reduce and scan add: the layouts of src (and of a scan's dst) and
 * the client function (reduce_layout.h, reduce_apply.h). An element-wise
 * call (blksz 0, reduce_args.c) arrives here as an array with one element
 * per image, blksz 1: each element a vector of vec_count client elements,
 * elem_size the vector's bytes, which reduce_apply.c combines element by
 * element. vec_count is 0 for a layout call. */
typedef struct {
  size_t src_blksz, src_offset;
  size_t dst_blksz, dst_offset; /* scan only */
  size_t elem_size, elem_count;
  gasnet_coll_fn_handle_t func;
  int func_arg;
  size_t vec_count;
} gasnete_coll_reduce_args_t;

/* How much of this rank's buffers a call uses, from its single-valued
 * arguments (api/coll_args.c). */
typedef struct {
  size_t src_bytes, dst_bytes; /* 0: this rank does not use the buffer */
} gasnete_coll_extents_t;

/* Room in a plan for what an algorithm's quick path works out once per
 * plan (gasnete_coll_alg_t.prepare). */
#define GASNETE_COLL_PREP_WORDS 40

/* What a team's last call decided, for the next like call (coll_plan.c). */
typedef struct gasnete_coll_plan_s {
  int valid;
  /* What the plan was made for: the call's single-valued arguments. */
  gasnete_coll_kind_t kind;
  size_t nbytes;
  gasnet_node_t root;
  int flags;
  gasnete_coll_reduce_args_t red;
  /* What they decide on this rank. */
  const struct gasnete_coll_alg_s *alg;
  gasnete_coll_extents_t extents;
  uint64_t prep[GASNETE_COLL_PREP_WORDS]; /* the algorithm's (alg->prepare) */
} gasnete_coll_plan_t;

/* ------------------------------------------------------------ teams */
/* A member of a team, for node -> rank lookups (sorted by node). */
typedef struct {
  gasnet_node_t node;
  gasnet_node_t rank;
} gasnete_coll_member_t;

/* A team as the engine keeps it: who is in it, its sequence numbers, its
 * plan and profile. What the floors above keep per team hangs off the
 * opaque pointers: they alone know what is there. */
struct gasnete_coll_team_s {
  uint32_t id;                      /* the same on every member */
  gasnet_node_t size;
  gasnet_node_t myrank;
  uint32_t next_seq;                /* sequence number of the next op */
  gasnete_coll_handle_t *aggregate; /* open aggregate, or NULL */
  gasnet_node_t *rank2node;         /* NULL for GASNET_TEAM_ALL (rank == node) */
  gasnete_coll_member_t *by_node;   /* sorted by node; NULL for GASNET_TEAM_ALL */
  void *clientdata;
  uint32_t live_ops;                /* started and not yet retired */
  gasnete_coll_plan_t plan; /* of its last call (coll_plan.c; engine lock held) */
  uint64_t calls[GASNETE_COLL_KIND_COUNT]; /* the profile */
  uint64_t bytes[GASNETE_COLL_KIND_COUNT];
  /* The floors above: */
  struct gasnete_coll_hier_runs_s *hier;       /* its supernode runs (patterns/coll_hier.h) */
  /* Every rank on a supernode of its own, reached by Longs to any address
   * (gasneti_long_anywhere): puts may target buffers outside the segment
   * (patterns/coll_hier.h, patterns/coll_putfan.h). */
  int puts_anywhere;
  /* Every rank on a supernode of its own, all on one host, and the
   * conduit moves their payloads through the host's memory
   * (gasneti_host_memory_paths): puts into the segment pay from smaller
   * blocks than across a network (ops/select_default.c). */
  int one_host_apart;
  struct gasnete_coll_team_barrier_s *barrier; /* its team barrier (teams/teams.h) */
  struct gasnete_coll_images_s *images;        /* its images (images/images.h); NULL: ALL's */
  gasnet_image_t frees; /* gasnet_coll_team_free calls so far (one per image) */
  gasnete_coll_team_t *next;        /* this node's live teams */
};

extern gasnete_coll_team_t gasnete_coll_team_all;

static inline gasnet_node_t gasnete_coll_rank2node(const gasnete_coll_team_t *team,
                                                   gasnet_node_t rank) {
  return team->rank2node ? team->rank2node[rank] : rank;
}

/* engine_team.c: handles <-> teams. lookup ends the job, naming call and
 * the handle, when the handle names no live team of this node. */
extern gasnete_coll_team_t *gasnete_coll_team_lookup(gasnet_team_handle_t handle, const char *call);
extern gasnet_team_handle_t gasnete_coll_team_handle(const gasnete_coll_team_t *team);
extern void gasnete_coll_team_register(gasnete_coll_team_t *team);
extern void gasnete_coll_team_unregister(gasnete_coll_team_t *team);
/* Node -> team rank, or -1 when the node is not a member. */
extern long gasnete_coll_team_rank_of(const gasnete_coll_team_t *team, gasnet_node_t node);

/* ------------------------------------------------------------ handles */
struct gasnete_coll_handle_s {
  size_t pending; /* ops not yet complete; atomic (gasnete_coll_count_add) */
  uint32_t magic;
  gasnete_coll_handle_t *next_free;
};
#define GASNETE_COLL_HANDLE_LIVE 0x636f6c6cu /* "coll" */
#define GASNETE_COLL_HANDLE_DEAD 0xdeadc011u

extern gasnete_coll_handle_t *gasnete_coll_handle_new(void);
extern void gasnete_coll_handle_op_done(gasnete_coll_handle_t *handle);

/* ------------------------------------------------------------ messages */
/* What an op receives. tag says what the message is (engine sync or an
 * algorithm's own step); offset places a data chunk; value carries a
 * small datum such as a remote address. A chunk the conduit has already
 * placed (gasnete_coll_send_placed) comes with data NULL and its nbytes:
 * only the arrival is news. */
typedef struct {
  uint32_t tag;
  gasnet_node_t src_rank;
  uint64_t offset; /* data chunk: byte offset; signal: 64-bit value */
  const void *data; /* a Medium chunk's payload, valid during delivery; else NULL */
  size_t nbytes;    /* payload bytes (of a placed chunk too) */
} gasnete_coll_msg_t;

/* Tags: the top byte says who owns the message, the rest is theirs. */
#define GASNETE_COLL_TAG_OWNER(tag) ((tag) >> 24)
#define GASNETE_COLL_TAG_IN_SYNC 1u
#define GASNETE_COLL_TAG_OUT_SYNC 2u
#define GASNETE_COLL_TAG_ALG 3u
#define GASNETE_COLL_TAG_CHECK 4u /* debug builds: single-valued argument check */
static inline uint32_t gasnete_coll_tag(uint32_t owner, uint32_t step, uint32_t round) {
  return (owner << 24) | ((step & 0xffu) << 16) | (round & 0xffffu);
}
static inline uint32_t gasnete_coll_tag_step(uint32_t tag) { return (tag >> 16) & 0xffu; }
static inline uint32_t gasnete_coll_tag_with_step(uint32_t tag, uint32_t step) {
  return (tag & ~(0xffu << 16)) | ((step & 0xffu) << 16);
}
/* The step of the answer to a placed chunk sent detached (below): steps
 * from 0xf0 are the engine's and the put fan's, algorithms use those below. */
#define GASNETE_COLL_STEP_PLACED_READ 0xf2u
static inline uint32_t gasnete_coll_tag_round(uint32_t tag) { return tag & 0xfffu; }
/* Composite algorithms run sub-ops whose messages carry the phase in the
 * top bits of the round field. */
static inline uint32_t gasnete_coll_tag_subphase(uint32_t tag) { return (tag >> 12) & 0xfu; }
static inline uint32_t gasnete_coll_tag_with_subphase(uint32_t tag, uint32_t subphase) {
  return (tag & ~(0xfu << 12)) | ((subphase & 0xfu) << 12);
}

/* Send a signal (no payload) or a data chunk to a team rank. Data larger
 * than one AM Medium is split; each chunk carries its offset. */
extern void gasnete_coll_send_signal(gasnete_coll_op_t *op, gasnet_node_t rank, uint32_t tag,
                                     uint64_t value);
extern void gasnete_coll_send_data(gasnete_coll_op_t *op, gasnet_node_t rank, uint32_t tag,
                                   uint64_t offset, const void *data, size_t nbytes);
/* Send two pieces (a run of blocks split where it wraps past the last
 * rank) as data at offset and offset + alen: packed into one message when
 * they hold at most GASNETE_COLL_PACK_MAX bytes, since copying a few KiB
 * costs less than a second message (over TCP, 3-5 us). */
#define GASNETE_COLL_PACK_MAX 4096u
extern void gasnete_coll_send_data_pair(gasnete_coll_op_t *op, gasnet_node_t rank, uint32_t tag,
                                        uint64_t offset, const void *a, size_t alen,
                                        const void *b, size_t blen);
/* Write nbytes of data straight to remote, an address in rank's segment
 * (or, when the op's dst is not in the segment, in rank's dst: the team
 * must allow that, team->puts_anywhere), as AM Long requests of at most
 * gasnet_AMMaxLongRequest() bytes; rank's op receives one placed chunk
 * (data NULL, its offset from remote and its nbytes) per request, after
 * the bytes are in place. Returns how many requests went detached
 * (gasneti_long_detaches: the conduit may still be reading them): for
 * each, this op later receives a message of step
 * GASNETE_COLL_STEP_PLACED_READ from rank, and data may be reused only
 * once all have come; with 0 it may be reused on return. No handle is
 * left to complete, so any thread may send. */
extern uint32_t gasnete_coll_send_placed(gasnete_coll_op_t *op, gasnet_node_t rank, uint32_t tag,
                                         void *remote, const void *data, size_t nbytes);
extern void gasnete_coll_msg_init(void);

/* ------------------------------------------------------------ sync phases */
/* A dissemination exchange of signals: after it, every rank knows every
 * other rank has started it. IN_ALLSYNC runs one before data moves,
 * OUT_ALLSYNC one after. */
typedef struct {
  uint32_t owner; /* GASNETE_COLL_TAG_IN_SYNC, _OUT_SYNC or _CHECK */
  uint64_t value; /* carried by every signal; CHECK compares it */
  unsigned round;
  unsigned nrounds;
  int sent;           /* this round's signal is out */
  uint32_t arrived;   /* bit r: round r's signal is in; atomic */
} gasnete_coll_dissem_t;

/* Inline, as is the test that no round is left: every op sets up three
 * of these (CHECK, IN_SYNC, OUT_SYNC), and outside debug builds and
 * without ALLSYNC none of them has a round at all. */
static inline void gasnete_coll_dissem_init(gasnete_coll_dissem_t *d, uint32_t owner,
                                            gasnet_node_t size, uint64_t value) {
  d->owner = owner;
  d->value = value;
  d->round = 0;
  d->nrounds = size > 1 ? gasnete_coll_log2_ceil(size) : 0;
  d->sent = 0;
  d->arrived = 0;
}
/* The rounds still to go: sends this rank's signal of the current round
 * and moves on while the peer's has come. 1 once every round is over. */
extern int gasnete_coll_dissem_rounds(gasnete_coll_op_t *op, gasnete_coll_dissem_t *d);
static inline int gasnete_coll_dissem_progress(gasnete_coll_op_t *op, gasnete_coll_dissem_t *d) {
  return d->round >= d->nrounds || gasnete_coll_dissem_rounds(op, d);
}
extern void gasnete_coll_dissem_deliver(gasnete_coll_op_t *op, gasnete_coll_dissem_t *d,
                                        const gasnete_coll_msg_t *msg);

/* ------------------------------------------------------------ algorithms */
/* NOT_YET: call again on the next poll. WAITING: not yet, and only a
 * message for this op can change that, so the engine leaves the op alone
 * until one arrives (polls then cost nothing for ops merely in flight). */
typedef enum {
  GASNETE_COLL_NOT_YET = 0,
  GASNETE_COLL_DONE = 1,
  GASNETE_COLL_WAITING = 2
} gasnete_coll_progress_t;

/* What an algorithm's quick path did (gasnete_coll_alg_t.quick). */
typedef enum {
  GASNETE_COLL_QUICK_NO = 0,   /* nothing, and it will not: make the op */
  GASNETE_COLL_QUICK_DONE = 1, /* this node's part is done */
  /* Nothing yet: only data from peers is missing, and they send it
   * without waiting for anything more from this node in this op (a leaf
   * of a broadcast, the root of a gather or reduce; a rank of a small
   * gather_all or exchange once its own sends are out: quick_sent), so a
   * blocking call may wait for it without an op and try again. */
  GASNETE_COLL_QUICK_AWAIT = 2
} gasnete_coll_quick_t;

/* Waiting without an op routes what arrives through the early-arrival
 * store, one copy more than an op's direct delivery: worth it for small
 * data only, where making and retiring an op costs more than the copy. */
#define GASNETE_COLL_QUICK_AWAIT_BYTES 1024u
/* A quick path that lacks `bytes` from peers who send without waiting. */
static inline gasnete_coll_quick_t gasnete_coll_quick_missing(size_t bytes) {
  return bytes <= GASNETE_COLL_QUICK_AWAIT_BYTES ? GASNETE_COLL_QUICK_AWAIT : GASNETE_COLL_QUICK_NO;
}

/* The arguments of one collective, as every algorithm sees them. */
typedef struct {
  gasnete_coll_kind_t kind;
  void *dst;
  void *src;
  size_t nbytes;      /* reduce and scan: elem_size */
  gasnet_node_t root; /* team rank of the root (broadcast, scatter, gather; reduce's dstimage) */
  int flags;
  gasnete_coll_reduce_args_t red; /* reduce and scan only */
  struct gasnete_coll_gang_s *gang; /* images: the image calls this op serves (images/images.h) */
} gasnete_coll_args_t;

typedef struct gasnete_coll_alg_s {
  const char *name;
  const char *description;
  gasnete_coll_kind_t kind;
  unsigned param; /* e.g. the tree shape of a tree algorithm */
  /* Can it serve these arguments? (e.g. put-based ones need the
   * destination in the segment) */
  int (*eligible)(const gasnete_coll_args_t *args, const gasnete_coll_team_t *team);
  /* Allocate the op's private state; called before any message can be
   * delivered to the op. */
  void (*setup)(gasnete_coll_op_t *op);
  /* Advance; never blocks; safe to call again; returns DONE when this
   * node's data movement is complete. */
  gasnete_coll_progress_t (*progress)(gasnete_coll_op_t *op);
  /* Take a message of this op (may run inside an AM handler). */
  void (*deliver)(gasnete_coll_op_t *op, const gasnete_coll_msg_t *msg);
  void (*cleanup)(gasnete_coll_op_t *op);
  /* Optional: finish this node's part of a small collective without an op
   * (gasnete_coll_op_start_call), on a bare op holding only the team,
   * arguments, sequence number and call. Returns QUICK_DONE when done
   * (sends made, data placed); otherwise it has done nothing, and the op
   * is then made and run as usual, or, for a blocking call told
   * QUICK_AWAIT, the call waits for the arrivals and tries again. For
   * eager sends and data that all arrived early (gasnete_coll_early_take).
   * A client call's plan comes with it: prep, what prepare put there
   * (zeros without a prepare). */
  gasnete_coll_quick_t (*quick)(gasnete_coll_op_t *op, const void *prep);
  /* Optional: work out for quick what depends only on the team and the
   * single-valued arguments (a tree position, where this rank's elements
   * lie), into prep (GASNETE_COLL_PREP_WORDS words, zeroed), on a bare op
   * without a sequence number; once per team plan (coll_plan.c). */
  void (*prepare)(const gasnete_coll_op_t *op, void *prep);
} gasnete_coll_alg_t;
/* The eligibility of an algorithm that serves any call. */
extern int gasnete_coll_any_eligible(const gasnete_coll_args_t *args,
                                     const gasnete_coll_team_t *team);

/* ------------------------------------------------------------ ops */
typedef enum {
  GASNETE_COLL_OP_CHECK,    /* debug: do the single-valued arguments agree? */
  GASNETE_COLL_OP_IN_SYNC,  /* IN_ALLSYNC: waiting for every rank to enter */
  GASNETE_COLL_OP_DATA,     /* the algorithm moves the data */
  GASNETE_COLL_OP_OUT_SYNC, /* OUT_ALLSYNC: waiting for every rank to finish */
  GASNETE_COLL_OP_DONE
} gasnete_coll_op_state_t;

/* Memory that lives as long as an op (gasnete_coll_op_scratch). */
typedef struct {
  char *base;
  size_t cap, used;
  size_t want;  /* asked for so far by this op */
  size_t hint;  /* what the last op asked for: the size of the next base */
  void *extra;  /* blocks beyond base, in a list */
} gasnete_coll_scratch_t;

struct gasnete_coll_op_s {
  gasnete_coll_op_t *next_live;   /* the active list (ops the poll advances) */
  gasnete_coll_keyed_t key;        /* (team id, seq): the live-op table */
  gasnete_coll_team_t *team;
  uint32_t seq;
  gasnete_coll_args_t args;
  const gasnete_coll_alg_t *alg;
  gasnete_coll_op_state_t state;
  int parked;        /* off the active list until a message arrives */
  uint32_t wakeups;  /* messages delivered so far (a wake-up during its own
                        progress call keeps the op active) */
  gasnete_coll_dissem_t check; /* debug builds only */
  gasnete_coll_dissem_t in_sync;
  gasnete_coll_dissem_t out_sync;
  const char *call; /* the initiating call, for messages */
  uint32_t subphase; /* a phase of a composite algorithm: 1.., tagged on sends */
  /* Only on a bare op (gasnete_coll_op_bare) of a call outside an
   * aggregate: the call is blocking, so its quick path may start this
   * node's sends and then wait for the peers' (QUICK_AWAIT); and whether
   * it did. A quick path that sent must end DONE, never NO: the op made
   * after a NO would send again. */
  uint8_t quick_blocking;
  uint8_t quick_sent;
  int64_t event_ns;  /* when traced or counted (category W): its initiation */
  gasnete_coll_handle_t *handle;
  void *priv; /* the algorithm's state */
  /* Room for a small algorithm state (gasnete_coll_op_priv); last, because
   * a recycled op is cleared only up to here. */
  uint64_t inline_priv[24];
  /* Kept with a recycled op record (so not cleared): see below. */
  gasnete_coll_scratch_t scratch;
};

/* A quick path that lacks `bytes` from peers who may be waiting for this
 * node's own sends (a gather_all or exchange): a blocking call sends them
 * once (send(op), what the op would send) and then waits for the rest
 * without an op; any other call makes its op. */
static inline gasnete_coll_quick_t gasnete_coll_quick_send_first(gasnete_coll_op_t *op,
                                                                 size_t bytes,
                                                                 void (*send)(gasnete_coll_op_t *)) {
  if (op->quick_sent) return GASNETE_COLL_QUICK_AWAIT;
  if (!op->quick_blocking || gasnete_coll_quick_missing(bytes) != GASNETE_COLL_QUICK_AWAIT)
    return GASNETE_COLL_QUICK_NO;
  send(op);
  op->quick_sent = 1;
  return GASNETE_COLL_QUICK_AWAIT;
}

/* Zeroed memory that lives until the op retires, carved out of a block
 * kept with the op record, so an algorithm that needs several small
 * buffers per call (reduce, scan) allocates nothing in the steady state.
 * Never freed by the algorithm. */
extern void *gasnete_coll_op_scratch(gasnete_coll_op_t *op, size_t nbytes);
/* Give an op's scratch back (the engine, at retirement; a composite for
 * its sub-ops, with all = 1 to free the block too). */
extern void gasnete_coll_op_scratch_release(gasnete_coll_op_t *op, int all);

/* The algorithm's state, zeroed: in the op itself when it fits (no
 * allocation for the common small states), else allocated. Free it with
 * gasnete_coll_op_priv_free. */
extern void *gasnete_coll_calloc(size_t count, size_t size);
extern void *gasnete_coll_op_priv(gasnete_coll_op_t *op, size_t nbytes);
static inline void gasnete_coll_op_priv_free(gasnete_coll_op_t *op) {
  if (op->priv != (void *)op->inline_priv) free(op->priv);
  op->priv = NULL;
}

/* An argument record. */
static inline gasnete_coll_args_t gasnete_coll_args(gasnete_coll_kind_t kind, void *dst, void *src,
                                                    size_t nbytes, gasnet_image_t root, int flags) {
  /* Member by member, with no block zeroed: gcc zeroes a block of this
   * size with `rep stos`, and reading it back at once stalled on that
   * store, a tenth to a third of an 8-byte broadcast at 2 nodes. */
  gasnete_coll_args_t a;
  a.kind = kind;
  a.dst = dst;
  a.src = src;
  a.nbytes = nbytes;
  a.root = (gasnet_node_t)root;
  a.flags = flags;
  a.red.src_blksz = a.red.src_offset = 0;
  a.red.dst_blksz = a.red.dst_offset = 0;
  a.red.elem_size = a.red.elem_count = 0;
  a.red.func = 0;
  a.red.func_arg = 0;
  a.red.vec_count = 0;
  a.gang = NULL;
  return a;
}

/* coll_engine.c */
/* A client call's op (api/coll_api.c; see coll_engine.c): NULL when it
 * finished in the call, else the handle it completes. */
extern gasnete_coll_handle_t *gasnete_coll_op_start_call(gasnete_coll_team_t *team,
                                                         const gasnete_coll_args_t *args,
                                                         const gasnete_coll_plan_t *plan,
                                                         gasnete_coll_handle_t *aggregate,
                                                         int blocking, const char *call);
/* An op record on the caller's stack with only what quick and prepare
 * use: the team, arguments, algorithm and call. */
extern void gasnete_coll_op_bare(gasnete_coll_op_t *bare, gasnete_coll_team_t *team,
                                 const gasnete_coll_args_t *args, const gasnete_coll_alg_t *alg,
                                 const char *call);
/* The same with the algorithm given (ops that have no selection table). */
extern gasnete_coll_op_t *gasnete_coll_op_start_alg(gasnete_coll_team_t *team,
                                                    const gasnete_coll_args_t *args,
                                                    const gasnete_coll_alg_t *alg,
                                                    gasnete_coll_handle_t *handle,
                                                    const char *call);
/* The profile (gasnet_coll_dumpProfile): a call and the bytes it names
 * (engine lock held). */
extern void gasnete_coll_profile_count(gasnete_coll_team_t *team, const gasnete_coll_args_t *args);
/* Run one collective on team's nodes to completion, its algorithm the
 * selector's: for the library's own steps (a team split's exchange),
 * whose arguments need no checks; counted in the profile as a call. */
extern void gasnete_coll_run(gasnete_coll_team_t *team, const gasnete_coll_args_t *args,
                             const char *call);
/* Drop what the early-arrival store holds for a team being freed. */
extern void gasnete_coll_forget_team(uint32_t team_id);
extern void gasnete_coll_kick(void);
extern void gasnete_coll_dispatch(uint32_t team_id, uint32_t seq, const gasnete_coll_msg_t *msg);
extern void gasnete_coll_engine_init(void);
extern void gasnete_coll_lock(void);
extern void gasnete_coll_unlock(void);

/* Rank arithmetic modulo the team size, for a rank below size and a delta
 * of at most size (every caller's case): a compare instead of the
 * divisions of a modulo, which cost tens of cycles each on every small
 * collective. */
static inline gasnet_node_t gasnete_coll_rank_add(gasnet_node_t rank, gasnet_node_t delta,
                                                  gasnet_node_t size) {
  uint64_t sum = (uint64_t)rank + delta;
  return (gasnet_node_t)(sum >= size ? sum - size : sum);
}
static inline gasnet_node_t gasnete_coll_rank_sub(gasnet_node_t rank, gasnet_node_t delta,
                                                  gasnet_node_t size) {
  return rank >= delta ? rank - delta : rank + (size - delta);
}

/* select.c: the selector's machinery. Each operation's floor registers
 * its table of algorithms and its default rule (ops/, at
 * gasnet_coll_init); GASNET_COLL_<OP>_ALG forces an algorithm by name for
 * every call of that operation (unknown names are fatal and list the valid
 * ones), and a forced algorithm that cannot serve a call (a put-based one
 * without DST_IN_SEGMENT) gives way to the default rule. */
typedef const char *(*gasnete_coll_default_rule_t)(const gasnete_coll_args_t *args,
                                                   const gasnete_coll_team_t *team);
extern void gasnete_coll_select_register(gasnete_coll_kind_t kind, const char *op_name,
                                         const char *env_name, const gasnete_coll_alg_t *algs,
                                         unsigned nalgs, gasnete_coll_default_rule_t rule);
/* Once every table is registered: read the GASNET_COLL_<OP>_ALG variables. */
extern void gasnete_coll_select_init(void);
/* One operation's algorithm table as the selector holds it (for
 * gasnet_coll_dumpTuningState). */
typedef struct {
  const char *op_name;
  const char *env_name;
  const gasnete_coll_alg_t *algs;
  unsigned nalgs;
  const gasnete_coll_alg_t *forced; /* by env_name, or NULL */
} gasnete_coll_alg_table_view_t;
extern gasnete_coll_alg_table_view_t gasnete_coll_select_table(gasnete_coll_kind_t kind);
/* The algorithm of this kind with this name (fatal if there is none): for
 * composite algorithms, which run other algorithms as their phases. */
extern const gasnete_coll_alg_t *gasnete_coll_select_named(gasnete_coll_kind_t kind,
                                                           const char *name);
extern const gasnete_coll_alg_t *gasnete_coll_select(const gasnete_coll_args_t *args,
                                                     const gasnete_coll_team_t *team);
/* The operation's name as registered ("broadcast"; "team_barrier"). */
extern const char *gasnete_coll_kind_name(gasnete_coll_kind_t kind);

/* coll_events.c: category W of the trace and statistics (gasnet_hooks.h)
 * at an op's initiation and completion on this node. begin returns the
 * time done measures from; callers test gasneti_event_on('W') first. */
extern int64_t gasnete_coll_event_begin(const gasnete_coll_team_t *team, uint32_t seq,
                                        const gasnete_coll_args_t *args,
                                        const gasnete_coll_alg_t *alg, const char *call);
extern void gasnete_coll_event_done(const gasnete_coll_team_t *team, uint32_t seq,
                                    const gasnete_coll_args_t *args,
                                    const gasnete_coll_alg_t *alg, int64_t begin_ns);

/* coll_progress.c: the optional progress thread. */
extern int gasnete_coll_progress_init(void); /* 1: the thread runs */
extern void gasnete_coll_progress_op_started(void);
extern void gasnete_coll_progress_op_retired(void);
extern int gasnete_coll_on_progress_thread(void);

/* engine_init.c */
extern int gasnete_coll_initialized;
extern void gasnete_coll_fatal_misuse(const char *call, const char *what);
/* This node's segment, for the SRC/DST_IN_SEGMENT checks. */
extern gasnet_seginfo_t gasnete_coll_myseg;
/* The engine's part of gasnet_coll_init (the first call of a node). */
extern void gasnete_coll_engine_setup(const char *call);

/* Memory helpers that fail loudly. */
extern void *gasnete_coll_malloc(size_t nbytes);
extern void *gasnete_coll_calloc(size_t count, size_t size);

#endif
