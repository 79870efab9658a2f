/* gasnet_progress.c: gasnet_AMPoll, the progress-hook registry used by the
 * layers above the core, and the attach hooks. */
#include "gasnet_internal.h"

#include <stdlib.h>

struct gasneti_progress_hook_s {
  const char *name;
  gasneti_progress_fn_t fn;
  void *arg;
  int enabled; /* nesting count; atomic */
};

#define GASNETI_PROGRESS_MAX 16
static gasneti_progress_hook_t gasneti_progress_hooks[GASNETI_PROGRESS_MAX];
static int gasneti_progress_nhooks;   /* atomic */
static int gasneti_progress_nenabled; /* atomic: sum of the enabled counts */

/* A poll function may itself wait (and so poll): run the hooks one level
 * deep per thread, never recursively. */
static GASNETI_THREAD_LOCAL int gasneti_progress_running;

gasneti_progress_hook_t *gasneti_progress_register(const char *name, gasneti_progress_fn_t fn,
                                                   void *arg) {
  int i = __atomic_fetch_add(&gasneti_progress_nhooks, 1, __ATOMIC_ACQ_REL);
  if (i >= GASNETI_PROGRESS_MAX)
    gasneti_fatalerror("gasneti_progress_register: more than %d progress hooks (\"%s\")",
                       GASNETI_PROGRESS_MAX, name);
  gasneti_progress_hook_t *hook = &gasneti_progress_hooks[i];
  hook->name = name;
  hook->arg = arg;
  __atomic_store_n(&hook->fn, fn, __ATOMIC_RELEASE);
  return hook;
}

void gasneti_progress_enable(gasneti_progress_hook_t *hook) {
  __atomic_fetch_add(&hook->enabled, 1, __ATOMIC_ACQ_REL);
  __atomic_fetch_add(&gasneti_progress_nenabled, 1, __ATOMIC_ACQ_REL);
}

void gasneti_progress_disable(gasneti_progress_hook_t *hook) {
  if (__atomic_fetch_sub(&hook->enabled, 1, __ATOMIC_ACQ_REL) <= 0)
    gasneti_fatalerror("gasneti_progress_disable: hook \"%s\" was not enabled", hook->name);
  __atomic_fetch_sub(&gasneti_progress_nenabled, 1, __ATOMIC_ACQ_REL);
}

int gasneti_progress_run(void) {
  if (__atomic_load_n(&gasneti_progress_nenabled, __ATOMIC_ACQUIRE) == 0) return 0;
  if (gasneti_progress_running) return 0;
  gasneti_progress_running = 1;
  /* Requests a hook sends (a collective's next step, a barrier's next
   * round) are the library waiting, not the client sending: they must not
   * make the pacer (gasnet_pace.h) rest the network the next poll looks at,
   * or every message a collective waits for would wait out a rest. */
  unsigned client_issued = gasneti_am_requests_issued;
  int work = 0;
  int n = __atomic_load_n(&gasneti_progress_nhooks, __ATOMIC_ACQUIRE);
  for (int i = 0; i < n && i < GASNETI_PROGRESS_MAX; i++) {
    gasneti_progress_hook_t *hook = &gasneti_progress_hooks[i];
    gasneti_progress_fn_t fn = __atomic_load_n(&hook->fn, __ATOMIC_ACQUIRE);
    if (fn && __atomic_load_n(&hook->enabled, __ATOMIC_ACQUIRE) > 0) work += fn(hook->arg);
  }
  gasneti_am_requests_issued = client_issued;
  gasneti_progress_running = 0;
  return work;
}

int gasnet_AMPoll(void) {
  if (!gasneti_attach_done) return GASNET_OK; /* nothing can arrive before attach */
  if (gasneti_am_coalescing) gasneti_am_coalesce_polled();
  gasnetc_am_poll();
  gasneti_progress_run();
  return GASNET_OK;
}

/* ------------------------------------------------------------ attach hooks */
#define GASNETI_ATTACH_HOOKS_MAX 16
static gasneti_attach_hook_fn_t gasneti_attach_hooks[GASNETI_ATTACH_HOOKS_MAX];
static int gasneti_attach_nhooks;

void gasneti_attach_hook_register(gasneti_attach_hook_fn_t fn) {
  if (gasneti_attach_nhooks == GASNETI_ATTACH_HOOKS_MAX)
    gasneti_fatalerror("gasneti_attach_hook_register: more than %d attach hooks",
                       GASNETI_ATTACH_HOOKS_MAX);
  gasneti_attach_hooks[gasneti_attach_nhooks++] = fn;
}

void gasneti_attach_hooks_run(void) {
  for (int i = 0; i < gasneti_attach_nhooks; i++) gasneti_attach_hooks[i]();
}
