/* reduce_layout.h: where the elements of a reduce or scan live, as pure
 * functions of the layout arguments (no communication).
 *
 * A distributed array of count elements starts at global position off of
 * a block-cyclic array of blocks of blksz elements: global position g sits
 * in block g / blksz, which lives on rank (g / blksz) mod P at local element
 * index (g / blksz / P) * blksz + g mod blksz of that rank's buffer. The
 * indefinite layout (blksz 0, all elements on rank off) is the same thing
 * with one block of count elements that starts at block number off, so
 * every algorithm sees only the block-cyclic form.
 *
 * The blocks of the array, numbered b0..b1, are grouped in rows of P
 * consecutive blocks: row c holds blocks cP..cP+P-1, one per rank, in rank
 * order. Rows are what a non-commutative algorithm combines: the blocks of
 * consecutive ranks within a row are consecutive pieces of the array.
 *
 * The common arrays make one row (each rank holds at most its block number
 * rank: one block per rank, or all elements on one rank, which is every
 * indefinite layout). Every query answers those with multiplications and
 * compares; 64-bit divisions, tens of cycles each, are left to arrays of
 * several rows, for which the formulas above are used as they stand. */
#ifndef COLL_REDUCE_LAYOUT_H
#define COLL_REDUCE_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
  uint64_t blksz; /* elements per block (never 0 after normalising) */
  uint64_t off;   /* global position of element 0 */
  uint64_t count; /* elements in the array (>= 1) */
  uint32_t size;  /* ranks */
  int one_row;    /* every element lies in blocks 0..size-1 */
} gasnete_coll_layout_t;

/* One block's share of the array, as seen by its owner. */
typedef struct {
  uint64_t row;     /* block number / size */
  uint64_t first;   /* index in the array (0..count-1) of its first element */
  uint64_t local;   /* element index of that element in the owner's buffer */
  uint64_t nelems;  /* elements of the array in this block (>= 1) */
} gasnete_coll_piece_t;

/* The layout of (blksz, offset) as the spec gives them. */
static inline gasnete_coll_layout_t gasnete_coll_layout_make(uint64_t blksz, uint64_t offset,
                                                             uint64_t count, uint32_t size) {
  gasnete_coll_layout_t l = {blksz, offset, count, size, 0};
  if (blksz == 0) { /* indefinite: one block, number `offset`, on rank `offset` */
    l.blksz = count;
    l.off = offset * count;
    l.one_row = offset < size;
    return l;
  }
  uint64_t row_end; /* global position just past block size - 1 */
  l.one_row = !__builtin_mul_overflow(blksz, (uint64_t)size, &row_end) && offset <= row_end &&
              count <= row_end - offset;
  return l;
}

static inline uint64_t gasnete_coll_layout_first_block(const gasnete_coll_layout_t *l) {
  return l->off / l->blksz;
}
static inline uint64_t gasnete_coll_layout_last_block(const gasnete_coll_layout_t *l) {
  return (l->off + l->count - 1) / l->blksz;
}
/* Rows 0..nrows-1 cover every block of the array. */
static inline uint64_t gasnete_coll_layout_nrows(const gasnete_coll_layout_t *l) {
  return l->one_row ? 1 : gasnete_coll_layout_last_block(l) / l->size + 1;
}

/* The piece of the array in block (row, rank); returns 0 when that block
 * holds none of it. */
extern int gasnete_coll_layout_piece(const gasnete_coll_layout_t *l, uint64_t row, uint32_t rank,
                                     gasnete_coll_piece_t *piece_p);

/* The elements rank holds: a contiguous run of its buffer (the blocks of a
 * rank follow one another there). Returns the number, 0 for none, and the
 * element index of the first one in *local_p. */
extern uint64_t gasnete_coll_layout_local_run_rows(const gasnete_coll_layout_t *l, uint32_t rank,
                                                   uint64_t *local_p);
static inline uint64_t gasnete_coll_layout_local_run(const gasnete_coll_layout_t *l, uint32_t rank,
                                                     uint64_t *local_p) {
  if (l->one_row && rank < l->size) {
    /* Block number rank, global positions [start, start + blksz), is all
     * rank holds (no overflow: one_row says blksz * size fits). */
    uint64_t start = (uint64_t)rank * l->blksz, end = l->off + l->count;
    uint64_t lo = start > l->off ? start : l->off, hi = start + l->blksz < end ? start + l->blksz : end;
    if (lo >= hi) return 0;
    *local_p = lo - start;
    return hi - lo;
  }
  return gasnete_coll_layout_local_run_rows(l, rank, local_p);
}

/* Rows [*lo_p, *hi_p) in which some rank of [rank, rank + nranks) (taken
 * modulo size, starting `shift` ranks after rank 0) holds a block of the
 * array. With shift s, "row" means a row of the array rotated so that rank
 * s comes first: rotated block B' = b + size - s. Returns 0 when none. */
extern int gasnete_coll_layout_rows(const gasnete_coll_layout_t *l, uint32_t shift, uint32_t vrank,
                                    uint32_t nranks, uint64_t *lo_p, uint64_t *hi_p);

/* The piece in rotated row `row` at virtual rank vrank (rank vrank + shift). */
extern int gasnete_coll_layout_vpiece(const gasnete_coll_layout_t *l, uint32_t shift, uint64_t row,
                                      uint32_t vrank, gasnete_coll_piece_t *piece_p);

/* Where array element i lives: its rank and local element index. */
static inline uint32_t gasnete_coll_layout_owner(const gasnete_coll_layout_t *l, uint64_t i) {
  return (uint32_t)(((l->off + i) / l->blksz) % l->size);
}
static inline uint64_t gasnete_coll_layout_local_index(const gasnete_coll_layout_t *l, uint64_t i) {
  uint64_t g = l->off + i;
  return (g / l->blksz / l->size) * l->blksz + g % l->blksz;
}

#endif
