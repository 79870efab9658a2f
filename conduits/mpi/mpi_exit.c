/* mpi_exit.c: ending the job.
 *
 * gasnet_exit(code) on any node (or a return from main, or exit(code))
 * sends an EXIT notice carrying the code to every other node. A node sees
 * the notice at its next poll and runs the same protocol with that code.
 * Each exiting node waits until it has the notice of every other node:
 * then all of them are in the exit path and MPI_Finalize (collective in
 * practice) completes, and each ends with the code, which mpirun reports.
 * A node that does not answer within GASNET_EXITTIMEOUT seconds (it never
 * polls, or it died) is dealt with by MPI_Abort(code), which ends every
 * process of the job with that code. An MPI failure aborts at once. */
#define _GNU_SOURCE
#include "mpi_internal.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

volatile int gasnetc_exit_noticed;
volatile int gasnetc_mpi_broken;
static int gasnetc_exit_noticed_code;
static uint8_t *gasnetc_exit_from; /* peers whose EXIT notice has arrived */
static unsigned gasnetc_exit_nfrom;
static int gasnetc_exiting; /* atomic: some thread runs the exit protocol */
static GASNETI_THREAD_LOCAL int gasnetc_in_exit;
static volatile sig_atomic_t gasnetc_watchdog_code;

/* Seconds added to GASNET_EXITTIMEOUT before the watchdog gives up on
 * MPI_Finalize itself. */
#define GASNETC_FINALIZE_GRACE 10

static double gasnetc_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void gasnetc_nap(void) {
  struct timespec ts = {0, 200000}; /* 0.2 ms: exit is not latency-bound */
  nanosleep(&ts, NULL);
}

/* ------------------------------------------------------------ notices */
void gasnetc_exit_notice(gasnet_node_t src, int code) {
  if (src >= gasneti_nodes || !gasnetc_exit_from) return;
  if (!gasnetc_exit_from[src]) {
    gasnetc_exit_from[src] = 1;
    gasnetc_exit_nfrom++;
  }
  if (!gasnetc_exit_noticed) {
    gasnetc_exit_noticed_code = code;
    __atomic_store_n(&gasnetc_exit_noticed, 1, __ATOMIC_RELEASE);
  }
}

void gasnetc_exit_check(void) {
  if (__builtin_expect(!__atomic_load_n(&gasnetc_exit_noticed, __ATOMIC_ACQUIRE), 1)) return;
  if (__atomic_load_n(&gasnetc_exiting, __ATOMIC_ACQUIRE)) return;
  gasnetc_exit(gasnetc_exit_noticed_code);
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
 * holds it longer (a fatal error inside the conduit) is not waited for. */
static int gasnetc_lock_within(double seconds) {
  double end = gasnetc_now() + seconds;
  while (!gasnetc_trylock()) {
    if (gasnetc_now() > end) return 0;
    gasnetc_nap();
  }
  return 1;
}
#else
static int gasnetc_lock_within(double seconds) {
  (void)seconds;
  return 1;
}
#endif

/* ------------------------------------------------------------ the protocol */
static void gasnetc_send_exit_notices(int code, MPI_Request *reqs, gasnetc_ctrl_t *msg) {
  memset(msg, 0, sizeof(*msg));
  msg->kind = GASNETC_CTRL_EXIT;
  msg->src = gasneti_mynode;
  msg->code = code;
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
    if (i != gasneti_mynode && !gasnetc_exit_from[i]) {
      first = i;
      break;
    }
  fprintf(stderr,
          "*** gasnet: node %u: %u node(s) (first: node %u) did not join the exit within "
          "GASNET_EXITTIMEOUT=%g s; aborting the job\n",
          (unsigned)gasneti_mynode, missing, (unsigned)first, timeout);
  fflush(stderr);
}

/* Receives still posted would keep MPI_Finalize waiting in some MPIs:
 * cancel them. Sends still in flight are left to MPI. */
static void gasnetc_release_receives(void) {
  gasnetc_mpi_t *m = &gasnetc_mpi;
  for (unsigned i = 0; i < gasnetc_nrreq(); i++) {
    MPI_Request *r = &m->rreq[i];
    if (*r == MPI_REQUEST_NULL) continue;
    MPI_Cancel(r);
    MPI_Wait(r, MPI_STATUS_IGNORE);
    if (*r != MPI_REQUEST_NULL) MPI_Request_free(r); /* persistent ones stay allocated */
  }
  for (unsigned i = 0; i < m->nactive; i++) MPI_Request_free(&m->active_req[i]);
  m->nactive = 0;
}

/* Runs the protocol and finalizes MPI; returns so the caller picks how the
 * process ends. */
static void gasnetc_exit_protocol(int code) {
  fflush(NULL);
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return; /* the client finalized MPI: nobody can be told */
  if (gasnetc_mpi_broken || !gasnetc_exit_from) gasnetc_abort(code);
  double timeout = gasneti_getenv_double("GASNET_EXITTIMEOUT", 10.0);
  if (timeout < 0) timeout = 0;
  gasnetc_watchdog_start(code, timeout);
  if (!gasnetc_lock_within(1.0)) gasnetc_abort(code);
  MPI_Request *reqs = calloc(gasneti_nodes, sizeof(MPI_Request));
  gasnetc_ctrl_t *msg = calloc(1, sizeof(gasnetc_ctrl_t));
  if (!reqs || !msg) gasnetc_abort(code);
  gasnetc_send_exit_notices(code, reqs, msg);
  if (!gasnetc_wait_for_peers(reqs, gasnetc_now() + timeout)) {
    gasnetc_report_missing(timeout);
    gasnetc_abort(code);
  }
  gasnetc_release_receives();
  MPI_Finalize();
  alarm(0);
}

void gasnetc_exit(int exitcode) {
  if (gasnetc_in_exit) gasnetc_abort(exitcode); /* failed inside the exit path */
  gasnetc_in_exit = 1;
  if (__atomic_exchange_n(&gasnetc_exiting, 1, __ATOMIC_ACQ_REL)) {
    /* Another thread is ending the process: it will take this one along. */
    for (;;) pause();
  }
  gasnetc_exit_protocol(exitcode);
  fflush(NULL);
  _exit(exitcode);
}

/* A node that returns from main or calls exit() has ended as if by
 * gasnet_exit(status): tell the others, then let exit() finish. */
static void gasnetc_on_exit(int status, void *arg) {
  (void)arg;
  if (__atomic_exchange_n(&gasnetc_exiting, 1, __ATOMIC_ACQ_REL)) return;
  gasnetc_in_exit = 1;
  gasnetc_exit_protocol(status & 0xff);
}

void gasnetc_exit_register(void) {
  gasnetc_exit_from = calloc(gasneti_nodes, 1);
  if (!gasnetc_exit_from) gasneti_fatalerror("gasnet_init: out of memory");
  if (on_exit(gasnetc_on_exit, NULL))
    gasneti_fatalerror("gasnet_init: failed to register the exit handler (on_exit)");
}
