/* smp_internal.h: the smp conduit's internals.
 *
 * The whole job is one supernode of the shared-memory layer
 * (conduits/shm/shm_layer.h): the first process creates the region before
 * it forks the nodes, so every process sees it at the same address, and
 * node i is member i. The layer carries the AMs, put/get, the barriers
 * and cross-memory reads; the conduit keeps start-up (GASNET_PSHM_NODES,
 * the fork), the supervisor and the exit protocol, whose shared words live
 * in the region's conduit area. */
#ifndef SMP_INTERNAL_H
#define SMP_INTERNAL_H

#include "gasnet_internal.h"

#include "shm_layer.h"

#include <sys/types.h>

/* Exit protocol: the first node (or the supervisor) to decide the job's
 * exit code stores it with the flag; every node checks the flag when it
 * polls. */
typedef struct {
  int32_t exit_flag;   /* atomic: 0 running, 1 exiting (-1 while the code is written) */
  int32_t exit_code;
  int32_t exit_failed; /* atomic: a fatal error, a fatal signal or a killed node ends it */
} gasnetc_smp_shared_t;

_Static_assert(sizeof(gasnetc_smp_shared_t) <= GASNETC_SHM_CONDUIT_BYTES,
               "the smp conduit's shared words fit the layer's conduit area");

static inline gasnetc_smp_shared_t *gasnetc_smp_shared(void) {
  return (gasnetc_smp_shared_t *)gasnetc_shm_conduit_area();
}

/* smp_extended.c: registers the extended API overrides (called by each
 * node at the end of gasnetc_init). */
extern void gasnetc_smp_extended_init(void);

/* exit.c */
/* Set the job's exit code unless one is set already (a non-zero code
 * replaces a zero one); returns the code in force. */
extern int gasnetc_smp_claim_exit(int code);
/* The job ends in a failure (a fatal error or signal, a killed node): no
 * node goes on toward an exit of its own. Called before the claim. */
extern void gasnetc_smp_mark_failed(void);
/* The job's exit code, or fallback while none is set. */
extern int gasnetc_smp_job_code(int fallback);
/* Called by every poll: ends this node (or lets its own exit path finish)
 * once the job is ending. */
extern void gasnetc_smp_check_exit(void);
/* Each node, in gasnet_init: the on_exit handler, the fatal-signal hook
 * and the handler of the signal below. */
extern void gasnetc_smp_exit_init(void);
/* GASNET_EXITTIMEOUT (default GASNETC_SMP_EXIT_TIMEOUT): how long the
 * nodes still running may go on toward their own exit once the job has
 * begun to end (gasneti_exit_may_go_on), after which the supervisor
 * interrupts those that have not ended. Read once, before the fork. */
#define GASNETC_SMP_EXIT_TIMEOUT 3.0
extern double gasnetc_smp_exit_timeout;
extern void gasnetc_smp_read_exit_timeout(void);
/* What the supervisor sends a node that has not noticed, GASNET_EXITTIMEOUT
 * seconds after the job began to end (GASNet's choice: clients rarely use it,
 * and its default action is to ignore it). */
#define GASNETC_SMP_REMOTEEXIT_SIGNAL SIGURG

/* supervisor.c: never returns; ends the process with the job's exit code. */
#include <signal.h>
extern void gasnetc_supervisor_signals(sigset_t *set);
extern void gasnetc_smp_supervise(pid_t *pids, unsigned nodes, const void *saved_sigmask)
    GASNETI_NORETURN;

#endif
