/* smp_exit.c: ending the job.
 *
 * The job's exit code lives in shared memory (the conduit area of the
 * shared-memory layer's region). The first node to end decides it
 * (gasnet_exit, a return from main or exit(), a fatal signal), or the
 * supervisor when a node is killed; a later non-zero code replaces a zero
 * one. Every node checks the exit flag when it polls. A node that finds the
 * job ending:
 *  - lets its own exit path finish if it is in one (a thread of it called
 *    gasnet_exit or exit()): output flushed, atexit handlers run;
 *  - otherwise raises SIGQUIT if the client has a handler for it (which may
 *    call gasnet_exit), then ends with the job's code.
 * In a collective exit the others may end while this node is still on its
 * way to its own exit: in its final barrier, or computing and printing
 * after it, while another thread of it polls. So a poll that finds the job
 * ending lets the node go on (it returns) for as long as the node makes
 * progress, up to GASNET_EXITTIMEOUT after it first noticed: until its main
 * thread has been stuck half a second in one blocking wait, which the departed
 * nodes may never end (gasneti_exit_may_go_on). Then the node ends. A job
 * that ends in a failure (a fatal error or signal, a killed node: the
 * exit_failed word) is no collective exit: every node ends at its next poll.
 *
 * A node that does not poll within GASNET_EXITTIMEOUT is sent
 * GASNETC_SMP_REMOTEEXIT_SIGNAL by the supervisor (as GASNet's smp conduit
 * does); its handler does what a poll would, from wherever the node was. */
#define _GNU_SOURCE
#include "smp_internal.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int gasnetc_smp_exiting;                      /* atomic: this node is ending */
static GASNETI_THREAD_LOCAL int gasnetc_smp_in_exit; /* this thread ends it */
static int64_t gasnetc_smp_noticed_ns;               /* atomic: when the job's end was seen */
double gasnetc_smp_exit_timeout;                     /* GASNET_EXITTIMEOUT */

int gasnetc_smp_claim_exit(int code) {
  gasnetc_smp_shared_t *ctl = gasnetc_smp_shared();
  int32_t expected = 0;
  /* exit_code is written before the flag is raised, under a CAS on a
   * second flag value, so readers that see the flag see the code. */
  if (__atomic_compare_exchange_n(&ctl->exit_flag, &expected, -1, 0, __ATOMIC_ACQ_REL,
                                  __ATOMIC_ACQUIRE)) {
    __atomic_store_n(&ctl->exit_code, (int32_t)code, __ATOMIC_RELAXED);
    __atomic_store_n(&ctl->exit_flag, 1, __ATOMIC_RELEASE);
    return code;
  }
  while (__atomic_load_n(&ctl->exit_flag, __ATOMIC_ACQUIRE) != 1) {
  }
  /* A failure outranks success: a fatal error racing another node's
   * gasnet_exit(0) must not let the job report 0. */
  int32_t zero = 0;
  if (code != 0)
    __atomic_compare_exchange_n(&ctl->exit_code, &zero, (int32_t)code, 0, __ATOMIC_ACQ_REL,
                                __ATOMIC_ACQUIRE);
  return __atomic_load_n(&ctl->exit_code, __ATOMIC_ACQUIRE);
}

void gasnetc_smp_mark_failed(void) {
  __atomic_store_n(&gasnetc_smp_shared()->exit_failed, 1, __ATOMIC_RELEASE);
}

static int gasnetc_smp_job_failed(void) {
  return __atomic_load_n(&gasnetc_smp_shared()->exit_failed, __ATOMIC_ACQUIRE);
}

int gasnetc_smp_job_code(int fallback) {
  if (__atomic_load_n(&gasnetc_smp_shared()->exit_flag, __ATOMIC_ACQUIRE) == 0) return fallback;
  return gasnetc_smp_claim_exit(0);
}

static void gasnetc_smp_end_now(int code) GASNETI_NORETURN;
static void gasnetc_smp_end_now(int code) {
  fflush(NULL);
  _exit(code);
}

/* Another thread of this node is ending it: wait to be ended with it. */
static void gasnetc_smp_park(void) GASNETI_NORETURN;
static void gasnetc_smp_park(void) {
  for (;;) pause();
}

static int gasnetc_smp_own_exit(void) {
  return __atomic_load_n(&gasnetc_smp_exiting, __ATOMIC_ACQUIRE);
}

/* The slow path of gasnetc_smp_check_exit: the job is ending. */
static void gasnetc_smp_job_ending(void) {
  if (gasnetc_smp_in_exit) return; /* this thread's exit path polls: let it */
  if (gasnetc_smp_own_exit()) gasnetc_smp_park();
  if (!gasnetc_smp_job_failed() &&
      gasneti_exit_may_go_on(&gasnetc_smp_noticed_ns, gasnetc_smp_exit_timeout))
    return;
  if (__atomic_exchange_n(&gasnetc_smp_exiting, 1, __ATOMIC_ACQ_REL)) gasnetc_smp_park();
  gasnetc_smp_in_exit = 1;
  gasneti_remote_exit_sigquit();
  gasneti_node_exiting();
  gasnetc_smp_end_now(gasnetc_smp_job_code(0));
}

void gasnetc_smp_check_exit(void) {
  if (__builtin_expect(__atomic_load_n(&gasnetc_smp_shared()->exit_flag, __ATOMIC_ACQUIRE) == 0, 1))
    return;
  gasnetc_smp_job_ending();
}

/* The supervisor's signal to a node that has not noticed the job ending. */
static void gasnetc_smp_remote_exit_signal(int sig) {
  (void)sig;
  if (gasnetc_smp_in_exit || gasnetc_smp_own_exit()) return; /* ending already */
  if (__atomic_exchange_n(&gasnetc_smp_exiting, 1, __ATOMIC_ACQ_REL)) return;
  gasnetc_smp_in_exit = 1;
  gasneti_remote_exit_sigquit();
  gasneti_node_exiting();
  gasnetc_smp_end_now(gasnetc_smp_job_code(0));
}

void gasnetc_exit(int exitcode) {
  /* The thread ending this node may call gasnet_exit again (a SIGQUIT
   * handler, an atexit handler): it ends the node now. Any other thread
   * waits for that one. */
  if (!gasnetc_smp_in_exit && __atomic_exchange_n(&gasnetc_smp_exiting, 1, __ATOMIC_ACQ_REL))
    gasnetc_smp_park();
  gasnetc_smp_in_exit = 1;
  gasneti_node_exiting();
  if (gasneti_fatal_ending) gasnetc_smp_mark_failed();
  gasnetc_smp_end_now(gasnetc_smp_claim_exit(exitcode));
}

/* A return from main or exit(code) counts as gasnet_exit(code), except that
 * exit() goes on to run the remaining atexit handlers and flush stdio. */
static void gasnetc_smp_on_exit(int status, void *arg) {
  (void)arg;
  if (!gasnetc_smp_in_exit && __atomic_exchange_n(&gasnetc_smp_exiting, 1, __ATOMIC_ACQ_REL))
    gasnetc_smp_park();
  gasnetc_smp_in_exit = 1;
  gasneti_node_exiting();
  gasnetc_smp_claim_exit(status & 0xff);
}

/* A node that caught a fatal signal decides the job's code before it dies,
 * so the others hear of it at once. */
static void gasnetc_smp_fatalsignal(int sig) {
  __atomic_store_n(&gasnetc_smp_exiting, 1, __ATOMIC_RELEASE);
  gasnetc_smp_mark_failed();
  gasnetc_smp_claim_exit(128 + sig);
}

void gasnetc_smp_read_exit_timeout(void) {
  gasnetc_smp_exit_timeout = gasneti_getenv_double("GASNET_EXITTIMEOUT", GASNETC_SMP_EXIT_TIMEOUT);
  if (gasnetc_smp_exit_timeout < 0) gasnetc_smp_exit_timeout = 0;
}

void gasnetc_smp_exit_init(void) {
  gasneti_fatalsignal_hook = gasnetc_smp_fatalsignal;
  struct sigaction cur;
  if (sigaction(GASNETC_SMP_REMOTEEXIT_SIGNAL, NULL, &cur) == 0 && cur.sa_handler == SIG_DFL) {
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = gasnetc_smp_remote_exit_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(GASNETC_SMP_REMOTEEXIT_SIGNAL, &sa, NULL);
  }
  if (on_exit(gasnetc_smp_on_exit, NULL))
    gasneti_fatalerror("gasnet_init: failed to register the exit handler (on_exit)");
}
