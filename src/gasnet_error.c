/* gasnet_error.c: error names and texts, recoverable error reports, the
 * one fatal-error path every layer uses, and the signals a node catches. */
#define _GNU_SOURCE
#include "gasnet_internal.h"

#include <gasnet_tools.h>

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

typedef struct {
  int code;
  const char *name;
  const char *desc;
} gasneti_errinfo_t;

static const gasneti_errinfo_t gasneti_errors[] = {
    {GASNET_OK, "GASNET_OK", "no error"},
    {GASNET_ERR_NOT_INIT, "GASNET_ERR_NOT_INIT", "GASNet message layer not initialized"},
    {GASNET_ERR_RESOURCE, "GASNET_ERR_RESOURCE", "problem with requested resource"},
    {GASNET_ERR_BAD_ARG, "GASNET_ERR_BAD_ARG", "bad argument to GASNet call"},
    {GASNET_ERR_NOT_READY, "GASNET_ERR_NOT_READY", "non-blocking operation not complete"},
    {GASNET_ERR_BARRIER_MISMATCH, "GASNET_ERR_BARRIER_MISMATCH",
     "barrier id's mismatched"},
};

static const gasneti_errinfo_t *gasneti_errinfo(int code) {
  for (size_t i = 0; i < sizeof(gasneti_errors) / sizeof(gasneti_errors[0]); i++)
    if (gasneti_errors[i].code == code) return &gasneti_errors[i];
  return NULL;
}

const char *gasnet_ErrorName(int errval) {
  const gasneti_errinfo_t *e = gasneti_errinfo(errval);
  return e ? e->name : "*unknown*";
}

const char *gasnet_ErrorDesc(int errval) {
  const gasneti_errinfo_t *e = gasneti_errinfo(errval);
  return e ? e->desc : "no description available";
}

int gasneti_error(int code, const char *call, const char *fmt, ...) {
  va_list ap;
  char msg[512];
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  if (gasneti_init_done)
    fprintf(stderr, "gasnet: node %u: %s failed (%s): %s\n", (unsigned)gasneti_mynode, call,
            gasnet_ErrorName(code), msg);
  else
    fprintf(stderr, "gasnet: %s failed (%s): %s\n", call, gasnet_ErrorName(code), msg);
  fflush(stderr);
  return code;
}

volatile int gasneti_fatal_ending;

void gasneti_fatalerror(const char *fmt, ...) {
  va_list ap;
  char msg[1024];
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  if (gasneti_init_done)
    fprintf(stderr, "*** FATAL ERROR (node %u): %s\n", (unsigned)gasneti_mynode, msg);
  else
    fprintf(stderr, "*** FATAL ERROR: %s\n", msg);
  fflush(stderr);
  gasneti_fatal_ending = 1;
  if (gasneti_trace_on('I')) gasneti_trace_printf('I', "FATAL_ERROR %s", msg);
  if (gasneti_init_done) gasneti_debug_on_fatal("a fatal error");
  if (gasneti_init_done) gasnetc_exit(1);
  _Exit(1);
}

/* ------------------------------------------------------------ signals
 * As GASNet-1 (spec 1.8, gasnet_exit), each node catches:
 *  - SIGINT, SIGTERM, SIGHUP: prints "*** Caught a signal: SIGINT(2) on node
 *    i/n" and raises SIGQUIT, the signal a client catches to hear that the
 *    job is ending; without a client handler for it, ends the job with
 *    gasnet_exit(128 + the signal) (also when SIGQUIT is ignored, as in a
 *    job started in the background);
 *  - SIGQUIT, when the client installed no handler of its own: ends the job
 *    with gasnet_exit(128 + SIGQUIT);
 *  - SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT: prints "*** Caught a fatal
 *    signal: SIGSEGV(11) on node i/n" (and a backtrace with
 *    GASNET_BACKTRACE=1), lets the conduit tell the other nodes, and dies of
 *    the signal.
 * The conduits raise SIGQUIT the same way when another node's exit or crash
 * ends the job (gasneti_remote_exit_sigquit). A signal the client ignores or
 * handles when it calls gasnet_init keeps its disposition, except the fatal
 * ones, which are ours unless ignored (MPI libraries install their own). */
typedef struct {
  int sig;
  const char *name;
  int fatal;
} gasneti_siginfo_t;

static const gasneti_siginfo_t gasneti_signals[] = {
    {SIGINT, "SIGINT", 0},   {SIGTERM, "SIGTERM", 0}, {SIGHUP, "SIGHUP", 0},
    {SIGQUIT, "SIGQUIT", 0}, {SIGSEGV, "SIGSEGV", 1}, {SIGBUS, "SIGBUS", 1},
    {SIGFPE, "SIGFPE", 1},   {SIGILL, "SIGILL", 1},   {SIGABRT, "SIGABRT", 1},
};
#define GASNETI_NSIGNALS (sizeof(gasneti_signals) / sizeof(gasneti_signals[0]))

void (*gasneti_fatalsignal_hook)(int sig);
int (*gasneti_signal_defer_hook)(int sig);
static int gasneti_signal_ours[GASNETI_NSIGNALS]; /* 1: we install a handler */
static volatile sig_atomic_t gasneti_ending;      /* the node is in its exit path */
static volatile sig_atomic_t gasneti_fatal_sig;
static void gasneti_signals_ending(void);

static const char *gasneti_signame(int sig) {
  for (size_t i = 0; i < GASNETI_NSIGNALS; i++)
    if (gasneti_signals[i].sig == sig) return gasneti_signals[i].name;
  return "signal";
}

/* write(2) only: this runs in signal handlers. */
static void gasneti_signal_say(const char *what, int sig) {
  char line[160];
  int n = snprintf(line, sizeof(line), "*** %s: %s(%d) on node %u/%u\n", what,
                   gasneti_signame(sig), sig, (unsigned)gasneti_mynode, (unsigned)gasneti_nodes);
  if (n > (int)sizeof(line) - 1) n = (int)sizeof(line) - 1;
  ssize_t rc = write(STDERR_FILENO, line, (size_t)n);
  (void)rc;
}

/* Die of sig now, with its default action (a core dump where enabled). */
static void gasneti_die_of(int sig) GASNETI_NORETURN;
static void gasneti_die_of(int sig) {
  sigset_t set;
  signal(sig, SIG_DFL);
  sigemptyset(&set);
  sigaddset(&set, sig);
  sigprocmask(SIG_UNBLOCK, &set, NULL);
  raise(sig);
  _exit(128 + sig); /* the signal was ignored after all */
}

/* The backtrace, the hook or the flush below may hang on a lock the crash
 * left held: the alarm ends the node then. A backtrace through gdb takes a
 * few seconds on a loaded machine. */
#define GASNETI_FATAL_ALARM_S 20
static void gasneti_fatal_alarm(int alarm_sig) {
  (void)alarm_sig;
  gasneti_die_of(gasneti_fatal_sig);
}

static void gasneti_fatal_signal(int sig) GASNETI_NORETURN;
static void gasneti_fatal_signal(int sig) {
  static volatile sig_atomic_t entered;
  if (entered++) gasneti_die_of(sig); /* a second fault while reporting the first */
  /* The job is ending: no SIGQUIT handler of the client's runs in this node
   * any more (the launcher may signal it while the hook waits). */
  sigset_t quiet;
  sigemptyset(&quiet);
  sigaddset(&quiet, SIGINT);
  sigaddset(&quiet, SIGTERM);
  sigaddset(&quiet, SIGHUP);
  sigaddset(&quiet, SIGQUIT);
  pthread_sigmask(SIG_BLOCK, &quiet, NULL);
  gasneti_signals_ending();
  gasneti_fatal_sig = sig;
  signal(SIGALRM, gasneti_fatal_alarm);
  alarm(GASNETI_FATAL_ALARM_S);
  gasneti_signal_say("Caught a fatal signal", sig);
  if (gasneti_trace_on('I')) gasneti_trace_printf('I', "FATAL_SIGNAL %s", gasneti_signame(sig));
  gasneti_debug_on_fatal(gasneti_signame(sig)); /* a freeze stops the alarm */
  alarm(GASNETI_FATAL_ALARM_S);
  gasneti_events_finish();
  fflush(NULL); /* what the node printed before it crashed */
  if (gasneti_fatalsignal_hook && gasneti_init_done) gasneti_fatalsignal_hook(sig);
  alarm(0);
  gasneti_die_of(sig);
}

static int gasneti_client_sigquit(struct sigaction *cur);
static void gasneti_run_client_sigquit(const struct sigaction *cur);

static void gasneti_signal_handler(int sig) {
  struct sigaction cur;
  switch (sig) {
    case SIGSEGV: case SIGBUS: case SIGFPE: case SIGILL: case SIGABRT:
      gasneti_fatal_signal(sig);
    default:
      break;
  }
  /* A node already ending (its exit path, or the launcher tearing the job
   * down after it) just dies of the signal, as without us. */
  if (gasneti_ending && sig != SIGQUIT) gasneti_die_of(sig);
  if (gasneti_signal_defer_hook && gasneti_signal_defer_hook(sig)) return; /* raised again later */
  if (sig == SIGQUIT) gasnet_exit(128 + SIGQUIT); /* the client has no SIGQUIT handler */
  gasneti_signal_say("Caught a signal", sig);
  if (!gasneti_client_sigquit(&cur)) gasnet_exit(128 + sig);
  gasneti_run_client_sigquit(&cur); /* as GASNet-1: the node goes on if it returns */
}

void gasneti_signals_save(void) {
  for (size_t i = 0; i < GASNETI_NSIGNALS; i++) {
    struct sigaction cur;
    if (sigaction(gasneti_signals[i].sig, NULL, &cur) != 0) continue;
    if (cur.sa_handler == SIG_IGN) continue; /* e.g. SIGINT of a background job */
    gasneti_signal_ours[i] = gasneti_signals[i].fatal || cur.sa_handler == SIG_DFL;
  }
}

void gasneti_signals_install(void) {
  gasnett_backtrace_init(NULL); /* load the unwinder now, not in a crash */
  for (size_t i = 0; i < GASNETI_NSIGNALS; i++) {
    if (!gasneti_signal_ours[i]) continue;
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = gasneti_signal_handler;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(gasneti_signals[i].sig, &sa, NULL);
  }
}

static void gasneti_signals_ending(void) {
  gasneti_ending = 1;
  signal(SIGQUIT, SIG_IGN); /* the client has heard: a late signal must not re-enter */
}

void gasneti_node_exiting(void) {
  gasneti_signals_ending();
  gasneti_events_finish();
}

/* Is SIGQUIT handled by the client (not ours, not default, not ignored)? */
static int gasneti_client_sigquit(struct sigaction *cur) {
  if (sigaction(SIGQUIT, NULL, cur) != 0) return 0;
  if (cur->sa_flags & SA_SIGINFO) return cur->sa_sigaction != NULL;
  return cur->sa_handler != SIG_DFL && cur->sa_handler != SIG_IGN &&
         cur->sa_handler != gasneti_signal_handler;
}

/* Raise SIGQUIT for the client's handler cur; returns when (if) it returns. */
static void gasneti_run_client_sigquit(const struct sigaction *cur) {
  sigset_t mask;
  if (pthread_sigmask(SIG_SETMASK, NULL, &mask) == 0 && sigismember(&mask, SIGQUIT)) {
    /* Blocked in this thread: raise() would only leave it pending. */
    if (cur->sa_flags & SA_SIGINFO) {
      siginfo_t info;
      memset(&info, 0, sizeof(info));
      info.si_signo = SIGQUIT;
      cur->sa_sigaction(SIGQUIT, &info, NULL);
    } else {
      cur->sa_handler(SIGQUIT);
    }
    return;
  }
  raise(SIGQUIT);
}

void gasneti_remote_exit_sigquit(void) {
  struct sigaction cur;
  if (gasneti_client_sigquit(&cur)) gasneti_run_client_sigquit(&cur);
}

/* Asked on every step of the main thread's waits (gasnet_wait.c): the
 * answer is kept per thread. A thread that forks stays the main thread of
 * the child if it was the parent's. */
int gasneti_is_main_thread(void) {
  static GASNETI_THREAD_LOCAL int known = -1;
  if (known < 0) known = (pid_t)syscall(SYS_gettid) == getpid();
  return known;
}
