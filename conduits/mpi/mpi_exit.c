/* mpi_exit.c: ending the job.
 *
 * gasnet_exit(code) on any node (or a return from main, or exit(code))
 * sends an EXIT notice carrying the code to every other node. A node sees
 * the notice at its next poll (or while it waits in gasnet_attach), raises
 * SIGQUIT if the client has a handler for it (as GASNet-1 does; the handler
 * may call gasnet_exit), and runs the same protocol. Each exiting node
 * waits until it has the notice of every other node: then all of them are
 * in the exit path and MPI_Finalize (collective in practice) completes.
 * Every node then knows every node's code and ends with the same one: the
 * non-zero code of a node that exited on its own (the lowest such node),
 * else a non-zero code chosen in answer to an exit (a SIGQUIT handler's),
 * else 0; mpirun reports it. A node that does not answer within
 * GASNET_EXITTIMEOUT seconds (it never polls, or it died) is dealt with by
 * MPI_Abort(code), which ends every process of the job with that code. An
 * MPI failure aborts at once.
 *
 * In a collective exit a node may see a notice while it is still on its
 * way to its own exit: in its final barrier, or computing and printing
 * after it, while another thread of it polls. So a poll that sees a notice
 * lets the node go on (it returns) for as long as the node makes progress,
 * up to GASNET_EXITTIMEOUT after the first notice: until its main thread
 * has been stuck half a second in one blocking wait, which the departed nodes
 * may never end (gasneti_exit_may_go_on). Then the node answers. A job
 * that ends in a failure (a fatal error or signal: GASNETC_EXIT_FAILED in
 * the notice) is no collective exit: every node answers at its next poll.
 *
 * A node that catches a fatal signal sends its notice (128 + the signal)
 * and waits a little for the others' answers before it dies, so their
 * SIGQUIT handlers run before mpirun ends the job. */
#define _GNU_SOURCE
#include "mpi_internal.h"
#include "mpi_shm.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* How long a node that caught a fatal signal waits for the others' answers. */
#define GASNETC_FATAL_WAIT 2.0
/* Seconds added to GASNET_EXITTIMEOUT before the watchdog gives up on
 * MPI_Finalize itself. */
#define GASNETC_FINALIZE_GRACE 10
/* An EXIT notice's code: the exit code, and these bits: the sender chose
 * it in answer to another node's exit; the sender caught a fatal signal
 * (it will not call MPI_Finalize); the job ends in a failure (a fatal
 * error or signal), so no node goes on toward an exit of its own. */
#define GASNETC_EXIT_ANSWER 0x100
#define GASNETC_EXIT_CRASH 0x200
#define GASNETC_EXIT_FAILED 0x400
#define GASNETC_EXIT_BITS (0xff | GASNETC_EXIT_ANSWER | GASNETC_EXIT_CRASH | GASNETC_EXIT_FAILED)

volatile int gasnetc_exit_noticed;
volatile int gasnetc_mpi_broken;
volatile int gasnetc_signal_pending;
static int gasnetc_exit_noticed_code;
static int gasnetc_exit_noticed_failed; /* atomic: a notice said the job failed */
static int16_t *gasnetc_exit_claim; /* per node: its notice's code, -1 until it came */
static unsigned gasnetc_exit_nfrom;  /* notices that have arrived */
static int gasnetc_exiting;          /* atomic: this node is ending */
static int64_t gasnetc_noticed_ns;   /* when the first notice was seen (atomic) */
/* Allocated up front: the protocol may run in a signal handler. */
static MPI_Request *gasnetc_exit_reqs;
static gasnetc_ctrl_t gasnetc_exit_msg;
static double gasnetc_exit_timeout; /* GASNET_EXITTIMEOUT */
static volatile sig_atomic_t gasnetc_watchdog_code;

/* What the calling thread is doing about the exit. */
enum { GASNETC_EXIT_NONE, GASNETC_EXIT_ANSWERING, GASNETC_EXIT_PROTOCOL };
static GASNETI_THREAD_LOCAL int gasnetc_exit_state;

static double gasnetc_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void gasnetc_nap(void) {
  struct timespec ts = {0, 200000}; /* 0.2 ms: exit is not latency-bound */
  nanosleep(&ts, NULL);
}

/* Another thread is ending this node: wait to be ended with it. */
static void gasnetc_park(void) GASNETI_NORETURN;
static void gasnetc_park(void) {
  for (;;) pause();
}

/* ------------------------------------------------------------ notices */
void gasnetc_exit_notice(gasnet_node_t src, int code) {
  if (src >= gasneti_nodes || !gasnetc_exit_claim) return;
  if (gasnetc_exit_claim[src] < 0) {
    gasnetc_exit_claim[src] = (int16_t)(code & GASNETC_EXIT_BITS);
    gasnetc_exit_nfrom++;
  }
  if (code & GASNETC_EXIT_FAILED) __atomic_store_n(&gasnetc_exit_noticed_failed, 1, __ATOMIC_RELEASE);
  if (!gasnetc_exit_noticed) {
    gasnetc_exit_noticed_code = code & 0xff;
    __atomic_store_n(&gasnetc_exit_noticed, 1, __ATOMIC_RELEASE);
  }
}

/* The code every node ends with, from every claim known here. */
static int gasnetc_exit_merged(int own) {
  int best = own, best_rank = -1;
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++) {
    int c = gasnetc_exit_claim[i];
    if (c < 0) continue;
    int rank = !(c & 0xff) ? 0 : (c & GASNETC_EXIT_ANSWER) ? 1 : 2;
    if (rank > best_rank) {
      best_rank = rank;
      best = c & 0xff;
    }
  }
  return best;
}

/* ------------------------------------------------------------ aborting */
void gasnetc_abort(int code) {
  static int aborting;
  __atomic_store_n(&gasnetc_exiting, 1, __ATOMIC_RELEASE);
  if (__atomic_exchange_n(&aborting, 1, __ATOMIC_ACQ_REL)) _exit(code);
  fflush(NULL);
  int inited = 0, finalized = 0;
  MPI_Initialized(&inited);
  MPI_Finalized(&finalized);
  if (inited && !finalized) MPI_Abort(MPI_COMM_WORLD, code); /* every process of the job */
  _exit(code);
}

static void gasnetc_watchdog_fired(int sig) {
  (void)sig;
  static const char msg[] = "*** gasnet: MPI_Finalize did not return; ending this process\n";
  ssize_t rc = write(2, msg, sizeof(msg) - 1);
  (void)rc;
  _exit(gasnetc_watchdog_code);
}

/* Should MPI itself hang in the exit path, the process still ends. */
static void gasnetc_watchdog_start(int code, double timeout) {
  gasnetc_watchdog_code = code;
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = gasnetc_watchdog_fired;
  sigaction(SIGALRM, &sa, NULL);
  alarm((unsigned)timeout + GASNETC_FINALIZE_GRACE);
}

#ifdef GASNETI_THREADS
/* Another thread may hold the lock for the length of an MPI call; one that
 * holds it longer (a fatal error inside the conduit) is not waited for.
 * The caller counts as a lock waiter, so pollers give way: a client thread
 * polling in a tight loop retakes the lock at once, and a trylock now and
 * then would seldom find it free (on a loaded host, not within the limit). */
static int gasnetc_lock_within(double seconds) {
  double end = gasnetc_now() + seconds;
  int got;
  __atomic_fetch_add(&gasnetc_lock_waiters, 1, __ATOMIC_ACQ_REL);
  while (!(got = gasnetc_trylock()) && gasnetc_now() <= end) gasnetc_nap();
  __atomic_fetch_sub(&gasnetc_lock_waiters, 1, __ATOMIC_ACQ_REL);
  return got;
}
#else
static int gasnetc_lock_within(double seconds) {
  (void)seconds;
  return 1;
}
#endif

/* ------------------------------------------------------------ the protocol */
static void gasnetc_send_exit_notices(int claim, MPI_Request *reqs, gasnetc_ctrl_t *msg) {
  gasnetc_mpi_shm_alert(); /* members that poll MPI now and then look at every poll */
  memset(msg, 0, sizeof(*msg));
  msg->kind = GASNETC_CTRL_EXIT;
  msg->src = gasneti_mynode;
  msg->code = claim;
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++) {
    reqs[i] = MPI_REQUEST_NULL;
    if (i == gasneti_mynode) continue;
    gasnetc_mpi_check(MPI_Isend(msg, (int)sizeof(*msg), MPI_BYTE, (int)i, GASNETC_TAG_CTRL,
                                gasnetc_mpi.comm, &reqs[i]),
                      "send an exit notice (MPI_Isend)");
  }
}

/* Wait for the notice of every other node and for ours to be taken;
 * returns 0 if the deadline passed first. */
static int gasnetc_wait_for_peers(MPI_Request *reqs, double deadline) {
  for (;;) {
    gasnetc_poll_ctrl();
    int sent = 0;
    gasnetc_mpi_check(MPI_Testall((int)gasneti_nodes, reqs, &sent, MPI_STATUSES_IGNORE),
                      "send exit notices (MPI_Testall)");
    if (sent && gasnetc_exit_nfrom + 1 >= gasneti_nodes) return 1;
    if (gasnetc_now() > deadline) return 0;
    gasnetc_nap();
  }
}

static void gasnetc_report_missing(double timeout) {
  unsigned missing = gasneti_nodes - 1 - gasnetc_exit_nfrom;
  gasnet_node_t first = 0;
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++)
    if (i != gasneti_mynode && gasnetc_exit_claim[i] < 0) {
      first = i;
      break;
    }
  fprintf(stderr,
          "*** gasnet: node %u: %u node(s) (first: node %u) did not join the exit within "
          "GASNET_EXITTIMEOUT=%g s; aborting the job\n",
          (unsigned)gasneti_mynode, missing, (unsigned)first, timeout);
  fflush(stderr);
}

/* Posted receives are cancelled (they would keep MPI_Finalize waiting in
 * some MPIs); sends still in flight are left to MPI. */
static void gasnetc_release_receives(void) {
  gasnetc_mpi_t *m = &gasnetc_mpi;
  gasnetc_mpi_cancel_receives();
  for (unsigned i = 0; i < m->nactive; i++) MPI_Request_free(&m->active_req[i]);
  m->nactive = 0;
}

/* This node's claim: its code, marked when chosen in answer to another
 * node's exit, and when this node ends in a fatal error. */
static int gasnetc_own_claim(int code) {
  int answer = __atomic_load_n(&gasnetc_exit_noticed, __ATOMIC_ACQUIRE) ? GASNETC_EXIT_ANSWER : 0;
  int failed = gasneti_fatal_ending ? GASNETC_EXIT_FAILED : 0;
  return (code & 0xff) | answer | failed;
}

/* This thread is inside the conduit's lock: gasnet_exit was called from a
 * signal handler (a client's SIGQUIT handler) that may have interrupted an
 * MPI call, or a fatal error arose inside the conduit. MPI cannot be used
 * now: end the process, and mpirun ends the others with this code. */
static void gasnetc_exit_unsafe(int code) GASNETI_NORETURN;
static void gasnetc_exit_unsafe(int code) {
  fflush(NULL);
  _exit(code);
}

/* Runs the protocol and finalizes MPI; returns the job's code so the
 * caller picks how the process ends. */
static int gasnetc_exit_protocol(int code) {
  gasnetc_exit_state = GASNETC_EXIT_PROTOCOL;
  gasneti_node_exiting();
  if (gasnetc_lock_depth > 0) gasnetc_exit_unsafe(code);
  fflush(NULL);
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return code; /* the client finalized MPI: nobody can be told */
  if (gasnetc_mpi_broken || !gasnetc_exit_claim) gasnetc_abort(code);
  double timeout = gasnetc_exit_timeout;
  gasnetc_watchdog_start(code, timeout);
  if (!gasnetc_lock_within(1.0)) gasnetc_abort(code);
  int claim = gasnetc_own_claim(code);
  gasnetc_exit_claim[gasneti_mynode] = (int16_t)claim;
  gasnetc_send_exit_notices(claim, gasnetc_exit_reqs, &gasnetc_exit_msg);
  if (!gasnetc_wait_for_peers(gasnetc_exit_reqs, gasnetc_now() + timeout)) {
    gasnetc_report_missing(timeout);
    gasnetc_abort(code);
  }
  int job_code = gasnetc_exit_merged(code);
  gasnetc_watchdog_code = job_code;
  /* A crashed node never joins MPI_Finalize's fence, and processes caught
   * in it when mpirun ends the job can hang mpirun itself (Open MPI 4.1):
   * end without it; mpirun ends the job with the code. */
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++)
    if (gasnetc_exit_claim[i] >= 0 && (gasnetc_exit_claim[i] & GASNETC_EXIT_CRASH)) {
      fflush(NULL);
      _exit(job_code);
    }
  gasnetc_release_receives();
  MPI_Finalize();
  alarm(0);
  return job_code;
}

static void gasnetc_exit_end(int code) GASNETI_NORETURN;
static void gasnetc_exit_end(int code) {
  int job_code = gasnetc_exit_protocol(code);
  fflush(NULL);
  _exit(job_code);
}

void gasnetc_exit(int exitcode) {
  switch (gasnetc_exit_state) {
    case GASNETC_EXIT_PROTOCOL: gasnetc_abort(exitcode); /* failed inside the exit path */
    case GASNETC_EXIT_ANSWERING: break; /* the client's SIGQUIT handler chose the code */
    default:
      if (__atomic_exchange_n(&gasnetc_exiting, 1, __ATOMIC_ACQ_REL))
        gasnetc_park(); /* another thread is ending the process: it takes this one along */
  }
  gasnetc_exit_end(exitcode);
}

/* A node that returns from main or calls exit() has ended as if by
 * gasnet_exit(status): tell the others, then let exit() finish (with the
 * job's code, should it differ from the status). */
static void gasnetc_on_exit(int status, void *arg) {
  (void)arg;
  if (gasnetc_exit_state == GASNETC_EXIT_PROTOCOL) return;
  if (gasnetc_exit_state == GASNETC_EXIT_NONE &&
      __atomic_exchange_n(&gasnetc_exiting, 1, __ATOMIC_ACQ_REL))
    gasnetc_park();
  int job_code = gasnetc_exit_protocol(status & 0xff);
  if (job_code != (status & 0xff)) {
    fflush(NULL);
    _exit(job_code);
  }
}

/* ------------------------------------------------------------ seeing a notice */
/* Besides a notice, this node's own exit stops its other threads: a client
 * thread polling in a loop would otherwise keep the conduit's lock from
 * the exiting thread, which needs it to tell the others. */
void gasnetc_exit_check(void) {
  if (__builtin_expect(!(__atomic_load_n(&gasnetc_exit_noticed, __ATOMIC_ACQUIRE) |
                         __atomic_load_n(&gasnetc_exiting, __ATOMIC_ACQUIRE)),
                       1))
    return;
  if (gasnetc_exit_state != GASNETC_EXIT_NONE) return; /* this thread's exit path polls */
  if (__atomic_load_n(&gasnetc_exiting, __ATOMIC_ACQUIRE)) gasnetc_park();
  if (!__atomic_load_n(&gasnetc_exit_noticed_failed, __ATOMIC_ACQUIRE) &&
      gasneti_exit_may_go_on(&gasnetc_noticed_ns, gasnetc_exit_timeout))
    return;
  if (__atomic_exchange_n(&gasnetc_exiting, 1, __ATOMIC_ACQ_REL)) gasnetc_park();
  gasnetc_exit_state = GASNETC_EXIT_ANSWERING;
  gasneti_remote_exit_sigquit();
  gasnetc_exit_end(gasnetc_exit_noticed_code);
}

/* ------------------------------------------------------------ fatal signals */
/* Best effort, from a signal handler in a process that may be corrupt: tell
 * the others and give their SIGQUIT handlers a moment. The handler's alarm
 * ends this if MPI hangs. */
static void gasnetc_fatalsignal(int sig) {
  if (__atomic_exchange_n(&gasnetc_exiting, 1, __ATOMIC_ACQ_REL)) return;
  gasnetc_exit_state = GASNETC_EXIT_PROTOCOL;
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized || gasnetc_mpi_broken || !gasnetc_exit_claim) return;
  if (gasnetc_lock_depth > 0 || !gasnetc_lock_within(0.5)) return; /* crashed inside MPI? */
  int claim = gasnetc_own_claim(128 + sig) | GASNETC_EXIT_CRASH | GASNETC_EXIT_FAILED;
  gasnetc_exit_claim[gasneti_mynode] = (int16_t)claim;
  gasnetc_send_exit_notices(claim, gasnetc_exit_reqs, &gasnetc_exit_msg);
  gasnetc_wait_for_peers(gasnetc_exit_reqs, gasnetc_now() + GASNETC_FATAL_WAIT);
}

/* ------------------------------------------------------------ other signals */
/* SIGINT & co. that arrive inside the conduit's lock wait for the lock's
 * release (gasnetc_lock_left), where MPI may be called again. */
static int gasnetc_signal_defer(int sig) {
  if (gasnetc_lock_depth == 0) return 0;
  __atomic_store_n(&gasnetc_signal_pending, sig, __ATOMIC_RELEASE);
  return 1;
}

void gasnetc_signal_deliver(void) {
  int sig = __atomic_exchange_n(&gasnetc_signal_pending, 0, __ATOMIC_ACQ_REL);
  if (sig) raise(sig);
}

void gasnetc_exit_register(void) {
  gasnetc_exit_claim = malloc(gasneti_nodes * sizeof(int16_t));
  gasnetc_exit_reqs = calloc(gasneti_nodes, sizeof(MPI_Request));
  if (!gasnetc_exit_claim || !gasnetc_exit_reqs) gasneti_fatalerror("gasnet_init: out of memory");
  gasnetc_exit_timeout = gasneti_getenv_double("GASNET_EXITTIMEOUT", 10.0);
  if (gasnetc_exit_timeout < 0) gasnetc_exit_timeout = 0;
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++) gasnetc_exit_claim[i] = -1;
  gasneti_fatalsignal_hook = gasnetc_fatalsignal;
  gasneti_signal_defer_hook = gasnetc_signal_defer;
  if (on_exit(gasnetc_on_exit, NULL))
    gasneti_fatalerror("gasnet_init: failed to register the exit handler (on_exit)");
}
