/* ucx_exit.c: ending the job.
 *
 * A node that ends (gasnet_exit, a return from main or exit(), a fatal
 * error or signal) sends every other node an exit notice with its code,
 * then waits until each has answered with its own notice or is gone, at
 * most GASNET_EXITTIMEOUT seconds. A notice to a node of the same host is
 * a signal (GASNETC_NOTICE_SIGNAL, its value the notice): it needs no
 * lock and no UCX, so it can be sent from a signal handler or a thread
 * that holds the conduit lock, and reaches a node that never polls. A
 * notice to a node of another host is an EXIT message through UCX, sent
 * when this thread is not inside UCX (nor a signal handler) and the
 * conduit lock can be had. The signal's handler only records the
 * notice; a node sees it at its next poll, raises SIGQUIT if the client
 * has a handler for it (which may call gasnet_exit), and ends the same way
 * with the code of the notice, or the handler's if the notice said 0. A
 * node of this host that has not answered in time (it computes and never
 * polls) gets the signal again marked "forced", whose handler does what a
 * poll would, from wherever the node was.
 *
 * In a collective exit a node may see a notice before it has left the
 * final barrier, or on a polling thread while its main thread is between
 * that barrier and the end of main: a poll lets the node go on while
 * gasneti_exit_may_go_on says so. A job that ends in a failure (a fatal
 * error or signal, a node gone without a word) is no collective exit:
 * every node ends at its next poll.
 *
 * A node of this host killed without a word (SIGKILL) is noticed by the
 * others: every GASNETC_PROBE_INTERVAL a polling node checks that each
 * peer's process still runs; one of another host is reported by UCX
 * (its endpoint's error handler), and the launcher ends the job.
 *
 * The exit path allocates nothing and waits for no lock. */
#define _GNU_SOURCE
#include "ucx_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Notices are a real-time signal: each one queued is delivered with its
 * value, where several of a standard signal sent at once would merge. */
#define GASNETC_NOTICE_SIGNAL (SIGRTMIN + 4)
#define GASNETC_PROBE_INTERVAL 0.2
/* Polls between looks at the clock for the probe: a poll over UCX's
 * shared memory takes about 40 ns, so one in 256 still reads it every 10
 * us or so, and a clock read (20-50 ns) at one poll in 64 was a twentieth
 * of an idle poll. */
#define GASNETC_PROBE_POLLS 256u
#define GASNETC_LOST_CODE 1
#define GASNETC_FATAL_WAIT 1.0

/* A notice: the code, two flags, the sender. */
enum { GASNETC_N_FAILED = 1 << 8, GASNETC_N_FORCED = 1 << 9, GASNETC_N_SRC_SHIFT = 10 };

static inline uint32_t gasnetc_notice(int code, int failed) {
  return (uint32_t)(code & 0xff) | (failed ? GASNETC_N_FAILED : 0) |
         ((uint32_t)gasneti_mynode << GASNETC_N_SRC_SHIFT);
}

static double gasnetc_exit_timeout = 3.0; /* GASNET_EXITTIMEOUT */
static int gasnetc_exiting;               /* atomic: this node is ending */
static int gasnetc_noticed;               /* atomic: 1 + the job's code as known here, or 0 */
static int gasnetc_noticed_failed;        /* atomic: the job ends in a failure */
static int64_t gasnetc_noticed_ns;        /* atomic: when a poll first saw the end */
static uint8_t *gasnetc_answered;         /* per node: its notice came, or it is gone (atomic) */
static uint8_t *gasnetc_told;             /* per node: our notice went (exit path only) */
static volatile sig_atomic_t gasnetc_in_signal; /* the exit path runs in a signal handler */
static volatile sig_atomic_t gasnetc_in_bootstrap; /* the main thread waits in the exchange */

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

void gasnetc_exit_notice(gasnet_node_t src, uint32_t notice) {
  if (src < gasneti_nodes && gasnetc_answered)
    __atomic_store_n(&gasnetc_answered[src], 1, __ATOMIC_RELEASE);
  if (notice & GASNETC_N_FAILED) __atomic_store_n(&gasnetc_noticed_failed, 1, __ATOMIC_RELEASE);
  gasnetc_note_code((int)(notice & 0xff));
}

/* A node answering another's exit ends with the code noticed, or, if that
 * is 0, the code its SIGQUIT handler chose. */
static int gasnetc_answer_code(int own) {
  int noticed = __atomic_load_n(&gasnetc_noticed, __ATOMIC_ACQUIRE);
  return noticed > 1 ? noticed - 1 : own;
}

/* ------------------------------------------------------------ liveness */
/* Whether pid still runs: a process that ended stays a zombie until its
 * parent (the launcher) collects it. */
static int gasnetc_pid_alive(pid_t pid) {
  if (pid <= 0) return 0;
  if (kill(pid, 0) != 0) return errno != ESRCH;
  char path[64], buf[256];
  snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 1;
  ssize_t n = read(fd, buf, sizeof(buf) - 1);
  close(fd);
  if (n <= 0) return 1;
  buf[n] = 0;
  const char *paren = strrchr(buf, ')'); /* the state follows the command name */
  return !(paren && paren[1] == ' ' && (paren[2] == 'Z' || paren[2] == 'X'));
}

/* Marks the peers of this host found gone that sent no notice; returns how many. */
static int gasnetc_probe_peers(void) {
  int lost = 0;
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++) {
    if (i == gasneti_mynode || !gasnetc_same_host(i) ||
        __atomic_load_n(&gasnetc_answered[i], __ATOMIC_ACQUIRE))
      continue;
    if (gasnetc_pid_alive(gasnetc_ucx.pid[i])) continue;
    __atomic_store_n(&gasnetc_answered[i], 1, __ATOMIC_RELEASE);
    lost++;
  }
  return lost;
}

static void gasnetc_lost(int count) {
  __atomic_store_n(&gasnetc_noticed_failed, 1, __ATOMIC_RELEASE);
  gasnetc_note_code(GASNETC_LOST_CODE);
  (void)count;
}

void gasnetc_peer_lost(gasnet_node_t dest, ucs_status_t why) {
  if (__atomic_load_n(&gasnetc_exiting, __ATOMIC_ACQUIRE)) return;
  if (!__atomic_exchange_n(&gasnetc_answered[dest], 1, __ATOMIC_ACQ_REL)) {
    fprintf(stderr, "*** gasnet: node %u: node %u is gone (%s); ending the job\n",
            (unsigned)gasneti_mynode, (unsigned)dest, ucs_status_string(why));
    fflush(stderr);
  }
  gasnetc_lost(1);
}

void gasnetc_liveness_check(void) {
  static unsigned calls;    /* racy in PAR: only paces the clock reads */
  static double next_probe; /* atomic */
  static int probing;       /* atomic: one thread probes at a time */
  if (__builtin_expect(++calls % GASNETC_PROBE_POLLS != 0, 1) || gasnetc_ucx.local_procs <= 1)
    return;
  double now = gasnetc_now(), next;
  __atomic_load(&next_probe, &next, __ATOMIC_ACQUIRE);
  if (now < next || __atomic_exchange_n(&probing, 1, __ATOMIC_ACQ_REL)) return;
  next = now + GASNETC_PROBE_INTERVAL;
  __atomic_store(&next_probe, &next, __ATOMIC_RELEASE);
  int lost = gasnetc_probe_peers();
  __atomic_store_n(&probing, 0, __ATOMIC_RELEASE);
  if (!lost || __atomic_load_n(&gasnetc_noticed, __ATOMIC_ACQUIRE)) return;
  fprintf(stderr, "*** gasnet: node %u: %d node(s) ended without a word; ending the job\n",
          (unsigned)gasneti_mynode, lost);
  fflush(stderr);
  gasnetc_lost(lost);
}

/* ------------------------------------------------------------ the protocol */
/* A notice to a node of another host goes through UCX, when the lock is
 * free and this is not a signal handler; 1 if sent. */
static int gasnetc_ucx_usable(void) {
  return !gasnetc_in_signal && gasnetc_lock_depth == 0 && gasnetc_ucx.worker &&
         gasnetc_ucx.local_procs < gasneti_nodes;
}

static int gasnetc_tell_remote(gasnet_node_t i, uint32_t notice) {
  if (!gasnetc_ucx_usable() || !gasnetc_ucx.ep[i] || !gasnetc_trylock()) return 0;
  gasnetc_send_ctrl(i, GASNETC_K_EXIT, notice);
  ucp_worker_progress(gasnetc_ucx.worker);
  gasnetc_unlock();
  return 1;
}

/* Sends our notice to every peer not yet told; returns how many remain. */
static int gasnetc_tell_peers(uint32_t notice) {
  int left = 0;
  union sigval v;
  v.sival_int = (int)notice;
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++) {
    if (i == gasneti_mynode || gasnetc_told[i]) continue;
    if (gasnetc_ucx.pid[i] <= 0) { /* not known yet: the launcher ends it */
      gasnetc_told[i] = 1;
      __atomic_store_n(&gasnetc_answered[i], 1, __ATOMIC_RELEASE);
    } else if (!gasnetc_same_host(i)) {
      if (gasnetc_tell_remote(i, notice)) gasnetc_told[i] = 1;
      else left++;
    } else if (sigqueue(gasnetc_ucx.pid[i], GASNETC_NOTICE_SIGNAL, v) == 0 || errno == ESRCH) {
      gasnetc_told[i] = 1;
    } else {
      left++;
    }
  }
  return left;
}

static int gasnetc_unanswered(void) {
  int left = 0;
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++)
    left += i != gasneti_mynode && !__atomic_load_n(&gasnetc_answered[i], __ATOMIC_ACQUIRE);
  return left;
}

/* Interrupt the nodes of this host that have not answered. */
static void gasnetc_force_unanswered(uint32_t notice) {
  union sigval v;
  v.sival_int = (int)(notice | GASNETC_N_FORCED);
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++)
    if (i != gasneti_mynode && gasnetc_same_host(i) && gasnetc_ucx.pid[i] > 0 &&
        !__atomic_load_n(&gasnetc_answered[i], __ATOMIC_ACQUIRE))
      sigqueue(gasnetc_ucx.pid[i], GASNETC_NOTICE_SIGNAL, v);
}

/* Progress UCX for answers from other hosts, if the lock is free. */
static void gasnetc_exit_progress(void) {
  if (!gasnetc_ucx_usable() || !gasnetc_trylock()) return;
  ucp_worker_progress(gasnetc_ucx.worker);
  gasnetc_unlock();
}

/* Tell every node, and wait (at most until deadline) for every node's
 * answer; wait=0 only tells. */
static void gasnetc_exit_protocol(uint32_t notice, double deadline, int wait) {
  double next_probe = 0;
  for (;;) {
    int left = gasnetc_tell_peers(notice);
    if (wait) left += gasnetc_unanswered();
    if (!left) return;
    double now = gasnetc_now();
    if (now > deadline) break;
    if (wait && now > next_probe) {
      gasnetc_probe_peers();
      next_probe = now + 0.05;
    }
    gasnetc_exit_progress();
    gasnetc_nap_ms(1);
  }
  if (wait) gasnetc_force_unanswered(notice);
}

static void gasnetc_exit_end(int code) GASNETI_NORETURN;
static void gasnetc_exit_end(int code) {
  gasnetc_exit_state = GASNETC_EXIT_PROTOCOL;
  gasneti_node_exiting();
  fflush(NULL);
  int failed = gasneti_fatal_ending || __atomic_load_n(&gasnetc_noticed_failed, __ATOMIC_ACQUIRE);
  if (gasnetc_told)
    gasnetc_exit_protocol(gasnetc_notice(code, failed), gasnetc_now() + gasnetc_exit_timeout, 1);
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

/* Before exit() goes on to the libraries' destructors: UCX's destructor
 * frees its table of event handlers while its async thread may be
 * handling an event on one of this worker's interfaces (a peer that just
 * ended closes its connections), and that thread then ends the process
 * with a fatal error. Destroying the worker first removes its handlers,
 * each after any run of it has finished. The lock stays held: no thread
 * of this process enters UCX again. A thread that keeps the lock longer
 * than the wait leaves the worker as it is. */
#define GASNETC_CLOSE_WAIT 0.1
static void gasnetc_close_worker(void) {
  if (!gasnetc_ucx.worker || gasnetc_in_signal || gasnetc_lock_depth != 0) return;
  double give_up = gasnetc_now() + GASNETC_CLOSE_WAIT;
  while (!gasnetc_trylock()) {
    if (gasnetc_now() > give_up) return;
    gasnetc_nap_ms(1);
  }
  ucp_worker_h worker = gasnetc_ucx.worker;
  gasnetc_ucx.worker = NULL;
  ucp_worker_destroy(worker);
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
  gasnetc_exit_protocol(gasnetc_notice(code, 0), gasnetc_now() + gasnetc_exit_timeout, 1);
  if (code != (status & 0xff)) _exit(code);
  gasnetc_close_worker();
}

/* ------------------------------------------------------------ seeing a notice */
/* Besides a notice, this node's own exit stops its other threads: a client
 * thread polling in a loop would otherwise keep the conduit's lock from
 * the exiting thread, which needs it to tell the others. */
void gasnetc_exit_check(void) {
  if (__builtin_expect(!(__atomic_load_n(&gasnetc_noticed, __ATOMIC_ACQUIRE) |
                         __atomic_load_n(&gasnetc_exiting, __ATOMIC_ACQUIRE)),
                       1))
    return;
  if (gasnetc_exit_state != GASNETC_EXIT_NONE) return; /* this thread's exit path polls */
  if (__atomic_load_n(&gasnetc_exiting, __ATOMIC_ACQUIRE)) gasnetc_park();
  if (!__atomic_load_n(&gasnetc_noticed_failed, __ATOMIC_ACQUIRE) &&
      gasneti_exit_may_go_on(&gasnetc_noticed_ns, gasnetc_exit_timeout))
    return;
  if (__atomic_exchange_n(&gasnetc_exiting, 1, __ATOMIC_ACQ_REL)) gasnetc_park();
  gasnetc_exit_state = GASNETC_EXIT_ANSWERING;
  gasneti_remote_exit_sigquit();
  gasnetc_exit_end(gasnetc_answer_code(0));
}

/* A node waiting in the bootstrap exchange (start-up, attach) for one that
 * has ended would wait until the exchange's timeout: it answers at once. */
static void gasnetc_answer_now(void) GASNETI_NORETURN;
static void gasnetc_answer_now(void) {
  gasnetc_exit_state = GASNETC_EXIT_ANSWERING;
  gasneti_remote_exit_sigquit();
  gasnetc_exit_end(gasnetc_answer_code(0));
}

void gasnetc_exit_bootstrap_enter(void) {
  gasnetc_in_bootstrap = 1;
  if (!__atomic_load_n(&gasnetc_noticed, __ATOMIC_ACQUIRE)) return;
  if (__atomic_exchange_n(&gasnetc_exiting, 1, __ATOMIC_ACQ_REL)) gasnetc_park();
  gasnetc_answer_now();
}

void gasnetc_exit_bootstrap_leave(void) { gasnetc_in_bootstrap = 0; }

/* ------------------------------------------------------------ signals */
/* A notice from a node of this host; forced, or while this node waits in
 * the bootstrap exchange: end now, from wherever this node was. */
static void gasnetc_notice_signal(int sig, siginfo_t *info, void *ctx) {
  (void)sig;
  (void)ctx;
  if (info->si_code != SI_QUEUE) return; /* not one of ours */
  uint32_t notice = (uint32_t)info->si_value.sival_int;
  gasnet_node_t src = (gasnet_node_t)(notice >> GASNETC_N_SRC_SHIFT);
  gasnetc_exit_notice(src, notice);
  if (!(notice & GASNETC_N_FORCED) && !gasnetc_in_bootstrap) return;
  if (__atomic_exchange_n(&gasnetc_exiting, 1, __ATOMIC_ACQ_REL)) return; /* ending already */
  gasnetc_in_signal = 1;
  /* The others' answers are this signal too: let them in (each only
   * records its notice, as this node is ending already). */
  sigset_t notices;
  sigemptyset(&notices);
  sigaddset(&notices, GASNETC_NOTICE_SIGNAL);
  pthread_sigmask(SIG_UNBLOCK, &notices, NULL);
  gasnetc_answer_now();
}

/* Best effort, from a process that may be corrupt: tell the others (by
 * signal only), so their SIGQUIT handlers run, then die of the signal. */
static void gasnetc_fatalsignal(int sig) {
  if (__atomic_exchange_n(&gasnetc_exiting, 1, __ATOMIC_ACQ_REL)) return;
  gasnetc_in_signal = 1;
  gasnetc_exit_state = GASNETC_EXIT_PROTOCOL;
  if (gasnetc_told)
    gasnetc_exit_protocol(gasnetc_notice(128 + sig, 1), gasnetc_now() + GASNETC_FATAL_WAIT, 0);
}

void gasnetc_exit_init(void) {
  gasnetc_answered = calloc(gasneti_nodes, 1);
  gasnetc_told = calloc(gasneti_nodes, 1);
  if (!gasnetc_answered || !gasnetc_told) gasneti_fatalerror("gasnet_init: out of memory");
  gasnetc_exit_timeout = gasneti_getenv_double("GASNET_EXITTIMEOUT", gasnetc_exit_timeout);
  if (gasnetc_exit_timeout < 0) gasnetc_exit_timeout = 0; /* as on the other conduits */
  gasneti_fatalsignal_hook = gasnetc_fatalsignal;
  struct sigaction cur;
  if (sigaction(GASNETC_NOTICE_SIGNAL, NULL, &cur) != 0 || cur.sa_handler != SIG_DFL)
    gasneti_fatalerror("gasnet_init: signal %d (SIGRTMIN+4), which the ucx conduit's exit "
                       "notices use, already has a handler", GASNETC_NOTICE_SIGNAL);
  {
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = gasnetc_notice_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigaction(GASNETC_NOTICE_SIGNAL, &sa, NULL);
  }
  if (on_exit(gasnetc_on_exit, NULL))
    gasneti_fatalerror("gasnet_init: failed to register the exit handler (on_exit)");
}
