/* smp_supervisor.c: the process that started the job watches its nodes and
 * ends with the job's exit code. It runs no client code. It
 *  - turns the first node that ends (gasnet_exit, exit() or return from
 *    main, or death by a signal: 128 + the signal) into the job's exit
 *    code; the other nodes notice at their next poll (their SIGQUIT
 *    handlers run), and those still running GASNET_EXITTIMEOUT seconds
 *    later are sent GASNETC_SMP_REMOTEEXIT_SIGNAL (which does the same
 *    from wherever they are), then SIGKILL;
 *  - passes SIGINT/SIGTERM/SIGHUP/SIGQUIT sent to the job on to every node
 *    (each turns it into SIGQUIT, so a client handler may pick the job's
 *    code), and kills the nodes still running two seconds later; the job's
 *    code is then 128 + the signal unless a node decided another;
 *  - exits only when every node is gone, so nothing outlives the job. */
#define _GNU_SOURCE
#include "smp_internal.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* How long signalled nodes get to end before SIGKILL. */
#define GASNETC_SMP_KILL_GRACE 2.0

typedef enum {
  SUPERVISE_RUNNING,  /* every node is working */
  SUPERVISE_DRAINING, /* the job is ending; nodes are expected to exit */
  SUPERVISE_TERMINATED, /* the remote-exit signal (or a forwarded one) sent */
  SUPERVISE_KILLED    /* SIGKILL sent */
} gasnetc_supervise_state_t;

typedef struct {
  pid_t *pids; /* 0 once reaped */
  unsigned nodes;
  unsigned alive;
  gasnetc_supervise_state_t state;
  double deadline;
  double exit_timeout;
  int fallback_code; /* the job's code if no node decides one */
} gasnetc_supervisor_t;

static double gasnetc_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void gasnetc_signal_all(gasnetc_supervisor_t *sv, int sig) {
  for (unsigned i = 0; i < sv->nodes; i++)
    if (sv->pids[i] > 0) kill(sv->pids[i], sig);
}

static void gasnetc_terminate(gasnetc_supervisor_t *sv, int sig) {
  gasnetc_signal_all(sv, sig);
  sv->state = SUPERVISE_TERMINATED;
  sv->deadline = gasnetc_now() + GASNETC_SMP_KILL_GRACE;
}

static void gasnetc_start_draining(gasnetc_supervisor_t *sv) {
  if (sv->state != SUPERVISE_RUNNING) return;
  sv->state = SUPERVISE_DRAINING;
  sv->deadline = gasnetc_now() + sv->exit_timeout;
}

static unsigned gasnetc_node_of(const gasnetc_supervisor_t *sv, pid_t pid) {
  for (unsigned i = 0; i < sv->nodes; i++)
    if (sv->pids[i] == pid) return i;
  return sv->nodes;
}

static void gasnetc_node_ended(gasnetc_supervisor_t *sv, unsigned node, int status) {
  sv->pids[node] = 0;
  sv->alive--;
  if (WIFEXITED(status)) {
    gasnetc_smp_claim_exit(WEXITSTATUS(status));
    gasnetc_start_draining(sv);
    return;
  }
  if (!WIFSIGNALED(status) || sv->state >= SUPERVISE_TERMINATED) return;
  int sig = WTERMSIG(status);
  gasnetc_smp_mark_failed();
  gasnetc_smp_claim_exit(128 + sig);
  fprintf(stderr, "*** gasnet: node %u was killed by signal %d (%s); ending the job\n", node, sig,
          strsignal(sig));
  fflush(stderr);
  gasnetc_start_draining(sv);
}

static void gasnetc_reap(gasnetc_supervisor_t *sv) {
  int status;
  pid_t pid;
  while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
    unsigned node = gasnetc_node_of(sv, pid);
    if (node < sv->nodes) gasnetc_node_ended(sv, node, status);
  }
}

static void gasnetc_on_deadline(gasnetc_supervisor_t *sv) {
  if (sv->state == SUPERVISE_DRAINING) {
    gasnetc_terminate(sv, GASNETC_SMP_REMOTEEXIT_SIGNAL);
  } else if (sv->state == SUPERVISE_TERMINATED) {
    gasnetc_signal_all(sv, SIGKILL);
    sv->state = SUPERVISE_KILLED;
    sv->deadline = gasnetc_now() + 3600;
  }
}

static void gasnetc_on_signal(gasnetc_supervisor_t *sv, int sig) {
  if (sig == SIGCHLD) {
    gasnetc_reap(sv);
    return;
  }
  if (sv->state >= SUPERVISE_TERMINATED) return;
  sv->fallback_code = 128 + sig;
  gasnetc_terminate(sv, sig);
}

/* The signals the supervisor acts on. A signal ignored when the job was
 * started stays ignored (the nodes inherit that), as Unix asks of a program
 * started in the background. */
void gasnetc_supervisor_signals(sigset_t *set) {
  static const int job_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
  sigemptyset(set);
  sigaddset(set, SIGCHLD);
  for (unsigned i = 0; i < sizeof(job_signals) / sizeof(job_signals[0]); i++) {
    struct sigaction current;
    if (sigaction(job_signals[i], NULL, &current) == 0 && current.sa_handler == SIG_IGN) continue;
    sigaddset(set, job_signals[i]);
  }
}

void gasnetc_smp_supervise(pid_t *pids, unsigned nodes, const void *saved_sigmask) {
  (void)saved_sigmask;
  gasnetc_supervisor_t sv = {pids, nodes, 0, SUPERVISE_RUNNING, 0, 0, 0};
  for (unsigned i = 0; i < nodes; i++) sv.alive += pids[i] > 0;
  sv.exit_timeout = gasnetc_smp_exit_timeout;
  if (sv.alive < nodes) gasnetc_terminate(&sv, SIGKILL); /* a fork failed */
  sigset_t watched;
  gasnetc_supervisor_signals(&watched);
  gasnetc_reap(&sv);
  while (sv.alive > 0) {
    double wait = sv.state == SUPERVISE_RUNNING ? 1.0 : sv.deadline - gasnetc_now();
    if (wait > 1.0) wait = 1.0;
    if (wait < 0) wait = 0;
    struct timespec ts = {(time_t)wait, (long)((wait - (time_t)wait) * 1e9)};
    int sig = sigtimedwait(&watched, NULL, &ts);
    if (sig > 0) gasnetc_on_signal(&sv, sig);
    gasnetc_reap(&sv); /* SIGCHLD may coalesce; reaping is cheap */
    if (sv.state != SUPERVISE_RUNNING && sv.alive > 0 && gasnetc_now() >= sv.deadline)
      gasnetc_on_deadline(&sv);
  }
  fflush(NULL);
  _exit(gasnetc_smp_job_code(sv.fallback_code) & 0xff);
}
