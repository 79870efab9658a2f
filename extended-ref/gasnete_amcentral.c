/* gasnete_amcentral.c: the AM centralized barrier (AMCENTRAL).
 *
 * Every node sends its (id, flags) to node 0, the master, which counts the
 * arrivals and merges them. When all N have arrived, the master's progress
 * hook (handlers may not send requests) sends the consensus to every other
 * node. Simple, and a reference for checking the others, but it does not
 * scale: the master handles N messages per barrier, and completion waits
 * for the master to poll.
 *
 * Messages are Short requests without replies: NOTIFY (phase, id, flags)
 * to the master, DONE (phase, id, flags) from it. Arrivals for the next
 * barrier may reach the master before it finishes this one, so its counts
 * are kept per phase. */
#include "gasnete_internal.h"

#define GASNETE_AMCENTRAL_MASTER 0

static struct {
  gasnete_lock_t lock;
  /* master only */
  uint32_t arrived[2];
  gasnete_consensus_t cons[2];
  int master_active;     /* the master has notified and not yet released */
  unsigned master_phase; /* the phase it has notified */
  /* every node */
  int done[2];
  gasnete_consensus_t result[2];
  gasneti_progress_hook_t *hook;
  gasnet_node_t me, nodes;
} gasnete_amcentral = {GASNETE_LOCK_INITIALIZER};

static void gasnete_amcentral_arrive(unsigned phase, int id, int flags) {
  gasnete_lock(&gasnete_amcentral.lock);
  gasnete_amcentral.arrived[phase]++;
  gasnete_consensus_add(&gasnete_amcentral.cons[phase], id, flags);
  gasnete_unlock(&gasnete_amcentral.lock);
}

static void gasnete_amcentral_set_done(unsigned phase, const gasnete_consensus_t *result) {
  gasnete_lock(&gasnete_amcentral.lock);
  gasnete_amcentral.result[phase] = *result;
  gasnete_amcentral.done[phase] = 1;
  gasnete_unlock(&gasnete_amcentral.lock);
}

static void gasnete_amcentral_notify_reqh(gasnet_token_t token, gasnet_handlerarg_t phase,
                                          gasnet_handlerarg_t id, gasnet_handlerarg_t flags) {
  (void)token;
  gasnete_amcentral_arrive((unsigned)phase & 1u, (int)id, (int)flags);
}

static void gasnete_amcentral_done_reqh(gasnet_token_t token, gasnet_handlerarg_t phase,
                                        gasnet_handlerarg_t id, gasnet_handlerarg_t flags) {
  (void)token;
  gasnete_consensus_t result;
  gasnete_consensus_clear(&result);
  gasnete_consensus_add(&result, (int)id, (int)flags);
  gasnete_amcentral_set_done((unsigned)phase & 1u, &result);
}

/* Master: once everybody has arrived, release them. Never blocks. */
static int gasnete_amcentral_progress(void *arg) {
  (void)arg;
  gasnete_lock(&gasnete_amcentral.lock);
  const unsigned phase = gasnete_amcentral.master_phase;
  if (!gasnete_amcentral.master_active ||
      gasnete_amcentral.arrived[phase] != gasnete_amcentral.nodes) {
    gasnete_unlock(&gasnete_amcentral.lock);
    return 0;
  }
  gasnete_consensus_t result = gasnete_amcentral.cons[phase];
  gasnete_amcentral.arrived[phase] = 0; /* free for the barrier after next */
  gasnete_consensus_clear(&gasnete_amcentral.cons[phase]);
  gasnete_amcentral.master_active = 0;
  gasnete_unlock(&gasnete_amcentral.lock);
  gasneti_progress_disable(gasnete_amcentral.hook);
  const gasnet_handlerarg_t flags = (gasnet_handlerarg_t)gasnete_consensus_flags(&result);
  for (gasnet_node_t n = 0; n < gasnete_amcentral.nodes; n++)
    if (n != GASNETE_AMCENTRAL_MASTER)
      gasnet_AMRequestShort3(n, GASNETE_H_AMCENTRAL_DONE, (gasnet_handlerarg_t)phase,
                             (gasnet_handlerarg_t)result.value, flags);
  gasnete_amcentral_set_done(phase, &result);
  return 1;
}

static void gasnete_amcentral_init(void) {
  gasnete_amcentral.me = gasnet_mynode();
  gasnete_amcentral.nodes = gasnet_nodes();
  if (gasnete_amcentral.me == GASNETE_AMCENTRAL_MASTER)
    gasnete_amcentral.hook = gasneti_progress_register("AMCENTRAL barrier master",
                                                       gasnete_amcentral_progress, NULL);
}

static void gasnete_amcentral_notify(unsigned phase, int id, int flags) {
  if (gasnete_amcentral.me != GASNETE_AMCENTRAL_MASTER) {
    gasnet_AMRequestShort3(GASNETE_AMCENTRAL_MASTER, GASNETE_H_AMCENTRAL_NOTIFY,
                           (gasnet_handlerarg_t)phase, (gasnet_handlerarg_t)id,
                           (gasnet_handlerarg_t)flags);
    return;
  }
  /* Enabled before the master is marked active: once it is, another
   * thread's poll may release the barrier (at once with one node) and
   * disable the hook, which must not come before this enable. */
  gasneti_progress_enable(gasnete_amcentral.hook);
  gasnete_lock(&gasnete_amcentral.lock);
  gasnete_amcentral.arrived[phase]++;
  gasnete_consensus_add(&gasnete_amcentral.cons[phase], id, flags);
  gasnete_amcentral.master_phase = phase;
  gasnete_amcentral.master_active = 1;
  gasnete_unlock(&gasnete_amcentral.lock);
  gasnete_amcentral_progress(NULL);
}

static int gasnete_amcentral_try(unsigned phase, gasnete_consensus_t *result_p) {
  if (gasnete_amcentral.me == GASNETE_AMCENTRAL_MASTER) gasnete_amcentral_progress(NULL);
  int done = 0;
  gasnete_lock(&gasnete_amcentral.lock);
  if (gasnete_amcentral.done[phase]) {
    *result_p = gasnete_amcentral.result[phase];
    gasnete_amcentral.done[phase] = 0;
    done = 1;
  }
  gasnete_unlock(&gasnete_amcentral.lock);
  return done;
}

const gasnete_barrier_impl_t gasnete_barrier_amcentral = {
    "AMCENTRAL", "AM centralized barrier: every node reports to node 0, which releases all",
    gasnete_amcentral_init, gasnete_amcentral_notify, gasnete_amcentral_try};

GASNETE_CONSTRUCTOR static void gasnete_amcentral_register(void) {
  static const gasnet_handlerentry_t table[] = {
      {GASNETE_H_AMCENTRAL_NOTIFY, (gasneti_handler_fn_t)gasnete_amcentral_notify_reqh},
      {GASNETE_H_AMCENTRAL_DONE, (gasneti_handler_fn_t)gasnete_amcentral_done_reqh},
  };
  gasneti_handler_register_range(table, 2, GASNETI_HANDLER_EXTENDED_MIN,
                                 GASNETI_HANDLER_EXTENDED_MAX, "extended-ref AMCENTRAL barrier");
}
