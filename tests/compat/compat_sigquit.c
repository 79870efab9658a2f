/* compat_sigquit.c: GASNet-1 delivers SIGINT and SIGTERM at a node, and a
 * remote node's exit, to the client as SIGQUIT, so the client's SIGQUIT
 * handler runs and may end the job with its own code. Node 1 interrupts
 * itself; every node's handler exits with 42, and run_compat.sh checks the
 * job's exit code is 42 and that node 1's handler ran. */
#include <gasnet.h>

#include <signal.h>

static void on_sigquit(int sig) {
  char line[64];
  int n = snprintf(line, sizeof(line), "compat_sigquit: node %u caught SIGQUIT\n",
                   (unsigned)gasnet_mynode());
  if (write(STDOUT_FILENO, line, (size_t)n) < 0) _exit(3);
  (void)sig;
  gasnet_exit(42);
}

int main(int argc, char **argv) {
  if (gasnet_init(&argc, &argv) != GASNET_OK) return 1;
  if (gasnet_attach(NULL, 0, 1 << 16, 0) != GASNET_OK) return 1;
  signal(SIGQUIT, on_sigquit);
  gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
  gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS);
  if (gasnet_mynode() == 1 % gasnet_nodes()) kill(getpid(), SIGINT);
  /* Wait for the signal (or the others' exit) while serving the network. */
  for (int i = 0; i < 60000; i++) {
    gasnet_AMPoll();
    usleep(1000);
  }
  fprintf(stderr, "compat_sigquit: node %u was never told to stop\n", (unsigned)gasnet_mynode());
  return 1;
}
