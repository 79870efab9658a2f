/* gasnet_tools_atomic.h: local memory barriers and the gasnett_atomic*
 * counters, with the ordering flags of GASNet-1. Included by gasnet_tools.h.
 *
 * Everything is built on the GCC/C11 __atomic builtins, so the operations
 * are lock-free and also work between processes on shared memory (which is
 * how the smp conduit uses them). */
#ifndef GASNET_TOOLS_ATOMIC_H
#define GASNET_TOOLS_ATOMIC_H

#include "gasnet_tools_basic.h"

/* ------------------------------------------------------------ memory barriers */
/* Fences as C11 defines them: a release fence orders earlier stores before
 * later ones (a write barrier), an acquire fence earlier loads before later
 * ones (a read barrier). On x86 both cost nothing but the compiler barrier. */
#if defined(__SANITIZE_THREAD__)
/* GCC warns that ThreadSanitizer cannot model fences. A seq_cst
 * read-modify-write on a stack word is a full barrier in hardware (Linux
 * spells smp_mb that way on x86) and draws no warning; ThreadSanitizer
 * understands neither, so nothing is lost. */
#define GASNETTI_FENCE(order)                                              \
  do {                                                                     \
    int gasnetti_fence_word = 0;                                           \
    (void)(order);                                                         \
    (void)__atomic_fetch_add(&gasnetti_fence_word, 0, __ATOMIC_SEQ_CST);   \
  } while (0)
#else
#define GASNETTI_FENCE(order) __atomic_thread_fence(order)
#endif
GASNETTI_INLINE void gasnett_local_mb(void) { GASNETTI_FENCE(__ATOMIC_SEQ_CST); }
GASNETTI_INLINE void gasnett_local_rmb(void) { GASNETTI_FENCE(__ATOMIC_ACQUIRE); }
GASNETTI_INLINE void gasnett_local_wmb(void) { GASNETTI_FENCE(__ATOMIC_RELEASE); }
/* Stops the compiler moving memory accesses across it; no hardware fence. */
GASNETTI_INLINE void gasnett_compiler_fence(void) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }

/* ------------------------------------------------------------ ordering flags */
/* The last argument of every atomic operation says which barriers surround
 * it (GASNet-1 values). ACQ/REL are the usual lock-acquire / lock-release
 * orderings; *_IF_TRUE / *_IF_FALSE apply to operations returning a truth
 * value (compare_and_swap, decrement_and_test). */
#define GASNETT_ATOMIC_NONE 0x00
#define GASNETT_ATOMIC_RMB_PRE 0x01
#define GASNETT_ATOMIC_WMB_PRE 0x02
#define GASNETT_ATOMIC_RMB_POST 0x04
#define GASNETT_ATOMIC_WMB_POST 0x08
#define GASNETT_ATOMIC_RMB_POST_IF_TRUE 0x10
#define GASNETT_ATOMIC_RMB_POST_IF_FALSE 0x20
#define GASNETT_ATOMIC_MB_PRE (GASNETT_ATOMIC_RMB_PRE | GASNETT_ATOMIC_WMB_PRE)
#define GASNETT_ATOMIC_MB_POST (GASNETT_ATOMIC_RMB_POST | GASNETT_ATOMIC_WMB_POST)
#define GASNETT_ATOMIC_REL GASNETT_ATOMIC_WMB_PRE
#define GASNETT_ATOMIC_ACQ GASNETT_ATOMIC_RMB_POST
#define GASNETT_ATOMIC_ACQ_IF_TRUE GASNETT_ATOMIC_RMB_POST_IF_TRUE
#define GASNETT_ATOMIC_ACQ_IF_FALSE GASNETT_ATOMIC_RMB_POST_IF_FALSE

#define GASNETT_HAVE_ATOMIC_CAS 1
#define GASNETT_HAVE_ATOMIC_ADD_SUB 1
#define GASNETT_HAVE_ATOMIC32_T 1
#define GASNETT_HAVE_ATOMIC64_T 1
/* GASNETT_USING_GENERIC_ATOMICOPS marks lock-based ("generic") atomics in
 * GASNet-1; these atomics are native, so it stays undefined (clients test
 * it with #ifdef). */

/* Flags a plain load can honour (an acquire load), and flags a plain store
 * can honour (a release store). Anything else needs a read-modify-write,
 * which orders both ways. */
#define GASNETTI_ATOMIC_ACQUIRE_FLAGS \
  (GASNETT_ATOMIC_RMB_POST | GASNETT_ATOMIC_RMB_POST_IF_TRUE | GASNETT_ATOMIC_RMB_POST_IF_FALSE)
#define GASNETTI_ATOMIC_RELEASE_FLAGS GASNETT_ATOMIC_MB_PRE

/* The C11 memory order of a read-modify-write carrying `flags`. Callers pass
 * constants, so once inlined this folds away. A barrier before maps to
 * release, after to acquire, both to seq_cst; a read barrier before or a
 * write barrier after alone is not expressible more cheaply than acq_rel. */
GASNETTI_INLINE int gasnetti_atomic_rmw_order(int flags) {
  const int pre = flags & GASNETT_ATOMIC_MB_PRE;
  const int post = flags & (GASNETT_ATOMIC_MB_POST | GASNETTI_ATOMIC_ACQUIRE_FLAGS);
  if (pre && post) return __ATOMIC_SEQ_CST;
  if (pre) return pre == GASNETT_ATOMIC_WMB_PRE ? __ATOMIC_RELEASE : __ATOMIC_ACQ_REL;
  if (post) return (post & GASNETT_ATOMIC_WMB_POST) ? __ATOMIC_ACQ_REL : __ATOMIC_ACQUIRE;
  return __ATOMIC_RELAXED;
}

/* A failed compare-and-swap is only a load: it may not use release orders,
 * so keep whatever acquire part the success order has. */
GASNETTI_INLINE int gasnetti_atomic_cas_failure_order(int order) {
  if (order == __ATOMIC_SEQ_CST) return __ATOMIC_SEQ_CST;
  if (order == __ATOMIC_ACQUIRE || order == __ATOMIC_ACQ_REL) return __ATOMIC_ACQUIRE;
  return __ATOMIC_RELAXED;
}

GASNETT_BEGIN_EXTERNC

/* ------------------------------------------------------------ 32-bit */
/* The field is named as in GASNet-1 for clients that peek at it; use the
 * functions to touch it. */
typedef struct {
  uint32_t ctr;
} gasnett_atomic32_t;

/* Static initialiser: gasnett_atomic32_t x = gasnett_atomic32_init(0); */
#define gasnett_atomic32_init(v) {(uint32_t)(v)}

GASNETTI_INLINE uint32_t gasnett_atomic32_read(gasnett_atomic32_t *p, int flags) {
  if (flags & ~GASNETTI_ATOMIC_ACQUIRE_FLAGS)
    return __atomic_fetch_add(&p->ctr, 0, gasnetti_atomic_rmw_order(flags));
  return __atomic_load_n(&p->ctr, flags ? __ATOMIC_ACQUIRE : __ATOMIC_RELAXED);
}

GASNETTI_INLINE void gasnett_atomic32_set(gasnett_atomic32_t *p, uint32_t v, int flags) {
  if (flags & ~GASNETTI_ATOMIC_RELEASE_FLAGS)
    (void)__atomic_exchange_n(&p->ctr, v, gasnetti_atomic_rmw_order(flags));
  else
    __atomic_store_n(&p->ctr, v, flags ? __ATOMIC_RELEASE : __ATOMIC_RELAXED);
}

/* add and subtract return the new value, as in GASNet-1. */
GASNETTI_INLINE uint32_t gasnett_atomic32_add(gasnett_atomic32_t *p, uint32_t v, int flags) {
  return __atomic_add_fetch(&p->ctr, v, gasnetti_atomic_rmw_order(flags));
}

GASNETTI_INLINE uint32_t gasnett_atomic32_subtract(gasnett_atomic32_t *p, uint32_t v, int flags) {
  return __atomic_sub_fetch(&p->ctr, v, gasnetti_atomic_rmw_order(flags));
}

GASNETTI_INLINE void gasnett_atomic32_increment(gasnett_atomic32_t *p, int flags) {
  (void)__atomic_add_fetch(&p->ctr, 1, gasnetti_atomic_rmw_order(flags));
}

GASNETTI_INLINE void gasnett_atomic32_decrement(gasnett_atomic32_t *p, int flags) {
  (void)__atomic_sub_fetch(&p->ctr, 1, gasnetti_atomic_rmw_order(flags));
}

/* Nonzero when the decrement brought the counter to zero. */
GASNETTI_INLINE int gasnett_atomic32_decrement_and_test(gasnett_atomic32_t *p, int flags) {
  return __atomic_sub_fetch(&p->ctr, 1, gasnetti_atomic_rmw_order(flags)) == 0;
}

/* Nonzero when *p held oldval and now holds newval. */
GASNETTI_INLINE int gasnett_atomic32_compare_and_swap(gasnett_atomic32_t *p, uint32_t oldval,
                                                      uint32_t newval, int flags) {
  const int order = gasnetti_atomic_rmw_order(flags);
  return __atomic_compare_exchange_n(&p->ctr, &oldval, newval, 0, order,
                                     gasnetti_atomic_cas_failure_order(order));
}

/* Stores v and returns the previous value. */
GASNETTI_INLINE uint32_t gasnett_atomic32_swap(gasnett_atomic32_t *p, uint32_t v, int flags) {
  return __atomic_exchange_n(&p->ctr, v, gasnetti_atomic_rmw_order(flags));
}

/* ------------------------------------------------------------ 64-bit */
/* Aligned explicitly: 32-bit ABIs align uint64_t to 4 bytes, and a 64-bit
 * atomic that straddles a cache line is neither atomic nor fast. */
typedef struct {
  uint64_t ctr GASNETTI_ALIGNED(8);
} gasnett_atomic64_t;

#define gasnett_atomic64_init(v) {(uint64_t)(v)}

GASNETTI_INLINE uint64_t gasnett_atomic64_read(gasnett_atomic64_t *p, int flags) {
  if (flags & ~GASNETTI_ATOMIC_ACQUIRE_FLAGS)
    return __atomic_fetch_add(&p->ctr, 0, gasnetti_atomic_rmw_order(flags));
  return __atomic_load_n(&p->ctr, flags ? __ATOMIC_ACQUIRE : __ATOMIC_RELAXED);
}

GASNETTI_INLINE void gasnett_atomic64_set(gasnett_atomic64_t *p, uint64_t v, int flags) {
  if (flags & ~GASNETTI_ATOMIC_RELEASE_FLAGS)
    (void)__atomic_exchange_n(&p->ctr, v, gasnetti_atomic_rmw_order(flags));
  else
    __atomic_store_n(&p->ctr, v, flags ? __ATOMIC_RELEASE : __ATOMIC_RELAXED);
}

GASNETTI_INLINE uint64_t gasnett_atomic64_add(gasnett_atomic64_t *p, uint64_t v, int flags) {
  return __atomic_add_fetch(&p->ctr, v, gasnetti_atomic_rmw_order(flags));
}

GASNETTI_INLINE uint64_t gasnett_atomic64_subtract(gasnett_atomic64_t *p, uint64_t v, int flags) {
  return __atomic_sub_fetch(&p->ctr, v, gasnetti_atomic_rmw_order(flags));
}

GASNETTI_INLINE void gasnett_atomic64_increment(gasnett_atomic64_t *p, int flags) {
  (void)__atomic_add_fetch(&p->ctr, 1, gasnetti_atomic_rmw_order(flags));
}

GASNETTI_INLINE void gasnett_atomic64_decrement(gasnett_atomic64_t *p, int flags) {
  (void)__atomic_sub_fetch(&p->ctr, 1, gasnetti_atomic_rmw_order(flags));
}

GASNETTI_INLINE int gasnett_atomic64_decrement_and_test(gasnett_atomic64_t *p, int flags) {
  return __atomic_sub_fetch(&p->ctr, 1, gasnetti_atomic_rmw_order(flags)) == 0;
}

GASNETTI_INLINE int gasnett_atomic64_compare_and_swap(gasnett_atomic64_t *p, uint64_t oldval,
                                                      uint64_t newval, int flags) {
  const int order = gasnetti_atomic_rmw_order(flags);
  return __atomic_compare_exchange_n(&p->ctr, &oldval, newval, 0, order,
                                     gasnetti_atomic_cas_failure_order(order));
}

GASNETTI_INLINE uint64_t gasnett_atomic64_swap(gasnett_atomic64_t *p, uint64_t v, int flags) {
  return __atomic_exchange_n(&p->ctr, v, gasnetti_atomic_rmw_order(flags));
}

/* ------------------------------------------------------------ gasnett_atomic_t */
/* The default flavour is the unsigned 32-bit counter of GASNet-1. It is the
 * same type as gasnett_atomic32_t, so either family of calls may be used on
 * it. */
typedef gasnett_atomic32_t gasnett_atomic_t;
typedef uint32_t gasnett_atomic_val_t;
typedef int32_t gasnett_atomic_sval_t;
#define GASNETT_ATOMIC_MAX ((gasnett_atomic_val_t)0xFFFFFFFFu)
#define GASNETT_ATOMIC_SIGNED_MIN ((gasnett_atomic_sval_t)(-2147483647 - 1))
#define GASNETT_ATOMIC_SIGNED_MAX ((gasnett_atomic_sval_t)2147483647)

#define gasnett_atomic_init(v) {(gasnett_atomic_val_t)(v)}

/* Reinterprets a counter value as signed (two's complement) without the
 * implementation-defined conversion of an out-of-range unsigned value. */
GASNETTI_INLINE gasnett_atomic_sval_t gasnett_atomic_signed(gasnett_atomic_val_t v) {
  return v <= (gasnett_atomic_val_t)GASNETT_ATOMIC_SIGNED_MAX
             ? (gasnett_atomic_sval_t)v
             : (gasnett_atomic_sval_t)(v - 0x80000000u) + GASNETT_ATOMIC_SIGNED_MIN;
}

GASNETTI_INLINE gasnett_atomic_val_t gasnett_atomic_read(gasnett_atomic_t *p, int flags) {
  return gasnett_atomic32_read(p, flags);
}
GASNETTI_INLINE void gasnett_atomic_set(gasnett_atomic_t *p, gasnett_atomic_val_t v, int flags) {
  gasnett_atomic32_set(p, v, flags);
}
GASNETTI_INLINE gasnett_atomic_val_t gasnett_atomic_add(gasnett_atomic_t *p, gasnett_atomic_val_t v,
                                                        int flags) {
  return gasnett_atomic32_add(p, v, flags);
}
GASNETTI_INLINE gasnett_atomic_val_t gasnett_atomic_subtract(gasnett_atomic_t *p,
                                                             gasnett_atomic_val_t v, int flags) {
  return gasnett_atomic32_subtract(p, v, flags);
}
GASNETTI_INLINE void gasnett_atomic_increment(gasnett_atomic_t *p, int flags) {
  gasnett_atomic32_increment(p, flags);
}
GASNETTI_INLINE void gasnett_atomic_decrement(gasnett_atomic_t *p, int flags) {
  gasnett_atomic32_decrement(p, flags);
}
GASNETTI_INLINE int gasnett_atomic_decrement_and_test(gasnett_atomic_t *p, int flags) {
  return gasnett_atomic32_decrement_and_test(p, flags);
}
GASNETTI_INLINE int gasnett_atomic_compare_and_swap(gasnett_atomic_t *p,
                                                    gasnett_atomic_val_t oldval,
                                                    gasnett_atomic_val_t newval, int flags) {
  return gasnett_atomic32_compare_and_swap(p, oldval, newval, flags);
}
GASNETTI_INLINE gasnett_atomic_val_t gasnett_atomic_swap(gasnett_atomic_t *p,
                                                         gasnett_atomic_val_t v, int flags) {
  return gasnett_atomic32_swap(p, v, flags);
}

GASNETT_END_EXTERNC

#endif /* GASNET_TOOLS_ATOMIC_H */
