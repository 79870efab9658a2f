/* reduce_prefix.h: the prefix sums of a scan's built-in integer sum in
 * vector code (coll/ops/reduce_builtin.c, the second loop of a fold).
 *
 * A scan's results are prefixes, out[i] = acc + r[0] + .. + r[i]: a chain
 * of dependent additions that compilers leave scalar, one element per
 * cycle. Here 16 bytes of elements go at a time: their prefix within the
 * vector in log2(lanes) additions of the vector shifted up by one, two,
 * four .. lanes, then the carry of everything before, kept broadcast in
 * every lane (from the last lane of the vector before), so the chain
 * from one vector to the next is one addition and one shuffle. Integer
 * sums wrap, so this grouping gives the same bits as the scalar loop;
 * arithmetic is on the unsigned type of the same width (a signed sum's
 * bits are the same). Needs __builtin_shufflevector (Clang, GCC 12 and
 * later); without it builtin_prefix_sum does nothing and the scalar loop
 * does all. */
#ifndef REDUCE_PREFIX_H
#define REDUCE_PREFIX_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__has_builtin)
#if __has_builtin(__builtin_shufflevector)
#define BUILTIN_VECTOR_PREFIX 1
#endif
#endif

#ifdef BUILTIN_VECTOR_PREFIX
typedef uint8_t prefix_bytes_t __attribute__((vector_size(16)));

/* v moved up by `by` bytes (1, 2, 4 or 8), zeros coming in below. */
static inline prefix_bytes_t prefix_shift_up(prefix_bytes_t v, size_t by) {
  const prefix_bytes_t z = {0};
  switch (by) {
    case 1:
      return __builtin_shufflevector(z, v, 0, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28,
                                     29, 30);
    case 2:
      return __builtin_shufflevector(z, v, 0, 1, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27,
                                     28, 29);
    case 4:
      return __builtin_shufflevector(z, v, 0, 1, 2, 3, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26,
                                     27);
    default:
      return __builtin_shufflevector(z, v, 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23);
  }
}

/* The last lane of v (`size` bytes) in every lane. */
static inline prefix_bytes_t prefix_last_lane(prefix_bytes_t v, size_t size) {
  switch (size) {
    case 1:
      return __builtin_shufflevector(v, v, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
                                     15, 15);
    case 2:
      return __builtin_shufflevector(v, v, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15,
                                     14, 15);
    case 4:
      return __builtin_shufflevector(v, v, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13,
                                     14, 15);
    default:
      return __builtin_shufflevector(v, v, 8, 9, 10, 11, 12, 13, 14, 15, 8, 9, 10, 11, 12, 13, 14,
                                     15);
  }
}

/* out[i..] = *acc + r[0] + .. + r[i] for whole vectors from i; returns
 * the index the scalar loop goes on from, *acc the sum up to there. */
#define PREFIX_SUM(U)                                                                         \
  static inline size_t prefix_sum_##U(U *out, const U *r, size_t i, size_t n, U *acc) {       \
    typedef U vec_t __attribute__((vector_size(16)));                                         \
    enum { LANES = 16 / sizeof(U) };                                                          \
    vec_t carry;                                                                              \
    for (int k = 0; k < LANES; k++) carry[k] = *acc;                                          \
    for (; i + LANES <= n; i += LANES) {                                                      \
      vec_t v;                                                                                \
      memcpy(&v, r + i, sizeof v);                                                            \
      for (size_t by = sizeof(U); by < 16; by *= 2)                                           \
        v += (vec_t)prefix_shift_up((prefix_bytes_t)v, by);                                   \
      v += carry;                                                                             \
      memcpy(out + i, &v, sizeof v);                                                          \
      carry = (vec_t)prefix_last_lane((prefix_bytes_t)v, sizeof(U));                          \
    }                                                                                         \
    *acc = carry[0];                                                                          \
    return i;                                                                                 \
  }
PREFIX_SUM(uint8_t)
PREFIX_SUM(uint16_t)
PREFIX_SUM(uint32_t)
PREFIX_SUM(uint64_t)
#undef PREFIX_SUM
#endif

/* The vector part of a prefix sum of elements of `size` bytes (an
 * integer type): out and r as in prefix_sum_*, *acc an element, read and
 * written as the unsigned type of its width (which C lets alias the
 * signed one). Kept out of line, so the fold (which a reduce calls for
 * one result) stays small; the fold passes a copy of its accumulator,
 * since with the accumulator's own address taken its reduction loop, the
 * whole of a reduce's work, was no longer vector code (4 times slower). */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static size_t builtin_prefix_sum(void *out, const void *r, size_t i, size_t n, void *acc,
                                 size_t size) {
#ifdef BUILTIN_VECTOR_PREFIX
  switch (size) {
    case 1: return prefix_sum_uint8_t(out, r, i, n, acc);
    case 2: return prefix_sum_uint16_t(out, r, i, n, acc);
    case 4: return prefix_sum_uint32_t(out, r, i, n, acc);
    default: return prefix_sum_uint64_t(out, r, i, n, acc);
  }
#else
  (void)out, (void)r, (void)n, (void)acc, (void)size;
  return i;
#endif
}

#endif
