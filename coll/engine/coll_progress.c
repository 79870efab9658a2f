/* coll_progress.c: the optional progress thread (PAR builds,
 * GASNET_COLL_PROGRESS_THREAD=1).
 *
 * Without it collectives advance only when a client thread polls or syncs.
 * With it, a thread of the library polls while any collective is live, so
 * a node's part of a collective goes on while its client computes, and
 * sleeps on a condition variable when none is: an idle job costs nothing.
 * Client reduction functions registered without GASNET_COLL_AMSAFE never
 * run on this thread (gasnete_coll_apply_may_run asks
 * gasnete_coll_on_progress_thread); the next client poll or sync runs
 * them.
 *
 * The sleep uses its own mutex, which is never held while anything else is
 * taken, so waking the thread is safe from any context that starts an op
 * (seed 000's condition variable over a lock a handler may take). */
#include "engine/engine.h"

#ifdef GASNETE_COLL_THREADS
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t gasnete_coll_sleep_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gasnete_coll_sleep_cond = PTHREAD_COND_INITIALIZER;
static uint32_t gasnete_coll_live_count; /* live ops on this node; atomic */
static int gasnete_coll_progress_on;
static __thread int gasnete_coll_is_progress_thread;

int gasnete_coll_on_progress_thread(void) { return gasnete_coll_is_progress_thread; }

/* Without the thread nobody reads the count: no atomic on the op path.
 * gasnete_coll_progress_on is set once, in gasnet_coll_init, before any op
 * can start. */
void gasnete_coll_progress_op_started(void) {
  if (!gasnete_coll_progress_on ||
      __atomic_fetch_add(&gasnete_coll_live_count, 1, __ATOMIC_ACQ_REL) != 0)
    return;
  pthread_mutex_lock(&gasnete_coll_sleep_mutex);
  pthread_cond_signal(&gasnete_coll_sleep_cond);
  pthread_mutex_unlock(&gasnete_coll_sleep_mutex);
}

void gasnete_coll_progress_op_retired(void) {
  if (gasnete_coll_progress_on) __atomic_fetch_sub(&gasnete_coll_live_count, 1, __ATOMIC_ACQ_REL);
}

static int gasnete_coll_any_live(void) {
  return __atomic_load_n(&gasnete_coll_live_count, __ATOMIC_ACQUIRE) != 0;
}

static void *gasnete_coll_progress_main(void *arg) {
  (void)arg;
  gasnete_coll_is_progress_thread = 1;
  for (;;) {
    pthread_mutex_lock(&gasnete_coll_sleep_mutex);
    while (!gasnete_coll_any_live()) pthread_cond_wait(&gasnete_coll_sleep_cond, &gasnete_coll_sleep_mutex);
    pthread_mutex_unlock(&gasnete_coll_sleep_mutex);
    unsigned spins = 0;
    while (gasnete_coll_any_live()) {
      gasnet_AMPoll();
      gasneti_wait_step(&spins); /* yields when processes outnumber cores */
    }
  }
  return NULL;
}

/* Detached: it lives until the process ends, asleep when there is nothing
 * to do. Returns 1 when it runs. */
int gasnete_coll_progress_init(void) {
  const char *v = gasneti_getenv_verbose("GASNET_COLL_PROGRESS_THREAD", "0");
  if (!v || !strcmp(v, "0") || !strcmp(v, "no")) return 0;
  if (strcmp(v, "1") && strcmp(v, "yes"))
    gasneti_fatalerror("GASNET_COLL_PROGRESS_THREAD is '%s'; it must be 0, 1, no or yes", v);
  gasnete_coll_progress_on = 1;
  pthread_attr_t attr;
  pthread_t t;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  int rc = pthread_create(&t, &attr, gasnete_coll_progress_main, NULL);
  pthread_attr_destroy(&attr);
  if (rc) gasneti_fatalerror("gasnet_coll_init: cannot start the progress thread: %s", strerror(rc));
  return 1;
}
#else
#include <string.h>

/* SEQ: the client is the only thread; GASNET_COLL_PROGRESS_THREAD asks for
 * something this build cannot do. */
int gasnete_coll_on_progress_thread(void) { return 0; }
void gasnete_coll_progress_op_started(void) {}
void gasnete_coll_progress_op_retired(void) {}
int gasnete_coll_progress_init(void) {
  const char *v = gasneti_getenv_verbose("GASNET_COLL_PROGRESS_THREAD", "0");
  if (v && strcmp(v, "0") && strcmp(v, "no"))
    gasneti_fatalerror("GASNET_COLL_PROGRESS_THREAD=%s: a progress thread needs a PAR build "
                       "(this program was built GASNET_SEQ)",
                       v);
  return 0;
}
#endif
