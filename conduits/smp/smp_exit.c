/* smp_exit.c: ending the job. The first node to call gasnet_exit (or the
 * supervisor, when a node dies) fixes the job's exit code in shared memory
 * (a later non-zero code replaces a zero one);
 * every other node ends at its next poll with that code, and the supervisor
 * removes those that do not poll within GASNET_EXITTIMEOUT seconds. */
#include "smp_internal.h"

#include <stdlib.h>
#include <unistd.h>

int gasnetc_smp_claim_exit(int code) {
  gasnetc_smp_control_t *ctl = gasnetc_smp_control;
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

static void gasnetc_smp_exit_now(int code) GASNETI_NORETURN;
static void gasnetc_smp_exit_now(int code) {
  fflush(NULL);
  _exit(code);
}

void gasnetc_smp_check_exit(void) {
  if (__builtin_expect(__atomic_load_n(&gasnetc_smp_control->exit_flag, __ATOMIC_ACQUIRE) == 0, 1))
    return;
  gasnetc_smp_exit_now(gasnetc_smp_claim_exit(0));
}

void gasnetc_exit(int exitcode) { gasnetc_smp_exit_now(gasnetc_smp_claim_exit(exitcode)); }
