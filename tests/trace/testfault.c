/* testfault.c: faults for the backtrace and freeze checks
 * (tests/trace/check_debug.sh).
 *
 * Usage: testfault MODE, on every node:
 *   ok     a barrier and a clean exit (GASNET_FREEZE stops it in gasnet_init)
 *   fatal  node 0 calls gasnet_put on a node that does not exist, from
 *          testfault_bad_put (a fatal error); the others wait in a barrier
 *   segv   node 0 writes to a page it mapped without access, in
 *          testfault_crash (SIGSEGV; not a NULL pointer, which
 *          UndefinedBehaviorSanitizer would report before the kernel does)
 * The faulting functions are external and not inlined, so a backtrace names
 * them (the build links programs -rdynamic). */
#include <gasnet.h>

#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

void testfault_bad_put(void) __attribute__((noinline));
void testfault_crash(volatile int *where) __attribute__((noinline));

void testfault_bad_put(void) {
  int value = 1;
  gasnet_put(gasnet_nodes() + 7, NULL, &value, sizeof(value));
}

void testfault_crash(volatile int *where) { *where = 42; }

static void barrier(void) {
  gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
  gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS);
}

int main(int argc, char **argv) {
  if (gasnet_init(&argc, &argv) != GASNET_OK) return 1;
  if (gasnet_attach(NULL, 0, GASNET_PAGESIZE, 0) != GASNET_OK) return 1;
  const char *mode = argc > 1 ? argv[1] : "";
  if (!strcmp(mode, "ok")) {
    barrier();
    if (gasnet_mynode() == 0) printf("testfault: ok\n");
    fflush(stdout);
    gasnet_exit(0);
  }
  if (strcmp(mode, "fatal") && strcmp(mode, "segv")) {
    fprintf(stderr, "usage: testfault ok|fatal|segv\n");
    gasnet_exit(2);
  }
  if (gasnet_mynode() == 0) {
    if (!strcmp(mode, "fatal")) testfault_bad_put();
    void *page = mmap(NULL, GASNET_PAGESIZE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED) {
      fprintf(stderr, "testfault: mmap failed\n");
      gasnet_exit(3);
    }
    testfault_crash((volatile int *)page);
  }
  barrier(); /* the fault ends the job while the others wait here */
  gasnet_exit(0);
  return 0;
}
