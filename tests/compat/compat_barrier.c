/* compat_barrier.c: barrier matching as GASNet 1.20 and later do it, which
 * GASNet's own barrier conformance test and its clients expect.
 *
 * A wait's flags may differ from its notify's: an anonymous notify may be
 * waited on by name and a named one anonymously; a named wait is a
 * mismatch only when its id is not the name the named notifies agreed on.
 * A mismatch is still reported when named notifies differ or a notify
 * passes GASNET_BARRIERFLAG_MISMATCH. gasnet_barrier_result says whether
 * anybody was named and the agreed name. Every case runs with wait and
 * with a try loop, and with each node singled out in turn; run_compat.sh
 * runs it under every barrier implementation (GASNET_BARRIER). Every node
 * prints "compat_barrier: node I/N OK". */
#include <gasnet.h>

static gasnet_node_t mynode, nodes;
static int use_try;

static void die(const char *what, int line) {
  fprintf(stderr, "compat_barrier: node %u (%s): %s (line %d)\n", (unsigned)mynode,
          use_try ? "try" : "wait", what, line);
  fflush(stderr);
  gasnet_exit(1);
}
#define CHECK(cond, what) \
  do {                    \
    if (!(cond)) die(what, __LINE__); \
  } while (0)

/* notify(nid, nflags), then wait (or try) with (wid, wflags). */
static int barrier2(int nid, int nflags, int wid, int wflags) {
  gasnet_barrier_notify(nid, nflags);
  if (!use_try) return gasnet_barrier_wait(wid, wflags);
  int rc;
  while ((rc = gasnet_barrier_try(wid, wflags)) == GASNET_ERR_NOT_READY) sched_yield();
  return rc;
}
static int barrier1(int id, int flags) { return barrier2(id, flags, id, flags); }

/* The result of the last barrier: anonymous (nonzero) or the name. */
static void expect_result(int named, int name, const char *what) {
  int id = -1;
  int anon = gasnet_barrier_result(&id);
  if (named) CHECK(anon == 0 && id == name, what);
  else CHECK(anon != 0, what);
}

static const int A = GASNET_BARRIERFLAG_ANONYMOUS, M = GASNET_BARRIERFLAG_MISMATCH;
static const int MIS = GASNET_ERR_BARRIER_MISMATCH;

static void alone_cases(void) {
  CHECK(barrier1(0, mynode == 0 ? M : 0) == MIS, "MISMATCH on node 0's notify");
  CHECK(gasnet_barrier(0, mynode == 0 ? M : 0) == MIS, "MISMATCH in a blocking barrier");
  CHECK(barrier2(0, 0, 1, 0) == MIS, "a wait whose id differs from the notify's");
  CHECK(barrier2(0, A, 0, 0) == GASNET_OK, "anonymous notify, named wait");
  expect_result(0, 0, "anonymous notify, named wait: the result is anonymous");
  CHECK(barrier2(0, 0, 0, A) == GASNET_OK, "named notify, anonymous wait");
  expect_result(1, 0, "named notify, anonymous wait: the result is name 0");
}

static void pair_cases(gasnet_node_t j, int i) {
  int me = mynode == j;
  CHECK(barrier1(me ? 12345 : 5551212, me ? A : 0) == GASNET_OK, "one anonymous among named");
  expect_result(1, 5551212, "one anonymous among named: the name");
  CHECK(gasnet_barrier(me ? 12345 : 5551212, me ? A : 0) == GASNET_OK,
        "one anonymous among named (blocking)");
  CHECK(barrier2(me ? 12345 : 5551212, me ? A : 0, 5551212, 0) == GASNET_OK,
        "anonymous notify, wait by the agreed name");
  expect_result(1, 5551212, "anonymous notify, wait by the agreed name: the name");
  int rc = barrier2(me ? 12345 : 5551212, me ? A : 0, me ? 12345 : 5551212, 0);
  if (me) CHECK(rc == MIS, "anonymous notify, wait by another name");
  CHECK(barrier1(me ? (int)0xcafef00d : 911, me ? 0 : A) == GASNET_OK, "one named among anonymous");
  expect_result(1, (int)0xcafef00d, "one named among anonymous: the name");
  CHECK(barrier1(i, 0) == GASNET_OK, "all named alike");
  expect_result(1, i, "all named alike: the name");
  CHECK(barrier2(i ^ (int)j, A, i ^ (int)j, 0) == GASNET_OK, "all anonymous, waits named");
  expect_result(0, 0, "all anonymous: the result is anonymous");
  CHECK(barrier1(me, 0) == MIS, "one node named differently");
  CHECK(gasnet_barrier(me, 0) == MIS, "one node named differently (blocking)");
  CHECK(barrier1(0, me ? M : 0) == MIS, "MISMATCH from one node");
}

static void triple_cases(gasnet_node_t j, gasnet_node_t k) {
  int id = mynode == j ? 1592 : mynode == k ? 1776 : 12345;
  int flags = mynode == j || mynode == k ? 0 : A;
  CHECK(barrier1(id, flags) == MIS, "two names among anonymous");
  CHECK(gasnet_barrier(id, flags) == MIS, "two names among anonymous (blocking)");
  /* One named (k), the others anonymous; j waits by another name. */
  int rc = barrier2(mynode == k ? 42 : 511, mynode == k ? 0 : A, mynode == j ? 511 : 42,
                    mynode == k ? 0 : (mynode == j ? 0 : A));
  if (mynode == j) CHECK(rc == MIS, "anonymous notify, wait by another name than the one named node's");
}

static void run_cases(int iters) {
  for (int i = 0; i < iters; i++) {
    alone_cases();
    for (gasnet_node_t j = 0; j < nodes && nodes > 1; j++) pair_cases(j, i);
    for (gasnet_node_t j = 0; j < nodes && nodes > 2; j++)
      for (gasnet_node_t k = 0; k < nodes; k++)
        if (k != j) triple_cases(j, k);
    CHECK(gasnet_barrier(i, 0) == GASNET_OK, "the barrier after a round");
  }
}

int main(int argc, char **argv) {
  if (gasnet_init(&argc, &argv) != GASNET_OK) return 1;
  if (gasnet_attach(NULL, 0, 1 << 16, 0) != GASNET_OK) return 1;
  mynode = gasnet_mynode();
  nodes = gasnet_nodes();
  int iters = argc > 1 ? atoi(argv[1]) : 20;
  for (use_try = 0; use_try < 2; use_try++) run_cases(iters);
  printf("compat_barrier: node %u/%u OK\n", (unsigned)mynode, (unsigned)nodes);
  fflush(stdout);
  gasnet_barrier_notify(0, A);
  if (gasnet_barrier_wait(0, A) != GASNET_OK) die("final barrier", __LINE__);
  gasnet_exit(0);
  return 0;
}
