/* gasnet_extended_conduit.h: how a conduit overrides parts of extended-ref.
 *
 * extended-ref implements the whole extended API on active messages. A
 * conduit that can do better for some of it fills a gasnete_conduit_ops_t
 * and registers it with gasnete_register_conduit_ops() before gasnet_attach
 * returns (the smp conduit does it from gasnetc_init). Any slot may be NULL.
 *
 * - put / get / memset: synchronous transfers. extended-ref has already
 *   checked the call (node in range, nbytes > 0, the remote range inside the
 *   peer's segment, node != gasnet_mynode()). Return 1 when the transfer is
 *   complete (the memory of both sides is as after a completed put/get),
 *   or 0 to let extended-ref use its AM protocol for this call.
 * - put_nb / get_nb: transfers the conduit starts now and completes later
 *   (RDMA, MPI RMA), called under the same conditions. Return 0 to decline
 *   (extended-ref then tries put / get, then AM), or 1 to accept: the
 *   conduit then calls gasnete_done_signal(done) exactly once, when the
 *   transfer is complete (put: the data is in the target's memory, visible
 *   to later operations of any node; get: the data is in dest). It may
 *   signal before returning, or later from its progress: its AM poll or a
 *   progress hook (gasnet_hooks.h), which gasnet_AMPoll and every blocking
 *   wait run, on any thread. `done` stays valid until signalled. A put with
 *   bulk == 0 must leave src reusable when it returns (copy it, or wait for
 *   local completion); with bulk != 0 the client leaves src alone until the
 *   transfer completes.
 *   extended-ref uses put_nb / get_nb for the _nb and _nbi forms (and for
 *   the blocking forms when the synchronous slot is NULL or declines), so
 *   handles, access regions and every sync call cover them; it tries the
 *   synchronous slot first for the blocking forms. A sync call's _nopoll
 *   form only looks: conduit completions, like AM ones, then come from
 *   whatever else polls.
 * - barriers: extra barrier implementations, a NULL-terminated array, which
 *   GASNET_BARRIER may then name; default_barrier names the one used when
 *   GASNET_BARRIER is unset (NULL: AMDISSEM).
 * - The barrier as a fence for active messages (docs/extended.md):
 *   gasnet_barrier_wait, and a gasnet_barrier_try that succeeds, return only
 *   after this node has run every AM request that any node sent it before
 *   that node's notify, whatever the barrier implementation. A conduit
 *   whose requests may still be on their way when a barrier completes
 *   fills what it needs:
 *   am_fence_start: at notify; start making sure that every request this
 *     node has sent to a client handler so far has run at its destination;
 *     1 when that is known already. am_fence_done: asked, with polls in
 *     between, until it says 1; only then does the notify go out.
 *   am_run_arrived: once the barrier is complete; run every request that
 *     has arrived here and not yet run, polling, and return when their
 *     handlers have returned.
 *   A slot left NULL has nothing to do.
 *
 * Layers above extended-ref never include this header. */
#ifndef GASNET_EXTENDED_CONDUIT_H
#define GASNET_EXTENDED_CONDUIT_H

#include <gasnet.h>

GASNETI_BEGIN_EXTERNC

/* ------------------------------------------------------------ barrier consensus
 * What one node knows about the barrier in progress: whether anybody was
 * named (notified without GASNET_BARRIERFLAG_ANONYMOUS), the smallest
 * named id, and whether a mismatch is certain (two named ids differ, or
 * someone passed GASNET_BARRIERFLAG_MISMATCH). Merging is commutative,
 * associative and idempotent, so every node that has merged every
 * participant's contribution, in any order and any number of times,
 * reaches the same result: the same return code from wait/try and the same
 * gasnet_barrier_result on every node, mismatch or not. */
typedef struct {
  int named;    /* some participant was not anonymous */
  int value;    /* the smallest named id (valid when named) */
  int mismatch; /* two named ids differ, or someone passed _MISMATCH */
} gasnete_consensus_t;

static inline void gasnete_consensus_clear(gasnete_consensus_t *c) {
  c->named = 0;
  c->value = 0;
  c->mismatch = 0;
}

/* Fold in one (id, flags): a participant's notify arguments, or the wire
 * form of another consensus (gasnete_consensus_flags). */
static inline void gasnete_consensus_add(gasnete_consensus_t *c, int id, int flags) {
  if (flags & GASNET_BARRIERFLAG_MISMATCH) c->mismatch = 1;
  if (flags & GASNET_BARRIERFLAG_ANONYMOUS) return;
  if (!c->named) {
    c->named = 1;
    c->value = id;
  } else if (c->value != id) {
    c->mismatch = 1;
    if (id < c->value) c->value = id;
  }
}

/* The flags that, with c->value as the id, stand for a whole consensus on
 * the wire: gasnete_consensus_add of the pair gives back the same
 * knowledge. */
static inline int gasnete_consensus_flags(const gasnete_consensus_t *c) {
  return (c->named ? 0 : GASNET_BARRIERFLAG_ANONYMOUS) |
         (c->mismatch ? GASNET_BARRIERFLAG_MISMATCH : 0);
}

/* ------------------------------------------------------------ barrier implementations
 * The front end (gasnete_barrier.c) checks the calls and counts barriers;
 * phase is the barrier's number modulo 2: messages of the next barrier may
 * arrive while this one finishes, and never of the one after.
 *  init:       once, from the attach hook, on every node, when chosen. Peers
 *              may already be in the first barrier: do not clear state that
 *              handlers write (static storage starts zeroed).
 *  notify:     this node arrives with (id, flags) (flags already checked).
 *  try_finish: nonblocking; returns 1 when the barrier of `phase` is
 *              complete and fills *result with the consensus of every node,
 *              else 0. Called in a loop that polls between calls; it must
 *              make progress itself or through a progress hook. */
typedef struct {
  const char *name;
  const char *description;
  void (*init)(void);
  void (*notify)(unsigned phase, int id, int flags);
  int (*try_finish)(unsigned phase, gasnete_consensus_t *result_p);
} gasnete_barrier_impl_t;

/* ------------------------------------------------------------ conduit ops */
/* The completion count of an operation a conduit finishes later (put_nb,
 * get_nb): extended-ref owns it and compares it with what it initiated. */
typedef uint32_t gasnete_done_t;

/* Counts one completion; orders the transfer's effects before it, so the
 * thread that sees the count sees the data. Any thread may call it. */
static inline void gasnete_done_signal(gasnete_done_t *done) {
  __atomic_add_fetch(done, 1, __ATOMIC_RELEASE);
}

typedef struct {
  const char *name; /* for messages, e.g. "smp" */
  int (*put)(gasnet_node_t node, void *dest, const void *src, size_t nbytes);
  int (*get)(void *dest, gasnet_node_t node, const void *src, size_t nbytes);
  int (*memset)(gasnet_node_t node, void *dest, int val, size_t nbytes);
  int (*put_nb)(gasnet_node_t node, void *dest, const void *src, size_t nbytes, int bulk,
                gasnete_done_t *done);
  int (*get_nb)(void *dest, gasnet_node_t node, const void *src, size_t nbytes,
                gasnete_done_t *done);
  const gasnete_barrier_impl_t *const *barriers;
  const char *default_barrier;
  int (*am_fence_start)(void);
  int (*am_fence_done)(void);
  void (*am_run_arrived)(void);
} gasnete_conduit_ops_t;

/* Keeps the pointer: ops must outlive the job. Call before gasnet_attach
 * returns; a second registration replaces the first. */
extern void gasnete_register_conduit_ops(const gasnete_conduit_ops_t *ops);

/* The registered ops, or NULL. */
extern const gasnete_conduit_ops_t *gasnete_conduit_ops(void);

GASNETI_END_EXTERNC

#endif
