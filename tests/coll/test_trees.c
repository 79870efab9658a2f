/* test_trees: unit tests of the pure tree math of coll/trees.c, which is
 * compiled into this program (it has no dependencies; no network here).
 *
 * Usage: test_trees [-v]
 *
 * For the shapes flat, binomial, binary and k-nomial with radix 2..8 (and a
 * few larger radices), and every team size 1..200 (and some large ones),
 * checks what trees.h promises:
 *   - virtual rank 0 is the root; its subtree is the whole team;
 *   - every non-root has exactly one parent, below it, and appears in its
 *     parent's children list exactly once; the root appears in none;
 *   - every listed child names v as its parent, and carries its own
 *     subtree size;
 *   - each subtree is the contiguous range [v, v + subtree_size(v)): the
 *     children's ranges partition (v, v + subtree_size(v)), and the first
 *     child is v + 1 (pre-order numbering);
 *   - children come in the order a parent should serve them: largest
 *     subtree first (non-increasing subtree sizes);
 *   - children() writes at most max_children entries and returns the
 *     full count (NULL with 0 is allowed);
 *   - the shapes' own definitions: flat (everyone's parent is 0), binomial
 *     (children v + 2^j for every 2^j below v's lowest set bit; parent
 *     clears the lowest set bit), k-nomial (parent clears the lowest
 *     non-zero base-k digit; subtree of v is [v, v + k^j) clipped, k^j the
 *     weight of that digit), binary (at most two children; the first
 *     child's subtree has ceil((s-1)/2) ranks, the second the rest);
 *   - gasnete_coll_log2_ceil(size) is ceil(log2(size)), 0 for 0 and 1.
 * Every failure is listed (up to a limit) with shape, size and rank; the
 * exit code is 1 if any check failed. */
#include "patterns/trees.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long checks, failures;
static int verbose;

#ifndef MAX_REPORTS
#define MAX_REPORTS 40
#endif

static void fail(const char *shape, uint32_t radix, uint32_t size, uint32_t v, const char *fmt,
                 ...) __attribute__((format(printf, 5, 6)));

#include <stdarg.h>
static void fail(const char *shape, uint32_t radix, uint32_t size, uint32_t v, const char *fmt,
                 ...) {
  failures++;
  if (failures > MAX_REPORTS) return;
  va_list ap;
  va_start(ap, fmt);
  if (radix)
    printf("FAIL %s radix %u, size %u, vrank %u: ", shape, (unsigned)radix, (unsigned)size,
           (unsigned)v);
  else
    printf("FAIL %s, size %u, vrank %u: ", shape, (unsigned)size, (unsigned)v);
  vprintf(fmt, ap);
  printf("\n");
  va_end(ap);
}

#define CHECK(cond, ...)                                               \
  do {                                                                 \
    checks++;                                                          \
    if (!(cond)) fail(name, kind.radix, size, v, __VA_ARGS__);         \
  } while (0)

static const char *shape_name(gasnete_coll_tree_shape_t s) {
  switch (s) {
    case GASNETE_COLL_TREE_FLAT: return "flat";
    case GASNETE_COLL_TREE_BINOMIAL: return "binomial";
    case GASNETE_COLL_TREE_BINARY: return "binary";
    case GASNETE_COLL_TREE_KNOMIAL: return "knomial";
  }
  return "?";
}

/* The shape's own definition of parent and subtree, for the checks above. */
static uint32_t lowest_digit_weight(uint32_t radix, uint32_t v) {
  uint64_t w = 1;
  while ((v / w) % radix == 0) w *= radix;
  return (uint32_t)w;
}

static void check_tree(gasnete_coll_tree_kind_t kind, uint32_t size) {
  const char *name = shape_name(kind.shape);
  uint32_t radix = kind.shape == GASNETE_COLL_TREE_BINOMIAL ? 2 : kind.radix;
  uint32_t *parent_count = calloc(size, sizeof *parent_count);
  gasnete_coll_tree_child_t *kids = calloc(size + 1, sizeof *kids);
  gasnete_coll_tree_child_t *sorted = calloc(size + 1, sizeof *sorted);
  if (!parent_count || !kids || !sorted) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  uint32_t v = 0;
  CHECK(gasnete_coll_tree_subtree_size(kind, size, 0) == size,
        "root subtree is %u, not the whole team",
        (unsigned)gasnete_coll_tree_subtree_size(kind, size, 0));

  for (v = 0; v < size; v++) {
    uint32_t sub = gasnete_coll_tree_subtree_size(kind, size, v);
    CHECK(sub >= 1 && (uint64_t)v + sub <= size, "subtree size %u runs past the team",
          (unsigned)sub);
    if (v > 0) {
      uint32_t p = gasnete_coll_tree_parent(kind, size, v);
      CHECK(p < v, "parent %u is not below the rank (pre-order numbering)", (unsigned)p);
      if (p < v) {
        uint32_t psub = gasnete_coll_tree_subtree_size(kind, size, p);
        CHECK(v < p + psub && (uint64_t)v + sub <= (uint64_t)p + psub,
              "subtree [%u, %u) is not inside the parent %u's [%u, %u)", (unsigned)v,
              (unsigned)(v + sub), (unsigned)p, (unsigned)p, (unsigned)(p + psub));
      }
    }

    /* The count alone (NULL, 0), then a full list, then a clipped one. */
    uint32_t n = gasnete_coll_tree_children(kind, size, v, NULL, 0);
    CHECK(n < size, "%u children in a team of %u", (unsigned)n, (unsigned)size);
    if (n >= size) continue;
    memset(kids, 0xa5, (size + 1) * sizeof *kids);
    uint32_t n2 = gasnete_coll_tree_children(kind, size, v, kids, n);
    CHECK(n2 == n, "children() returned %u with room and %u without", (unsigned)n2, (unsigned)n);
    CHECK(kids[n].vrank == 0xa5a5a5a5u, "children() wrote past max_children %u", (unsigned)n);
    if (n > 1) {
      gasnete_coll_tree_child_t probe[2];
      memset(probe, 0x5a, sizeof probe);
      uint32_t n3 = gasnete_coll_tree_children(kind, size, v, probe, 1);
      CHECK(n3 == n, "children() with max 1 returned %u, not the full count %u", (unsigned)n3,
            (unsigned)n);
      CHECK(probe[1].vrank == 0x5a5a5a5au, "children() with max 1 wrote a second entry");
      CHECK(probe[0].vrank == kids[0].vrank && probe[0].subtree_size == kids[0].subtree_size,
            "children() with max 1 gave a different first child");
    }

    uint32_t sum = 0;
    for (uint32_t i = 0; i < n; i++) {
      uint32_t c = kids[i].vrank;
      CHECK(c > v && c < size, "child %u out of range", (unsigned)c);
      if (!(c > v && c < size)) continue;
      parent_count[c]++;
      CHECK(gasnete_coll_tree_parent(kind, size, c) == v, "child %u has parent %u", (unsigned)c,
            (unsigned)gasnete_coll_tree_parent(kind, size, c));
      CHECK(kids[i].subtree_size == gasnete_coll_tree_subtree_size(kind, size, c),
            "child %u listed with subtree %u, subtree_size() says %u", (unsigned)c,
            (unsigned)kids[i].subtree_size,
            (unsigned)gasnete_coll_tree_subtree_size(kind, size, c));
      if (i > 0)
        CHECK(kids[i].subtree_size <= kids[i - 1].subtree_size,
              "children not largest subtree first: child %u (subtree %u) after child %u "
              "(subtree %u)",
              (unsigned)c, (unsigned)kids[i].subtree_size, (unsigned)kids[i - 1].vrank,
              (unsigned)kids[i - 1].subtree_size);
      sum += kids[i].subtree_size;
    }
    CHECK(sum + 1 == sub, "children's subtrees hold %u ranks, the subtree %u", (unsigned)sum,
          (unsigned)sub);

    /* Sorted by rank, the children's ranges tile (v, v + sub). */
    memcpy(sorted, kids, n * sizeof *kids);
    for (uint32_t i = 1; i < n; i++)
      for (uint32_t j = i; j > 0 && sorted[j].vrank < sorted[j - 1].vrank; j--) {
        gasnete_coll_tree_child_t t = sorted[j];
        sorted[j] = sorted[j - 1];
        sorted[j - 1] = t;
      }
    uint32_t next = v + 1;
    for (uint32_t i = 0; i < n; i++) {
      CHECK(sorted[i].vrank == next, "children's ranges do not tile: expected a child at %u, "
            "found %u", (unsigned)next, (unsigned)sorted[i].vrank);
      next = sorted[i].vrank + sorted[i].subtree_size;
    }
    CHECK(n == 0 || next == v + sub, "children's ranges end at %u, the subtree at %u",
          (unsigned)next, (unsigned)(v + sub));

    /* The shape's own definition. */
    switch (kind.shape) {
      case GASNETE_COLL_TREE_FLAT:
        if (v > 0) CHECK(gasnete_coll_tree_parent(kind, size, v) == 0, "flat parent is not 0");
        CHECK(n == (v == 0 ? size - 1 : 0), "flat rank has %u children", (unsigned)n);
        break;
      case GASNETE_COLL_TREE_BINOMIAL:
      case GASNETE_COLL_TREE_KNOMIAL: {
        if (v > 0) {
          uint32_t w = lowest_digit_weight(radix, v);
          uint32_t digit = (v / w) % radix;
          CHECK(gasnete_coll_tree_parent(kind, size, v) == v - digit * w,
                "parent %u, expected %u (lowest base-%u digit cleared)",
                (unsigned)gasnete_coll_tree_parent(kind, size, v), (unsigned)(v - digit * w),
                (unsigned)radix);
          uint64_t end = (uint64_t)v + w;
          CHECK(sub == (end > size ? size : end) - v, "subtree %u, expected %u", (unsigned)sub,
                (unsigned)((end > size ? size : end) - v));
        }
        /* Children: v + m * k^j for every k^j below v's lowest digit (all
         * of them for the root) that stays inside the team. */
        uint64_t limit = v == 0 ? (uint64_t)-1 : lowest_digit_weight(radix, v);
        uint32_t expect = 0;
        for (uint64_t w = 1; w < limit && w < size; w *= radix)
          for (uint64_t m = 1; m < radix; m++)
            if ((uint64_t)v + m * w < size && m * w < limit) expect++;
        CHECK(n == expect, "%u children, the definition gives %u", (unsigned)n,
              (unsigned)expect);
        break;
      }
      case GASNETE_COLL_TREE_BINARY:
        CHECK(n <= 2, "binary rank has %u children", (unsigned)n);
        if (sub > 1) {
          uint32_t left = sub / 2; /* ceil((sub - 1) / 2) */
          CHECK(n >= 1 && kids[0].vrank == v + 1 && kids[0].subtree_size == left,
                "first child should be %u with %u ranks", (unsigned)(v + 1), (unsigned)left);
          if (sub - 1 - left)
            CHECK(n == 2 && kids[1].vrank == v + 1 + left &&
                      kids[1].subtree_size == sub - 1 - left,
                  "second child should be %u with %u ranks", (unsigned)(v + 1 + left),
                  (unsigned)(sub - 1 - left));
        }
        break;
    }
  }
  v = 0;
  CHECK(parent_count[0] == 0, "the root is listed as someone's child");
  for (v = 1; v < size; v++)
    CHECK(parent_count[v] == 1, "listed as a child %u times", (unsigned)parent_count[v]);
  free(parent_count);
  free(kids);
  free(sorted);
}

static void check_log2(void) {
  const char *name = "log2_ceil";
  gasnete_coll_tree_kind_t kind = {GASNETE_COLL_TREE_FLAT, 0};
  uint32_t v = 0, size;
  static const uint32_t probes[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 1000, 1024, 1025,
                                    (1u << 31) - 1, 1u << 31, (1u << 31) + 1, 0xffffffffu};
  for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++) {
    size = probes[i];
    unsigned expect = 0;
    while (expect < 32 && (1ull << expect) < size) expect++;
    CHECK(gasnete_coll_log2_ceil(size) == expect, "log2_ceil is %u, expected %u",
          gasnete_coll_log2_ceil(size), expect);
  }
}

int main(int argc, char **argv) {
  verbose = argc > 1 && !strcmp(argv[1], "-v");
  check_log2();
  static const uint32_t big[] = {255, 256, 257, 1000, 1023, 1024, 1025, 4097};
  gasnete_coll_tree_kind_t kinds[64];
  int nk = 0;
  kinds[nk++] = (gasnete_coll_tree_kind_t){GASNETE_COLL_TREE_FLAT, 0};
  kinds[nk++] = (gasnete_coll_tree_kind_t){GASNETE_COLL_TREE_BINOMIAL, 0};
  kinds[nk++] = (gasnete_coll_tree_kind_t){GASNETE_COLL_TREE_BINARY, 0};
  for (uint32_t r = 2; r <= 8; r++)
    kinds[nk++] = (gasnete_coll_tree_kind_t){GASNETE_COLL_TREE_KNOMIAL, r};
  /* GASNET_COLL_TREE_RADIX accepts up to 64. */
  kinds[nk++] = (gasnete_coll_tree_kind_t){GASNETE_COLL_TREE_KNOMIAL, 16};
  kinds[nk++] = (gasnete_coll_tree_kind_t){GASNETE_COLL_TREE_KNOMIAL, 64};
  for (int k = 0; k < nk; k++) {
    unsigned long before = failures;
    for (uint32_t size = 1; size <= 200; size++) check_tree(kinds[k], size);
    for (size_t b = 0; b < sizeof big / sizeof big[0]; b++) check_tree(kinds[k], big[b]);
    if (verbose || failures != before)
      printf("%s%s%u: %lu failures\n", shape_name(kinds[k].shape),
             kinds[k].shape == GASNETE_COLL_TREE_KNOMIAL ? " radix " : "",
             kinds[k].shape == GASNETE_COLL_TREE_KNOMIAL ? (unsigned)kinds[k].radix : 0u,
             failures - before);
  }
  if (failures > MAX_REPORTS) printf("(%lu more failures not shown)\n", failures - MAX_REPORTS);
  printf("test_trees: %lu checks, %lu failures: %s\n", checks, failures,
         failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
