/* reduce_layout.c: see reduce_layout.h. */
#include "ops/reduce_layout.h"

/* The piece of the array in block b (any rank). Block b holds global
 * positions [b * blksz, (b + 1) * blksz); its owner keeps it as its block
 * number b / size, at local element (b / size) * blksz. */
static int gasnete_coll_layout_block_piece(const gasnete_coll_layout_t *l, uint64_t b,
                                           gasnete_coll_piece_t *piece_p) {
  uint64_t block_start, block_end, end = l->off + l->count;
  if (__builtin_mul_overflow(b, l->blksz, &block_start) || block_start >= end) return 0;
  block_end = block_start + l->blksz;
  if (block_end <= l->off) return 0;
  uint64_t start = block_start < l->off ? l->off : block_start;
  uint64_t row = b < l->size ? 0 : b / l->size;
  piece_p->row = row;
  piece_p->first = start - l->off;
  piece_p->local = row * l->blksz + (start - block_start);
  piece_p->nelems = (block_end < end ? block_end : end) - start;
  return 1;
}

int gasnete_coll_layout_piece(const gasnete_coll_layout_t *l, uint64_t row, uint32_t rank,
                              gasnete_coll_piece_t *piece_p) {
  return gasnete_coll_layout_block_piece(l, row * l->size + rank, piece_p);
}

/* Arrays of several rows (local_run, in reduce_layout.h, answers one-row
 * arrays itself). */
uint64_t gasnete_coll_layout_local_run_rows(const gasnete_coll_layout_t *l, uint32_t rank,
                                            uint64_t *local_p) {
  uint64_t b0 = gasnete_coll_layout_first_block(l), b1 = gasnete_coll_layout_last_block(l);
  uint64_t P = l->size;
  uint64_t first = b0 + (rank + P - b0 % P) % P; /* rank's first block at or after b0 */
  if (first > b1) return 0;
  uint64_t last = b1 - (b1 % P + P - rank) % P; /* rank's last block at or before b1 */
  gasnete_coll_piece_t a, z;
  gasnete_coll_layout_block_piece(l, first, &a);
  gasnete_coll_layout_block_piece(l, last, &z);
  *local_p = a.local;
  return z.local + z.nelems - a.local;
}

/* How far blocks are renumbered so that rank shift comes first in a row. */
static uint64_t gasnete_coll_layout_rotation(const gasnete_coll_layout_t *l, uint32_t shift) {
  if (shift < l->size) return shift ? l->size - shift : 0;
  return (l->size - shift % l->size) % l->size;
}

static int64_t gasnete_coll_floor_div(int64_t a, int64_t b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

int gasnete_coll_layout_rows(const gasnete_coll_layout_t *l, uint32_t shift, uint32_t vrank,
                             uint32_t nranks, uint64_t *lo_p, uint64_t *hi_p) {
  if (l->one_row && nranks == 1 && shift < l->size && vrank < l->size) {
    /* One rank, whose only block is number rank: rotated, row 0 or 1. */
    uint64_t rank = (uint64_t)vrank + shift, local;
    if (rank >= l->size) rank -= l->size;
    if (!gasnete_coll_layout_local_run(l, (uint32_t)rank, &local)) return 0;
    *lo_p = rank + gasnete_coll_layout_rotation(l, shift) >= l->size;
    *hi_p = *lo_p + 1;
    return 1;
  }
  int64_t rot = (int64_t)gasnete_coll_layout_rotation(l, shift), P = l->size;
  int64_t b0 = (int64_t)gasnete_coll_layout_first_block(l) + rot;
  int64_t b1 = (int64_t)gasnete_coll_layout_last_block(l) + rot;
  /* Row c meets the array when [cP + vrank, cP + vrank + nranks - 1] meets [b0, b1]. */
  int64_t lo = -gasnete_coll_floor_div(-(b0 - vrank - (int64_t)nranks + 1), P); /* ceil */
  int64_t hi = gasnete_coll_floor_div(b1 - vrank, P);
  if (lo < 0) lo = 0;
  if (nranks == 0 || hi < lo) return 0;
  *lo_p = (uint64_t)lo;
  *hi_p = (uint64_t)hi + 1;
  return 1;
}

int gasnete_coll_layout_vpiece(const gasnete_coll_layout_t *l, uint32_t shift, uint64_t row,
                               uint32_t vrank, gasnete_coll_piece_t *piece_p) {
  uint64_t rotated = row * l->size + vrank, rot = gasnete_coll_layout_rotation(l, shift);
  if (rotated < rot) return 0;
  return gasnete_coll_layout_block_piece(l, rotated - rot, piece_p);
}
