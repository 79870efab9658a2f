/* testbuiltins: the built-in reduction functions of gasnet_coll.h (sum,
 * prod, min, max, band, bor, bxor) for every element type, against a
 * reference written here as one plain loop per type.
 *
 * The library's loops are compiled to vector code, so this checks what a
 * vector loop can get wrong: lengths around every vector width (the
 * remainder loops), results written over the left or the right operand
 * (allowed: each result is written after its operands are read), empty
 * and long left runs, and floating-point folds that must keep their
 * order: their values are random fractions, so a fold regrouped for
 * vectors rounds differently and fails the byte comparison.
 *
 * Then the same functions through the collectives on every node:
 * element-wise reduce and scan (blksz 0, the library's own element-wise
 * loops), and a reduce and an inclusive scan of a blocked array. There
 * the values are small integers (and +-1 for products), so every
 * grouping gives the same bits and the reference need not know the
 * library's combining order. */
#define _POSIX_C_SOURCE 200809L
#include "coll_test.h"

#include <stdlib.h>

static gasnet_node_t N, ME;
static unsigned cases;

/* ------------------------------------------------------------ ops and types */
enum { OP_SUM, OP_PROD, OP_MIN, OP_MAX, OP_BAND, OP_BOR, OP_BXOR, NOPS };
static const char *const fn_names[NOPS] = {"sum", "prod", "min", "max", "band", "bor", "bxor"};
static const gasnet_coll_fn_entry_t fn_table[NOPS] = {
    {gasnet_coll_fn_sum, GASNET_COLL_AMSAFE},
    {gasnet_coll_fn_prod, GASNET_COLL_AMSAFE},
    {gasnet_coll_fn_min, GASNET_COLL_AMSAFE},
    {gasnet_coll_fn_max, GASNET_COLL_AMSAFE},
    {gasnet_coll_fn_band, GASNET_COLL_AMSAFE},
    {gasnet_coll_fn_bor, GASNET_COLL_AMSAFE},
    {gasnet_coll_fn_bxor, GASNET_COLL_AMSAFE}};
typedef void (*builtin_fn)(void *, size_t, const void *, size_t, const void *, size_t, int, int);

#define NTYPES 10
static const char *const type_names[NTYPES] = {"int8",  "uint8",  "int16",  "uint16", "int32",
                                               "uint32", "int64", "uint64", "float",  "double"};
static const size_t type_sizes[NTYPES] = {1, 1, 2, 2, 4, 4, 8, 8, sizeof(float), sizeof(double)};
static int type_is_float(int type) { return type >= GASNET_COLL_TYPE_FLOAT; }
static int type_is_signed(int type) { return !type_is_float(type) && type % 2 == 0; }
static int op_takes(int op, int type) { return op < OP_BAND || !type_is_float(type); }

/* ------------------------------------------------------------ values
 * Element i of a series. exact: small integers, +-1 for products, so any
 * grouping in the collectives gives the same bits. Otherwise as random as
 * each function allows without a signed overflow (undefined in C, so the
 * client's error): signed products are +-1 or now and then 0, signed sums
 * small, other integers random bits; floats random fractions (near 1 for
 * products, so a long product neither overflows nor vanishes). */
static void put_int(void *p, int type, int64_t v) {
  switch ((gasnet_coll_type_t)type) {
    case GASNET_COLL_TYPE_INT8: *(int8_t *)p = (int8_t)v; break;
    case GASNET_COLL_TYPE_UINT8: *(uint8_t *)p = (uint8_t)v; break;
    case GASNET_COLL_TYPE_INT16: *(int16_t *)p = (int16_t)v; break;
    case GASNET_COLL_TYPE_UINT16: *(uint16_t *)p = (uint16_t)v; break;
    case GASNET_COLL_TYPE_INT32: *(int32_t *)p = (int32_t)v; break;
    case GASNET_COLL_TYPE_UINT32: *(uint32_t *)p = (uint32_t)v; break;
    case GASNET_COLL_TYPE_INT64: *(int64_t *)p = v; break;
    default: *(uint64_t *)p = (uint64_t)v; break;
  }
}

static void put_element(void *p, int op, int type, uint64_t i, int exact) {
  uint64_t h = coll_word((uint32_t)(op * NTYPES + type), i);
  int64_t small = (int64_t)(h % 7) - 3, unit = (h & 1) ? 1 : -1;
  if (op == OP_PROD && (exact || type_is_signed(type))) small = exact || h % 16 ? unit : 0;
  if (type_is_float(type)) {
    double frac = ((double)(h % 2000001) - 1000000.0) / 4096.0;
    double v = exact ? (double)small : op == OP_PROD ? 1.0 + frac / 65536.0 : frac;
    if (type == GASNET_COLL_TYPE_FLOAT) *(float *)p = (float)v;
    else *(double *)p = v;
    return;
  }
  int kept_small = exact || (type_is_signed(type) && (op == OP_SUM || op == OP_PROD));
  put_int(p, type, kept_small ? small : (int64_t)h);
}

static void fill(void *buf, size_t n, int op, int type, uint64_t first, int exact) {
  for (size_t i = 0; i < n; i++)
    put_element((char *)buf + i * type_sizes[type], op, type, first + i, exact);
}

/* ------------------------------------------------------------ the reference
 * acc = acc op b in type T, one element at a time, in order. */
#define REF_COMBINE(T)                                                          \
  static void combine_##T(int op, void *accp, const void *bp) {                 \
    T a = *(T *)accp, b = *(const T *)bp, r = a;                                \
    switch (op) {                                                               \
      case OP_SUM: r = (T)(a + b); break;                                       \
      case OP_PROD: r = (T)(a * b); break;                                      \
      case OP_MIN: r = b < a ? b : a; break;                                    \
      case OP_MAX: r = b > a ? b : a; break;                                    \
      default: r = (T)combine_bits((uint64_t)a, (uint64_t)b, op); break;        \
    }                                                                           \
    *(T *)accp = r;                                                             \
  }
static uint64_t combine_bits(uint64_t a, uint64_t b, int op) {
  return op == OP_BAND ? (a & b) : op == OP_BOR ? (a | b) : (a ^ b);
}
#define REF_COMBINE_FLOAT(T)                                                    \
  static void combine_##T(int op, void *accp, const void *bp) {                 \
    T a = *(T *)accp, b = *(const T *)bp, r = a;                                \
    switch (op) {                                                               \
      case OP_SUM: r = a + b; break;                                            \
      case OP_PROD: r = a * b; break;                                           \
      case OP_MIN: r = b < a ? b : a; break;                                    \
      case OP_MAX: r = b > a ? b : a; break;                                    \
    }                                                                           \
    *(T *)accp = r;                                                             \
  }
REF_COMBINE(int8_t)
REF_COMBINE(uint8_t)
REF_COMBINE(int16_t)
REF_COMBINE(uint16_t)
REF_COMBINE(int32_t)
REF_COMBINE(uint32_t)
REF_COMBINE(int64_t)
REF_COMBINE(uint64_t)
REF_COMBINE_FLOAT(float)
REF_COMBINE_FLOAT(double)
typedef void (*combine_fn)(int, void *, const void *);
static const combine_fn combiners[NTYPES] = {combine_int8_t,  combine_uint8_t, combine_int16_t,
                                             combine_uint16_t, combine_int32_t, combine_uint32_t,
                                             combine_int64_t, combine_uint64_t, combine_float,
                                             combine_double};

/* results[i] = left[0] op .. op left[nleft-1] op right[0] op .. op right[i]. */
static void reference_fold(int op, int type, void *out, size_t n, const void *l, size_t nleft,
                           const void *r) {
  size_t es = type_sizes[type];
  unsigned char acc[8];
  size_t i = 0;
  memcpy(acc, nleft ? l : r, es);
  if (!nleft) { /* the first result is right[0] itself */
    memcpy(out, acc, es);
    i = 1;
  }
  for (size_t j = 1; j < nleft; j++) combiners[type](op, acc, (const char *)l + j * es);
  for (; i < n; i++) {
    combiners[type](op, acc, (const char *)r + i * es);
    memcpy((char *)out + i * es, acc, es);
  }
}

/* ------------------------------------------------------------ direct calls */
enum { ALIAS_NONE, ALIAS_LEFT, ALIAS_RIGHT };
static const char *const alias_names[] = {"apart", "over left", "over right"};

static void check_direct(int op, int type, size_t n, size_t nleft, int alias) {
  size_t es = type_sizes[type], room = (n > nleft ? n : nleft) + 1;
  unsigned char *l = malloc(room * es), *r = malloc(room * es), *out = malloc(room * es);
  unsigned char *want = malloc(room * es);
  TEST_CHECK(l && r && out && want, "out of memory");
  uint64_t seed = (uint64_t)cases * 100003;
  fill(l, nleft, op, type, seed, 0);
  fill(r, n, op, type, seed + 50000, 0);
  reference_fold(op, type, want, n, l, nleft, r);
  void *res = alias == ALIAS_LEFT ? (void *)l : alias == ALIAS_RIGHT ? (void *)r : (void *)out;
  ((builtin_fn)fn_table[op].fnptr)(res, n, l, nleft, r, es, 0, type);
  for (size_t i = 0; i < n; i++)
    TEST_CHECK(!memcmp((char *)res + i * es, want + i * es, es),
               "gasnet_coll_fn_%s(%s): %zu results, %zu left, results %s: result %zu wrong",
               fn_names[op], type_names[type], n, nleft, alias_names[alias], i);
  free(l), free(r), free(out), free(want);
  cases++;
}

/* Lengths past every vector width and unrolling a compiler may pick. */
static void run_direct(void) {
  static const size_t lens[] = {1,  2,  3,  4,  5,  7,  8,   9,   15, 16,
                                17, 31, 32, 33, 63, 64, 65, 127, 1000};
  static const size_t lefts[] = {0, 1, 2, 3, 17, 64, 999};
  const size_t nlens = sizeof lens / sizeof lens[0], nlefts = sizeof lefts / sizeof lefts[0];
  for (int op = 0; op < NOPS; op++)
    for (int type = 0; type < NTYPES; type++) {
      if (!op_takes(op, type)) continue;
      for (size_t a = 0; a < nlens; a++)
        for (size_t b = 0; b < nlefts; b++)
          check_direct(op, type, lens[a], lefts[b], (int)((a + b) % 3));
      for (size_t b = 0; b < nlefts; b++) /* a reduce's call: one result */
        check_direct(op, type, 1, lefts[b] + 1, ALIAS_NONE);
    }
  test_print0("testbuiltins: direct calls done (%u cases)\n", cases);
}

/* ------------------------------------------------------------ through the collectives */
static int next_root;

/* Element-wise (blksz 0): element i of the result combines every node's
 * element i; node n's series starts at n * count. */
static void run_elementwise(int op, int type, size_t count) {
  size_t es = type_sizes[type];
  unsigned char *src = malloc(count * es), *dst = malloc(count * es);
  unsigned char *want = malloc(count * es), *next = malloc(count * es);
  TEST_CHECK(src && dst && want && next, "out of memory");
  fill(src, count, op, type, (uint64_t)ME * count, 1);
  gasnet_node_t root = (gasnet_node_t)(next_root++ % N);
  int flags = GASNET_COLL_LOCAL | GASNET_COLL_IN_ALLSYNC | GASNET_COLL_OUT_ALLSYNC;
  gasnet_coll_reduce(GASNET_TEAM_ALL, root, dst, src, 0, 0, es, count, op, type, flags);
  fill(want, count, op, type, 0, 1);
  for (gasnet_node_t n = 1; n < N; n++) { /* reduce: nodes 0..N-1 */
    fill(next, count, op, type, (uint64_t)n * count, 1);
    for (size_t i = 0; i < count; i++) combiners[type](op, want + i * es, next + i * es);
  }
  if (ME == root)
    TEST_CHECK(!memcmp(dst, want, count * es), "element-wise reduce %s(%s), %zu elements: wrong",
               fn_names[op], type_names[type], count);
  gasnet_coll_scan(GASNET_TEAM_ALL, dst, 0, 0, src, 0, 0, es, count, op, type,
                   flags | GASNET_COLL_INCLUSIVE_SCAN);
  fill(want, count, op, type, 0, 1);
  for (gasnet_node_t n = 1; n <= ME; n++) { /* inclusive scan: nodes 0..ME */
    fill(next, count, op, type, (uint64_t)n * count, 1);
    for (size_t i = 0; i < count; i++) combiners[type](op, want + i * es, next + i * es);
  }
  TEST_CHECK(!memcmp(dst, want, count * es), "element-wise scan %s(%s), %zu elements: wrong",
             fn_names[op], type_names[type], count);
  free(src), free(dst), free(want), free(next);
  cases += 2;
}

/* A blocked array of per_node elements a node: the reduce's one result
 * and the inclusive scan's prefix of every element. */
static void run_blocked(int op, int type, size_t per_node) {
  size_t es = type_sizes[type], total = per_node * N;
  unsigned char *all = malloc(total * es), *want = malloc(total * es), *dst = malloc(per_node * es);
  TEST_CHECK(all && want && dst, "out of memory");
  fill(all, total, op, type, 0, 1);
  unsigned char *mine = all + (size_t)ME * per_node * es;
  gasnet_node_t root = (gasnet_node_t)(next_root++ % N);
  int flags = GASNET_COLL_LOCAL | GASNET_COLL_IN_ALLSYNC | GASNET_COLL_OUT_ALLSYNC;
  gasnet_coll_reduce(GASNET_TEAM_ALL, root, dst, mine, per_node, 0, es, total, op, type, flags);
  reference_fold(op, type, want, total, NULL, 0, all);
  if (ME == root)
    TEST_CHECK(!memcmp(dst, want + (total - 1) * es, es),
               "blocked reduce %s(%s), %zu a node: wrong", fn_names[op], type_names[type],
               per_node);
  gasnet_coll_scan(GASNET_TEAM_ALL, dst, per_node, 0, mine, per_node, 0, es, total, op, type,
                   flags | GASNET_COLL_INCLUSIVE_SCAN);
  TEST_CHECK(!memcmp(dst, want + (size_t)ME * per_node * es, per_node * es),
             "blocked scan %s(%s), %zu a node: wrong", fn_names[op], type_names[type], per_node);
  free(all), free(want), free(dst);
  cases += 2;
}

static void run_collectives(void) {
  static const size_t counts[] = {1, 7, 33, 1000};
  for (int op = 0; op < NOPS; op++)
    for (int type = 0; type < NTYPES; type++) {
      if (!op_takes(op, type)) continue;
      for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
        run_elementwise(op, type, counts[c]);
        run_blocked(op, type, counts[c]);
      }
    }
  test_print0("testbuiltins: collectives done (%u cases)\n", cases);
}

int main(int argc, char **argv) {
  test_init(&argc, &argv, GASNET_PAGESIZE);
  N = gasnet_nodes();
  ME = gasnet_mynode();
  gasnet_coll_init(NULL, 0, fn_table, NOPS, 0);
  run_direct();
  run_collectives();
  gasnet_coll_barrier(GASNET_TEAM_ALL, 0, GASNET_BARRIERFLAG_ANONYMOUS);
  test_finish("testbuiltins");
  return 0;
}
