/* trees_hier.c: see trees_hier.h. Pure math, no communication. */
#include "patterns/trees_hier.h"

/* The groups seen from one root: run k holds the root; group g is run
 * (k + g) mod nruns; the root's run also holds [tail, size). */
typedef struct {
  const gasnete_coll_hier_runs_t *runs;
  uint32_t root, k, tail;
} hier_view_t;

static hier_view_t hier_view(const gasnete_coll_hier_runs_t *runs, uint32_t root) {
  hier_view_t w = {runs, root, runs->nruns - 1, 0};
  /* The last run starting at or before the root; none: the wrapping run. */
  uint32_t lo = 0, hi = runs->nruns;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (runs->run_start[mid] <= root) lo = mid + 1;
    else hi = mid;
  }
  if (lo > 0) w.k = lo - 1;
  uint32_t size = runs->size;
  w.tail = (runs->run_start[w.k] + size - root) % size;
  if (w.tail == 0) w.tail = size;
  return w;
}

static uint32_t group_start(const hier_view_t *w, uint32_t g) {
  if (g == 0) return 0;
  uint32_t size = w->runs->size;
  return (w->runs->run_start[(w->k + g) % w->runs->nruns] + size - w->root) % size;
}

/* End of group g's own range (group 0: without [tail, size)). */
static uint32_t group_end(const hier_view_t *w, uint32_t g) {
  return g + 1 < w->runs->nruns ? group_start(w, g + 1) : w->tail;
}

/* The group holding vrank (starts ascend with g). */
static uint32_t group_of(const hier_view_t *w, uint32_t vrank) {
  if (vrank >= w->tail) return 0;
  uint32_t lo = 0, hi = w->runs->nruns;
  while (hi - lo > 1) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (group_start(w, mid) <= vrank) lo = mid;
    else hi = mid;
  }
  return lo;
}

static const gasnete_coll_tree_kind_t hier_level1 = {GASNETE_COLL_TREE_BINOMIAL, 2};

/* A leader's subtree: its group and the groups of its binomial subtree. */
static uint32_t leader_subtree(const hier_view_t *w, uint32_t g) {
  if (g == 0) return w->runs->size;
  uint32_t last = g + gasnete_coll_tree_subtree_size(hier_level1, w->runs->nruns, g) - 1;
  return group_end(w, last) - group_start(w, g);
}

uint32_t gasnete_coll_hier_parent(const gasnete_coll_hier_runs_t *runs, uint32_t root,
                                  uint32_t vrank) {
  hier_view_t w = hier_view(runs, root);
  uint32_t g = group_of(&w, vrank);
  if (vrank != group_start(&w, g)) return group_start(&w, g);
  if (g == 0) return 0;
  return group_start(&w, gasnete_coll_tree_parent(hier_level1, runs->nruns, g));
}

uint32_t gasnete_coll_hier_subtree_size(const gasnete_coll_hier_runs_t *runs, uint32_t root,
                                        uint32_t vrank) {
  hier_view_t w = hier_view(runs, root);
  uint32_t g = group_of(&w, vrank);
  return vrank == group_start(&w, g) ? leader_subtree(&w, g) : 1;
}

static uint32_t add_leaves(gasnete_coll_tree_child_t *out, uint32_t n, uint32_t max, uint32_t from,
                           uint32_t to) {
  for (uint32_t v = from; v < to; v++, n++)
    if (n < max) out[n] = (gasnete_coll_tree_child_t){v, 1};
  return n;
}

uint32_t gasnete_coll_hier_children(const gasnete_coll_hier_runs_t *runs, uint32_t root,
                                    uint32_t vrank, gasnete_coll_tree_child_t *children,
                                    uint32_t max_children) {
  hier_view_t w = hier_view(runs, root);
  uint32_t g = group_of(&w, vrank);
  if (vrank != group_start(&w, g)) return 0;
  /* Group indices first, then turned into leaders' virtual ranks. */
  uint32_t n = gasnete_coll_tree_children(hier_level1, runs->nruns, g, children, max_children);
  for (uint32_t i = 0; i < n && i < max_children; i++) {
    uint32_t child = children[i].vrank;
    children[i] = (gasnete_coll_tree_child_t){group_start(&w, child), leader_subtree(&w, child)};
  }
  n = add_leaves(children, n, max_children, vrank + 1, group_end(&w, g));
  if (g == 0) n = add_leaves(children, n, max_children, w.tail, runs->size);
  return n;
}

uint32_t gasnete_coll_hier_find_runs(const uint32_t *supernode_of, uint32_t size,
                                     uint32_t *run_start) {
  uint32_t n = 0;
  for (uint32_t r = 0; r < size; r++)
    if (supernode_of[r] != supernode_of[(r + size - 1) % size]) run_start[n++] = r;
  if (n == 0) run_start[n++] = 0; /* no boundary anywhere: one supernode */
  return n;
}
