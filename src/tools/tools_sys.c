/* tools_sys.c: system queries, signals and fatal errors for the tools. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gasnet_tools_internal.h"

int gasnett_cpu_count(void) {
  static int count = -1; /* racing first callers compute the same answer */
  int c = __atomic_load_n(&count, __ATOMIC_RELAXED);
  if (c < 0) {
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    c = n > 0 ? (int)n : 0;
    __atomic_store_n(&count, c, __ATOMIC_RELAXED);
  }
  return c;
}

static char gasnetti_hostname[256];
static pthread_once_t gasnetti_hostname_once = PTHREAD_ONCE_INIT;

static void gasnetti_hostname_read(void) {
  if (gethostname(gasnetti_hostname, sizeof(gasnetti_hostname)) != 0 || !gasnetti_hostname[0])
    strcpy(gasnetti_hostname, "unknown-host");
  gasnetti_hostname[sizeof(gasnetti_hostname) - 1] = '\0'; /* a long name may be cut unterminated */
}

const char *gasnett_gethostname(void) {
  pthread_once(&gasnetti_hostname_once, gasnetti_hostname_read);
  return gasnetti_hostname;
}

int gasnett_sched_yield(void) { return sched_yield(); }

void gasnett_flush_streams(void) {
  fflush(stdout);
  fflush(stderr);
}

void gasnett_killmyprocess(int exitcode) {
  /* _exit ends every thread (exit_group) without running atexit handlers,
   * which could block on locks a crashed thread holds. */
  _exit(exitcode);
}

gasnett_sighandlerfn_t gasnett_reghandler(int sigtocatch, gasnett_sighandlerfn_t fp) {
  struct sigaction act, old;
  memset(&act, 0, sizeof(act));
  act.sa_handler = fp;
  sigemptyset(&act.sa_mask);
  act.sa_flags = SA_RESTART; /* the BSD semantics signal() has on glibc */
  if (sigaction(sigtocatch, &act, &old) != 0)
    gasnett_fatalerror("gasnett_reghandler: failed to install a handler for signal %d: %s",
                       sigtocatch, strerror(errno));
  return old.sa_handler;
}

const char *gasnett_performance_warning_str(void) {
  return ""
#if defined(GASNET_DEBUG)
         "        debugging (configured with --enable-debug)\n"
#endif
#if !defined(__OPTIMIZE__)
         "        no compiler optimization\n"
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
         "        built with a sanitizer (configured with --enable-sanitize)\n"
#endif
      ;
}

void gasneti_tools_pthread_failed(const char *call, int rc) {
  gasnett_fatalerror("%s failed: %s", call, strerror(rc));
}

void gasnett_fatalerror(const char *msg, ...) {
  static int entered = 0;
  static __thread int reporting = 0;
  char text[2048];
  va_list ap;

  /* A fatal error raised while reporting one (by the backtrace machinery)
   * must not loop: abort at once. One raised by another thread must not
   * interleave with the report: that thread waits for the abort. */
  if (reporting) abort();
  reporting = 1;
  if (__atomic_exchange_n(&entered, 1, __ATOMIC_ACQ_REL))
    for (;;) sleep(1);

  va_start(ap, msg);
  vsnprintf(text, sizeof(text), msg, ap);
  va_end(ap);
  fflush(stdout);
  fprintf(stderr, "*** FATAL ERROR: %s\n", text);
  fflush(stderr);
  gasnett_print_backtrace_ifenabled(STDERR_FILENO);
  /* Reported already: a GASNet node's SIGABRT handler must not report it
   * again as a fatal signal. */
  signal(SIGABRT, SIG_DFL);
  abort();
}
