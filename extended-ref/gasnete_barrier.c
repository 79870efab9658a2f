/* gasnete_barrier.c: the barrier front end. It checks every call, keeps
 * the notify/wait pairing and the barrier count (whose parity is the phase
 * the implementations index their state by), and chooses the
 * implementation: GASNET_BARRIER names one (any case); unset, the
 * conduit's default, else AMDISSEM.
 *
 * Semantics (GASNet spec 1.8 as GASNet 1.20 and later implement it;
 * docs/extended.md): a barrier completes on every node once every node has
 * notified. A mismatch is a result, never an error: wait/try return
 * GASNET_ERR_BARRIER_MISMATCH
 *  - on every node, when two named notifies (flags without ANONYMOUS) gave
 *    different ids or any notify passed GASNET_BARRIERFLAG_MISMATCH (the
 *    implementations' consensus says so, the same on every node);
 *  - on this node only, when its wait/try is named and gives another id
 *    than the one the named notifies agreed on (decided here). A wait's
 *    flags need not repeat its notify's: an anonymous notify may be waited
 *    on by name and a named one anonymously.
 * Only a broken pairing (notify twice, wait/try without notify) is fatal,
 * with bad arguments and calls from handlers. Barrier calls are per node: in
 * a PAR process one thread at a time makes them. */
#include "gasnete_internal.h"

#include <string.h>
#include <strings.h>

#define GASNETE_BARRIER_FLAGS_KNOWN \
  (GASNET_BARRIERFLAG_ANONYMOUS | GASNET_BARRIERFLAG_MISMATCH | GASNET_BARRIERFLAG_IMAGES)

static const gasnete_barrier_impl_t *gasnete_barrier_impl;
static const gasnete_conduit_ops_t *gasnete_barrier_ops; /* the conduit's, or NULL */

static struct {
  int notified; /* between notify and the wait or successful try; stored atomically, as
                 * gasneti_barrier_pending reads it from whichever thread polls */
  int id;       /* of the pending notify */
  int flags;
  int fencing;  /* the notify waits for the conduit's AM fence */
  uint32_t count; /* barriers completed */
  gasnete_consensus_t last; /* the consensus of the last completed barrier */
  int last_id;              /* this node's id in it */
} gasnete_barrier_state;

/* ------------------------------------------------------------ choosing */
#define GASNETE_BARRIER_IMPLS_MAX 16

static int gasnete_barrier_list(const gasnete_barrier_impl_t **impls) {
  int n = 0;
  impls[n++] = &gasnete_barrier_amdissem;
  impls[n++] = &gasnete_barrier_amcentral;
  const gasnete_conduit_ops_t *ops = gasnete_conduit_ops();
  if (ops && ops->barriers)
    for (int i = 0; ops->barriers[i] && n < GASNETE_BARRIER_IMPLS_MAX; i++)
      impls[n++] = ops->barriers[i];
  return n;
}

static const gasnete_barrier_impl_t *gasnete_barrier_find(const gasnete_barrier_impl_t **impls,
                                                          int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (!strcasecmp(impls[i]->name, name)) return impls[i];
  return NULL;
}

static void gasnete_barrier_attach(void) {
  const gasnete_barrier_impl_t *impls[GASNETE_BARRIER_IMPLS_MAX];
  int n = gasnete_barrier_list(impls);
  const gasnete_conduit_ops_t *ops = gasnete_conduit_ops();
  const char *dflt = (ops && ops->default_barrier) ? ops->default_barrier : "AMDISSEM";
  const char *name = gasneti_getenv_verbose("GASNET_BARRIER", dflt);
  if (!name || !*name) name = dflt;
  const gasnete_barrier_impl_t *impl = gasnete_barrier_find(impls, n, name);
  if (!impl) {
    char valid[256] = "";
    for (int i = 0; i < n; i++) {
      strncat(valid, i ? ", " : "", sizeof(valid) - strlen(valid) - 1);
      strncat(valid, impls[i]->name, sizeof(valid) - strlen(valid) - 1);
    }
    gasneti_fatalerror("GASNET_BARRIER=\"%s\" is not a barrier implementation; valid names "
                       "(any case): %s",
                       name, valid);
  }
  impl->init();
  gasnete_barrier_impl = impl;
  gasnete_barrier_ops = ops;
}

GASNETE_CONSTRUCTOR static void gasnete_barrier_register(void) {
  gasneti_attach_hook_register(gasnete_barrier_attach);
}

/* ------------------------------------------------------------ checks */
static void gasnete_barrier_check_context(const char *call) {
  if (!gasnete_barrier_impl) gasneti_fatalerror("%s: called before gasnet_attach", call);
  if (gasneti_in_handler()) gasneti_fatalerror("%s: called inside an AM handler", call);
}

static void gasnete_barrier_check_flags(const char *call, int id, int flags) {
  if (flags & ~GASNETE_BARRIER_FLAGS_KNOWN)
    gasneti_fatalerror("%s: flags 0x%x (id %d) has bits other than GASNET_BARRIERFLAG_ANONYMOUS, "
                       "_MISMATCH and _IMAGES",
                       call, (unsigned)flags, id);
}

/* wait and try close the pending notify. */
static void gasnete_barrier_check_wait(const char *call, int id, int flags) {
  gasnete_barrier_check_context(call);
  gasnete_barrier_check_flags(call, id, flags);
  if (!gasnete_barrier_state.notified)
    gasneti_fatalerror("%s: no gasnet_barrier_notify is pending (called with id %d flags 0x%x)",
                       call, id, (unsigned)flags);
}

/* Called by the conduits' exit paths from any thread that polls, while the
 * barrier's thread may be in notify or wait: an atomic load (relaxed: it is
 * a hint, nothing else is read on its strength), against the stores there. */
int gasneti_barrier_pending(void) {
  return __atomic_load_n(&gasnete_barrier_state.notified, __ATOMIC_RELAXED);
}

static unsigned gasnete_barrier_phase(void) { return gasnete_barrier_state.count & 1u; }

/* Does this wait/try disagree with the barrier's outcome (GASNet 1.20 and
 * later, which clients rely on; spec 1.8 asked the wait to repeat its
 * notify)? Its flags may differ from the notify's: only a named wait's id
 * is checked, against the agreed name, and only when the barrier has one
 * (some notify was named). _MISMATCH and _IMAGES on the wait play no part. */
static int gasnete_barrier_local_mismatch(const gasnete_consensus_t *result, int id, int flags) {
  return !(flags & GASNET_BARRIERFLAG_ANONYMOUS) && result->named && id != result->value;
}

static int gasnete_barrier_finish(const gasnete_consensus_t *result, int id, int flags) {
  __atomic_store_n(&gasnete_barrier_state.notified, 0, __ATOMIC_RELAXED); /* see pending */
  gasnete_barrier_state.count++;
  gasnete_barrier_state.last = *result;
  gasnete_barrier_state.last_id = gasnete_barrier_state.id;
  return result->mismatch || gasnete_barrier_local_mismatch(result, id, flags)
             ? GASNET_ERR_BARRIER_MISMATCH
             : GASNET_OK;
}

/* ------------------------------------------------------------ the AM fence
 * A barrier is also a fence for active messages (docs/extended.md): the
 * notify goes out once the conduit knows this node's earlier requests have
 * run where they were sent (am_fence_start/_done), and a wait returns once
 * this node has run the requests that reached it (am_run_arrived). */
static void gasnete_barrier_arrive(void) {
  gasnete_barrier_state.fencing = 0;
  gasnete_barrier_impl->notify(gasnete_barrier_phase(), gasnete_barrier_state.id,
                               gasnete_barrier_state.flags & ~GASNET_BARRIERFLAG_IMAGES);
}

static void gasnete_barrier_fence_start(void) {
  const gasnete_conduit_ops_t *ops = gasnete_barrier_ops;
  gasneti_am_flush(); /* requests packed for later go before the notify */
  if (ops && ops->am_fence_start && !ops->am_fence_start())
    gasnete_barrier_state.fencing = 1;
  else
    gasnete_barrier_arrive();
}

/* Has the notify gone out (now, if the fence is done)? */
static int gasnete_barrier_fenced(void) {
  if (!gasnete_barrier_state.fencing) return 1;
  if (!gasnete_barrier_ops->am_fence_done()) return 0;
  gasnete_barrier_arrive();
  return 1;
}

static int gasnete_barrier_complete(unsigned phase, gasnete_consensus_t *result_p) {
  return gasnete_barrier_fenced() && gasnete_barrier_impl->try_finish(phase, result_p);
}

static void gasnete_barrier_run_arrived(void) {
  const gasnete_conduit_ops_t *ops = gasnete_barrier_ops;
  if (ops && ops->am_run_arrived) ops->am_run_arrived();
}

/* ------------------------------------------------------------ events
 * Category B: a notify with its id and flags; a wait (with how long it
 * waited) or try with its id, flags and result. */
static void gasnete_barrier_event(const char *call, int id, int flags, int64_t start_ns, int rc) {
  const char *result = rc == GASNET_OK                    ? "ok"
                       : rc == GASNET_ERR_BARRIER_MISMATCH ? "mismatch"
                       : rc == GASNET_ERR_NOT_READY         ? "not_ready"
                                                            : "";
  uint64_t ns = start_ns ? (uint64_t)(gasneti_now_ns() - start_ns) : 0;
  if (gasneti_stats_on('B'))
    gasneti_stats_add('B', call, NULL, start_ns ? GASNETI_STATS_TIME : GASNETI_STATS_COUNT, ns);
  if (!gasneti_trace_on('B')) return;
  if (start_ns)
    gasneti_trace_printf('B', "%s id=%d flags=0x%x result=%s time_us=%.3f", call, id,
                         (unsigned)flags, result, (double)ns / 1e3);
  else
    gasneti_trace_printf('B', "%s id=%d flags=0x%x%s%s", call, id, (unsigned)flags,
                         *result ? " result=" : "", result);
}

/* ------------------------------------------------------------ the API */
void gasnete_barrier_notify(int id, int flags) {
  static const char call[] = "gasnet_barrier_notify";
  gasnete_barrier_check_context(call);
  gasnete_barrier_check_flags(call, id, flags);
  if (gasnete_barrier_state.notified)
    gasneti_fatalerror("%s: called twice without gasnet_barrier_wait or a successful "
                       "gasnet_barrier_try in between (pending notify: id %d flags 0x%x; this "
                       "call: id %d flags 0x%x)",
                       call, gasnete_barrier_state.id, (unsigned)gasnete_barrier_state.flags, id,
                       (unsigned)flags);
  __atomic_store_n(&gasnete_barrier_state.notified, 1, __ATOMIC_RELAXED); /* see pending */
  gasnete_barrier_state.id = id;
  gasnete_barrier_state.flags = flags;
  if (gasneti_event_on('B')) gasnete_barrier_event(call, id, flags, 0, -1);
  gasnete_barrier_fence_start();
}

int gasnete_barrier_wait(int id, int flags) {
  static const char call[] = "gasnet_barrier_wait";
  int64_t t0 = gasneti_event_on('B') ? gasneti_now_ns() : 0;
  gasnete_barrier_check_wait(call, id, flags);
  const unsigned phase = gasnete_barrier_phase();
  gasnete_consensus_t result;
  unsigned spins = 0;
  while (!gasnete_barrier_complete(phase, &result)) gasneti_wait_step(&spins);
  gasnete_barrier_run_arrived();
  int rc = gasnete_barrier_finish(&result, id, flags);
  if (t0) gasnete_barrier_event(call, id, flags, t0, rc);
  return rc;
}

static int gasnete_barrier_try_now(int id, int flags) {
  gasnete_barrier_check_wait("gasnet_barrier_try", id, flags);
  gasnete_consensus_t result;
  gasnet_AMPoll();
  if (!gasnete_barrier_complete(gasnete_barrier_phase(), &result)) return GASNET_ERR_NOT_READY;
  gasnete_barrier_run_arrived();
  return gasnete_barrier_finish(&result, id, flags);
}

int gasnete_barrier_try(int id, int flags) {
  int rc = gasnete_barrier_try_now(id, flags);
  if (gasneti_event_on('B')) gasnete_barrier_event("gasnet_barrier_try", id, flags, 0, rc);
  return rc;
}

/* What the notifies of the last completed barrier agreed on, mismatch or
 * not, the same on every node: 0 and the (smallest) named id, or
 * GASNET_BARRIERFLAG_ANONYMOUS and this node's own notify id when nobody
 * was named. The arguments of wait/try play no part. */
int gasnete_barrier_result(int *id) {
  static const char call[] = "gasnet_barrier_result";
  gasnete_barrier_check_context(call);
  if (!id) gasneti_fatalerror("%s: id is NULL", call);
  if (gasnete_barrier_state.notified)
    gasneti_fatalerror("%s: called between gasnet_barrier_notify and its wait", call);
  if (!gasnete_barrier_state.count) gasneti_fatalerror("%s: no barrier has completed yet", call);
  const gasnete_consensus_t *last = &gasnete_barrier_state.last;
  if (last->named) {
    *id = last->value;
    return 0;
  }
  *id = gasnete_barrier_state.last_id;
  return GASNET_BARRIERFLAG_ANONYMOUS;
}
