/* gasnet_debug.c: the aids GASNet-1 users reach for when a job fails.
 *
 * Backtraces: with GASNET_BACKTRACE=1 a fatal error or fatal signal prints
 * the failing thread's stack (the mechanisms of GASNET_BACKTRACE_TYPE, in
 * the tools library) on stderr and into the trace file.
 *
 * Freezing: GASNET_FREEZE=1 stops every node in gasnet_init (after it knows
 * its number); GASNET_FREEZE_ON_ERROR=1 stops a node that hit a fatal error
 * or caught a fatal signal, before it ends the job. A frozen node says
 * where it is and how to go on, then sleeps until gasnet_frozen is 0: set
 * from a debugger, or by sending the process SIGCONT. */
#include "gasnet_internal.h"
#include "tools/gasnet_tools_internal.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* GASNet-1's name, which its users type in the debugger. */
volatile int gasnet_frozen;

static void gasneti_freeze_thaw(int sig) {
  (void)sig;
  gasnet_frozen = 0;
}

/* write(2) only: this may run in a signal handler. */
static void gasneti_freeze_say(const char *why) {
  char host[256] = "";
  char line[768];
  gethostname(host, sizeof(host) - 1);
  int pid = (int)getpid();
  int n = snprintf(line, sizeof(line),
                   "*** GASNet node %u frozen for a debugger (%s): host %s, pid %d\n"
                   "*** to go on: gdb -p %d, then 'set var gasnet_frozen = 0' and 'continue'; "
                   "or kill -CONT %d\n",
                   (unsigned)gasneti_mynode, why, host, pid, pid, pid);
  if (n > (int)sizeof(line) - 1) n = (int)sizeof(line) - 1;
  ssize_t rc = write(STDERR_FILENO, line, (size_t)n);
  (void)rc;
}

void gasneti_freeze(const char *why) {
  alarm(0); /* a fatal signal's guard: a frozen node waits for its debugger */
  struct sigaction thaw, saved;
  memset(&thaw, 0, sizeof(thaw));
  thaw.sa_handler = gasneti_freeze_thaw;
  sigemptyset(&thaw.sa_mask);
  sigaction(SIGCONT, &thaw, &saved);
  sigset_t cont, old;
  sigemptyset(&cont);
  sigaddset(&cont, SIGCONT);
  pthread_sigmask(SIG_UNBLOCK, &cont, &old);
  gasnet_frozen = 1;
  gasneti_freeze_say(why);
  while (gasnet_frozen) {
    struct timespec ts = {0, 100 * 1000 * 1000};
    nanosleep(&ts, NULL);
  }
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  sigaction(SIGCONT, &saved, NULL);
}

/* Read in gasnet_init (so GASNET_VERBOSEENV lists them); the fatal paths,
 * which may run in a signal handler, use what was read. Before gasnet_init
 * nothing freezes. */
static int gasneti_freeze_on_error;
static int gasneti_backtrace_on;

void gasneti_debug_init(void) {
  gasneti_backtrace_on = gasneti_getenv_yesno("GASNET_BACKTRACE", 0);
  gasneti_getenv_verbose("GASNET_BACKTRACE_TYPE", gasneti_tools_backtrace_default());
  gasneti_freeze_on_error = gasneti_getenv_yesno("GASNET_FREEZE_ON_ERROR", 0);
  if (gasneti_getenv_yesno("GASNET_FREEZE", 0)) gasneti_freeze("GASNET_FREEZE, in gasnet_init");
}

void gasneti_debug_on_fatal(const char *why) {
  if (gasneti_backtrace_on) {
    gasnett_print_backtrace(STDERR_FILENO);
    int fd = gasneti_trace_fd();
    if (fd >= 0) gasnett_print_backtrace(fd);
  } else {
    gasnett_print_backtrace_ifenabled(STDERR_FILENO); /* the hint to set it */
  }
  if (gasneti_freeze_on_error) gasneti_freeze(why);
}
