/* gasnete_amdissem.c: the AM dissemination barrier (AMDISSEM).
 *
 * With N nodes the barrier takes ceil(lg N) steps. At step i node n sends
 * what it knows (its consensus so far) to node (n + 2^i) mod N, and may go
 * on to step i+1 once the message of step i from node (n - 2^i) mod N has
 * arrived. After the last step every node has heard, directly or not, from
 * every node, so every node holds the same consensus (Mellor-Crummey and
 * Scott, ACM ToCS 9(1), 1991, sec. 3.3).
 *
 * Messages are Short requests without replies: (phase | step << 1, id,
 * flags). Handlers only record them (they may arrive for the next barrier
 * while this one finishes: state is kept per phase). Sends happen outside
 * handlers, from notify, try and the progress hook, which is enabled from
 * notify until the barrier completes, so the barrier advances whenever the
 * node polls, between notify and wait too. */
#include "gasnete_internal.h"

typedef enum {
  AMDISSEM_IDLE = 0, /* no barrier in progress (or its result was taken) */
  AMDISSEM_RUNNING,  /* notified; steps in progress */
  AMDISSEM_DONE      /* every step sent and received; result ready */
} gasnete_amdissem_state_t;

typedef struct {
  uint32_t received;        /* bit i: the message of step i arrived */
  gasnete_consensus_t cons; /* own contribution and everything received */
} gasnete_amdissem_phase_t;

static struct {
  gasnete_lock_t lock;
  gasnete_amdissem_phase_t ph[2];
  gasnete_amdissem_state_t state;
  unsigned phase;  /* of the barrier in progress */
  unsigned step;   /* next step to send */
  unsigned nsteps; /* ceil(lg N) */
  gasnet_node_t me, nodes;
  gasnete_consensus_t result;
  gasneti_progress_hook_t *hook;
} gasnete_amdissem = {GASNETE_LOCK_INITIALIZER};

static gasnet_node_t gasnete_amdissem_peer(unsigned step) {
  return (gasnet_node_t)(((uint64_t)gasnete_amdissem.me + ((uint64_t)1 << step)) %
                         gasnete_amdissem.nodes);
}

static void gasnete_amdissem_reqh(gasnet_token_t token, gasnet_handlerarg_t phase_step,
                                  gasnet_handlerarg_t id, gasnet_handlerarg_t flags) {
  (void)token;
  unsigned phase = (uint32_t)phase_step & 1u, step = (uint32_t)phase_step >> 1;
  gasnete_lock(&gasnete_amdissem.lock);
  gasnete_amdissem_phase_t *ph = &gasnete_amdissem.ph[phase];
  if (step >= 32 || (ph->received & (1u << step)))
    gasneti_fatalerror("AMDISSEM barrier: unexpected message for phase %u step %u", phase, step);
  gasnete_consensus_add(&ph->cons, (int)id, (int)flags);
  ph->received |= 1u << step;
  gasnete_unlock(&gasnete_amdissem.lock);
}

/* Sends every step that may be sent and notices completion. Never blocks;
 * safe to call from any thread, any number of times. The lock is never
 * held while sending (a send may poll, and handlers take the lock). */
static int gasnete_amdissem_progress(void *arg) {
  (void)arg;
  int work = 0;
  for (;;) {
    gasnete_lock(&gasnete_amdissem.lock);
    if (gasnete_amdissem.state != AMDISSEM_RUNNING) break;
    const unsigned phase = gasnete_amdissem.phase, step = gasnete_amdissem.step;
    gasnete_amdissem_phase_t *ph = &gasnete_amdissem.ph[phase];
    if (step < gasnete_amdissem.nsteps && (step == 0 || (ph->received & (1u << (step - 1))))) {
      gasnete_consensus_t snapshot = ph->cons;
      gasnete_amdissem.step = step + 1;
      gasnete_unlock(&gasnete_amdissem.lock);
      gasnet_AMRequestShort3(gasnete_amdissem_peer(step), GASNETE_H_AMDISSEM_NOTIFY,
                             (gasnet_handlerarg_t)(phase | step << 1),
                             (gasnet_handlerarg_t)snapshot.value,
                             (gasnet_handlerarg_t)gasnete_consensus_flags(&snapshot));
      work++;
      continue;
    }
    const uint32_t all = (uint32_t)((1ull << gasnete_amdissem.nsteps) - 1);
    if (step == gasnete_amdissem.nsteps && ph->received == all) {
      gasnete_amdissem.result = ph->cons;
      ph->received = 0; /* the phase is free for the barrier after next */
      gasnete_consensus_clear(&ph->cons);
      gasnete_amdissem.state = AMDISSEM_DONE;
      gasnete_unlock(&gasnete_amdissem.lock);
      gasneti_progress_disable(gasnete_amdissem.hook);
      return work + 1;
    }
    break;
  }
  gasnete_unlock(&gasnete_amdissem.lock);
  return work;
}

static void gasnete_amdissem_init(void) {
  unsigned nsteps = 0;
  while (((uint64_t)1 << nsteps) < (uint64_t)gasnet_nodes()) nsteps++;
  gasnete_amdissem.nsteps = nsteps;
  gasnete_amdissem.me = gasnet_mynode();
  gasnete_amdissem.nodes = gasnet_nodes();
  gasnete_amdissem.hook = gasneti_progress_register("AMDISSEM barrier", gasnete_amdissem_progress,
                                                    NULL);
}

static void gasnete_amdissem_notify(unsigned phase, int id, int flags) {
  /* Enabled before the barrier is marked running: once it is, another
   * thread's poll may complete it (at once with one node) and disable the
   * hook, which must not come before this enable. */
  gasneti_progress_enable(gasnete_amdissem.hook);
  gasnete_lock(&gasnete_amdissem.lock);
  gasnete_consensus_add(&gasnete_amdissem.ph[phase].cons, id, flags);
  gasnete_amdissem.phase = phase;
  gasnete_amdissem.step = 0;
  gasnete_amdissem.state = AMDISSEM_RUNNING;
  gasnete_unlock(&gasnete_amdissem.lock);
  gasnete_amdissem_progress(NULL);
}

static int gasnete_amdissem_try(unsigned phase, gasnete_consensus_t *result_p) {
  (void)phase;
  gasnete_amdissem_progress(NULL);
  int done = 0;
  gasnete_lock(&gasnete_amdissem.lock);
  if (gasnete_amdissem.state == AMDISSEM_DONE) {
    *result_p = gasnete_amdissem.result;
    gasnete_amdissem.state = AMDISSEM_IDLE;
    done = 1;
  }
  gasnete_unlock(&gasnete_amdissem.lock);
  return done;
}

const gasnete_barrier_impl_t gasnete_barrier_amdissem = {
    "AMDISSEM", "AM dissemination barrier: ceil(lg N) rounds of one Short message per node",
    gasnete_amdissem_init, gasnete_amdissem_notify, gasnete_amdissem_try};

GASNETE_CONSTRUCTOR static void gasnete_amdissem_register(void) {
  static const gasnet_handlerentry_t table[] = {
      {GASNETE_H_AMDISSEM_NOTIFY, (gasneti_handler_fn_t)gasnete_amdissem_reqh},
  };
  gasneti_handler_register_range(table, 1, GASNETI_HANDLER_EXTENDED_MIN,
                                 GASNETI_HANDLER_EXTENDED_MAX, "extended-ref AMDISSEM barrier");
}
