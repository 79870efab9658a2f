/* test_layout: unit tests of the layout math of reduce and scan
 * (coll/reduce_layout.c, compiled into this program; no network here).
 *
 * Usage: test_layout [-v]
 *
 * For team sizes 1..9 and 16, block sizes 0 (indefinite) .. 7 and a few
 * larger ones, offsets up to three rows past the start (image numbers for
 * blksz 0), and counts 1..40 and a few larger, every query of
 * reduce_layout.h is checked against the layout's definition applied to
 * every element (global position g = offset + i, or offset * count + i
 * for blksz 0; block g / B on rank (g / B) mod P at local index
 * (g / B / P) * B + g mod B):
 *   - make: one_row is set exactly when every element lies in blocks
 *     0..P-1 (the queries' division-free paths serve those arrays);
 *   - owner and local_index of every element;
 *   - local_run: each rank's elements are one contiguous run of its
 *     buffer, from its smallest local index, or none;
 *   - nrows: the rows that hold the array;
 *   - piece: the elements of block (row, rank), its first array index,
 *     local index and count;
 *   - rows and vpiece for every shift (root), virtual rank and range of
 *     virtual ranks: the rotated rows in which those ranks hold a block,
 *     and the block each holds there.
 * Every failure is listed (up to a limit); the exit code is 1 if any
 * check failed. */
#include "ops/reduce_layout.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long checks, failures;
static int verbose;

enum { MAX_SIZE = 16 }; /* the largest team size tried */

typedef struct {
  uint64_t blksz, offset, count;
  uint32_t size;
} spec_t;

static void fail(const spec_t *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(const spec_t *s, const char *fmt, ...) {
  failures++;
  if (failures > 40) return;
  va_list ap;
  va_start(ap, fmt);
  printf("FAIL blksz %llu offset %llu count %llu size %u: ", (unsigned long long)s->blksz,
         (unsigned long long)s->offset, (unsigned long long)s->count, (unsigned)s->size);
  vprintf(fmt, ap);
  printf("\n");
  va_end(ap);
}

#define CHECK(s, cond, ...)             \
  do {                                  \
    checks++;                           \
    if (!(cond)) fail(s, __VA_ARGS__);  \
  } while (0)

/* The definition, element by element. */
static uint64_t ref_block_size(const spec_t *s) { return s->blksz ? s->blksz : s->count; }
static uint64_t ref_global(const spec_t *s, uint64_t i) {
  return (s->blksz ? s->offset : s->offset * s->count) + i;
}
static uint64_t ref_block(const spec_t *s, uint64_t i) { return ref_global(s, i) / ref_block_size(s); }
static uint32_t ref_owner(const spec_t *s, uint64_t i) { return (uint32_t)(ref_block(s, i) % s->size); }
static uint64_t ref_local(const spec_t *s, uint64_t i) {
  uint64_t B = ref_block_size(s);
  return ref_block(s, i) / s->size * B + ref_global(s, i) % B;
}
static uint64_t ref_rot(const spec_t *s, uint32_t shift) { return (s->size - shift % s->size) % s->size; }

static void check_elements(const spec_t *s, const gasnete_coll_layout_t *l) {
  int one_row = 1;
  uint64_t last_block = 0;
  for (uint64_t i = 0; i < s->count; i++) {
    if (ref_block(s, i) >= s->size) one_row = 0;
    if (ref_block(s, i) > last_block) last_block = ref_block(s, i);
    CHECK(s, gasnete_coll_layout_owner(l, i) == ref_owner(s, i), "owner of %llu",
          (unsigned long long)i);
    CHECK(s, gasnete_coll_layout_local_index(l, i) == ref_local(s, i), "local index of %llu",
          (unsigned long long)i);
  }
  CHECK(s, l->one_row == one_row, "one_row %d, expected %d", l->one_row, one_row);
  CHECK(s, gasnete_coll_layout_nrows(l) == last_block / s->size + 1, "nrows %llu, expected %llu",
        (unsigned long long)gasnete_coll_layout_nrows(l),
        (unsigned long long)(last_block / s->size + 1));
}

static void check_local_runs(const spec_t *s, const gasnete_coll_layout_t *l) {
  for (uint32_t r = 0; r < s->size; r++) {
    uint64_t lo = UINT64_MAX, hi = 0, n = 0;
    for (uint64_t i = 0; i < s->count; i++)
      if (ref_owner(s, i) == r) {
        uint64_t x = ref_local(s, i);
        if (x < lo) lo = x;
        if (x + 1 > hi) hi = x + 1;
        n++;
      }
    uint64_t first = 12345, got = gasnete_coll_layout_local_run(l, r, &first);
    CHECK(s, got == n, "rank %u: local_run %llu elements, expected %llu", (unsigned)r,
          (unsigned long long)got, (unsigned long long)n);
    if (n) {
      CHECK(s, hi - lo == n, "rank %u: its elements are not contiguous", (unsigned)r);
      CHECK(s, first == lo, "rank %u: local_run starts at %llu, expected %llu", (unsigned)r,
            (unsigned long long)first, (unsigned long long)lo);
    }
  }
}

/* The elements of each unrotated block (first index, count), from one
 * pass over the elements per layout: a block is a run of consecutive
 * elements, and the queries below ask about every block many times. */
typedef struct {
  uint64_t first, n;
} ref_blk_t;
static ref_blk_t *ref_blks;
static uint64_t ref_nblks;

static void ref_blocks_make(const spec_t *s) {
  ref_nblks = ref_block(s, s->count - 1) + 1;
  ref_blks = calloc(ref_nblks, sizeof *ref_blks);
  if (!ref_blks) {
    perror("test_layout: calloc");
    exit(2);
  }
  for (uint64_t i = 0; i < s->count; i++) {
    ref_blk_t *k = &ref_blks[ref_block(s, i)];
    if (!k->n) k->first = i;
    k->n++;
  }
}

static uint64_t ref_block_elems(uint64_t b, uint64_t *first_p) {
  if (b >= ref_nblks || !ref_blks[b].n) return 0;
  *first_p = ref_blks[b].first;
  return ref_blks[b].n;
}

static void check_piece(const spec_t *s, int ok, const gasnete_coll_piece_t *p, uint64_t b,
                        const char *what, uint64_t row, uint32_t rank) {
  uint64_t first = 0, n = ref_block_elems(b, &first);
  CHECK(s, ok == (n > 0), "%s (row %llu, rank %u): holds %d, expected %d", what,
        (unsigned long long)row, (unsigned)rank, ok, n > 0);
  if (!ok || !n) return;
  CHECK(s, p->first == first && p->nelems == n && p->local == ref_local(s, first) &&
               p->row == b / s->size,
        "%s (row %llu, rank %u): piece {row %llu first %llu local %llu n %llu}, expected "
        "{%llu %llu %llu %llu}",
        what, (unsigned long long)row, (unsigned)rank, (unsigned long long)p->row,
        (unsigned long long)p->first, (unsigned long long)p->local, (unsigned long long)p->nelems,
        (unsigned long long)(b / s->size), (unsigned long long)first,
        (unsigned long long)ref_local(s, first), (unsigned long long)n);
}

static void check_pieces(const spec_t *s, const gasnete_coll_layout_t *l) {
  uint64_t nrows = ref_block(s, s->count - 1) / s->size + 2;
  for (uint64_t row = 0; row < nrows; row++)
    for (uint32_t r = 0; r < s->size; r++) {
      gasnete_coll_piece_t p;
      int ok = gasnete_coll_layout_piece(l, row, r, &p);
      check_piece(s, ok, &p, row * s->size + r, "piece", row, r);
    }
}

/* Rotated rows where virtual ranks [v, v + n) (rank = (vrank + shift) mod
 * P) hold a block; and vpiece for each (row, vrank). */
static void check_rows(const spec_t *s, const gasnete_coll_layout_t *l, uint32_t shift) {
  uint64_t rot = ref_rot(s, shift), nrows = (ref_block(s, s->count - 1) + rot) / s->size + 2;
  /* Per virtual rank, the rotated rows its elements lie in: [lo, hi). */
  uint64_t col_lo[MAX_SIZE], col_hi[MAX_SIZE];
  for (uint32_t v = 0; v < s->size; v++) col_lo[v] = UINT64_MAX, col_hi[v] = 0;
  for (uint64_t i = 0; i < s->count; i++) {
    uint64_t b = ref_block(s, i) + rot;
    uint32_t v = (uint32_t)(b % s->size);
    if (b / s->size < col_lo[v]) col_lo[v] = b / s->size;
    if (b / s->size + 1 > col_hi[v]) col_hi[v] = b / s->size + 1;
  }
  for (uint32_t v = 0; v < s->size; v++) {
    for (uint64_t row = 0; row < nrows; row++) {
      gasnete_coll_piece_t p;
      int ok = gasnete_coll_layout_vpiece(l, shift, row, v, &p);
      uint64_t rotated = row * s->size + v;
      if (rotated < rot) {
        CHECK(s, !ok, "vpiece (shift %u, row %llu, vrank %u) before the array", (unsigned)shift,
              (unsigned long long)row, (unsigned)v);
        continue;
      }
      check_piece(s, ok, &p, rotated - rot, "vpiece", row, v);
    }
    uint64_t lo = UINT64_MAX, hi = 0; /* over the ranks [v, v + n) */
    for (uint32_t n = 1; v + n <= s->size; n++) {
      if (col_lo[v + n - 1] < lo) lo = col_lo[v + n - 1];
      if (col_hi[v + n - 1] > hi) hi = col_hi[v + n - 1];
      uint64_t glo = 0, ghi = 0;
      int any = gasnete_coll_layout_rows(l, shift, v, n, &glo, &ghi);
      CHECK(s, any == (hi > 0), "rows (shift %u, vrank %u, %u ranks): any %d, expected %d",
            (unsigned)shift, (unsigned)v, (unsigned)n, any, hi > 0);
      if (any && hi)
        CHECK(s, glo == lo && ghi == hi,
              "rows (shift %u, vrank %u, %u ranks): [%llu, %llu), expected [%llu, %llu)",
              (unsigned)shift, (unsigned)v, (unsigned)n, (unsigned long long)glo,
              (unsigned long long)ghi, (unsigned long long)lo, (unsigned long long)hi);
    }
  }
}

static void check_spec(const spec_t *s) {
  gasnete_coll_layout_t l = gasnete_coll_layout_make(s->blksz, s->offset, s->count, s->size);
  ref_blocks_make(s);
  check_elements(s, &l);
  check_local_runs(s, &l);
  check_pieces(s, &l);
  for (uint32_t shift = 0; shift < s->size; shift++) check_rows(s, &l, shift);
  free(ref_blks);
}

int main(int argc, char **argv) {
  verbose = argc > 1 && !strcmp(argv[1], "-v");
  static const uint32_t sizes[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, MAX_SIZE};
  static const uint64_t blkszs[] = {0, 1, 2, 3, 4, 5, 6, 7, 16, 100};
  static const uint64_t counts[] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14,
                                    15, 16, 17, 18, 19, 20, 23, 24, 25, 31, 32, 33, 40, 99,
                                    100, 101};
  unsigned long specs = 0;
  for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
    for (size_t bi = 0; bi < sizeof blkszs / sizeof blkszs[0]; bi++)
      for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ci++) {
        spec_t s = {blkszs[bi], 0, counts[ci], sizes[si]};
        /* blksz 0: the offset is an image; else up to three rows on. */
        uint64_t max_offset = s.blksz ? 3 * s.blksz * s.size + 1 : s.size - 1;
        uint64_t step = max_offset > 64 ? max_offset / 32 : 1;
        for (s.offset = 0; s.offset <= max_offset; s.offset += step) {
          check_spec(&s);
          specs++;
        }
      }
  printf("test_layout: %lu layouts, %lu checks, %lu failures\n", specs, checks, failures);
  if (verbose) fflush(stdout);
  return failures ? 1 : 0;
}
