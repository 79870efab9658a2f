/* reduce_builtin.c: the built-in reduction functions (gasnet_coll.h). Each
 * takes the element type in its func_arg and computes, like any client
 * function, results[i] = left[0] op .. op left[l-1] op right[0] op .. op
 * right[i], reading left[0] and right[i] before writing results[i] (so
 * results may even be left or right: the library combines in place).
 *
 * The per-type loops are written once: BUILTIN_FOLD defines the loop for
 * one operation and one C type, and BUILTIN_DISPATCH the switch over the
 * types; C has no other way to write a loop generic over element types
 * that the compiler can still vectorise. The library itself calls the
 * typed loop straight away (gasnete_coll_builtin_loops), once it has
 * checked the type for the call: the public functions check it and
 * switch on it at every call. For the element-wise reduce and scan
 * (blksz 0) each operation also has a zip loop, BUILTIN_ZIP: out[i] =
 * left[i] op right[i]. */
/* Vector code for these loops. At -O2, GCC (12 and later) vectorizes
 * only a loop that needs neither a scalar remainder nor a check that its
 * arrays overlap, which rules out every loop here (their lengths are the
 * caller's, and results may be written over an operand): the integer sum
 * of a reduce ran one element per cycle, 1 MiB of int32 in 67 us, against
 * 17 us in vector code (docs/performance.md, "Built-in reductions in
 * vector code"). Only what is exact in any order changes:
 * integer arithmetic wraps, so regrouping a fold gives the same bits,
 * while a floating-point fold stays in order (GCC does not reassociate
 * it without -ffast-math); element-wise loops do the same operations
 * either way. Clang vectorizes these loops at -O2 already. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-vectorize", "vect-cost-model=dynamic")
#endif

#include "ops/reduce_builtin.h"
#include "ops/reduce_prefix.h"

#include <stdint.h>

static const char *const builtin_type_names[] = {"int8",  "uint8",  "int16",  "uint16", "int32",
                                                 "uint32", "int64", "uint64", "float",  "double"};
static const size_t builtin_type_sizes[] = {1, 1, 2, 2, 4, 4, 8, 8, sizeof(float), sizeof(double)};

static void builtin_check(const char *fn, int type, size_t elem_size, int integer_only) {
  if (type < GASNET_COLL_TYPE_INT8 || type > GASNET_COLL_TYPE_DOUBLE)
    gasneti_fatalerror("%s: func_arg %d is not a gasnet_coll_type_t", fn, type);
  if (integer_only && type >= GASNET_COLL_TYPE_FLOAT)
    gasneti_fatalerror("%s: func_arg %d (%s): bitwise functions take integer types only", fn, type,
                       builtin_type_names[type]);
  if (elem_size != builtin_type_sizes[type])
    gasneti_fatalerror("%s: elem_size %zu does not match func_arg %d (%s, %zu bytes)", fn,
                       elem_size, type, builtin_type_names[type], builtin_type_sizes[type]);
}

/* A fold's results after the first are prefixes; for an integer sum
 * (exact in any grouping) reduce_prefix.h computes them in vector code.
 * Both tests are constants for each instance of BUILTIN_FOLD. */
enum { builtin_sum_is_sum = 1, builtin_prod_is_sum = 0, builtin_min_is_sum = 0,
       builtin_max_is_sum = 0, builtin_band_is_sum = 0, builtin_bor_is_sum = 0,
       builtin_bxor_is_sum = 0 };
#define BUILTIN_IS_INT_SUM(op, T) (builtin_##op##_is_sum && (T)0.5 == 0)

#define BUILTIN_FOLD(op, T, EXPR)                                                                \
  static void builtin_##op##_##T(void *results, size_t n, const void *left, size_t nleft,      \
                                 const void *right) {                                          \
    const T *l = left, *r = right;                                                             \
    T *out = results, a, b;                                                                    \
    size_t i = 0;                                                                              \
    T acc = nleft ? l[0] : r[i++];                                                             \
    for (size_t j = 1; j < nleft; j++) {                                                       \
      a = acc;                                                                                 \
      b = l[j];                                                                                \
      acc = (EXPR);                                                                            \
    }                                                                                          \
    if (i) out[0] = acc;                                                                       \
    if (BUILTIN_IS_INT_SUM(op, T) && n - i >= 32 / sizeof(T)) { /* a scan's run */            \
      T carry = acc; /* acc's address taken would keep the loop above scalar */                \
      i = builtin_prefix_sum(out, r, i, n, &carry, sizeof(T));                                 \
      acc = carry;                                                                             \
    }                                                                                          \
    for (; i < n; i++) {                                                                       \
      a = acc;                                                                                 \
      b = r[i];                                                                                \
      acc = (EXPR);                                                                            \
      out[i] = acc;                                                                            \
    }                                                                                          \
  }

#define BUILTIN_ZIP(op, T, EXPR)                                                                 \
  static void builtin_zip_##op##_##T(void *results, const void *left, const void *right,       \
                                     size_t n) {                                               \
    const T *l = left, *r = right;                                                             \
    T *out = results, a, b;                                                                    \
    for (size_t i = 0; i < n; i++) {                                                           \
      a = l[i];                                                                                \
      b = r[i];                                                                                \
      out[i] = (EXPR);                                                                         \
    }                                                                                          \
  }
#define BUILTIN_FOLD_AND_ZIP(op, T, EXPR) BUILTIN_FOLD(op, T, EXPR) BUILTIN_ZIP(op, T, EXPR)

#define BUILTIN_INT_TYPES(X, op, EXPR)                                                           \
  X(op, int8_t, EXPR) X(op, uint8_t, EXPR) X(op, int16_t, EXPR) X(op, uint16_t, EXPR)            \
  X(op, int32_t, EXPR) X(op, uint32_t, EXPR) X(op, int64_t, EXPR) X(op, uint64_t, EXPR)
#define BUILTIN_ALL_TYPES(X, op, EXPR) \
  BUILTIN_INT_TYPES(X, op, EXPR) X(op, float, EXPR) X(op, double, EXPR)

#define BUILTIN_CASE(op, T, ty)                                                                  \
  case ty: builtin_##op##_##T(results, n, left, nleft, right); break;

#define BUILTIN_DISPATCH(op, integer_only)                                                       \
  void gasnet_coll_fn_##op(void *results, size_t n, const void *left, size_t nleft,             \
                           const void *right, size_t elem_size, int flags, int type) {          \
    (void)flags;                                                                               \
    builtin_check("gasnet_coll_fn_" #op, type, elem_size, integer_only);                        \
    switch ((gasnet_coll_type_t)type) {                                                        \
      BUILTIN_CASE(op, int8_t, GASNET_COLL_TYPE_INT8)                                          \
      BUILTIN_CASE(op, uint8_t, GASNET_COLL_TYPE_UINT8)                                        \
      BUILTIN_CASE(op, int16_t, GASNET_COLL_TYPE_INT16)                                        \
      BUILTIN_CASE(op, uint16_t, GASNET_COLL_TYPE_UINT16)                                      \
      BUILTIN_CASE(op, int32_t, GASNET_COLL_TYPE_INT32)                                        \
      BUILTIN_CASE(op, uint32_t, GASNET_COLL_TYPE_UINT32)                                      \
      BUILTIN_CASE(op, int64_t, GASNET_COLL_TYPE_INT64)                                        \
      BUILTIN_CASE(op, uint64_t, GASNET_COLL_TYPE_UINT64)                                      \
      BUILTIN_FLOAT_CASES_##integer_only(op)                                                   \
    }                                                                                          \
  }
#define BUILTIN_FLOAT_CASES_0(op)                 \
  BUILTIN_CASE(op, float, GASNET_COLL_TYPE_FLOAT) \
  BUILTIN_CASE(op, double, GASNET_COLL_TYPE_DOUBLE)
#define BUILTIN_FLOAT_CASES_1(op) \
  default: break;

/* The casts bring narrow types back to their width after C's integer
 * promotion; as in C, a signed int or wider sum that overflows is the
 * client's error. */
BUILTIN_ALL_TYPES(BUILTIN_FOLD_AND_ZIP, sum, (__typeof__(a))(a + b))
BUILTIN_ALL_TYPES(BUILTIN_FOLD_AND_ZIP, prod, (__typeof__(a))(a * b))
BUILTIN_ALL_TYPES(BUILTIN_FOLD_AND_ZIP, min, (b < a ? b : a))
BUILTIN_ALL_TYPES(BUILTIN_FOLD_AND_ZIP, max, (b > a ? b : a))
BUILTIN_INT_TYPES(BUILTIN_FOLD_AND_ZIP, band, (__typeof__(a))(a & b))
BUILTIN_INT_TYPES(BUILTIN_FOLD_AND_ZIP, bor, (__typeof__(a))(a | b))
BUILTIN_INT_TYPES(BUILTIN_FOLD_AND_ZIP, bxor, (__typeof__(a))(a ^ b))

BUILTIN_DISPATCH(sum, 0)
BUILTIN_DISPATCH(prod, 0)
BUILTIN_DISPATCH(min, 0)
BUILTIN_DISPATCH(max, 0)
BUILTIN_DISPATCH(band, 1)
BUILTIN_DISPATCH(bor, 1)
BUILTIN_DISPATCH(bxor, 1)

/* ------------------------------------------------------------ minloc / maxloc
 * The better value wins; on a tie, the smaller loc: commutative and
 * associative, so any grouping gives the same pair. */
static inline int loc_better_double(const gasnet_coll_loc_double_t *x,
                                    const gasnet_coll_loc_double_t *y, int want_max) {
  if (x->value != y->value) return want_max ? x->value > y->value : x->value < y->value;
  return x->loc < y->loc;
}
static inline int loc_better_int64(const gasnet_coll_loc_int64_t *x,
                                   const gasnet_coll_loc_int64_t *y, int want_max) {
  if (x->value != y->value) return want_max ? x->value > y->value : x->value < y->value;
  return x->loc < y->loc;
}

#define LOC_FOLD(T, better)                                                                      \
  static void loc_fold_##T(void *results, size_t n, const void *left, size_t nleft,             \
                           const void *right, int want_max) {                                   \
    const T *l = left, *r = right;                                                             \
    T *out = results;                                                                          \
    size_t i = 0;                                                                              \
    T acc = nleft ? l[0] : r[i++];                                                             \
    for (size_t j = 1; j < nleft; j++)                                                         \
      if (better(&l[j], &acc, want_max)) acc = l[j];                                           \
    if (i) out[0] = acc;                                                                       \
    for (; i < n; i++) {                                                                       \
      if (better(&r[i], &acc, want_max)) acc = r[i];                                           \
      out[i] = acc;                                                                            \
    }                                                                                          \
  }
#define LOC_ZIP(T, better, want_max, name)                                                        \
  static void name(void *results, const void *left, const void *right, size_t n) {             \
    const T *l = left, *r = right;                                                             \
    T *out = results;                                                                          \
    for (size_t i = 0; i < n; i++) out[i] = better(&r[i], &l[i], want_max) ? r[i] : l[i];      \
  }
LOC_FOLD(gasnet_coll_loc_double_t, loc_better_double)
LOC_FOLD(gasnet_coll_loc_int64_t, loc_better_int64)
LOC_ZIP(gasnet_coll_loc_double_t, loc_better_double, 0, loc_zip_min_double)
LOC_ZIP(gasnet_coll_loc_double_t, loc_better_double, 1, loc_zip_max_double)
LOC_ZIP(gasnet_coll_loc_int64_t, loc_better_int64, 0, loc_zip_min_int64)
LOC_ZIP(gasnet_coll_loc_int64_t, loc_better_int64, 1, loc_zip_max_int64)

static void loc_mismatch(const char *fn, int type, size_t elem_size) {
  gasneti_fatalerror("%s: func_arg %d with elem_size %zu: takes GASNET_COLL_TYPE_DOUBLE or "
                     "GASNET_COLL_TYPE_INT64 pairs (%zu bytes)",
                     fn, type, elem_size, sizeof(gasnet_coll_loc_double_t));
}

static void loc_dispatch(const char *fn, void *results, size_t n, const void *left, size_t nleft,
                         const void *right, size_t elem_size, int type, int want_max) {
  if (type == GASNET_COLL_TYPE_DOUBLE && elem_size == sizeof(gasnet_coll_loc_double_t))
    loc_fold_gasnet_coll_loc_double_t(results, n, left, nleft, right, want_max);
  else if (type == GASNET_COLL_TYPE_INT64 && elem_size == sizeof(gasnet_coll_loc_int64_t))
    loc_fold_gasnet_coll_loc_int64_t(results, n, left, nleft, right, want_max);
  else
    loc_mismatch(fn, type, elem_size);
}

void gasnet_coll_fn_minloc(void *results, size_t n, const void *left, size_t nleft,
                           const void *right, size_t elem_size, int flags, int type) {
  (void)flags;
  loc_dispatch("gasnet_coll_fn_minloc", results, n, left, nleft, right, elem_size, type, 0);
}

void gasnet_coll_fn_maxloc(void *results, size_t n, const void *left, size_t nleft,
                           const void *right, size_t elem_size, int flags, int type) {
  (void)flags;
  loc_dispatch("gasnet_coll_fn_maxloc", results, n, left, nleft, right, elem_size, type, 1);
}

/* ------------------------------------------------------------ for the library */
static void loc_min_double(void *results, size_t n, const void *left, size_t nleft,
                           const void *right) {
  loc_fold_gasnet_coll_loc_double_t(results, n, left, nleft, right, 0);
}
static void loc_max_double(void *results, size_t n, const void *left, size_t nleft,
                           const void *right) {
  loc_fold_gasnet_coll_loc_double_t(results, n, left, nleft, right, 1);
}
static void loc_min_int64(void *results, size_t n, const void *left, size_t nleft,
                          const void *right) {
  loc_fold_gasnet_coll_loc_int64_t(results, n, left, nleft, right, 0);
}
static void loc_max_int64(void *results, size_t n, const void *left, size_t nleft,
                          const void *right) {
  loc_fold_gasnet_coll_loc_int64_t(results, n, left, nleft, right, 1);
}

#define BUILTIN_INT_ROW(pre, op)                                                                 \
  pre##op##_int8_t, pre##op##_uint8_t, pre##op##_int16_t, pre##op##_uint16_t, pre##op##_int32_t, \
      pre##op##_uint32_t, pre##op##_int64_t, pre##op##_uint64_t
#define BUILTIN_ROW(pre, op) {BUILTIN_INT_ROW(pre, op), pre##op##_float, pre##op##_double}
#define BUILTIN_BITWISE_ROW(pre, op) {BUILTIN_INT_ROW(pre, op), NULL, NULL}
#define BUILTIN_ROWS(op) BUILTIN_ROW(builtin_, op), BUILTIN_ROW(builtin_zip_, op)
#define BUILTIN_BITWISE_ROWS(op) BUILTIN_BITWISE_ROW(builtin_, op), BUILTIN_BITWISE_ROW(builtin_zip_, op)

/* The built-ins, in the order of gasnete_coll_builtin_t. */
static const struct {
  const char *name;
  gasnet_coll_reduce_fn_t fnptr;
  int integer_only;
  gasnete_coll_fold_t folds[GASNET_COLL_TYPE_DOUBLE + 1]; /* by gasnet_coll_type_t */
  gasnete_coll_zip_t zips[GASNET_COLL_TYPE_DOUBLE + 1];
} builtin_table[] = {
    {"gasnet_coll_fn_sum", gasnet_coll_fn_sum, 0, BUILTIN_ROWS(sum)},
    {"gasnet_coll_fn_prod", gasnet_coll_fn_prod, 0, BUILTIN_ROWS(prod)},
    {"gasnet_coll_fn_min", gasnet_coll_fn_min, 0, BUILTIN_ROWS(min)},
    {"gasnet_coll_fn_max", gasnet_coll_fn_max, 0, BUILTIN_ROWS(max)},
    {"gasnet_coll_fn_band", gasnet_coll_fn_band, 1, BUILTIN_BITWISE_ROWS(band)},
    {"gasnet_coll_fn_bor", gasnet_coll_fn_bor, 1, BUILTIN_BITWISE_ROWS(bor)},
    {"gasnet_coll_fn_bxor", gasnet_coll_fn_bxor, 1, BUILTIN_BITWISE_ROWS(bxor)},
    {"gasnet_coll_fn_minloc", gasnet_coll_fn_minloc, 0, {NULL}, {NULL}},
    {"gasnet_coll_fn_maxloc", gasnet_coll_fn_maxloc, 0, {NULL}, {NULL}},
};

gasnete_coll_builtin_t gasnete_coll_builtin_of(gasnet_coll_reduce_fn_t fnptr) {
  for (int b = 0; b < GASNETE_COLL_BUILTIN_COUNT; b++)
    if (builtin_table[b].fnptr == fnptr) return (gasnete_coll_builtin_t)b;
  return GASNETE_COLL_NOT_BUILTIN;
}

/* minloc and maxloc: one pair type per func_arg. */
static gasnete_coll_builtin_loops_t loc_loops(gasnete_coll_builtin_t b, int type, size_t elem_size) {
  int max = b == GASNETE_COLL_BUILTIN_MAXLOC;
  gasnete_coll_builtin_loops_t loops = {NULL, NULL};
  if (type == GASNET_COLL_TYPE_DOUBLE && elem_size == sizeof(gasnet_coll_loc_double_t)) {
    loops.fold = max ? loc_max_double : loc_min_double;
    loops.zip = max ? loc_zip_max_double : loc_zip_min_double;
  } else if (type == GASNET_COLL_TYPE_INT64 && elem_size == sizeof(gasnet_coll_loc_int64_t)) {
    loops.fold = max ? loc_max_int64 : loc_min_int64;
    loops.zip = max ? loc_zip_max_int64 : loc_zip_min_int64;
  } else {
    loc_mismatch(builtin_table[b].name, type, elem_size);
  }
  return loops;
}

gasnete_coll_builtin_loops_t gasnete_coll_builtin_loops(gasnete_coll_builtin_t b, int type,
                                                        size_t elem_size) {
  if (b == GASNETE_COLL_BUILTIN_MINLOC || b == GASNETE_COLL_BUILTIN_MAXLOC)
    return loc_loops(b, type, elem_size);
  builtin_check(builtin_table[b].name, type, elem_size, builtin_table[b].integer_only);
  gasnete_coll_builtin_loops_t loops = {builtin_table[b].folds[type], builtin_table[b].zips[type]};
  return loops;
}
