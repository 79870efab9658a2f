/* test_trees_hier: unit tests of the two-level tree math of
 * coll/trees_hier.c (compiled into this program with coll/trees.c; no
 * network here).
 *
 * Usage: test_trees_hier [-v]
 *
 * For team sizes 1..40 (and a few larger ones) and supernode layouts of
 * consecutive hosts of every size, round-robin hosts, uneven and
 * pseudo-random ones, every root, and every virtual rank, checks:
 *   - find_runs: ascending run starts; a rank starts a run exactly when
 *     its supernode differs from the previous rank's (circularly); one
 *     run at 0 when there is one supernode;
 *   - virtual rank 0's subtree is the team; every non-root has a parent
 *     below it and appears once in that parent's children; the root in
 *     none; every child carries its own subtree size;
 *   - subtrees are contiguous: the children's ranges partition
 *     (v, v + subtree(v)), as trees.h promises for every shape;
 *   - the hierarchy: exactly nruns - 1 edges join two runs (one message
 *     per run crosses between supernodes), each to the first rank of the
 *     child's run; every other edge stays on one supernode.
 * Every failure is listed (up to a limit); the exit code is 1 if any
 * check failed. */
#include "patterns/trees_hier.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long checks, failures;
static int verbose;

static void fail(const char *layout, uint32_t size, uint32_t root, uint32_t v, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void fail(const char *layout, uint32_t size, uint32_t root, uint32_t v, const char *fmt,
                 ...) {
  failures++;
  if (failures > 40) return;
  va_list ap;
  va_start(ap, fmt);
  printf("FAIL %s, size %u, root %u, vrank %u: ", layout, (unsigned)size, (unsigned)root,
         (unsigned)v);
  vprintf(fmt, ap);
  printf("\n");
  va_end(ap);
}

#define CHECK(cond, ...)                                         \
  do {                                                           \
    checks++;                                                    \
    if (!(cond)) fail(layout, size, root, v, __VA_ARGS__);       \
  } while (0)

static void check_runs(const char *layout, const uint32_t *sn, uint32_t size, const uint32_t *start,
                       uint32_t nruns) {
  uint32_t root = 0, v = 0, k = 0;
  int one = 1;
  for (uint32_t r = 1; r < size; r++) one = one && sn[r] == sn[0];
  if (one) {
    CHECK(nruns == 1 && start[0] == 0, "one supernode gives %u runs, first %u", nruns, start[0]);
    return;
  }
  for (uint32_t r = 0; r < size; r++) {
    int begins = sn[r] != sn[(r + size - 1) % size];
    int listed = k < nruns && start[k] == r;
    v = r;
    CHECK(begins == listed, "rank begins a run: %d, listed: %d", begins, listed);
    if (listed) k++;
  }
  CHECK(k == nruns, "%u runs listed, %u found", nruns, k);
}

/* The run holding team rank r (the last run wraps around rank 0). */
static uint32_t run_of(const gasnete_coll_hier_runs_t *runs, uint32_t r) {
  uint32_t k = runs->nruns - 1;
  for (uint32_t i = 0; i < runs->nruns; i++)
    if (runs->run_start[i] <= r) k = i;
  return k;
}

static void check_root(const char *layout, const uint32_t *sn, const gasnete_coll_hier_runs_t *runs,
                       uint32_t root) {
  uint32_t size = runs->size, v = 0;
  uint32_t *seen = calloc(size, sizeof(*seen));
  gasnete_coll_tree_child_t *kids = calloc(size, sizeof(*kids));
  uint32_t crossing = 0;
  CHECK(gasnete_coll_hier_subtree_size(runs, root, 0) == size, "root subtree %u",
        gasnete_coll_hier_subtree_size(runs, root, 0));
  for (v = 0; v < size; v++) {
    uint32_t sub = gasnete_coll_hier_subtree_size(runs, root, v);
    uint32_t n = gasnete_coll_hier_children(runs, root, v, kids, size);
    CHECK(gasnete_coll_hier_children(runs, root, v, NULL, 0) == n, "count without room differs");
    if (n > 1) {
      gasnete_coll_tree_child_t few[1];
      CHECK(gasnete_coll_hier_children(runs, root, v, few, 1) == n && few[0].vrank == kids[0].vrank,
            "a short list is not the prefix");
    }
    /* Children's ranges partition (v, v + sub). */
    uint8_t *cover = calloc(size + 1, 1);
    uint32_t covered = 0;
    for (uint32_t i = 0; i < n; i++) {
      uint32_t c = kids[i].vrank, cs = kids[i].subtree_size;
      CHECK(c > v && c + cs <= v + sub, "child %u (+%u) outside (%u, %u)", c, cs, v, v + sub);
      CHECK(gasnete_coll_hier_parent(runs, root, c) == v, "child %u names parent %u", c,
            gasnete_coll_hier_parent(runs, root, c));
      CHECK(gasnete_coll_hier_subtree_size(runs, root, c) == cs, "child %u carries %u, has %u", c,
            cs, gasnete_coll_hier_subtree_size(runs, root, c));
      if (c < size) seen[c]++;
      for (uint32_t x = c; x < c + cs && x < size; x++) {
        CHECK(!cover[x], "vrank %u in two children's ranges", x);
        cover[x] = 1;
        covered++;
      }
      uint32_t pr = (v + root) % size, cr = (c + root) % size;
      if (run_of(runs, pr) != run_of(runs, cr)) {
        crossing++;
        int leads = 0;
        for (uint32_t k = 0; k < runs->nruns; k++) leads = leads || runs->run_start[k] == cr;
        CHECK(leads, "child %u joins another run but does not lead its own", c);
      } else {
        CHECK(sn[pr] == sn[cr], "child %u of the same run on another supernode", c);
      }
    }
    CHECK(covered == sub - 1, "children cover %u of %u", covered, sub - 1);
    free(cover);
    if (v) CHECK(gasnete_coll_hier_parent(runs, root, v) < v, "parent %u not below",
                 gasnete_coll_hier_parent(runs, root, v));
  }
  v = 0;
  CHECK(seen[0] == 0, "the root is someone's child");
  for (v = 1; v < size; v++) CHECK(seen[v] == 1, "listed as a child %u times", seen[v]);
  v = 0;
  CHECK(crossing == runs->nruns - 1, "%u edges join runs, %u runs",
        crossing, runs->nruns);
  free(seen);
  free(kids);
}

static void check_layout(const char *layout, const uint32_t *sn, uint32_t size) {
  uint32_t *start = calloc(size, sizeof(*start));
  uint32_t nruns = gasnete_coll_hier_find_runs(sn, size, start);
  check_runs(layout, sn, size, start, nruns);
  gasnete_coll_hier_runs_t runs = {size, nruns, start};
  for (uint32_t root = 0; root < size; root++) check_root(layout, sn, &runs, root);
  if (verbose) printf("%s size %u: %u runs\n", layout, (unsigned)size, (unsigned)nruns);
  free(start);
}

static void check_size(uint32_t size) {
  uint32_t *sn = calloc(size, sizeof(*sn));
  for (uint32_t host = 1; host <= size; host++) { /* consecutive hosts of `host` ranks */
    for (uint32_t r = 0; r < size; r++) sn[r] = r / host * host;
    check_layout("consecutive", sn, size);
  }
  for (uint32_t hosts = 2; hosts <= 3 && hosts <= size; hosts++) { /* round robin */
    for (uint32_t r = 0; r < size; r++) sn[r] = r % hosts;
    check_layout("round-robin", sn, size);
  }
  for (uint32_t r = 0; r < size; r++) sn[r] = (r + 1) / 3 % 2; /* a run wraps around rank 0 */
  check_layout("wrapping", sn, size);
  uint32_t seed = size * 2654435761u;
  for (int t = 0; t < 4; t++) { /* uneven runs of 1..4 ranks, hosts repeating */
    uint32_t r = 0, host = 0;
    while (r < size) {
      seed = seed * 1103515245u + 12345u;
      uint32_t len = 1 + (seed >> 16) % 4;
      for (uint32_t i = 0; i < len && r < size; i++) sn[r++] = host;
      host = (host + 1 + (seed >> 8) % 2) % 5;
    }
    check_layout("uneven", sn, size);
  }
  free(sn);
}

int main(int argc, char **argv) {
  verbose = argc > 1 && !strcmp(argv[1], "-v");
  for (uint32_t size = 1; size <= 40; size++) check_size(size);
  const uint32_t big[] = {64, 97, 130};
  for (size_t b = 0; b < sizeof big / sizeof big[0]; b++) check_size(big[b]);
  printf("test_trees_hier: %lu checks, %lu failures\n", checks, failures);
  return failures ? 1 : 0;
}
