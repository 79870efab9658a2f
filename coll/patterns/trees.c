/* trees.c: tree math for rooted collectives; no communication here, so it
 * is tested on its own (tests/coll/test_trees.c). */
#include "patterns/trees.h"

/* Binomial and k-nomial trees: write vrank in base k; its parent clears
 * the lowest non-zero digit, and its children add m * k^j (m = 1..k-1) for
 * every position j below that digit. Child v + m*k^j owns the range
 * [v + m*k^j, v + (m+1)*k^j), clipped to size. */
static uint32_t knomial_span(uint32_t radix, uint32_t size, uint32_t vrank) {
  /* k^j where j is the position of vrank's lowest non-zero digit; for the
   * root, the smallest power of k not below size. */
  uint64_t span = 1;
  if (vrank == 0) {
    while (span < size) span *= radix;
    return (uint32_t)(span > size ? size : span);
  }
  while ((vrank / span) % radix == 0) span *= radix;
  return (uint32_t)span;
}

static uint32_t knomial_parent(uint32_t radix, uint32_t vrank) {
  uint64_t span = 1;
  while ((vrank / span) % radix == 0) span *= radix;
  return vrank - (uint32_t)((vrank / span) % radix * span);
}

static uint32_t knomial_subtree(uint32_t radix, uint32_t size, uint32_t vrank) {
  if (vrank == 0) return size;
  uint64_t span = knomial_span(radix, size, vrank);
  uint64_t end = vrank + span;
  return (uint32_t)((end > size ? size : end) - vrank);
}

static uint32_t knomial_children(uint32_t radix, uint32_t size, uint32_t vrank,
                                 gasnete_coll_tree_child_t *out, uint32_t max) {
  uint64_t limit = vrank == 0 ? size : knomial_span(radix, size, vrank);
  /* Collect from the largest span down: the biggest subtrees first. */
  uint64_t span = 1;
  while (span * radix < limit) span *= radix;
  uint32_t n = 0;
  for (; span >= 1; span /= radix) {
    for (uint64_t m = 1; m < radix; m++) {
      uint64_t child = vrank + m * span;
      if (m * span >= limit || child >= size) break;
      if (n < max) {
        out[n].vrank = (uint32_t)child;
        out[n].subtree_size = knomial_subtree(radix, size, (uint32_t)child);
      }
      n++;
    }
    if (span == 1) break;
  }
  return n;
}

/* Binary tree numbered in pre-order: the node v with a subtree of s ranks
 * has its first child at v + 1 with ceil((s-1)/2) ranks and its second
 * right after that subtree. Found by walking down from the root. */
typedef struct {
  uint32_t parent;
  uint32_t size;
} binary_place_t;

static binary_place_t binary_locate(uint32_t size, uint32_t vrank) {
  binary_place_t place = {0, size};
  uint32_t node = 0;
  while (node != vrank) {
    uint32_t left = (place.size - 1 + 1) / 2;
    uint32_t right = place.size - 1 - left;
    place.parent = node;
    if (vrank < node + 1 + left) {
      node = node + 1;
      place.size = left;
    } else {
      node = node + 1 + left;
      place.size = right;
    }
  }
  return place;
}

static uint32_t binary_children(uint32_t size, uint32_t vrank, gasnete_coll_tree_child_t *out,
                                uint32_t max) {
  uint32_t s = binary_locate(size, vrank).size;
  uint32_t left = (s - 1 + 1) / 2;
  uint32_t right = s - 1 - left;
  uint32_t n = 0;
  if (left) {
    if (n < max) out[n] = (gasnete_coll_tree_child_t){vrank + 1, left};
    n++;
  }
  if (right) {
    if (n < max) out[n] = (gasnete_coll_tree_child_t){vrank + 1 + left, right};
    n++;
  }
  return n;
}

static uint32_t radix_of(gasnete_coll_tree_kind_t kind) {
  return kind.shape == GASNETE_COLL_TREE_BINOMIAL ? 2 : (kind.radix < 2 ? 2 : kind.radix);
}

uint32_t gasnete_coll_tree_parent(gasnete_coll_tree_kind_t kind, uint32_t size, uint32_t vrank) {
  switch (kind.shape) {
    case GASNETE_COLL_TREE_FLAT: return 0;
    case GASNETE_COLL_TREE_BINARY: return binary_locate(size, vrank).parent;
    case GASNETE_COLL_TREE_BINOMIAL:
    case GASNETE_COLL_TREE_KNOMIAL: return knomial_parent(radix_of(kind), vrank);
  }
  return 0;
}

uint32_t gasnete_coll_tree_subtree_size(gasnete_coll_tree_kind_t kind, uint32_t size,
                                        uint32_t vrank) {
  switch (kind.shape) {
    case GASNETE_COLL_TREE_FLAT: return vrank == 0 ? size : 1;
    case GASNETE_COLL_TREE_BINARY: return binary_locate(size, vrank).size;
    case GASNETE_COLL_TREE_BINOMIAL:
    case GASNETE_COLL_TREE_KNOMIAL: return knomial_subtree(radix_of(kind), size, vrank);
  }
  return 1;
}

/* Stable insertion sort, largest subtree first: clipping at the team size
 * can leave the farthest child with a smaller subtree than a nearer one. */
static void sort_by_subtree(gasnete_coll_tree_child_t *children, uint32_t n) {
  for (uint32_t i = 1; i < n; i++) {
    gasnete_coll_tree_child_t c = children[i];
    uint32_t j = i;
    while (j > 0 && children[j - 1].subtree_size < c.subtree_size) {
      children[j] = children[j - 1];
      j--;
    }
    children[j] = c;
  }
}

uint32_t gasnete_coll_tree_children(gasnete_coll_tree_kind_t kind, uint32_t size, uint32_t vrank,
                                    gasnete_coll_tree_child_t *children, uint32_t max_children) {
  uint32_t n = 0;
  switch (kind.shape) {
    case GASNETE_COLL_TREE_FLAT: {
      if (vrank != 0) return 0;
      for (uint32_t i = 1; i < size && i - 1 < max_children; i++)
        children[i - 1] = (gasnete_coll_tree_child_t){i, 1};
      return size - 1;
    }
    case GASNETE_COLL_TREE_BINARY: return binary_children(size, vrank, children, max_children);
    case GASNETE_COLL_TREE_BINOMIAL:
    case GASNETE_COLL_TREE_KNOMIAL: {
      /* Sort the whole list, so a caller asking for fewer gets its prefix.
       * A node has at most (radix-1) * ceil(log_radix(2^32)) <= 378 children. */
      gasnete_coll_tree_child_t all[512];
      n = knomial_children(radix_of(kind), size, vrank, all, 512);
      sort_by_subtree(all, n);
      for (uint32_t i = 0; i < n && i < max_children; i++) children[i] = all[i];
      return n;
    }
  }
  return 0;
}
