/* rank_math.h: rank arithmetic of the collectives, pure functions with no
 * dependencies, shared by the engine and the tree math (which is tested
 * on its own, tests/coll/test_trees.c). */
#ifndef COLL_RANK_MATH_H
#define COLL_RANK_MATH_H

#include <stdint.h>

/* Rounds of a dissemination pattern over size ranks: ceil(log2(size)). */
static inline unsigned gasnete_coll_log2_ceil(uint32_t size) {
  unsigned rounds = 0;
  while (((uint64_t)1 << rounds) < size) rounds++;
  return rounds;
}

#endif
