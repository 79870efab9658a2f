/* dgram_exit.c: ending the job.
 *
 * A node that ends (gasnet_exit, a return from main or exit(), a fatal
 * error) sends every other node an EXIT notice with its code, then waits
 * until each has answered with its own notice or is gone. A node sees a
 * notice at its next poll, raises SIGQUIT if the client has a handler for
 * it (which may call gasnet_exit), and ends the same way with the code of
 * the notice, or the handler's if the notice said 0. A node that has not
 * answered within GASNET_EXITTIMEOUT seconds (it computes and never polls)
 * is sent GASNETC_REMOTEEXIT_SIGNAL carrying the code, whose handler does
 * what a poll would. gasnetrun_dgram reports the first non-zero code a
 * node ends with.
 *
 * A node killed without a word (SIGKILL) is noticed by the others: every
 * GASNETC_PROBE_INTERVAL a polling node checks that every peer's socket
 * still exists, and a vanished one ends the job (GASNETC_LOST_CODE). A
 * node dying of a fatal signal sends its notice (128 + the signal) first.
 *
 * In a collective exit a node may see a notice before it has left the
 * final barrier, or on a polling thread while its main thread is between
 * that barrier and the end of main. For up to GASNETC_EXIT_GRACE after the
 * first notice, a poll inside a barrier returns as usual, and a thread
 * other than the main one waits for the node's own exit to begin.
 *
 * The exit path takes no lock and allocates nothing: it may run in a
 * signal handler, or in a thread that holds the conduit lock. */
#define _GNU_SOURCE
#include "dgram_internal.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define GASNETC_EXIT_GRACE 1.0
#define GASNETC_PROBE_INTERVAL 0.2
#define GASNETC_LOST_CODE 1
#define GASNETC_REMOTEEXIT_SIGNAL SIGURG

static double gasnetc_exit_timeout = 3.0; /* GASNET_EXITTIMEOUT */
static int gasnetc_exiting;               /* atomic: this node is ending */
static int gasnetc_noticed;               /* atomic: 1 + the code of the job's end, or 0 */
static uint8_t *gasnetc_answered;         /* per node: its notice came, or it is gone (atomic) */
static uint8_t *gasnetc_told;             /* per node: our notice went (exit path only) */
static double gasnetc_noticed_at;         /* when a poll first saw a notice (atomic) */
static volatile sig_atomic_t gasnetc_signalled; /* ended by the signal: others know */
static uint8_t gasnetc_drain_buf[GASNETC_PACKET_MAX] __attribute__((aligned(16)));

/* What the calling thread is doing about the exit. */
enum { GASNETC_EXIT_NONE, GASNETC_EXIT_ANSWERING, GASNETC_EXIT_PROTOCOL };
static GASNETI_THREAD_LOCAL int gasnetc_exit_state;

static double gasnetc_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void gasnetc_nap_ms(long ms) {
  struct timespec ts = {0, ms * 1000000L};
  nanosleep(&ts, NULL);
}

/* Another thread is ending this node: wait to be ended with it. */
static void gasnetc_park(void) GASNETI_NORETURN;
static void gasnetc_park(void) {
  for (;;) pause();
}

/* ------------------------------------------------------------ notices */
/* The job's code as this node knows it: the first non-zero one noticed. */
static void gasnetc_note_code(int code) {
  int seen = __atomic_load_n(&gasnetc_noticed, __ATOMIC_ACQUIRE);
  while (seen == 0 || (seen == 1 && code != 0))
    if (__atomic_compare_exchange_n(&gasnetc_noticed, &seen, 1 + (code & 0xff), 0,
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
      return;
}

void gasnetc_exit_notice(gasnet_node_t src, int code) {
  if (gasnetc_answered) __atomic_store_n(&gasnetc_answered[src], 1, __ATOMIC_RELEASE);
  gasnetc_note_code(code);
}

/* A node answering another's exit ends with the code noticed, or, if that
 * is 0, the code its SIGQUIT handler chose. */
static int gasnetc_answer_code(int own) {
  int noticed = __atomic_load_n(&gasnetc_noticed, __ATOMIC_ACQUIRE);
  return noticed > 1 ? noticed - 1 : own;
}

/* ------------------------------------------------------------ liveness */
/* Whether node i's socket still exists: a datagram socket connects only to
 * a bound name, and the name goes with the process. */
static int gasnetc_alive(int probe, gasnet_node_t i) {
  if (connect(probe, (struct sockaddr *)&gasnetc_dgram.addr[i], gasnetc_dgram.addrlen[i]) == 0)
    return 1;
  return errno != ECONNREFUSED && errno != ENOENT;
}

/* Marks the peers found gone that sent no notice; returns how many. */
static int gasnetc_probe_peers(void) {
  int probe = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (probe < 0) return 0;
  int lost = 0;
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++) {
    if (i == gasneti_mynode || __atomic_load_n(&gasnetc_answered[i], __ATOMIC_ACQUIRE)) continue;
    if (gasnetc_alive(probe, i)) continue;
    __atomic_store_n(&gasnetc_answered[i], 1, __ATOMIC_RELEASE);
    lost++;
  }
  close(probe);
  return lost;
}

void gasnetc_peer_lost(gasnet_node_t dest) {
  if (!__atomic_exchange_n(&gasnetc_answered[dest], 1, __ATOMIC_ACQ_REL)) {
    fprintf(stderr, "*** gasnet: node %u: node %u is gone; ending the job\n",
            (unsigned)gasneti_mynode, (unsigned)dest);
    fflush(stderr);
  }
  gasnetc_note_code(GASNETC_LOST_CODE);
  gasnetc_exit_check();
}

void gasnetc_liveness_check(void) {
  static unsigned calls;         /* racy in PAR: only paces the clock reads */
  static double next_probe;      /* atomic */
  static int probing;            /* atomic: one thread probes at a time */
  if (__builtin_expect(++calls % 64 != 0, 1) || gasneti_nodes == 1) return;
  double now = gasnetc_now(), next;
  __atomic_load(&next_probe, &next, __ATOMIC_ACQUIRE);
  if (now < next || __atomic_exchange_n(&probing, 1, __ATOMIC_ACQ_REL)) return;
  next = now + GASNETC_PROBE_INTERVAL;
  __atomic_store(&next_probe, &next, __ATOMIC_RELEASE);
  int lost = gasnetc_probe_peers();
  __atomic_store_n(&probing, 0, __ATOMIC_RELEASE);
  if (!lost) return;
  /* A notice it sent just before it went may still be queued. */
  if (gasnetc_trylock()) {
    gasnetc_read(1 << 20);
    gasnetc_unlock();
  }
  fprintf(stderr, "*** gasnet: node %u: %d node(s) ended without a word; ending the job\n",
          (unsigned)gasneti_mynode, lost);
  fflush(stderr);
  gasnetc_note_code(GASNETC_LOST_CODE);
}

/* ------------------------------------------------------------ the protocol (no lock) */
static void gasnetc_drain(void) {
  for (;;) {
    ssize_t len = recv(gasnetc_dgram.fd, gasnetc_drain_buf, sizeof(gasnetc_drain_buf), MSG_DONTWAIT);
    if (len < 0 && errno == EINTR) continue;
    if (len < (ssize_t)sizeof(gasnetc_hdr_t)) return;
    const gasnetc_hdr_t *h = (const gasnetc_hdr_t *)gasnetc_drain_buf;
    if (h->kind == GASNETC_K_EXIT && h->src < gasneti_nodes) gasnetc_exit_notice(h->src, (int)h->aux);
  }
}

/* Sends our notice to every peer not yet told; returns how many remain. */
static int gasnetc_tell_peers(gasnetc_hdr_t *notice) {
  int left = 0;
  struct iovec iov = {notice, sizeof(*notice)};
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++) {
    if (i == gasneti_mynode || gasnetc_told[i]) continue;
    int err = gasnetc_try_send(i, &iov, 1);
    if (err == 0 || err == ECONNREFUSED || err == ENOENT)
      gasnetc_told[i] = 1;
    else
      left++;
  }
  return left;
}

static int gasnetc_unanswered(void) {
  int left = 0;
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++)
    left += i != gasneti_mynode && !__atomic_load_n(&gasnetc_answered[i], __ATOMIC_ACQUIRE);
  return left;
}

/* Interrupt the nodes that have not answered, wherever they are. */
static void gasnetc_signal_unanswered(int code) {
  union sigval v;
  v.sival_int = code;
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++)
    if (i != gasneti_mynode && !__atomic_load_n(&gasnetc_answered[i], __ATOMIC_ACQUIRE) &&
        gasnetc_dgram.pid[i] > 0)
      sigqueue(gasnetc_dgram.pid[i], GASNETC_REMOTEEXIT_SIGNAL, v);
}

/* Tell every node, and wait (at most until deadline) for every node's
 * answer; wait=0 only tells. */
static void gasnetc_exit_protocol(int code, double deadline, int wait) {
  gasnetc_hdr_t notice;
  memset(&notice, 0, sizeof(notice));
  notice.kind = GASNETC_K_EXIT;
  notice.src = gasneti_mynode;
  notice.aux = (uint32_t)code;
  double next_probe = 0;
  for (;;) {
    gasnetc_drain();
    int left = gasnetc_tell_peers(&notice);
    if (wait) left += gasnetc_unanswered();
    if (!left) return;
    double now = gasnetc_now();
    if (now > deadline) break;
    if (wait && now > next_probe) {
      gasnetc_probe_peers();
      next_probe = now + 0.05;
    }
    gasnetc_nap_ms(1);
  }
  if (wait) gasnetc_signal_unanswered(code);
}

static void gasnetc_exit_end(int code) GASNETI_NORETURN;
static void gasnetc_exit_end(int code) {
  gasnetc_exit_state = GASNETC_EXIT_PROTOCOL;
  gasneti_node_exiting();
  fflush(NULL);
  if (!gasnetc_signalled && gasnetc_told && gasnetc_dgram.fd >= 0)
    gasnetc_exit_protocol(code, gasnetc_now() + gasnetc_exit_timeout, 1);
  _exit(code);
}

void gasnetc_exit(int exitcode) {
  switch (gasnetc_exit_state) {
    case GASNETC_EXIT_PROTOCOL: _exit(exitcode); /* failed inside the exit path */
    case GASNETC_EXIT_ANSWERING: exitcode = gasnetc_answer_code(exitcode); break;
    default:
      if (__atomic_exchange_n(&gasnetc_exiting, 1, __ATOMIC_ACQ_REL))
        gasnetc_park(); /* another thread is ending the process */
  }
  gasnetc_exit_end(exitcode);
}

/* A return from main or exit(code) counts as gasnet_exit(code); exit()
 * then runs the remaining handlers and flushes stdio. */
static void gasnetc_on_exit(int status, void *arg) {
  (void)arg;
  if (gasnetc_exit_state == GASNETC_EXIT_PROTOCOL) return;
  int code = status & 0xff;
  if (gasnetc_exit_state == GASNETC_EXIT_ANSWERING)
    code = gasnetc_answer_code(code);
  else if (__atomic_exchange_n(&gasnetc_exiting, 1, __ATOMIC_ACQ_REL))
    gasnetc_park();
  gasnetc_exit_state = GASNETC_EXIT_PROTOCOL;
  gasneti_node_exiting();
  fflush(NULL);
  gasnetc_exit_protocol(code, gasnetc_now() + gasnetc_exit_timeout, 1);
  if (code != (status & 0xff)) _exit(code);
}

/* ------------------------------------------------------------ seeing a notice */
static double gasnetc_grace_left(void) {
  double now = gasnetc_now(), zero = 0, first;
  __atomic_compare_exchange(&gasnetc_noticed_at, &zero, &now, 0, __ATOMIC_ACQ_REL,
                            __ATOMIC_ACQUIRE);
  __atomic_load(&gasnetc_noticed_at, &first, __ATOMIC_ACQUIRE);
  return GASNETC_EXIT_GRACE - (now - first);
}

/* Wait (at most the rest of the grace) for this node's own exit to begin. */
static int gasnetc_await_own_exit(void) {
  for (;;) {
    if (__atomic_load_n(&gasnetc_exiting, __ATOMIC_ACQUIRE)) return 1;
    if (gasnetc_grace_left() <= 0) return 0;
    gasnetc_nap_ms(1);
  }
}

void gasnetc_exit_check(void) {
  if (__builtin_expect(!__atomic_load_n(&gasnetc_noticed, __ATOMIC_ACQUIRE), 1)) return;
  if (gasnetc_exit_state != GASNETC_EXIT_NONE) return; /* this thread's exit path polls */
  if (__atomic_load_n(&gasnetc_exiting, __ATOMIC_ACQUIRE)) gasnetc_park();
  if (gasneti_attach_done && gasneti_barrier_pending() && gasnetc_grace_left() > 0) return;
  if (!gasneti_is_main_thread() && gasnetc_await_own_exit()) gasnetc_park();
  if (__atomic_exchange_n(&gasnetc_exiting, 1, __ATOMIC_ACQ_REL)) gasnetc_park();
  gasnetc_exit_state = GASNETC_EXIT_ANSWERING;
  gasneti_remote_exit_sigquit();
  gasnetc_exit_end(gasnetc_answer_code(0));
}

/* ------------------------------------------------------------ signals */
/* An exiting node's signal to one that did not answer in time. */
static void gasnetc_remote_exit_signal(int sig, siginfo_t *info, void *ctx) {
  (void)sig;
  (void)ctx;
  if (__atomic_exchange_n(&gasnetc_exiting, 1, __ATOMIC_ACQ_REL)) return; /* ending already */
  gasnetc_note_code(info->si_value.sival_int);
  gasnetc_signalled = 1;
  gasnetc_exit_state = GASNETC_EXIT_ANSWERING;
  gasneti_remote_exit_sigquit();
  gasnetc_exit_end(gasnetc_answer_code(0));
}

/* Best effort, from a process that may be corrupt: tell the others, so
 * their SIGQUIT handlers run, then die of the signal. */
static void gasnetc_fatalsignal(int sig) {
  if (__atomic_exchange_n(&gasnetc_exiting, 1, __ATOMIC_ACQ_REL)) return;
  gasnetc_exit_state = GASNETC_EXIT_PROTOCOL;
  if (gasnetc_told) gasnetc_exit_protocol(128 + sig, gasnetc_now() + 1.0, 0);
}

void gasnetc_exit_init(void) {
  gasnetc_answered = calloc(gasneti_nodes, 1);
  gasnetc_told = calloc(gasneti_nodes, 1);
  if (!gasnetc_answered || !gasnetc_told) gasneti_fatalerror("gasnet_init: out of memory");
  gasnetc_exit_timeout = gasneti_getenv_double("GASNET_EXITTIMEOUT", gasnetc_exit_timeout);
  if (gasnetc_exit_timeout < 0)
    gasneti_fatalerror("GASNET_EXITTIMEOUT=%g is negative", gasnetc_exit_timeout);
  gasneti_fatalsignal_hook = gasnetc_fatalsignal;
  struct sigaction cur;
  if (sigaction(GASNETC_REMOTEEXIT_SIGNAL, NULL, &cur) == 0 && cur.sa_handler == SIG_DFL) {
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = gasnetc_remote_exit_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigaction(GASNETC_REMOTEEXIT_SIGNAL, &sa, NULL);
  }
  if (on_exit(gasnetc_on_exit, NULL))
    gasneti_fatalerror("gasnet_init: failed to register the exit handler (on_exit)");
}
