/* test_bootstrap.c: the bootstrap exchange conduits may use
 * (src/gasnet_bootstrap.h), run under a launcher that sets GASNETRUN_NODE,
 * _NODES and _JOB (the template's, conduits/template/tests.cases).
 *
 * Usage: test_bootstrap [MODE]
 *   ok        (default) allgathers of 0 bytes (the barrier), 1 byte, 8 bytes
 *             and 1 MiB, and 40 more of sizes every node derives from the
 *             round, each block's bytes a pattern of (node, round) checked
 *             everywhere; then the nodes say their pids, which must be
 *             distinct
 *   mismatch  node 1 gives one byte more than the others: node 0 must
 *             fail naming node 1 and the sizes, the others then learn
 *             that node 0 left
 *   leave     the last node exits (code 3) right after joining: every other
 *             node's next allgather must fail saying that a node left, not
 *             hang
 *   leave_pmix the same, but a barrier that goes through without the last
 *             node is not a failure: Open MPI's PMIx server completes a
 *             fence over the nodes still alive when it learnt of the end
 *             first. The others then return 0, so the launcher must still
 *             end the job naming the leaver's code 3 (its case checks)
 * Exits 0 when the exchange did what it should, else prints the error and
 * exits 1 (mismatch and leave exit 1 by design: their case files check
 * the message). */
#include "../src/gasnet_bootstrap.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static gasneti_bootstrap_t boot;

static void die(const char *what) {
  fprintf(stderr, "test_bootstrap: node %u: %s: %s\n", boot.node, what, boot.error);
  exit(1);
}

__attribute__((format(printf, 1, 2))) static void fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "test_bootstrap: node %u: FAIL: ", boot.node);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  exit(1);
}

static unsigned char pattern(unsigned node, unsigned round, size_t i) {
  return (unsigned char)(node * 131u + round * 7u + i * 29u + (i >> 8));
}

static size_t round_bytes(unsigned round) {
  static const size_t fixed[] = {0, 1, 8, 1u << 20};
  if (round < 4) return fixed[round];
  return (size_t)(round * 2654435761u) % 70000u;
}

static void one_allgather(unsigned round) {
  size_t len = round_bytes(round);
  unsigned char *mine = malloc(len + 1), *all = malloc(len * boot.nodes + 1);
  if (!mine || !all) fail("out of memory in round %u", round);
  for (size_t i = 0; i < len; i++) mine[i] = pattern(boot.node, round, i);
  if (gasneti_bootstrap_allgather(&boot, mine, len, all)) die("allgather");
  for (unsigned n = 0; n < boot.nodes; n++)
    for (size_t i = 0; i < len; i++)
      if (all[n * len + i] != pattern(n, round, i))
        fail("round %u: byte %zu of node %u's block is wrong", round, i, n);
  free(mine);
  free(all);
}

static void check_pids(void) {
  int32_t me = (int32_t)getpid(), *pids = calloc(boot.nodes, sizeof(*pids));
  if (!pids) fail("out of memory");
  if (gasneti_bootstrap_allgather(&boot, &me, sizeof(me), pids)) die("allgather of pids");
  if (pids[boot.node] != me) fail("my pid came back as %d, not %d", (int)pids[boot.node], (int)me);
  for (unsigned i = 0; i < boot.nodes; i++)
    for (unsigned j = i + 1; j < boot.nodes; j++)
      if (pids[i] == pids[j]) fail("nodes %u and %u gave the same pid %d", i, j, (int)pids[i]);
  free(pids);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "ok";
  if (gasneti_bootstrap_open(&boot)) die("open");
  if (!strcmp(mode, "mismatch")) {
    char buf[16] = {0}, *all = malloc(16 * boot.nodes);
    size_t len = boot.node == 1 ? 9 : 8;
    if (gasneti_bootstrap_allgather(&boot, buf, len, all)) die("allgather");
    fail("an allgather of different sizes succeeded");
  }
  int lenient = !strcmp(mode, "leave_pmix");
  if (lenient || !strcmp(mode, "leave")) {
    if (boot.node == boot.nodes - 1 && boot.nodes > 1) exit(3);
    if (gasneti_bootstrap_barrier(&boot)) die("barrier");
    if (boot.nodes > 1 && !lenient) fail("a barrier without node %u succeeded", boot.nodes - 1);
    if (boot.nodes > 1)
      fprintf(stderr, "test_bootstrap: node %u: the barrier went through without node %u\n",
              boot.node, boot.nodes - 1);
    return 0;
  }
  if (strcmp(mode, "ok")) fail("unknown mode \"%s\"", mode);
  if (gasneti_bootstrap_barrier(&boot)) die("barrier");
  for (unsigned round = 0; round < 44; round++) one_allgather(round);
  check_pids();
  if (gasneti_bootstrap_barrier(&boot)) die("last barrier");
  gasneti_bootstrap_close(&boot);
  if (boot.node == 0) printf("test_bootstrap: %u nodes, 44 allgathers: ok\n", boot.nodes);
  return 0;
}
