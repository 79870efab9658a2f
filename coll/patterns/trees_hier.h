/* trees_hier.h: the two-level tree of the hier algorithms, as pure
 * functions of a team's supernode runs, the root and a virtual rank (no
 * communication; tested on its own by tests/coll/test_trees_hier.c).
 *
 * A run is a maximal range of consecutive team ranks, taken circularly
 * (rank size-1 is followed by rank 0), whose nodes share a supernode. In
 * virtual ranks (v = (rank - root) mod size) the runs become groups, the
 * root's run first: group 0 is [0, a), the root and the rest of its run,
 * and the members of its run before the root come last, as [tail, size).
 * Every other group is one run, a contiguous range led by its first
 * virtual rank.
 *
 * Level 1 is a binomial tree over the groups (group 0 led by the root);
 * level 2 makes every member of a group a leaf child of its leader (the
 * root for [tail, size) too). A leader's subtree is its group followed by
 * the groups of its binomial subtree: a contiguous range of virtual ranks,
 * as trees.h promises for every shape, so scatter, gather and reduce use
 * this tree as they use the others. */
#ifndef COLL_TREES_HIER_H
#define COLL_TREES_HIER_H

#include "patterns/trees.h"

typedef struct gasnete_coll_hier_runs_s {
  uint32_t size;             /* team ranks */
  uint32_t nruns;            /* 1: the whole team is one run */
  const uint32_t *run_start; /* nruns ascending team ranks where a run begins */
} gasnete_coll_hier_runs_t;

/* The runs of a team whose rank r is on supernode supernode_of[r]:
 * writes their first ranks, ascending, to run_start (room for size) and
 * returns how many there are; a team on one supernode is one run
 * starting at 0. */
extern uint32_t gasnete_coll_hier_find_runs(const uint32_t *supernode_of, uint32_t size,
                                            uint32_t *run_start);

/* The parent of vrank (vrank > 0) in the tree rooted at team rank root. */
extern uint32_t gasnete_coll_hier_parent(const gasnete_coll_hier_runs_t *runs, uint32_t root,
                                         uint32_t vrank);
/* Ranks in vrank's subtree, vrank included. */
extern uint32_t gasnete_coll_hier_subtree_size(const gasnete_coll_hier_runs_t *runs, uint32_t root,
                                               uint32_t vrank);
/* vrank's children in serving order: the leaders of other groups first
 * (in the binomial tree's order, largest subtree of groups first: their
 * chains cross the network), then the members of its own group. Writes at most max_children, returns the
 * count. */
extern uint32_t gasnete_coll_hier_children(const gasnete_coll_hier_runs_t *runs, uint32_t root,
                                           uint32_t vrank, gasnete_coll_tree_child_t *children,
                                           uint32_t max_children);

#endif
