/* testam.c: every AM category (Short, Medium, Long, LongAsync requests) at
 * every arity 0..16, to self and to every peer. Each request handler checks
 * its source, arguments and payload and replies in the matching category
 * and arity; the reply handler checks the reply the same way. Long payloads
 * are checked at the target, at the address the sender asked for.
 *
 * Every node sends at the same time, one request outstanding at a time.
 * Each node's segment has one Long landing region per peer for requests
 * (index: the sender) and one per peer for replies (index: the replier),
 * so no two messages in flight ever share memory. */
#include "test.h"

enum am_cat { CAT_SHORT, CAT_MEDIUM, CAT_LONG, CAT_LONGASYNC };
static const char *const cat_name[] = {"Short", "Medium", "Long", "LongAsync"};

/* Which spelling of the AM call to use: fixed arity (gasnet_AMRequestShort3),
 * or an explicit count, spelled gasnet_AMRequestShortM or, as GASNet-1
 * clients do, gasnet_AMRequestShort. */
enum am_form { FORM_FIXED, FORM_M, FORM_UNNUMBERED };

/* Handler indices: one request and one reply handler per category and arity.
 * LongAsync requests use the Long request handlers (same signature). */
#define H_REQ_SHORT(n) (TEST_HIDX_FIRST + 0 * 17 + (n))
#define H_REP_SHORT(n) (TEST_HIDX_FIRST + 1 * 17 + (n))
#define H_REQ_MEDIUM(n) (TEST_HIDX_FIRST + 2 * 17 + (n))
#define H_REP_MEDIUM(n) (TEST_HIDX_FIRST + 3 * 17 + (n))
#define H_REQ_LONG(n) (TEST_HIDX_FIRST + 4 * 17 + (n))
#define H_REP_LONG(n) (TEST_HIDX_FIRST + 5 * 17 + (n))

#define KiB ((uintptr_t)1 << 10)
#define MiB ((uintptr_t)1 << 20)
/* Total segment this test asks for; the Long regions share it. */
#define SEG_BUDGET (32 * MiB)

static uintptr_t region;   /* bytes per Long landing region */
static uintptr_t max_long; /* the smaller Long limit */

/* A Long of nbytes, cut to the Long limits and to its region at its
 * offset (odd sizes land 3 bytes in). */
static size_t fit_long(size_t nbytes) {
  if (nbytes > max_long) nbytes = max_long;
  if (nbytes > region) nbytes = region;
  if ((nbytes & 1) && nbytes + 3 > region) nbytes--;
  return nbytes;
}

/* ------------------------------------------------------------ expected values */

/* The handler sees only (source, its own node, category, arity, nbytes), so
 * every argument and payload byte is a function of those. LongAsync is
 * folded into Long because the handler cannot tell them apart. */
static uint32_t msg_key(gasnet_node_t src, gasnet_node_t dst, int cat, int arity, size_t nbytes,
                        int is_reply) {
  if (cat == CAT_LONGASYNC) cat = CAT_LONG;
  uint32_t h = test_mix(0x51ed270bu, src);
  h = test_mix(h, dst);
  h = test_mix(h, (uint32_t)cat);
  h = test_mix(h, (uint32_t)arity);
  h = test_mix(h, (uint32_t)nbytes);
  return test_mix(h, (uint32_t)is_reply);
}

/* Argument i: mostly key-derived, every fourth an extreme value so sign
 * and width mistakes show. */
static gasnet_handlerarg_t arg_value(uint32_t key, int i) {
  static const gasnet_handlerarg_t extreme[] = {INT32_MIN, -1, INT32_MAX, 0};
  if (i % 4 == 3) return extreme[i / 4];
  return (gasnet_handlerarg_t)test_mix(key, (uint32_t)i);
}

static void fill_args(gasnet_handlerarg_t *a, uint32_t key) {
  for (int i = 0; i < 16; i++) a[i] = arg_value(key, i);
}

/* Where a Long request from SRC lands in DST's segment (odd sizes land at
 * an odd offset), and where the reply from REPLIER lands back. */
static uint8_t *long_req_addr(gasnet_node_t dst, gasnet_node_t src, size_t nbytes) {
  return (uint8_t *)test_seg(dst) + (uintptr_t)src * region + ((nbytes & 1) ? 3 : 0);
}
static uint8_t *long_rep_addr(gasnet_node_t requester, gasnet_node_t replier, size_t nbytes) {
  return (uint8_t *)test_seg(requester) + ((uintptr_t)TEST_NODES + replier) * region +
         ((nbytes & 1) ? 3 : 0);
}

/* ------------------------------------------------------------ handler side */

/* The one request this node has outstanding; replies are checked against it. */
static struct {
  gasnet_node_t dest;
  int cat, arity;
  size_t nbytes;
} pending;
static int reply_done;
static uint64_t recv_from[GASNET_MAXNODES];

static void check_args(const gasnet_handlerarg_t *got, int arity, uint32_t key, const char *what) {
  for (int i = 0; i < arity; i++)
    TEST_CHECK(got[i] == arg_value(key, i), "%s: arg %d of %d is %ld, expected %ld", what, i, arity,
               (long)got[i], (long)arg_value(key, i));
}

static void check_payload(int cat, void *buf, size_t nbytes, uint8_t *want_addr, uint32_t key,
                          const char *what) {
  if (cat == CAT_SHORT || nbytes == 0) return;
  if (cat == CAT_MEDIUM)
    TEST_CHECK(((uintptr_t)buf & 7) == 0, "%s: Medium buffer %p is not 8-byte aligned", what, buf);
  else
    TEST_CHECK(buf == (void *)want_addr, "%s: Long payload at %p, requested %p", what, buf,
               (void *)want_addr);
  TEST_CHECK_PATTERN(buf, nbytes, key, what);
}

/* Checks a request; returns its source. */
static gasnet_node_t on_request(gasnet_token_t token, int cat, int arity,
                                const gasnet_handlerarg_t *got, void *buf, size_t nbytes) {
  gasnet_node_t src, me = TEST_MYNODE;
  char what[96];
  GASNET_Safe(gasnet_AMGetMsgSource(token, &src));
  TEST_CHECK(src < TEST_NODES, "request from node %u", (unsigned)src);
  snprintf(what, sizeof what, "%s%d request %u->%u, %zu bytes", cat_name[cat], arity, (unsigned)src,
           (unsigned)me, nbytes);
  uint32_t key = msg_key(src, me, cat, arity, nbytes, 0);
  check_args(got, arity, key, what);
  check_payload(cat, buf, nbytes, long_req_addr(me, src, nbytes), key, what);
  __atomic_fetch_add(&recv_from[src], 1, __ATOMIC_RELAXED);
  return src;
}

static void on_reply(gasnet_token_t token, int cat, int arity, const gasnet_handlerarg_t *got,
                     void *buf, size_t nbytes) {
  gasnet_node_t src, me = TEST_MYNODE;
  char what[96];
  GASNET_Safe(gasnet_AMGetMsgSource(token, &src));
  snprintf(what, sizeof what, "%s%d reply %u->%u, %zu bytes", cat_name[cat], arity, (unsigned)src,
           (unsigned)me, nbytes);
  int want_cat = pending.cat == CAT_LONGASYNC ? CAT_LONG : pending.cat;
  TEST_CHECK(src == pending.dest, "%s: expected a reply from node %u", what,
             (unsigned)pending.dest);
  TEST_CHECK(cat == want_cat && arity == pending.arity, "%s: the request was %s%d", what,
             cat_name[pending.cat], pending.arity);
  TEST_CHECK(cat == CAT_SHORT || nbytes == pending.nbytes, "%s: the request had %zu bytes", what,
             pending.nbytes);
  TEST_CHECK(!__atomic_load_n(&reply_done, __ATOMIC_ACQUIRE), "%s: second reply", what);
  uint32_t key = msg_key(src, me, cat, arity, nbytes, 1);
  check_args(got, arity, key, what);
  check_payload(cat, buf, nbytes, long_rep_addr(me, src, nbytes), key, what);
  __atomic_store_n(&reply_done, 1, __ATOMIC_RELEASE);
}

/* A payload filled with the reply pattern; handlers reply from it. */
static void *reply_payload(gasnet_node_t requester, int cat, int arity, size_t nbytes) {
  void *p = malloc(nbytes ? nbytes : 1);
  TEST_CHECK(p != NULL, "out of memory for a %zu-byte reply", nbytes);
  test_fill(p, nbytes, msg_key(TEST_MYNODE, requester, cat, arity, nbytes, 1));
  return p;
}

/* ------------------------------------------------------------ generated handlers */

/* Parameter lists (TA_n), argument lists (TV_n) and argument-array lists
 * (AV_n(a)) for each arity: the fixed-arity AM macros need literal lists. */
#define TA_0
#define TA_1 TA_0, gasnet_handlerarg_t a0
#define TA_2 TA_1, gasnet_handlerarg_t a1
#define TA_3 TA_2, gasnet_handlerarg_t a2
#define TA_4 TA_3, gasnet_handlerarg_t a3
#define TA_5 TA_4, gasnet_handlerarg_t a4
#define TA_6 TA_5, gasnet_handlerarg_t a5
#define TA_7 TA_6, gasnet_handlerarg_t a6
#define TA_8 TA_7, gasnet_handlerarg_t a7
#define TA_9 TA_8, gasnet_handlerarg_t a8
#define TA_10 TA_9, gasnet_handlerarg_t a9
#define TA_11 TA_10, gasnet_handlerarg_t a10
#define TA_12 TA_11, gasnet_handlerarg_t a11
#define TA_13 TA_12, gasnet_handlerarg_t a12
#define TA_14 TA_13, gasnet_handlerarg_t a13
#define TA_15 TA_14, gasnet_handlerarg_t a14
#define TA_16 TA_15, gasnet_handlerarg_t a15
#define TV_0
#define TV_1 TV_0, a0
#define TV_2 TV_1, a1
#define TV_3 TV_2, a2
#define TV_4 TV_3, a3
#define TV_5 TV_4, a4
#define TV_6 TV_5, a5
#define TV_7 TV_6, a6
#define TV_8 TV_7, a7
#define TV_9 TV_8, a8
#define TV_10 TV_9, a9
#define TV_11 TV_10, a10
#define TV_12 TV_11, a11
#define TV_13 TV_12, a12
#define TV_14 TV_13, a13
#define TV_15 TV_14, a14
#define TV_16 TV_15, a15
#define AV_0(a)
#define AV_1(a) AV_0(a), a[0]
#define AV_2(a) AV_1(a), a[1]
#define AV_3(a) AV_2(a), a[2]
#define AV_4(a) AV_3(a), a[3]
#define AV_5(a) AV_4(a), a[4]
#define AV_6(a) AV_5(a), a[5]
#define AV_7(a) AV_6(a), a[6]
#define AV_8(a) AV_7(a), a[7]
#define AV_9(a) AV_8(a), a[8]
#define AV_10(a) AV_9(a), a[9]
#define AV_11(a) AV_10(a), a[10]
#define AV_12(a) AV_11(a), a[11]
#define AV_13(a) AV_12(a), a[12]
#define AV_14(a) AV_13(a), a[13]
#define AV_15(a) AV_14(a), a[14]
#define AV_16(a) AV_15(a), a[15]
/* Expands the argument list before the call, so that the commas AV_n puts
 * in reach the fixed-arity AM macro as separate arguments. */
#define CALL(f, ...) f(__VA_ARGS__)
#define ARITIES(X) \
  X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15) X(16)

/* Replies cycle through the three spellings by arity so each is used at
 * several arities: fixed (arity % 3 == 0), M (1) and counted (2). */
#define DEFINE_SHORT_HANDLERS(N)                                                   \
  static void req_short_##N(gasnet_token_t token TA_##N) {                         \
    gasnet_handlerarg_t got[] = {0 TV_##N}, r[16];                                 \
    gasnet_node_t src = on_request(token, CAT_SHORT, N, got + 1, NULL, 0);         \
    fill_args(r, msg_key(TEST_MYNODE, src, CAT_SHORT, N, 0, 1));                   \
    if (N % 3 == 0)                                                                \
      GASNET_Safe(CALL(gasnet_AMReplyShort##N, token, H_REP_SHORT(N) AV_##N(r)));  \
    else if (N % 3 == 1)                                                           \
      GASNET_Safe(CALL(gasnet_AMReplyShortM, token, H_REP_SHORT(N), N AV_##N(r))); \
    else                                                                           \
      GASNET_Safe(CALL(gasnet_AMReplyShort, token, H_REP_SHORT(N), N AV_##N(r)));     \
  }                                                                                \
  static void rep_short_##N(gasnet_token_t token TA_##N) {                         \
    gasnet_handlerarg_t got[] = {0 TV_##N};                                        \
    on_reply(token, CAT_SHORT, N, got + 1, NULL, 0);                               \
  }

#define DEFINE_MEDIUM_HANDLERS(N)                                                               \
  static void req_medium_##N(gasnet_token_t token, void *buf, size_t nbytes TA_##N) {           \
    gasnet_handlerarg_t got[] = {0 TV_##N}, r[16];                                              \
    gasnet_node_t src = on_request(token, CAT_MEDIUM, N, got + 1, buf, nbytes);                 \
    fill_args(r, msg_key(TEST_MYNODE, src, CAT_MEDIUM, N, nbytes, 1));                          \
    void *p = reply_payload(src, CAT_MEDIUM, N, nbytes);                                        \
    if (N % 3 == 0)                                                                             \
      GASNET_Safe(CALL(gasnet_AMReplyMedium##N, token, H_REP_MEDIUM(N), p, nbytes AV_##N(r)));  \
    else if (N % 3 == 1)                                                                        \
      GASNET_Safe(CALL(gasnet_AMReplyMediumM, token, H_REP_MEDIUM(N), p, nbytes, N AV_##N(r))); \
    else                                                                                        \
      GASNET_Safe(CALL(gasnet_AMReplyMedium, token, H_REP_MEDIUM(N), p, nbytes, N AV_##N(r)));     \
    free(p); /* a Medium's source may be reused once the call returns */                        \
  }                                                                                             \
  static void rep_medium_##N(gasnet_token_t token, void *buf, size_t nbytes TA_##N) {           \
    gasnet_handlerarg_t got[] = {0 TV_##N};                                                     \
    on_reply(token, CAT_MEDIUM, N, got + 1, buf, nbytes);                                       \
  }

#define DEFINE_LONG_HANDLERS(N)                                                                \
  static void req_long_##N(gasnet_token_t token, void *buf, size_t nbytes TA_##N) {            \
    gasnet_handlerarg_t got[] = {0 TV_##N}, r[16];                                             \
    gasnet_node_t src = on_request(token, CAT_LONG, N, got + 1, buf, nbytes);                  \
    fill_args(r, msg_key(TEST_MYNODE, src, CAT_LONG, N, nbytes, 1));                           \
    void *p = reply_payload(src, CAT_LONG, N, nbytes);                                         \
    void *d = long_rep_addr(src, TEST_MYNODE, nbytes);                                         \
    if (N % 3 == 0)                                                                            \
      GASNET_Safe(CALL(gasnet_AMReplyLong##N, token, H_REP_LONG(N), p, nbytes, d AV_##N(r)));  \
    else if (N % 3 == 1)                                                                       \
      GASNET_Safe(CALL(gasnet_AMReplyLongM, token, H_REP_LONG(N), p, nbytes, d, N AV_##N(r))); \
    else                                                                                       \
      GASNET_Safe(CALL(gasnet_AMReplyLong, token, H_REP_LONG(N), p, nbytes, d, N AV_##N(r)));     \
    free(p); /* a Long reply's source may be reused once the call returns */                   \
  }                                                                                            \
  static void rep_long_##N(gasnet_token_t token, void *buf, size_t nbytes TA_##N) {            \
    gasnet_handlerarg_t got[] = {0 TV_##N};                                                    \
    on_reply(token, CAT_LONG, N, got + 1, buf, nbytes);                                        \
  }

ARITIES(DEFINE_SHORT_HANDLERS)
ARITIES(DEFINE_MEDIUM_HANDLERS)
ARITIES(DEFINE_LONG_HANDLERS)

#define HANDLER_ENTRIES(N)                                                                      \
  {H_REQ_SHORT(N), (void (*)())req_short_##N}, {H_REP_SHORT(N), (void (*)())rep_short_##N},     \
      {H_REQ_MEDIUM(N), (void (*)())req_medium_##N},                                            \
      {H_REP_MEDIUM(N), (void (*)())rep_medium_##N}, {H_REQ_LONG(N), (void (*)())req_long_##N}, \
      {H_REP_LONG(N), (void (*)())rep_long_##N},

static gasnet_handlerentry_t handlers[] = {ARITIES(HANDLER_ENTRIES)};

/* ------------------------------------------------------------ sending */

#define SEND_SHORT_CASE(N)                                                                         \
  case N:                                                                                          \
    if (form == FORM_FIXED) return CALL(gasnet_AMRequestShort##N, dest, H_REQ_SHORT(N) AV_##N(a)); \
    if (form == FORM_M) return CALL(gasnet_AMRequestShortM, dest, H_REQ_SHORT(N), N AV_##N(a));    \
    return CALL(gasnet_AMRequestShort, dest, H_REQ_SHORT(N), N AV_##N(a));

#define SEND_MEDIUM_CASE(N)                                                                  \
  case N:                                                                                    \
    if (form == FORM_FIXED)                                                                  \
      return CALL(gasnet_AMRequestMedium##N, dest, H_REQ_MEDIUM(N), src, nbytes AV_##N(a));  \
    if (form == FORM_M)                                                                      \
      return CALL(gasnet_AMRequestMediumM, dest, H_REQ_MEDIUM(N), src, nbytes, N AV_##N(a)); \
    return CALL(gasnet_AMRequestMedium, dest, H_REQ_MEDIUM(N), src, nbytes, N AV_##N(a));

#define SEND_LONG_CASE(N)                                                                     \
  case N:                                                                                     \
    if (form == FORM_FIXED)                                                                   \
      return CALL(gasnet_AMRequestLong##N, dest, H_REQ_LONG(N), src, nbytes, dst AV_##N(a));  \
    if (form == FORM_M)                                                                       \
      return CALL(gasnet_AMRequestLongM, dest, H_REQ_LONG(N), src, nbytes, dst, N AV_##N(a)); \
    return CALL(gasnet_AMRequestLong, dest, H_REQ_LONG(N), src, nbytes, dst, N AV_##N(a));

#define SEND_LONGASYNC_CASE(N)                                                                     \
  case N:                                                                                          \
    if (form == FORM_FIXED)                                                                        \
      return CALL(gasnet_AMRequestLongAsync##N, dest, H_REQ_LONG(N), src, nbytes, dst AV_##N(a));  \
    if (form == FORM_M)                                                                            \
      return CALL(gasnet_AMRequestLongAsyncM, dest, H_REQ_LONG(N), src, nbytes, dst, N AV_##N(a)); \
    return CALL(gasnet_AMRequestLongAsync, dest, H_REQ_LONG(N), src, nbytes, dst, N AV_##N(a));

static int send_short(gasnet_node_t dest, int arity, int form, const gasnet_handlerarg_t *a) {
  switch (arity) { ARITIES(SEND_SHORT_CASE) }
  test_fail("bad arity %d", arity);
}

static int send_medium(gasnet_node_t dest, int arity, int form, const gasnet_handlerarg_t *a,
                       void *src, size_t nbytes) {
  switch (arity) { ARITIES(SEND_MEDIUM_CASE) }
  test_fail("bad arity %d", arity);
}

static int send_long(gasnet_node_t dest, int arity, int form, const gasnet_handlerarg_t *a,
                     void *src, size_t nbytes, void *dst) {
  switch (arity) { ARITIES(SEND_LONG_CASE) }
  test_fail("bad arity %d", arity);
}

static int send_longasync(gasnet_node_t dest, int arity, int form, const gasnet_handlerarg_t *a,
                          void *src, size_t nbytes, void *dst) {
  switch (arity) { ARITIES(SEND_LONGASYNC_CASE) }
  test_fail("bad arity %d", arity);
}

static uint64_t sent_to[GASNET_MAXNODES];

/* One request and its checked reply. */
static void round_trip(gasnet_node_t dest, int cat, int arity, size_t nbytes, int form) {
  gasnet_node_t me = TEST_MYNODE;
  if (cat == CAT_LONG || cat == CAT_LONGASYNC) nbytes = fit_long(nbytes);
  gasnet_handlerarg_t a[16];
  uint32_t key = msg_key(me, dest, cat, arity, nbytes, 0);
  fill_args(a, key);
  void *src = NULL;
  if (cat != CAT_SHORT) {
    src = malloc(nbytes ? nbytes : 1);
    TEST_CHECK(src != NULL, "out of memory for %zu bytes", nbytes);
    test_fill(src, nbytes, key);
  }
  pending.dest = dest;
  pending.cat = cat;
  pending.arity = arity;
  pending.nbytes = nbytes;
  __atomic_store_n(&reply_done, 0, __ATOMIC_RELEASE);
  void *dst = long_req_addr(dest, me, nbytes);
  int rc;
  switch (cat) {
  case CAT_SHORT: rc = send_short(dest, arity, form, a); break;
  case CAT_MEDIUM: rc = send_medium(dest, arity, form, a, src, nbytes); break;
  case CAT_LONG: rc = send_long(dest, arity, form, a, src, nbytes, dst); break;
  default: rc = send_longasync(dest, arity, form, a, src, nbytes, dst); break;
  }
  TEST_CHECK(rc == GASNET_OK, "%s%d request to %u (%zu bytes, form %d) returned %s", cat_name[cat],
             arity, (unsigned)dest, nbytes, form, gasnet_ErrorName(rc));
  sent_to[dest]++;
  /* A LongAsync source must stay untouched until the reply: free after. */
  GASNET_BLOCKUNTIL(__atomic_load_n(&reply_done, __ATOMIC_ACQUIRE));
  free(src);
}

/* ------------------------------------------------------------ the test */

/* Every category and arity with the small and medium sizes, fixed form. */
static void all_arities(gasnet_node_t dest) {
  const size_t sizes[] = {0, 1, 7, 4097, gasnet_AMMaxMedium()};
  const int nsizes = (int)(sizeof sizes / sizeof sizes[0]);
  for (int arity = 0; arity <= 16; arity++) {
    round_trip(dest, CAT_SHORT, arity, 0, FORM_FIXED);
    for (int cat = CAT_MEDIUM; cat <= CAT_LONGASYNC; cat++)
      for (int s = 0; s < nsizes; s++) round_trip(dest, cat, arity, sizes[s], FORM_FIXED);
  }
}

/* The M and un-numbered spellings (both take the count) at a few arities and sizes. */
static void other_forms(gasnet_node_t dest) {
  static const int arities[] = {0, 1, 2, 5, 16};
  for (int form = FORM_M; form <= FORM_UNNUMBERED; form++)
    for (int i = 0; i < 5; i++) {
      round_trip(dest, CAT_SHORT, arities[i], 0, form);
      for (int cat = CAT_MEDIUM; cat <= CAT_LONGASYNC; cat++) {
        round_trip(dest, cat, arities[i], 7, form);
        round_trip(dest, cat, arities[i], 512, form);
      }
    }
}

/* The two spellings the GASNet-1 documentation shows, written out, and a
 * fixed-arity call with arguments of other types. */
static void spelled_out(gasnet_node_t dest) {
  gasnet_handlerarg_t r[16];
  fill_args(r, msg_key(TEST_MYNODE, dest, CAT_SHORT, 2, 0, 0));
  gasnet_handlerarg_t a = r[0], b = r[1];
  pending.dest = dest;
  pending.cat = CAT_SHORT;
  pending.arity = 2;
  pending.nbytes = 0;
  __atomic_store_n(&reply_done, 0, __ATOMIC_RELEASE);
  GASNET_Safe(gasnet_AMRequestShort(dest, H_REQ_SHORT(2), 2, a, b));
  sent_to[dest]++;
  GASNET_BLOCKUNTIL(__atomic_load_n(&reply_done, __ATOMIC_ACQUIRE));
  __atomic_store_n(&reply_done, 0, __ATOMIC_RELEASE);
  GASNET_Safe(gasnet_AMRequestShortM(dest, H_REQ_SHORT(2), 2, a, b));
  sent_to[dest]++;
  GASNET_BLOCKUNTIL(__atomic_load_n(&reply_done, __ATOMIC_ACQUIRE));
  /* The numbered macros convert each argument to gasnet_handlerarg_t, as
   * GASNet-1's do: a wider integer keeps its low 32 bits, a double its value. */
  __atomic_store_n(&reply_done, 0, __ATOMIC_RELEASE);
  int64_t wide = (int64_t)a + ((int64_t)5 << 32);
  double real = (double)b;
  GASNET_Safe(gasnet_AMRequestShort2(dest, H_REQ_SHORT(2), wide, real));
  sent_to[dest]++;
  GASNET_BLOCKUNTIL(__atomic_load_n(&reply_done, __ATOMIC_ACQUIRE));
}

/* The largest Longs fit for the region, to self and the next node. */
static void largest_longs(void) {
  gasnet_node_t me = TEST_MYNODE, next = (me + 1) % TEST_NODES;
  static const int arities[] = {0, 9, 16};
  for (int i = 0; i < 3; i++)
    for (int cat = CAT_LONG; cat <= CAT_LONGASYNC; cat++) {
      round_trip(me, cat, arities[i], region, FORM_FIXED);
      if (next != me) round_trip(next, cat, arities[i], region, FORM_FIXED);
    }
}

/* Largest Long region (a multiple of 64 bytes) such that 2 * nodes
 * regions fit in the budget and the Long limits. The limits may be below
 * the Medium limit (GASNet-1 asks only 512 bytes of each). */
static uintptr_t choose_region(void) {
  uintptr_t r = SEG_BUDGET / (2 * (uintptr_t)TEST_NODES);
  uintptr_t maxseg = gasnet_getMaxGlobalSegmentSize() / (2 * (uintptr_t)TEST_NODES);
  if (r > max_long) r = max_long;
  if (r > maxseg) r = maxseg;
  r -= r % 64;
  TEST_CHECK(r >= 512, "Long region %lu too small (max Long %lu, max segment %lu)",
             (unsigned long)r, (unsigned long)max_long,
             (unsigned long)gasnet_getMaxGlobalSegmentSize());
  return r;
}

int main(int argc, char **argv) {
  test_init_only(&argc, &argv);
  max_long = gasnet_AMMaxLongRequest() < gasnet_AMMaxLongReply() ? gasnet_AMMaxLongRequest()
                                                                  : gasnet_AMMaxLongReply();
  region = choose_region();
  GASNET_Safe(test_attach(handlers, (int)(sizeof handlers / sizeof handlers[0]),
                          2 * (uintptr_t)TEST_NODES * region));
  test_print0("testam: %u nodes, Long region %lu KiB, max Medium %lu\n", (unsigned)TEST_NODES,
              (unsigned long)(region / KiB), (unsigned long)gasnet_AMMaxMedium());
  test_barrier();
  for (gasnet_node_t k = 0; k < TEST_NODES; k++) {
    gasnet_node_t dest = (TEST_MYNODE + k) % TEST_NODES; /* self first, then each peer */
    all_arities(dest);
    other_forms(dest);
    spelled_out(dest);
  }
  largest_longs();
  test_check_counts(sent_to, recv_from, "testam requests");
  test_finish("testam");
}
