/* coll_engine.c: the life of an op. Starting an op gives it the team's next
 * sequence number, picks its algorithm, replays messages that arrived
 * early (coll_early.c), files it where messages can find it, and enables
 * the progress hook (while any op is filed). A client's call may finish
 * before that: its algorithm's quick path needs no op at all (a root's
 * eager sends, data that all arrived early), and a fresh op that finishes
 * its part in its first step is never filed; either way the call returns
 * no handle. Op records are recycled through a free list.
 * The poll function then advances the active ops through
 *   IN_SYNC (IN_ALLSYNC only) -> DATA (the algorithm) -> OUT_SYNC (OUT_ALLSYNC only)
 * and retires ops that are done. An op that can only wait for a message
 * (a sync phase waiting for its peer's signal, an algorithm returning
 * WAITING) leaves the active list until a message for it arrives, so a
 * poll costs what the ready ops cost, not what is merely in flight; the
 * table that finds ops by sequence number grows with them. */
#define _GNU_SOURCE /* PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP */
#include "engine/coll_early.h"

#include <stddef.h>
#include <stdlib.h>

/* ------------------------------------------------------------ locking
 * SEQ: no lock. PAR: one recursive lock over the engine's state. It is
 * recursive because an op that sends may poll, and the poll may run a
 * collectives handler on the same thread; that nesting is safe because
 * handlers only record arrivals, which the progress functions re-read. */
#ifdef GASNETE_COLL_THREADS
/* Statically initialised: a peer's message may arrive before gasnet_coll_init. */
static pthread_mutex_t gasnete_coll_mutex = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
void gasnete_coll_lock(void) { pthread_mutex_lock(&gasnete_coll_mutex); }
void gasnete_coll_unlock(void) { pthread_mutex_unlock(&gasnete_coll_mutex); }
static int gasnete_coll_trylock(void) { return pthread_mutex_trylock(&gasnete_coll_mutex) == 0; }
#else
void gasnete_coll_lock(void) {}
void gasnete_coll_unlock(void) {}
static int gasnete_coll_trylock(void) { return 1; }
#endif

/* ------------------------------------------------------------ live ops */
/* Live ops by (team, sequence number), in a table that grows with them. */
static gasnete_coll_seq_table_t gasnete_coll_live = GASNETE_COLL_SEQ_TABLE_INIT(1024);
static gasnete_coll_op_t *gasnete_coll_active_head; /* ops the poll advances */
static gasnete_coll_op_t **gasnete_coll_active_tail = &gasnete_coll_active_head;
static gasneti_progress_hook_t *gasnete_coll_hook;

static gasnete_coll_op_t *gasnete_coll_find(uint32_t team_id, uint32_t seq) {
  gasnete_coll_keyed_t *k = gasnete_coll_seq_find(&gasnete_coll_live, team_id, seq);
  return k ? (gasnete_coll_op_t *)((char *)k - offsetof(gasnete_coll_op_t, key)) : NULL;
}

static void gasnete_coll_activate(gasnete_coll_op_t *op) {
  op->parked = 0;
  op->next_live = NULL;
  *gasnete_coll_active_tail = op;
  gasnete_coll_active_tail = &op->next_live;
}

static void gasnete_coll_file(gasnete_coll_op_t *op) {
  op->key.team_id = op->team->id;
  op->key.seq = op->seq;
  gasnete_coll_seq_add(&gasnete_coll_live, &op->key);
  gasnete_coll_activate(op);
}

static void gasnete_coll_unfile(gasnete_coll_op_t *op) {
  gasnete_coll_seq_remove(&gasnete_coll_live, &op->key);
}

/* ------------------------------------------------------------ delivery */
static void gasnete_coll_deliver(gasnete_coll_op_t *op, const gasnete_coll_msg_t *msg) {
  switch (GASNETE_COLL_TAG_OWNER(msg->tag)) {
    case GASNETE_COLL_TAG_CHECK: gasnete_coll_dissem_deliver(op, &op->check, msg); break;
    case GASNETE_COLL_TAG_IN_SYNC: gasnete_coll_dissem_deliver(op, &op->in_sync, msg); break;
    case GASNETE_COLL_TAG_OUT_SYNC: gasnete_coll_dissem_deliver(op, &op->out_sync, msg); break;
    case GASNETE_COLL_TAG_ALG: op->alg->deliver(op, msg); break;
    default:
      gasneti_fatalerror("gasnet_coll: message with unknown tag 0x%x for op %u from rank %u",
                         (unsigned)msg->tag, (unsigned)op->seq, (unsigned)msg->src_rank);
  }
  op->wakeups++;
  if (op->parked) gasnete_coll_activate(op);
}

static void gasnete_coll_dispatch_locked(uint32_t team_id, uint32_t seq,
                                         const gasnete_coll_msg_t *msg) {
  gasnete_coll_op_t *op = gasnete_coll_find(team_id, seq);
  if (op)
    gasnete_coll_deliver(op, msg);
  else
    gasnete_coll_early_store(team_id, seq, msg);
}

/* ------------------------------------------------------------ the inbox
 * A handler must never wait for the engine lock: the thread holding it may
 * itself be waiting for queue space at a peer whose handler is waiting for
 * that peer's lock, and the two would hold each other's queue slots for
 * ever. So a handler that finds the lock taken copies its message here,
 * under a lock held only for the copy, and the lock holder takes it over. */
#ifdef GASNETE_COLL_THREADS
static pthread_mutex_t gasnete_coll_inbox_mutex = PTHREAD_MUTEX_INITIALIZER;
static gasnete_coll_keyed_t *gasnete_coll_inbox; /* entries (gasnete_coll_early_t), oldest first */

/* A copy of a message (and its data) that outlives the handler. Taken with
 * malloc: the early store's free lists belong to the engine lock's holder. */
static gasnete_coll_early_t *gasnete_coll_inbox_copy(uint32_t team_id, uint32_t seq,
                                                     const gasnete_coll_msg_t *msg) {
  gasnete_coll_early_t *e = gasnete_coll_malloc(sizeof(*e) + gasnete_coll_early_payload(msg));
  gasnete_coll_early_fill(e, team_id, seq, msg);
  return e;
}
static gasnete_coll_keyed_t **gasnete_coll_inbox_tail = &gasnete_coll_inbox;
static int gasnete_coll_inbox_nonempty; /* atomic: a cheap look before locking */

static void gasnete_coll_inbox_push(uint32_t team_id, uint32_t seq, const gasnete_coll_msg_t *msg) {
  gasnete_coll_early_t *e = gasnete_coll_inbox_copy(team_id, seq, msg);
  pthread_mutex_lock(&gasnete_coll_inbox_mutex);
  *gasnete_coll_inbox_tail = &e->key;
  gasnete_coll_inbox_tail = &e->key.next;
  __atomic_store_n(&gasnete_coll_inbox_nonempty, 1, __ATOMIC_RELEASE);
  pthread_mutex_unlock(&gasnete_coll_inbox_mutex);
}

/* With the engine lock held: deliver what handlers left in the inbox. */
static void gasnete_coll_inbox_drain(void) {
  while (__atomic_load_n(&gasnete_coll_inbox_nonempty, __ATOMIC_ACQUIRE)) {
    pthread_mutex_lock(&gasnete_coll_inbox_mutex);
    gasnete_coll_keyed_t *list = gasnete_coll_inbox;
    gasnete_coll_inbox = NULL;
    gasnete_coll_inbox_tail = &gasnete_coll_inbox;
    __atomic_store_n(&gasnete_coll_inbox_nonempty, 0, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&gasnete_coll_inbox_mutex);
    while (list) {
      gasnete_coll_early_t *e = gasnete_coll_early_of(list);
      list = list->next;
      gasnete_coll_dispatch_locked(e->key.team_id, e->key.seq, &e->msg);
      free(e);
    }
  }
}
#else
static void gasnete_coll_inbox_push(uint32_t team_id, uint32_t seq, const gasnete_coll_msg_t *msg) {
  gasnete_coll_dispatch_locked(team_id, seq, msg); /* SEQ: the lock is never taken */
}
static void gasnete_coll_inbox_drain(void) {}
#endif

void gasnete_coll_dispatch(uint32_t team_id, uint32_t seq, const gasnete_coll_msg_t *msg) {
  if (!gasnete_coll_trylock()) {
    gasnete_coll_inbox_push(team_id, seq, msg);
    return;
  }
  gasnete_coll_dispatch_locked(team_id, seq, msg);
  gasnete_coll_unlock();
}

/* ------------------------------------------------------------ state machine */
/* A sync phase that is not complete waits for its peer's signal. */
static gasnete_coll_progress_t gasnete_coll_op_advance(gasnete_coll_op_t *op) {
  switch (op->state) {
    case GASNETE_COLL_OP_CHECK:
      if (!gasnete_coll_dissem_progress(op, &op->check)) return GASNETE_COLL_WAITING;
      op->state = GASNETE_COLL_OP_IN_SYNC;
      __attribute__((fallthrough));
    case GASNETE_COLL_OP_IN_SYNC:
      if (!gasnete_coll_dissem_progress(op, &op->in_sync)) return GASNETE_COLL_WAITING;
      op->state = GASNETE_COLL_OP_DATA;
      /* fall through: the data may move at once */
      __attribute__((fallthrough));
    case GASNETE_COLL_OP_DATA: {
      gasnete_coll_progress_t r = op->alg->progress(op);
      if (r != GASNETE_COLL_DONE) return r;
      op->state = GASNETE_COLL_OP_OUT_SYNC;
    }
      __attribute__((fallthrough));
    case GASNETE_COLL_OP_OUT_SYNC:
      if (!gasnete_coll_dissem_progress(op, &op->out_sync)) return GASNETE_COLL_WAITING;
      op->state = GASNETE_COLL_OP_DONE;
      __attribute__((fallthrough));
    case GASNETE_COLL_OP_DONE: return GASNETE_COLL_DONE;
  }
  return GASNETE_COLL_NOT_YET;
}

/* ------------------------------------------------------------ op records
 * Retired ops go back to a short free list and new ones come from it, so a
 * stream of small collectives costs no allocation. The progress hook is
 * enabled while any op is filed and until the next poll after the last
 * retires (gasnete_coll_hook_on). */
#define GASNETE_COLL_OP_POOL_MAX 64u
static gasnete_coll_op_t *gasnete_coll_op_pool;
static unsigned gasnete_coll_op_pool_n;
static uint32_t gasnete_coll_filed; /* ops filed on this node */
/* Whether the progress hook is enabled: from the first op filed until a
 * poll finds none filed. Left on when the last op retires, it costs the
 * next poll one check; turned off there at once, a client that starts
 * one collective after another would pay four locked instructions per
 * collective to turn it off and on again. */
static int gasnete_coll_hook_on;

/* Scratch blocks kept with an op record are at most this large. */
#define GASNETE_COLL_SCRATCH_KEEP 4096u

typedef struct gasnete_coll_scratch_extra_s {
  struct gasnete_coll_scratch_extra_s *next;
  uint64_t align;
} gasnete_coll_scratch_extra_t;

void *gasnete_coll_op_scratch(gasnete_coll_op_t *op, size_t nbytes) {
  gasnete_coll_scratch_t *s = &op->scratch;
  nbytes = (nbytes + 15) & ~(size_t)15;
  s->want += nbytes;
  if (!s->base) {
    s->cap = s->hint > 512 ? s->hint : 512;
    s->base = gasnete_coll_malloc(s->cap);
  }
  if (s->used + nbytes <= s->cap) {
    void *p = s->base + s->used;
    s->used += nbytes;
    memset(p, 0, nbytes);
    return p;
  }
  gasnete_coll_scratch_extra_t *e = gasnete_coll_calloc(1, sizeof(*e) + nbytes);
  e->next = s->extra;
  s->extra = e;
  return e + 1;
}

void gasnete_coll_op_scratch_release(gasnete_coll_op_t *op, int all) {
  gasnete_coll_scratch_t *s = &op->scratch;
  while (s->extra) {
    gasnete_coll_scratch_extra_t *e = s->extra;
    s->extra = e->next;
    free(e);
  }
  /* A block too small for this op is made again, as large as this op
   * needed (if that is not too much to keep). */
  if (all || s->want > s->cap) {
    free(s->base);
    s->base = NULL;
    s->cap = 0;
  }
  s->hint = !all && s->want <= GASNETE_COLL_SCRATCH_KEEP ? s->want : 0;
  s->want = 0;
  s->used = 0;
}

/* Out of line, so the size is not known where the state is cleared: a
 * constant size had gcc clear it with `rep stos`, slower here than the
 * library's memset for the few hundred bytes of a state. */
void *gasnete_coll_op_priv(gasnete_coll_op_t *op, size_t nbytes) {
  void *p = nbytes <= sizeof(op->inline_priv) ? (void *)op->inline_priv : gasnete_coll_calloc(1, nbytes);
  if (p == (void *)op->inline_priv) memset(p, 0, nbytes);
  op->priv = p;
  return p;
}

static gasnete_coll_op_t *gasnete_coll_op_get(void) {
  gasnete_coll_op_t *op = gasnete_coll_op_pool;
  if (!op) {
    op = gasnete_coll_malloc(sizeof(*op));
    memset(&op->scratch, 0, sizeof(op->scratch));
    return op;
  }
  gasnete_coll_op_pool = op->next_live;
  gasnete_coll_op_pool_n--;
  return op;
}

static void gasnete_coll_op_put(gasnete_coll_op_t *op) {
  int keep = gasnete_coll_op_pool_n < GASNETE_COLL_OP_POOL_MAX;
  gasnete_coll_op_scratch_release(op, !keep);
  if (!keep) {
    free(op);
    return;
  }
  op->next_live = gasnete_coll_op_pool;
  gasnete_coll_op_pool = op;
  gasnete_coll_op_pool_n++;
}

/* The op's part on this node is over (traced and counted when it began). */
static inline void gasnete_coll_op_over(const gasnete_coll_op_t *op) {
  if (op->event_ns) gasnete_coll_event_done(op->team, op->seq, &op->args, op->alg, op->event_ns);
}

static void gasnete_coll_retire(gasnete_coll_op_t *op) {
  gasnete_coll_op_over(op);
  gasnete_coll_unfile(op);
  op->team->live_ops--;
  if (op->alg->cleanup) op->alg->cleanup(op);
  if (op->handle) gasnete_coll_handle_op_done(op->handle); /* images: the cleanup did */
  gasnete_coll_op_put(op);
  gasnete_coll_progress_op_retired();
  gasnete_coll_filed--;
}

/* Set while this thread advances ops. An algorithm's send may poll (while
 * it waits for room at the peer), and the poll may reach this function
 * again (through the progress hook, or gasnete_coll_kick): that inner pass
 * must not advance or retire the ops the outer one is in the middle of. */
#ifdef GASNETE_COLL_THREADS
static __thread int gasnete_coll_advancing;
#else
static int gasnete_coll_advancing;
#endif

static int gasnete_coll_poll(void *arg) {
  (void)arg;
  if (gasnete_coll_advancing) return 0;
  if (!gasnete_coll_trylock()) return 0; /* another thread is advancing */
  if (!gasnete_coll_filed) { /* the last op retired since the previous poll */
    if (gasnete_coll_hook_on) gasneti_progress_disable(gasnete_coll_hook);
    gasnete_coll_hook_on = 0;
    gasnete_coll_unlock();
    return 0;
  }
  gasnete_coll_advancing = 1;
  gasnete_coll_inbox_drain();
  int retired = 0;
  gasnete_coll_op_t **p = &gasnete_coll_active_head;
  while (*p) {
    gasnete_coll_op_t *op = *p;
    uint32_t wakeups = op->wakeups;
    gasnete_coll_progress_t r = gasnete_coll_op_advance(op);
    /* A message that arrived during the call may have made it ready. */
    int park = r == GASNETE_COLL_WAITING && op->wakeups == wakeups;
    if (r == GASNETE_COLL_DONE || park) {
      *p = op->next_live;
      if (!*p) gasnete_coll_active_tail = p;
      if (park) {
        op->parked = 1;
      } else {
        gasnete_coll_retire(op);
        retired++;
      }
    } else {
      p = &op->next_live;
    }
  }
  gasnete_coll_advancing = 0;
  gasnete_coll_unlock();
  return retired;
}

#ifdef GASNET_DEBUG
/* What must agree across ranks, folded into the value the debug check
 * exchanges. */
static uint64_t gasnete_coll_args_digest(const gasnete_coll_args_t *args) {
  uint64_t h = (uint64_t)args->kind * 0x9e3779b97f4a7c15ull;
  h ^= (uint64_t)args->nbytes + 0x632be59bd9b4e019ull + (h << 6) + (h >> 2);
  h ^= (uint64_t)args->root + 0x8cb92ba72f3d8dd7ull + (h << 6) + (h >> 2);
  h ^= (uint64_t)(unsigned)args->flags + 0x2545f4914f6cdd1dull + (h << 6) + (h >> 2);
  const gasnete_coll_reduce_args_t *r = &args->red;
  const uint64_t red[] = {r->src_blksz, r->src_offset, r->dst_blksz, r->dst_offset,
                          r->elem_size, r->elem_count, r->func, (uint64_t)(unsigned)r->func_arg,
                          r->vec_count};
  for (unsigned i = 0; i < sizeof(red) / sizeof(red[0]); i++)
    h ^= red[i] + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h;
}
#endif

/* A fresh op, with the team's next sequence number, set up and with the
 * messages that arrived for it early delivered; not filed yet. With the
 * lock held. */
static gasnete_coll_op_t *gasnete_coll_op_make(gasnete_coll_team_t *team,
                                               const gasnete_coll_args_t *args,
                                               const gasnete_coll_alg_t *alg, const char *call) {
  gasnete_coll_op_t *op = gasnete_coll_op_get();
  /* Every field before inline_priv set here (check, in_sync and out_sync
   * below), none by a memset: gcc clears such a block with `rep stos`,
   * which cost an 8-byte exchange at 2 nodes a twentieth of its time. */
  op->next_live = NULL;
  op->key.next = NULL;
  op->team = team;
  op->args = *args;
  op->call = call;
  op->alg = alg;
  op->parked = 0;
  op->wakeups = 0;
  op->subphase = 0;
  op->event_ns = 0;
  op->handle = NULL;
  op->priv = NULL;
  int in_all = (args->flags & GASNET_COLL_IN_ALLSYNC) != 0;
  int out_all = (args->flags & GASNET_COLL_OUT_ALLSYNC) != 0;
#ifdef GASNET_DEBUG
  gasnete_coll_dissem_init(&op->check, GASNETE_COLL_TAG_CHECK, team->size,
                           gasnete_coll_args_digest(args));
#else
  gasnete_coll_dissem_init(&op->check, GASNETE_COLL_TAG_CHECK, 1, 0);
#endif
  gasnete_coll_dissem_init(&op->in_sync, GASNETE_COLL_TAG_IN_SYNC, in_all ? team->size : 1, 0);
  gasnete_coll_dissem_init(&op->out_sync, GASNETE_COLL_TAG_OUT_SYNC, out_all ? team->size : 1, 0);
  op->state = GASNETE_COLL_OP_CHECK;
  op->seq = team->next_seq++;
  if (gasneti_event_on('W'))
    op->event_ns = gasnete_coll_event_begin(team, op->seq, args, alg, call);
  op->alg->setup(op);
  gasnete_coll_early_replay(team->id, op->seq, op, gasnete_coll_deliver);
  return op;
}

/* File a made op where messages and the poll find it. */
static void gasnete_coll_op_file(gasnete_coll_op_t *op) {
  op->team->live_ops++;
  gasnete_coll_file(op);
  gasnete_coll_inbox_drain();
  gasnete_coll_filed++;
  if (!gasnete_coll_hook_on) {
    gasnete_coll_hook_on = 1;
    gasneti_progress_enable(gasnete_coll_hook);
  }
}

gasnete_coll_op_t *gasnete_coll_op_start_alg(gasnete_coll_team_t *team,
                                             const gasnete_coll_args_t *args,
                                             const gasnete_coll_alg_t *alg,
                                             gasnete_coll_handle_t *handle, const char *call) {
  gasnete_coll_lock();
  gasnete_coll_op_t *op = gasnete_coll_op_make(team, args, alg, call);
  op->handle = handle;
  gasnete_coll_op_file(op);
  gasnete_coll_unlock();
  gasnete_coll_progress_op_started();
  return op;
}

void gasnete_coll_op_bare(gasnete_coll_op_t *bare, gasnete_coll_team_t *team,
                          const gasnete_coll_args_t *args, const gasnete_coll_alg_t *alg,
                          const char *call) {
  bare->team = team;
  bare->args = *args;
  bare->alg = alg;
  bare->call = call;
  bare->seq = team->next_seq;
  bare->subphase = 0;
  bare->priv = NULL;
  bare->quick_blocking = 0;
  bare->quick_sent = 0;
}

/* The quick paths run only without sync phases (the debug check,
 * IN_ALLSYNC, OUT_ALLSYNC need an op). */
static int gasnete_coll_quick_allowed(const gasnete_coll_team_t *team,
                                      const gasnete_coll_args_t *args) {
#ifdef GASNET_DEBUG
  if (team->size > 1) return 0;
#else
  (void)team;
#endif
  return !(args->flags & (GASNET_COLL_IN_ALLSYNC | GASNET_COLL_OUT_ALLSYNC));
}

/* A blocking call whose quick path lacks only data its peers send unasked
 * waits for that data here, without an op: the data collects in the
 * early-arrival store (no op of this sequence number is filed), and the
 * quick path is tried again on the same bare op after every wait step.
 * For small data that saves making, filing and retiring an op, the most
 * of a small rooted collective's cost on the side that waits. The engine
 * lock is let go while the wait polls (handlers and other threads' ops
 * need it); the team's plan and next sequence number stay put, since its
 * calls come one at a time. */
static gasnete_coll_quick_t gasnete_coll_quick_wait(gasnete_coll_op_t *bare, const void *prep) {
  unsigned spins = 0;
  gasnete_coll_quick_t r;
  do {
    gasnete_coll_unlock();
    gasneti_wait_step(&spins);
    gasnete_coll_lock();
    gasnete_coll_inbox_drain(); /* what handlers left while another thread held the lock */
    r = bare->alg->quick(bare, prep);
  } while (r == GASNETE_COLL_QUICK_AWAIT);
  return r;
}

/* The algorithm's quick path, on a bare op, for a call made outside an
 * aggregate; 1 when it finished this node's part. With the lock held. */
static int gasnete_coll_try_quick(gasnete_coll_team_t *team, const gasnete_coll_args_t *args,
                                  const gasnete_coll_plan_t *plan, int blocking,
                                  const char *call) {
  if (!gasnete_coll_quick_allowed(team, args)) return 0;
  gasnete_coll_op_t bare;
  gasnete_coll_op_bare(&bare, team, args, plan->alg, call);
  bare.quick_blocking = (uint8_t)(blocking != 0);
  int64_t t0 = gasneti_event_on('W') ? gasneti_now_ns() : 0;
  gasnete_coll_quick_t r = plan->alg->quick(&bare, plan->prep);
  if (r == GASNETE_COLL_QUICK_AWAIT && blocking) r = gasnete_coll_quick_wait(&bare, plan->prep);
  if (r != GASNETE_COLL_QUICK_DONE) {
    if (bare.quick_sent)
      gasneti_fatalerror("%s: the %s quick path sent this node's data and then gave up", call,
                         plan->alg->name);
    return 0;
  }
  if (t0) {
    gasnete_coll_event_begin(team, bare.seq, args, plan->alg, call);
    gasnete_coll_event_done(team, bare.seq, args, plan->alg, t0);
  }
  team->next_seq++;
  return 1;
}

/* An op of this node's own call (not an image's). Without an aggregate
 * (handle NULL) it first tries the algorithm's quick path, then is
 * advanced once before it is filed: when that finishes
 * its part (a root whose sends have left, a receiver whose data had all
 * arrived early) it is retired at once and NULL returned, with no handle,
 * no table entry and no poll. Otherwise it gets a fresh handle (or joins
 * the aggregate's), is filed like any other, and its handle is returned.
 * Messages for it that arrive while it advances (a send may poll) wait in
 * the early-arrival store and are delivered before it is filed. A
 * blocking call may wait in its quick path (gasnete_coll_quick_wait). */
gasnete_coll_handle_t *gasnete_coll_op_start_call(gasnete_coll_team_t *team,
                                              const gasnete_coll_args_t *args,
                                              const gasnete_coll_plan_t *plan,
                                              gasnete_coll_handle_t *handle, int blocking,
                                              const char *call) {
  const gasnete_coll_alg_t *alg = plan->alg;
  gasnete_coll_lock();
  if (!handle && alg->quick && !gasnete_coll_advancing &&
      gasnete_coll_try_quick(team, args, plan, blocking, call)) {
    gasnete_coll_unlock();
    return NULL;
  }
  gasnete_coll_op_t *op = gasnete_coll_op_make(team, args, alg, call);
  if (!handle && !gasnete_coll_advancing) {
    gasnete_coll_advancing = 1;
    gasnete_coll_progress_t r = gasnete_coll_op_advance(op);
    gasnete_coll_advancing = 0;
    if (r == GASNETE_COLL_DONE) {
      gasnete_coll_op_over(op);
      if (alg->cleanup) alg->cleanup(op);
      gasnete_coll_op_put(op);
      gasnete_coll_unlock();
      return NULL;
    }
    gasnete_coll_early_replay(team->id, op->seq, op, gasnete_coll_deliver);
  }
  if (!handle) {
    handle = gasnete_coll_handle_new();
    gasnete_coll_count_add(&handle->pending, 1);
  }
  op->handle = handle;
  gasnete_coll_op_file(op);
  gasnete_coll_unlock();
  gasnete_coll_progress_op_started();
  return handle;
}

void gasnete_coll_profile_count(gasnete_coll_team_t *team, const gasnete_coll_args_t *args) {
  int reduction = args->kind == GASNETE_COLL_REDUCE || args->kind == GASNETE_COLL_SCAN;
  team->calls[args->kind]++;
  team->bytes[args->kind] += reduction ? (uint64_t)args->red.elem_size * args->red.elem_count
                                       : (uint64_t)args->nbytes;
}

void gasnete_coll_run(gasnete_coll_team_t *team, const gasnete_coll_args_t *args,
                      const char *call) {
  gasnete_coll_handle_t *h = gasnete_coll_handle_new();
  h->pending = 1;
  gasnete_coll_lock();
  gasnete_coll_profile_count(team, args);
  gasnete_coll_unlock();
  gasnete_coll_op_start_alg(team, args, gasnete_coll_select(args, team), h, call);
  gasnete_coll_kick();
  gasnet_coll_wait_sync((gasnet_coll_handle_t)h);
}

/* A freed team's id is never used again on this node (ids only grow), so
 * what a peer sent for it can only be dropped. */
void gasnete_coll_forget_team(uint32_t team_id) {
  gasnete_coll_lock();
  gasnete_coll_inbox_drain();
  gasnete_coll_early_drop_team(team_id);
  gasnete_coll_unlock();
}

/* Advance everything once: lets a fresh op start sending at once. */
void gasnete_coll_kick(void) { gasnete_coll_poll(NULL); }

void gasnete_coll_engine_init(void) {
  gasnete_coll_hook = gasneti_progress_register("gasnet_coll", gasnete_coll_poll, NULL);
}
