/* gasnet_copy.h: how put/get data is copied into and out of memory, by
 * every layer that moves it (extended-ref's local and AM paths, the smp
 * conduit's direct copies and its Long payloads). Self-contained: libc and
 * compiler builtins only, so extended-ref may include it without reaching
 * into the core.
 *
 * A transfer of 1, 2, 4 or 8 bytes is one load and one store of that width
 * (relaxed atomics) at whichever end is naturally aligned, never a memcpy
 * call: glibc's memcpy moves 8 bytes as two overlapping 8-byte stores, and a
 * target that consumes a flag word between them (reads it, resets it to 0)
 * sees the consumed value come back (OpenSHMEM-style put-flag / wait-until /
 * reset loops then hang). One store also means a reader sees the old or the
 * new value, never a mix of the two. A misaligned end is copied with a
 * fixed-size memcpy, which compilers turn into one unaligned access where
 * the machine has them. Other sizes go to memcpy / memmove / memset. */
#ifndef GASNET_COPY_H
#define GASNET_COPY_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* 8-byte words need lock-free 8-byte atomics (not on every 32-bit target);
 * elsewhere they take the memcpy path. */
#if defined(__GCC_ATOMIC_LLONG_LOCK_FREE) && __GCC_ATOMIC_LLONG_LOCK_FREE == 2
#define GASNETI_COPY_WORD64 1
#endif

static inline int gasneti_copy_aligned(const void *p, size_t n) {
  return ((uintptr_t)p & (n - 1)) == 0;
}

/* dest[0..n) = src[0..n) when n is 1, 2, 4 or 8 (one load, one store;
 * overlapping ranges are fine); returns 0 for any other n, copying nothing. */
static inline int gasneti_copy_word(void *dest, const void *src, size_t n) {
  if (__builtin_expect(n > 8, 1)) return 0; /* larger copies pay one compare */
  switch (n) {
    case 1:
      __atomic_store_n((uint8_t *)dest, __atomic_load_n((const uint8_t *)src, __ATOMIC_RELAXED),
                       __ATOMIC_RELAXED);
      return 1;
    case 2: {
      uint16_t v;
      if (gasneti_copy_aligned(src, 2))
        v = __atomic_load_n((const uint16_t *)src, __ATOMIC_RELAXED);
      else
        memcpy(&v, src, 2);
      if (gasneti_copy_aligned(dest, 2))
        __atomic_store_n((uint16_t *)dest, v, __ATOMIC_RELAXED);
      else
        memcpy(dest, &v, 2);
      return 1;
    }
    case 4: {
      uint32_t v;
      if (gasneti_copy_aligned(src, 4))
        v = __atomic_load_n((const uint32_t *)src, __ATOMIC_RELAXED);
      else
        memcpy(&v, src, 4);
      if (gasneti_copy_aligned(dest, 4))
        __atomic_store_n((uint32_t *)dest, v, __ATOMIC_RELAXED);
      else
        memcpy(dest, &v, 4);
      return 1;
    }
#ifdef GASNETI_COPY_WORD64
    case 8: {
      uint64_t v;
      if (gasneti_copy_aligned(src, 8))
        v = __atomic_load_n((const uint64_t *)src, __ATOMIC_RELAXED);
      else
        memcpy(&v, src, 8);
      if (gasneti_copy_aligned(dest, 8))
        __atomic_store_n((uint64_t *)dest, v, __ATOMIC_RELAXED);
      else
        memcpy(dest, &v, 8);
      return 1;
    }
#endif
    default:
      return 0;
  }
}

/* Whether a transfer of n bytes is a word the rule above copies in one
 * store. A layer that hands data to a library which promises nothing about
 * how it writes the target (MPI and UCP RMA: the kernel's cross-memory
 * copies, a transport's own memcpy) keeps these sizes on a path that lands
 * them with gasneti_copy. */
static inline int gasneti_copy_is_word(size_t n) {
#ifdef GASNETI_COPY_WORD64
  if (n == 8) return 1;
#endif
  return n == 1 || n == 2 || n == 4;
}

/* memcpy, with the word rule above. */
static inline void gasneti_copy(void *dest, const void *src, size_t n) {
  if (!gasneti_copy_word(dest, src, n)) memcpy(dest, src, n);
}

/* memmove, with the word rule above. */
static inline void gasneti_move(void *dest, const void *src, size_t n) {
  if (!gasneti_copy_word(dest, src, n)) memmove(dest, src, n);
}

/* memset, with the word rule above (one store of the repeated byte). */
static inline void gasneti_set(void *dest, int val, size_t n) {
  const uint64_t b = (uint8_t)val;
  if (__builtin_expect(n > 8, 1)) {
    memset(dest, val, n);
    return;
  }
  switch (n) {
    case 1:
      __atomic_store_n((uint8_t *)dest, (uint8_t)b, __ATOMIC_RELAXED);
      return;
    case 2:
      if (!gasneti_copy_aligned(dest, 2)) break;
      __atomic_store_n((uint16_t *)dest, (uint16_t)(b * 0x0101u), __ATOMIC_RELAXED);
      return;
    case 4:
      if (!gasneti_copy_aligned(dest, 4)) break;
      __atomic_store_n((uint32_t *)dest, (uint32_t)(b * 0x01010101u), __ATOMIC_RELAXED);
      return;
#ifdef GASNETI_COPY_WORD64
    case 8:
      if (!gasneti_copy_aligned(dest, 8)) break;
      __atomic_store_n((uint64_t *)dest, b * 0x0101010101010101u, __ATOMIC_RELAXED);
      return;
#endif
    default:
      break;
  }
  memset(dest, val, n);
}

#endif
