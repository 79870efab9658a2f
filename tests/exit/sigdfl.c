/* sigdfl: run a command with SIGINT, SIGQUIT and SIGTERM at their default
 * disposition (and unblocked), optionally in a process group of its own.
 *
 * Usage: sigdfl [-g] PROGRAM [ARGS...]
 *
 * Why: a non-interactive shell starts a background command with SIGINT and
 * SIGQUIT ignored, and a shell script that starts with a signal ignored cannot
 * trap it. A test that sends SIGINT to a launcher started with `&` would then
 * test nothing. With -g the command leads a new process group, so the test
 * can also signal the whole job the way a terminal's ^C does, without
 * signalling itself. The command keeps sigdfl's pid (exec, no fork). */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
  int first = 1;
  if (argc > 1 && strcmp(argv[1], "-g") == 0) {
    if (setpgid(0, 0) != 0) {
      perror("sigdfl: failed to create a process group");
      return 126;
    }
    first = 2;
  }
  if (first >= argc) {
    fprintf(stderr, "usage: sigdfl [-g] PROGRAM [ARGS...]\n");
    return 126;
  }
  const int sigs[] = {SIGINT, SIGQUIT, SIGTERM};
  sigset_t unblock;
  sigemptyset(&unblock);
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
    signal(sigs[i], SIG_DFL);
    sigaddset(&unblock, sigs[i]);
  }
  sigprocmask(SIG_UNBLOCK, &unblock, NULL);
  execvp(argv[first], argv + first);
  fprintf(stderr, "sigdfl: failed to run %s: %s\n", argv[first], strerror(errno));
  return 127;
}
