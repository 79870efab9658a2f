/* team_barrier.c: the split-phase barrier of a team other than
 * GASNET_TEAM_ALL, with the semantics of gasnet_barrier_* over the team's
 * members (docs/extended.md): it completes once every member has notified;
 * wait/try return GASNET_ERR_BARRIER_MISMATCH on every member when two
 * named members gave different ids or any passed GASNET_BARRIERFLAG_MISMATCH,
 * and on a member whose named wait/try gives another id than the agreed
 * name; anonymous members match anything.
 *
 * The barrier is an op of the collectives engine, so it takes the team's
 * next sequence number like any collective (every member orders it the same
 * way among the team's collectives) and its messages find it, or wait for
 * it, as any op's do. Its one algorithm is a dissemination exchange of
 * consensus values: in round r rank p sends what it knows to p + 2^r and
 * merges what p - 2^r sent. The merge is commutative, associative and
 * idempotent, so after ceil(log2 P) rounds every member holds the merge
 * of all P notifies. */
#include "teams/teams.h"

#include <stdlib.h>

/* ------------------------------------------------------------ consensus
 * bit 33: someone was named; bit 32: mismatch; bits 0-31: the name. */
#define GASNETE_COLL_CONS_NAMED (1ull << 33)
#define GASNETE_COLL_CONS_MISMATCH (1ull << 32)
#define GASNETE_COLL_BARRIER_FLAGS_KNOWN \
  (GASNET_BARRIERFLAG_ANONYMOUS | GASNET_BARRIERFLAG_MISMATCH | GASNET_BARRIERFLAG_IMAGES)

static uint64_t gasnete_coll_consensus_of(int id, int flags) {
  uint64_t c = 0;
  if (!(flags & GASNET_BARRIERFLAG_ANONYMOUS)) c |= GASNETE_COLL_CONS_NAMED | (uint32_t)id;
  if (flags & GASNET_BARRIERFLAG_MISMATCH) c |= GASNETE_COLL_CONS_MISMATCH;
  return c;
}

static uint64_t gasnete_coll_consensus_merge(uint64_t a, uint64_t b) {
  uint64_t mismatch = (a | b) & GASNETE_COLL_CONS_MISMATCH;
  if (!(a & GASNETE_COLL_CONS_NAMED)) return b | mismatch;
  if ((b & GASNETE_COLL_CONS_NAMED) && (uint32_t)a != (uint32_t)b)
    mismatch = GASNETE_COLL_CONS_MISMATCH;
  return a | mismatch;
}

/* ------------------------------------------------------------ the algorithm */
typedef struct {
  unsigned round, nrounds;
  int sent;                 /* this round's value is out */
  uint32_t arrived;         /* bit r: round r's value is in; atomic */
  uint64_t received[32];    /* the value of round r */
  uint64_t consensus;
} gasnete_coll_barrier_priv_t;

static int gasnete_coll_barrier_eligible(const gasnete_coll_args_t *args,
                                         const gasnete_coll_team_t *team) {
  (void)args;
  (void)team;
  return 1;
}

static void gasnete_coll_barrier_setup(gasnete_coll_op_t *op) {
  gasnete_coll_barrier_priv_t *b = gasnete_coll_calloc(1, sizeof(*b));
  b->nrounds = gasnete_coll_log2_ceil(op->team->size);
  b->consensus = op->team->barrier->mine;
  op->priv = b;
}

static gasnete_coll_progress_t gasnete_coll_barrier_progress(gasnete_coll_op_t *op) {
  gasnete_coll_barrier_priv_t *b = op->priv;
  gasnete_coll_team_t *team = op->team;
  while (b->round < b->nrounds) {
    if (!b->sent) {
      b->sent = 1;
      gasnet_node_t peer = gasnete_coll_rank_add(team->myrank, (gasnet_node_t)1 << b->round,
                                                 team->size);
      gasnete_coll_send_signal(op, peer, gasnete_coll_tag(GASNETE_COLL_TAG_ALG, 0, b->round),
                               b->consensus);
    }
    if (!(__atomic_load_n(&b->arrived, __ATOMIC_ACQUIRE) & (1u << b->round)))
      return GASNETE_COLL_WAITING;
    b->consensus = gasnete_coll_consensus_merge(b->consensus, b->received[b->round]);
    b->round++;
    b->sent = 0;
  }
  team->barrier->last = b->consensus; /* read by wait/try once the handle completes */
  return GASNETE_COLL_DONE;
}

static void gasnete_coll_barrier_deliver(gasnete_coll_op_t *op, const gasnete_coll_msg_t *msg) {
  gasnete_coll_barrier_priv_t *b = op->priv;
  unsigned round = gasnete_coll_tag_round(msg->tag);
  b->received[round] = msg->offset;
  __atomic_fetch_or(&b->arrived, 1u << round, __ATOMIC_ACQ_REL);
}

static void gasnete_coll_barrier_cleanup(gasnete_coll_op_t *op) { free(op->priv); }

static const gasnete_coll_alg_t gasnete_coll_team_barrier_alg = {
    "dissem", "dissemination exchange of the barrier's consensus", GASNETE_COLL_TEAM_BARRIER, 0,
    gasnete_coll_barrier_eligible, gasnete_coll_barrier_setup, gasnete_coll_barrier_progress,
    gasnete_coll_barrier_deliver, gasnete_coll_barrier_cleanup};

/* ------------------------------------------------------------ the calls */
/* The team's barrier state, made at its first use (ALL never has one: its
 * barrier is the node barrier). */
static gasnete_coll_team_barrier_t *gasnete_coll_team_barrier_of(gasnete_coll_team_t *team) {
  if (!team->barrier) team->barrier = gasnete_coll_calloc(1, sizeof(*team->barrier));
  return team->barrier;
}

static void gasnete_coll_team_barrier_check_wait(gasnete_coll_team_t *team, int id, int flags,
                                                 const char *call) {
  if (gasneti_in_handler()) gasnete_coll_fatal_misuse(call, "called from inside an AM handler");
  gasnete_coll_team_barrier_t *tb = gasnete_coll_team_barrier_of(team);
  if (!tb->notified)
    gasneti_fatalerror("%s: no gasnet_coll_barrier_notify is pending on team id %u (called with "
                       "id %d flags 0x%x)",
                       call, (unsigned)team->id, id, (unsigned)flags);
  if (flags & ~GASNETE_COLL_BARRIER_FLAGS_KNOWN)
    gasneti_fatalerror("%s: flags 0x%x (id %d) has bits other than GASNET_BARRIERFLAG_ANONYMOUS, "
                       "_MISMATCH and _IMAGES",
                       call, (unsigned)flags, id);
}

void gasnete_coll_team_barrier_notify(gasnete_coll_team_t *team, int id, int flags) {
  static const char call[] = "gasnet_coll_barrier_notify";
  gasnete_coll_team_barrier_t *tb = gasnete_coll_team_barrier_of(team);
  if (gasneti_in_handler()) gasnete_coll_fatal_misuse(call, "called from inside an AM handler");
  if (flags & ~GASNETE_COLL_BARRIER_FLAGS_KNOWN)
    gasneti_fatalerror("%s: flags 0x%x (id %d) has bits other than GASNET_BARRIERFLAG_ANONYMOUS, "
                       "_MISMATCH and _IMAGES",
                       call, (unsigned)flags, id);
  if (tb->notified)
    gasneti_fatalerror("%s: called twice on team id %u without a wait or successful try in "
                       "between (pending notify: id %d flags 0x%x; this call: id %d flags 0x%x)",
                       call, (unsigned)team->id, tb->id, (unsigned)tb->flags, id, (unsigned)flags);
  tb->notified = 1;
  tb->id = id;
  tb->flags = flags;
  tb->mine = gasnete_coll_consensus_of(id, flags);
  tb->handle = gasnete_coll_handle_new();
  tb->handle->pending = 1;
  gasnete_coll_args_t args;
  memset(&args, 0, sizeof(args));
  args.kind = GASNETE_COLL_TEAM_BARRIER;
  gasnete_coll_op_start_alg(team, &args, &gasnete_coll_team_barrier_alg, tb->handle, call);
  gasnete_coll_kick();
}

/* The wait's own verdict, as gasnet_barrier_wait's (extended-ref): its
 * flags need not repeat the notify's; a named wait must give the name the
 * named notifies agreed on, when there is one. */
static int gasnete_coll_team_barrier_finish(gasnete_coll_team_t *team, int id, int flags) {
  gasnete_coll_team_barrier_t *tb = gasnete_coll_team_barrier_of(team);
  tb->notified = 0;
  tb->handle = NULL;
  tb->count++;
  tb->last_id = tb->id;
  int named_wait_differs = !(flags & GASNET_BARRIERFLAG_ANONYMOUS) &&
                           (tb->last & GASNETE_COLL_CONS_NAMED) && (uint32_t)id != (uint32_t)tb->last;
  return (tb->last & GASNETE_COLL_CONS_MISMATCH) || named_wait_differs ? GASNET_ERR_BARRIER_MISMATCH
                                                                       : GASNET_OK;
}

int gasnete_coll_team_barrier_wait(gasnete_coll_team_t *team, int id, int flags) {
  gasnete_coll_team_barrier_check_wait(team, id, flags, "gasnet_coll_barrier_wait");
  gasnet_coll_wait_sync(team->barrier->handle);
  return gasnete_coll_team_barrier_finish(team, id, flags);
}

int gasnete_coll_team_barrier_try(gasnete_coll_team_t *team, int id, int flags) {
  gasnete_coll_team_barrier_check_wait(team, id, flags, "gasnet_coll_barrier_try");
  if (gasnet_coll_try_sync(team->barrier->handle) != GASNET_OK) return GASNET_ERR_NOT_READY;
  return gasnete_coll_team_barrier_finish(team, id, flags);
}

int gasnete_coll_team_barrier_result(gasnete_coll_team_t *team, int *id) {
  static const char call[] = "gasnet_coll_barrier_result";
  gasnete_coll_team_barrier_t *tb = gasnete_coll_team_barrier_of(team);
  if (!id) gasneti_fatalerror("%s: id is NULL", call);
  if (tb->notified)
    gasneti_fatalerror("%s: called between gasnet_coll_barrier_notify and its wait on team id %u",
                       call, (unsigned)team->id);
  if (!tb->count)
    gasneti_fatalerror("%s: no barrier of team id %u has completed yet", call, (unsigned)team->id);
  if (tb->last & GASNETE_COLL_CONS_NAMED) {
    *id = (int)(uint32_t)tb->last;
    return 0;
  }
  *id = tb->last_id;
  return GASNET_BARRIERFLAG_ANONYMOUS;
}
