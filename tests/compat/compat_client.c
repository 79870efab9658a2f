/* compat_client.c: a GASNet-1 client as such clients are written, built
 * only through an installed makefile fragment (tests/compat/run_compat.sh)
 * with -Werror=implicit-function-declaration. It includes gasnet.h and
 * gasnet_handler.h and nothing else, and checks what GASNet-1 clients rely
 * on: the basic and platform macros, configure results, the system headers
 * gasnet.h brings in, un-numbered AM calls with an explicit count (0..16
 * arguments, checked on arrival), the handler helpers, try_syncnb_nopoll,
 * team queries and the team barrier, barrier mismatch results, loopback
 * put/get on non-segment memory, and the collectives through gasnet.h.
 * Every node prints "compat_client: node I/N OK" before the closing barrier. */
#include <gasnet.h>
#include <gasnet_handler.h>

/* ------------------------------------------------------------ compile-time checks */
#if !defined(_GNU_SOURCE)
#error "the fragment must define _GNU_SOURCE"
#endif
#if (defined(GASNET_PAR) || defined(GASNET_PARSYNC)) && !defined(_REENTRANT)
#error "a threaded fragment must define _REENTRANT"
#endif
#if GASNET_RELEASE_VERSION_MAJOR != 1 || GASNET_RELEASE_VERSION_MINOR < 18
#error "clients require a 1.x release of at least 1.18"
#endif
#ifndef HAVE_PTHREAD_H
#error "gasnet_config.h must define HAVE_PTHREAD_H"
#endif
#ifndef HAVE_MMAP
#error "gasnet_config.h must define HAVE_MMAP"
#endif
#if defined(GASNETT_USING_GETTIMEOFDAY) || defined(GASNETT_USING_GENERIC_ATOMICOPS) || \
    defined(GASNETT_CONFIGURE_MISMATCH)
#error "a false feature macro must be left undefined"
#endif
#if !defined(PLATFORM_COMPILER_FAMILYNAME) || !defined(PLATFORM_COMPILER_VERSION_STR)
#error "PLATFORM_COMPILER_* missing"
#endif
#if !(PLATFORM_ARCH_32 || PLATFORM_ARCH_64) || (PLATFORM_ARCH_32 && PLATFORM_ARCH_64)
#error "exactly one of PLATFORM_ARCH_32 / PLATFORM_ARCH_64"
#endif
#if defined(__linux__) && !PLATFORM_OS_LINUX
#error "PLATFORM_OS_LINUX must be true on Linux"
#endif
#if defined(__x86_64__) && !PLATFORM_ARCH_X86_64
#error "PLATFORM_ARCH_X86_64 must be true on x86_64"
#endif
#if defined(__GNUC__) && !defined(__clang__) && !PLATFORM_COMPILER_GNU
#error "PLATFORM_COMPILER_GNU must be true under gcc"
#endif
#if !defined(GASNET_CONDUIT_NAME_STR) || !defined(GASNET_CONFIG_STRING)
#error "conduit identification missing"
#endif

#define GASNET_Safe(call)                                                               \
  do {                                                                                  \
    int rc_ = (call);                                                                   \
    if (rc_ != GASNET_OK) {                                                             \
      fprintf(stderr, "compat_client: %s failed: %s (%s)\n", #call, gasnet_ErrorName(rc_), \
              gasnet_ErrorDesc(rc_));                                                   \
      gasnet_exit(1);                                                                   \
    }                                                                                   \
  } while (0)

static gasnet_node_t mynode, nodes;

static void fail(const char *what, long a, long b) {
  fprintf(stderr, "compat_client: node %u: %s (%ld vs %ld)\n", (unsigned)mynode, what, a, b);
  fflush(stderr);
  gasnet_exit(1);
}
static void check(int ok, const char *what, long a, long b) {
  if_pf(!ok) fail(what, a, b);
}

/* ------------------------------------------------------------ basic macros */
static void check_basic_macros(void) {
  const char *family = _STRINGIFY(PLATFORM_COMPILER_FAMILYNAME);
  int _CONCAT(pasted_, name) = 3;
  check(pasted_name == 3, "_CONCAT", pasted_name, 3);
#if PLATFORM_COMPILER_GNU
  check(strcmp(family, "GNU") == 0, "PLATFORM_COMPILER_FAMILYNAME is GNU", 0, 0);
#endif
  check(strlen(PLATFORM_COMPILER_VERSION_STR) > 0, "PLATFORM_COMPILER_VERSION_STR", 0, 0);
  check(strcmp(_STRINGIFY(PLATFORM_OS_FAMILYNAME), "") != 0, "PLATFORM_OS_FAMILYNAME", 0, 0);
  int branch = 0;
  if_pf(mynode > nodes) branch = 1;
  else branch = 2;
  if_pt(branch == 2) branch = 3;
  check(branch == 3, "if_pf / if_pt", branch, 3);
  check(GASNETT_PREDICT_TRUE(1) && !GASNETT_PREDICT_FALSE(0), "GASNETT_PREDICT_*", 0, 0);
  /* System headers gasnet.h brings in: unistd (getpid, usleep), stdlib,
   * string, stdio, and pthread_yield, which needs _GNU_SOURCE. */
  check(getpid() > 0, "getpid", getpid(), 0);
  usleep(1);
#if defined(__GLIBC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  pthread_yield();
#pragma GCC diagnostic pop
#endif
  uint64_t word = GASNETI_MAKEWORD(0x12345678u, 0x9abcdef0u);
  check(GASNETI_HIWORD(word) == 0x12345678u && GASNETI_LOWORD(word) == 0x9abcdef0u,
        "HIWORD/LOWORD/MAKEWORD", (long)GASNETI_HIWORD(word), 0x12345678L);
}

/* ------------------------------------------------------------ un-numbered AM calls
 * Handlers for 0..16 arguments, generated with gasnet_handler.h's ARGSn and
 * ARGNAMESn. The value of argument i from node s is arg_value(s, i). */
#define PAYLOAD 96
static volatile int short_replies, medium_arrivals, long_arrivals;
static char *long_landing; /* PAYLOAD bytes per sender in my segment */

static gasnet_handlerarg_t arg_value(gasnet_node_t src, int i) {
  return (gasnet_handlerarg_t)(0x5a000000u + (src << 12) + (unsigned)i * 37u);
}

static void check_args(gasnet_token_t token, int n, const gasnet_handlerarg_t *v) {
  gasnet_node_t src;
  gasnet_AMGetMsgSource(token, &src);
  for (int i = 0; i < n; i++)
    check(v[i] == arg_value(src, i), "AM argument value", (long)v[i], (long)arg_value(src, i));
}

static void check_payload(const void *buf, size_t nbytes, gasnet_node_t src) {
  const unsigned char *p = (const unsigned char *)buf;
  check(nbytes == PAYLOAD, "AM payload size", (long)nbytes, PAYLOAD);
  for (size_t i = 0; i < nbytes; i++)
    check(p[i] == (unsigned char)(src * 7 + i), "AM payload byte", p[i], (long)i);
}

enum {
  H_FIRST = 128,
  /* Short request n: H_SHORT_REQ + n; its reply: H_SHORT_REP + n; Medium
   * and Long requests likewise. */
  H_SHORT_REQ = H_FIRST,
  H_SHORT_REP = H_SHORT_REQ + 17,
  H_MEDIUM_REQ = H_SHORT_REP + 17,
  H_LONG_REQ = H_MEDIUM_REQ + 17,
  _hidx_ptr_echo = H_LONG_REQ + 17,
  _hidx_ptr_back
};

/* ARGVALSn: ", arg_value(me, 0), ..., arg_value(me, n-1)". */
#define ARGVALS0
#define ARGVALS1 ARGVALS0, arg_value(mynode, 0)
#define ARGVALS2 ARGVALS1, arg_value(mynode, 1)
#define ARGVALS3 ARGVALS2, arg_value(mynode, 2)
#define ARGVALS4 ARGVALS3, arg_value(mynode, 3)
#define ARGVALS5 ARGVALS4, arg_value(mynode, 4)
#define ARGVALS6 ARGVALS5, arg_value(mynode, 5)
#define ARGVALS7 ARGVALS6, arg_value(mynode, 6)
#define ARGVALS8 ARGVALS7, arg_value(mynode, 7)
#define ARGVALS9 ARGVALS8, arg_value(mynode, 8)
#define ARGVALS10 ARGVALS9, arg_value(mynode, 9)
#define ARGVALS11 ARGVALS10, arg_value(mynode, 10)
#define ARGVALS12 ARGVALS11, arg_value(mynode, 11)
#define ARGVALS13 ARGVALS12, arg_value(mynode, 12)
#define ARGVALS14 ARGVALS13, arg_value(mynode, 13)
#define ARGVALS15 ARGVALS14, arg_value(mynode, 14)
#define ARGVALS16 ARGVALS15, arg_value(mynode, 15)

#define DEFINE_HANDLERS(n)                                                            \
  static void short_rep_##n(gasnet_token_t token ARGS##n) {                           \
    gasnet_handlerarg_t v[] = {0 ARGNAMES##n};                                        \
    check_args(token, n, v + 1);                                                      \
    short_replies++;                                                                  \
  }                                                                                   \
  static void short_req_##n(gasnet_token_t token ARGS##n) {                           \
    gasnet_handlerarg_t v[] = {0 ARGNAMES##n};                                        \
    check_args(token, n, v + 1);                                                      \
    gasnet_AMReplyShort(token, H_SHORT_REP + n, n ARGVALS##n);                        \
  }                                                                                   \
  static void medium_req_##n(gasnet_token_t token, void *buf, size_t nbytes ARGS##n) { \
    gasnet_handlerarg_t v[] = {0 ARGNAMES##n};                                        \
    gasnet_node_t src;                                                                \
    gasnet_AMGetMsgSource(token, &src);                                               \
    check_args(token, n, v + 1);                                                      \
    check_payload(buf, nbytes, src);                                                  \
    medium_arrivals++;                                                                \
  }                                                                                   \
  static void long_req_##n(gasnet_token_t token, void *buf, size_t nbytes ARGS##n) {  \
    gasnet_handlerarg_t v[] = {0 ARGNAMES##n};                                        \
    gasnet_node_t src;                                                                \
    gasnet_AMGetMsgSource(token, &src);                                               \
    check_args(token, n, v + 1);                                                      \
    check(buf == long_landing + src * PAYLOAD, "Long landing address", 0, 0);         \
    check_payload(buf, nbytes, src);                                                  \
    long_arrivals++;                                                                  \
  }

#define FOR_ARITIES(X) \
  X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15) X(16)
FOR_ARITIES(DEFINE_HANDLERS)

/* One of each un-numbered request with n arguments to dest. Long requests
 * alternate between Long and LongAsync. */
#define SEND_CASE(n)                                                                         \
  case n:                                                                                    \
    GASNET_Safe(gasnet_AMRequestShort(dest, H_SHORT_REQ + n, n ARGVALS##n));                 \
    GASNET_Safe(gasnet_AMRequestMedium(dest, H_MEDIUM_REQ + n, payload, PAYLOAD, n ARGVALS##n)); \
    if (n % 2)                                                                               \
      GASNET_Safe(gasnet_AMRequestLong(dest, H_LONG_REQ + n, payload, PAYLOAD, landing,     \
                                       n ARGVALS##n));                                       \
    else                                                                                     \
      GASNET_Safe(gasnet_AMRequestLongAsync(dest, H_LONG_REQ + n, payload, PAYLOAD, landing, \
                                            n ARGVALS##n));                                  \
    break;

static gasnet_seginfo_t *segs;

static void send_unnumbered(gasnet_node_t dest, int n) {
  unsigned char payload[PAYLOAD];
  for (int i = 0; i < PAYLOAD; i++) payload[i] = (unsigned char)(mynode * 7 + i);
  void *landing = (char *)segs[dest].addr + mynode * PAYLOAD;
  switch (n) { FOR_ARITIES(SEND_CASE) }
}

static void check_unnumbered_am(void) {
  gasnet_node_t dest = (mynode + 1) % nodes;
  for (int n = 0; n <= 16; n++) send_unnumbered(dest, n);
  GASNET_BLOCKUNTIL(short_replies == 17);
  /* Every node sent to its successor: each receives 17 of each kind. */
  GASNET_BLOCKUNTIL(medium_arrivals == 17 && long_arrivals == 17);
}

/* ------------------------------------------------------------ gasnet_handler.h */
static int pointee = 42;
static volatile int ptr_back_seen;

static void ptr_back_inner(gasnet_token_t token, void *ptr) {
  check(ptr == (void *)&pointee, "pointer round trip", 0, 0);
  ptr_back_seen = 1;
}
SHORT_HANDLER(ptr_back, 1, 2, (token, UNPACK(a0)), (token, UNPACK2(a0, a1)));

static void ptr_echo_inner(gasnet_token_t token, void *ptr) {
  SHORT_REP(1, 2, (token, gasneti_handleridx(ptr_back), PACK(ptr)));
}
SHORT_HANDLER(ptr_echo, 1, 2, (token, UNPACK(a0)), (token, UNPACK2(a0, a1)));

static void check_handler_helpers(void) {
  gasnet_node_t dest = (mynode + 1) % nodes;
  SHORT_REQ(1, 2, (dest, gasneti_handleridx(ptr_echo), PACK(&pointee)));
  GASNET_BLOCKUNTIL(ptr_back_seen);
}

/* ------------------------------------------------------------ extended API */
static void check_nopoll_sync(void) {
  gasnet_node_t dest = (mynode + 1) % nodes;
  uint64_t value = 0xfeedull + mynode;
  gasnet_handle_t h = gasnet_put_nb(dest, (char *)segs[dest].addr + 8 * PAYLOAD * nodes, &value,
                                    sizeof(value));
  while (gasnet_try_syncnb_nopoll(h) != GASNET_OK) gasnet_AMPoll();
  gasnet_handle_t hs[2] = {gasnet_put_nb(dest, (char *)segs[dest].addr + 8 * PAYLOAD * nodes + 8,
                                         &value, sizeof(value)),
                           GASNET_INVALID_HANDLE};
  while (gasnet_try_syncnb_all_nopoll(hs, 2) != GASNET_OK) gasnet_AMPoll();
  check(hs[0] == GASNET_INVALID_HANDLE, "try_syncnb_all_nopoll clears a done handle", 0, 0);
  hs[0] = gasnet_put_nb(dest, (char *)segs[dest].addr + 8 * PAYLOAD * nodes + 16, &value,
                        sizeof(value));
  hs[1] = gasnet_put_nb(dest, (char *)segs[dest].addr + 8 * PAYLOAD * nodes + 24, &value,
                        sizeof(value));
  /* Polling is left to the caller, as a client with its own loop does. */
  while (hs[0] != GASNET_INVALID_HANDLE || hs[1] != GASNET_INVALID_HANDLE) {
    (void)gasnet_try_syncnb_some_nopoll(hs, 2);
    gasnet_AMPoll();
  }
}

/* A node's own memory, in or out of the segment, is a valid target. */
static void check_loopback(void) {
  uint64_t on_stack = 0x1122334455667788ull, copy = 0;
  char *heap = (char *)malloc(64);
  gasnet_get(&copy, mynode, &on_stack, sizeof(copy));
  check(copy == on_stack, "loopback get from the stack", (long)copy, (long)on_stack);
  gasnet_put(mynode, heap, &on_stack, sizeof(on_stack));
  check(memcmp(heap, &on_stack, 8) == 0, "loopback put to the heap", 0, 0);
  gasnet_put_val(mynode, &copy, 0x77, sizeof(copy));
  check(copy == 0x77, "loopback put_val", (long)copy, 0x77);
  check(gasnet_get_val(mynode, &on_stack, sizeof(on_stack)) == (gasnet_register_value_t)on_stack,
        "loopback get_val", 0, 0);
  free(heap);
}

static void check_barrier_mismatch(void) {
  /* Ids that differ between nodes: every node sees the mismatch. */
  if (nodes > 1) {
    gasnet_barrier_notify((int)mynode, 0);
    int rc = gasnet_barrier_wait((int)mynode, 0);
    check(rc == GASNET_ERR_BARRIER_MISMATCH, "named barrier, different ids", rc,
          GASNET_ERR_BARRIER_MISMATCH);
  }
  /* A MISMATCH notify from node 0 only. */
  gasnet_barrier_notify(5, mynode == 0 ? GASNET_BARRIERFLAG_MISMATCH : 0);
  int rc = gasnet_barrier_wait(5, mynode == 0 ? GASNET_BARRIERFLAG_MISMATCH : 0);
  check(rc == GASNET_ERR_BARRIER_MISMATCH, "MISMATCH flag", rc, GASNET_ERR_BARRIER_MISMATCH);
  /* The next barrier works, named and anonymous. */
  gasnet_barrier_notify(9, 0);
  GASNET_Safe(gasnet_barrier_wait(9, 0));
  gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
  GASNET_Safe(gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS));
}

/* ------------------------------------------------------------ collectives and teams */
static void sum_fn(void *results, size_t result_count, const void *left_operands,
                   size_t left_count, const void *right_operands, size_t elem_size, int flags,
                   int arg) {
  (void)results, (void)result_count, (void)left_operands, (void)left_count;
  (void)right_operands, (void)elem_size, (void)flags, (void)arg;
}

static void check_teams_and_collectives(void) {
  gasnet_coll_fn_entry_t fns[1];
  fns[0].fnptr = sum_fn; /* the reduction type: no cast */
  fns[0].flags = GASNET_COLL_AMSAFE;
  gasnet_coll_init(NULL, 0, fns, 1, 0);
  check(gasnet_coll_team_size(GASNET_TEAM_ALL) == nodes, "team size",
        (long)gasnet_coll_team_size(GASNET_TEAM_ALL), nodes);
  check(gasnete_coll_team_size(GASNET_TEAM_ALL) == nodes, "gasnete team size", 0, 0);
  for (gasnet_node_t r = 0; r < nodes; r++) {
    check(gasnet_coll_team_rank2node(GASNET_TEAM_ALL, (int)r) == r, "rank2node", r, r);
    check(gasnete_coll_team_rank2node(GASNET_TEAM_ALL, (int)r) == r, "gasnete rank2node", r, r);
    check(gasnet_coll_team_node2rank(GASNET_TEAM_ALL, r) == r, "node2rank", r, r);
    check(gasnete_coll_team_node2rank(GASNET_TEAM_ALL, r) == r, "gasnete node2rank", r, r);
  }
  gasnet_coll_barrier_notify(GASNET_TEAM_ALL, 0,
                             GASNET_BARRIERFLAG_ANONYMOUS | GASNET_BARRIERFLAG_IMAGES);
  GASNET_Safe(gasnet_coll_barrier_wait(GASNET_TEAM_ALL, 0,
                                       GASNET_BARRIERFLAG_ANONYMOUS | GASNET_BARRIERFLAG_IMAGES));
  gasnet_coll_barrier_notify(GASNET_TEAM_ALL, 17, 0);
  int rc;
  while ((rc = gasnet_coll_barrier_try(GASNET_TEAM_ALL, 17, 0)) == GASNET_ERR_NOT_READY)
    gasnet_AMPoll();
  GASNET_Safe(rc);
  int id = -1;
  GASNET_Safe(gasnet_coll_barrier_result(GASNET_TEAM_ALL, &id));
  check(id == 17, "team barrier result id", id, 17);
  GASNET_Safe(gasnet_coll_barrier(GASNET_TEAM_ALL, 18, 0));

  int value = mynode == 0 ? 4242 : -1, got = 0;
  gasnet_coll_broadcast(GASNET_TEAM_ALL, &got, 0, &value, sizeof(got),
                        GASNET_COLL_LOCAL | GASNET_COLL_IN_ALLSYNC | GASNET_COLL_OUT_ALLSYNC);
  check(got == 4242, "broadcast through gasnet.h", got, 4242);

  /* The multiple-address forms under both spellings, as GASNet-1 clients
   * (one image per node: LOCAL lists of one address) call them. */
  int all[256], mine = (int)mynode + 100, *mine_p = &mine;
  void *dstlist[1] = {all}, *srclist[1] = {mine_p};
  if (nodes <= 256) {
    gasnet_coll_gather_allM(GASNET_TEAM_ALL, dstlist, srclist, sizeof(int),
                            GASNET_COLL_LOCAL | GASNET_COLL_IN_MYSYNC | GASNET_COLL_OUT_MYSYNC);
    for (gasnet_node_t r = 0; r < nodes; r++)
      check(all[r] == (int)r + 100, "gather_allM block", all[r], (long)r + 100);
    got = -1;
    void *gotlist[1] = {&got};
    gasnet_coll_handle_t h = gasnet_coll_broadcastm_nb(
        GASNET_TEAM_ALL, gotlist, 0, &value, sizeof(got),
        GASNET_COLL_LOCAL | GASNET_COLL_IN_MYSYNC | GASNET_COLL_OUT_MYSYNC);
    gasnet_coll_wait_sync(h);
    check(got == 4242, "broadcastm_nb (seed 002 spelling)", got, 4242);
  }
}

/* ------------------------------------------------------------ main */
#define ENTRY_CASE(n)                                                                     \
  {H_SHORT_REQ + n, (gasneti_handler_fn_t)short_req_##n},                                 \
      {H_SHORT_REP + n, (gasneti_handler_fn_t)short_rep_##n},                             \
      {H_MEDIUM_REQ + n, (gasneti_handler_fn_t)medium_req_##n},                           \
      {H_LONG_REQ + n, (gasneti_handler_fn_t)long_req_##n},

static gasnet_handlerentry_t handlers[] = {
    FOR_ARITIES(ENTRY_CASE) gasneti_handler_tableentry_with_bits(ptr_echo),
    gasneti_handler_tableentry_with_bits(ptr_back)};

int main(int argc, char **argv) {
  GASNET_Safe(gasnet_init(&argc, &argv));
  GASNET_Safe(gasnet_attach(handlers, (int)(sizeof(handlers) / sizeof(handlers[0])),
                            (uintptr_t)1 << 20, 0));
  mynode = gasnet_mynode();
  nodes = gasnet_nodes();
  segs = (gasnet_seginfo_t *)malloc(nodes * sizeof(*segs));
  GASNET_Safe(gasnet_getSegmentInfo(segs, (int)nodes));
  long_landing = (char *)segs[mynode].addr;

  check_basic_macros();
  check_unnumbered_am();
  check_handler_helpers();
  check_nopoll_sync();
  check_loopback();
  gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
  GASNET_Safe(gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS));
  check_barrier_mismatch();
  check_teams_and_collectives();

  /* Report before the closing barrier: this client checks names and
   * calls, not how a job ends. */
  printf("compat_client: node %u/%u OK (%s, %s, %s %s)\n", (unsigned)mynode, (unsigned)nodes,
         GASNET_CONDUIT_NAME_STR, _STRINGIFY(PLATFORM_COMPILER_FAMILYNAME),
         PLATFORM_COMPILER_VERSION_STR, _STRINGIFY(PLATFORM_ARCH_FAMILYNAME));
  fflush(stdout);
  gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
  GASNET_Safe(gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS));
  gasnet_exit(0);
  return 0;
}
