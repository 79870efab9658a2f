/* tools_backtrace.c: backtraces of the calling thread, for fatal errors and
 * for clients that want one.
 *
 * Mechanisms are tried in the order GASNET_BACKTRACE_TYPE lists them
 * (default: configure --with-backtrace-type, "USER,EXECINFO" unless
 * changed): USER is the client's gasnett_backtrace_user, EXECINFO the C
 * library's backtrace() (function names of the program need it linked
 * -rdynamic, as the conduit fragments do), GDB the debugger in batch mode,
 * attached to this process (every thread's stack, static functions and
 * source lines where the program has debug information). Output goes
 * straight to a file descriptor with write(), as this runs from signal
 * handlers and after memory corruption, where stdio and malloc may not
 * work. */
#define _GNU_SOURCE

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gasnet_tools_internal.h"

#if defined(__has_include)
#if __has_include(<execinfo.h>)
#define GASNETTI_HAVE_EXECINFO 1
#include <execinfo.h>
#endif
#endif

/* Weak, so a client may define the variable itself (GASNet-1 clients did,
 * with an initialiser) as well as fill in its fields at run time. */
__attribute__((__weak__)) gasnett_backtrace_type_t gasnett_backtrace_user = {NULL, NULL, 0};

static char gasnetti_exename[1024] = "";

static void gasnetti_bt_write(int fd, const char *s) {
  size_t left = strlen(s);
  while (left > 0) {
    const ssize_t n = write(fd, s, left);
    if (n <= 0) return; /* nowhere to report a failure to report */
    s += n;
    left -= (size_t)n;
  }
}

#if defined(GASNETTI_HAVE_EXECINFO)
static int gasnetti_bt_execinfo(int fd) {
  void *frames[128];
  const int n = backtrace(frames, (int)(sizeof(frames) / sizeof(frames[0])));
  if (n <= 0) return 1;
  backtrace_symbols_fd(frames, n, fd);
  return 0;
}
#endif

#ifndef GASNETI_BACKTRACE_DEFAULT
#define GASNETI_BACKTRACE_DEFAULT "USER,EXECINFO"
#endif

const char *gasneti_tools_backtrace_default(void) { return GASNETI_BACKTRACE_DEFAULT; }

/* gdb -batch attached to this process, its output on fd. Returns 1 when
 * gdb could not be run or attach; its own output says why. */
static int gasnetti_bt_gdb(int fd) {
  char pid[32];
  snprintf(pid, sizeof(pid), "%d", (int)getpid());
#if defined(PR_SET_PTRACER)
  prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0); /* Yama: let a child attach */
#endif
  pid_t child = fork();
  if (child < 0) return 1;
  if (child == 0) {
    dup2(fd, STDOUT_FILENO);
    dup2(fd, STDERR_FILENO);
    execlp("gdb", "gdb", "-nx", "-batch", "-p", pid, "-ex", "set pagination off", "-ex",
           "thread apply all backtrace", (char *)NULL);
    _exit(127);
  }
  int status = 0;
  while (waitpid(child, &status, 0) < 0) {
  }
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}

int gasnett_backtrace_init(const char *exename) {
  if (exename) {
    strncpy(gasnetti_exename, exename, sizeof(gasnetti_exename) - 1);
    gasnetti_exename[sizeof(gasnetti_exename) - 1] = '\0';
  }
#if defined(GASNETTI_HAVE_EXECINFO)
  {
    /* The first backtrace() loads libgcc's unwinder, which allocates: do it
     * now rather than inside a signal handler or a corrupted heap. */
    void *frame[1];
    (void)backtrace(frame, 1);
  }
#endif
  return 1;
}

/* Runs the mechanism called name (length len); returns 0 once one worked,
 * 1 when it failed, -1 when no such mechanism is available here. */
static int gasnetti_bt_try(const char *name, size_t len, int fd) {
  char line[1200];
  if (len == 4 && !strncasecmp(name, "USER", 4)) {
    if (!gasnett_backtrace_user.fnp) return -1;
    snprintf(line, sizeof(line), "Backtrace by %s:\n",
             gasnett_backtrace_user.name ? gasnett_backtrace_user.name : "the client");
    gasnetti_bt_write(fd, line);
    return gasnett_backtrace_user.fnp(fd) == 0 ? 0 : 1;
  }
  if (len == 3 && !strncasecmp(name, "GDB", 3)) {
    snprintf(line, sizeof(line), "Backtrace of %s (pid %d, GDB):\n",
             gasnetti_exename[0] ? gasnetti_exename : "this process", (int)getpid());
    gasnetti_bt_write(fd, line);
    return gasnetti_bt_gdb(fd);
  }
#if defined(GASNETTI_HAVE_EXECINFO)
  if (len == 8 && !strncasecmp(name, "EXECINFO", 8)) {
    snprintf(line, sizeof(line), "Backtrace of %s (pid %d, EXECINFO):\n",
             gasnetti_exename[0] ? gasnetti_exename : "this process", (int)getpid());
    gasnetti_bt_write(fd, line);
    return gasnetti_bt_execinfo(fd);
  }
#endif
  return -1;
}

int gasnett_print_backtrace(int fd) {
  const char *list = gasnett_getenv("GASNET_BACKTRACE_TYPE");
  const char *p;
  if (!list || !*list) list = GASNETI_BACKTRACE_DEFAULT;
  for (p = list; *p;) {
    const size_t len = strcspn(p, ", ");
    if (len > 0 && gasnetti_bt_try(p, len, fd) == 0) return 0;
    p += len;
    p += strspn(p, ", ");
  }
  gasnetti_bt_write(fd, "No backtrace mechanism in GASNET_BACKTRACE_TYPE worked.\n");
  return 1;
}

int gasnett_print_backtrace_ifenabled(int fd) {
  if (!gasneti_tools_env_is_yes("GASNET_BACKTRACE")) {
    gasnetti_bt_write(fd, "NOTICE: Before reporting bugs, run with GASNET_BACKTRACE=1 in the "
                          "environment to generate a backtrace.\n");
    return 1;
  }
  return gasnett_print_backtrace(fd);
}
