/* compat_exit.c: a collective exit loses nothing. Every node passes a
 * final barrier, prints one line to a buffered stdout and returns from
 * main, while (in threaded modes) a second thread keeps calling
 * gasnet_AMPoll. Each node must finish its own exit path, so every line
 * reaches the output; run_compat.sh runs this many times and counts them.
 * With the argument "late", node 0 works 200 ms longer than the others
 * after the barrier, polling as it goes, and so does its polling thread:
 * both hear of the others' exit while it is still on its way to its own. */
#include <gasnet.h>

#if defined(GASNET_PAR)
static void *keep_polling(void *arg) {
  (void)arg;
  for (;;) {
    gasnet_AMPoll();
    sched_yield();
  }
  return NULL;
}
#endif

int main(int argc, char **argv) {
  if (gasnet_init(&argc, &argv) != GASNET_OK) return 1;
  if (gasnet_attach(NULL, 0, 1 << 16, 0) != GASNET_OK) return 1;
#if defined(GASNET_PAR)
  pthread_t poller;
  if (pthread_create(&poller, NULL, keep_polling, NULL) != 0) return 1;
#endif
  gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
  gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS);
  if (argc > 1 && !strcmp(argv[1], "late") && gasnet_mynode() == 0) {
    /* 200 ms of work, polling between pieces of it as clients do. */
    for (int ms = 0; ms < 200; ms++) {
      struct timespec piece = {0, 1000 * 1000};
      nanosleep(&piece, NULL);
      gasnet_AMPoll();
    }
  }
  /* Buffered on purpose: the line is written when the process exits. */
  printf("compat_exit: node %u done\n", (unsigned)gasnet_mynode());
  return 0;
}
