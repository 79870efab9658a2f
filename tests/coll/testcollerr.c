/* testcollerr: misuse of the collectives must end the job with a message
 * naming the call, the argument and the value.
 *
 * Usage: testcollerr CASE      (run under tests/expect_fail.sh, or
 *                               tests/coll/expect_fail_or_skip.sh for the
 *                               cases that exist only in debug builds)
 *
 * Each CASE makes exactly one mistake after a correct start-up (attach,
 * gasnet_coll_init, one correct collective) and then reports "should not
 * get here" with exit code 0, so a missing check shows up as a pass of the
 * bad call. Cases that need a debug build (GASNET_DEBUG) or two nodes exit
 * 77 (skip) elsewhere. `testcollerr list` prints the cases. */
#define _POSIX_C_SOURCE 200809L
#include "coll_test.h"

#include <gasnet_extended.h>

static gasnet_node_t N, ME;
static unsigned char *seg_buf; /* in the segment */
static unsigned char heap_like[1 << 16];

#define H_BAD_COLL TEST_HIDX_FIRST
#define H_BAD_SYNC (TEST_HIDX_FIRST + 1)

static volatile int handler_ran;

static void bad_coll_handler(gasnet_token_t token) {
  (void)token;
  /* Initiating a collective inside a handler is forbidden. */
  gasnet_coll_broadcast_nb(GASNET_TEAM_ALL, seg_buf, 0, seg_buf, 8,
                           GASNET_COLL_IN_MYSYNC | GASNET_COLL_OUT_MYSYNC | GASNET_COLL_LOCAL);
  handler_ran = 1;
}

static void bad_sync_handler(gasnet_token_t token) {
  (void)token;
  (void)gasnet_coll_try_sync(GASNET_COLL_INVALID_HANDLE);
  handler_ran = 1;
}

#define GOOD (GASNET_COLL_IN_MYSYNC | GASNET_COLL_OUT_MYSYNC | GASNET_COLL_LOCAL)

static void skip(const char *why) {
  test_print0("testcollerr: SKIP: %s\n", why);
  test_barrier();
  gasnet_exit(77);
}

static void bcast(void *dst, gasnet_node_t root, void *src, size_t nbytes, int flags) {
  gasnet_coll_handle_t h =
      gasnet_coll_broadcast_nb(GASNET_TEAM_ALL, dst, (gasnet_image_t)root, src, nbytes, flags);
  gasnet_coll_wait_sync(h);
}

/* One reduce or scan mistake: 8-byte int64 sums, one element per node. */
static void reduce_cases(const char *c) {
  int64_t *v = (int64_t *)seg_buf;
  const int I64 = GASNET_COLL_TYPE_INT64;
  gasnet_team_handle_t T = GASNET_TEAM_ALL;
  if (!strcmp(c, "reduce_badfunc")) gasnet_coll_reduce(T, 0, v, v, 1, 0, 8, N, 7, I64, GOOD);
  if (!strcmp(c, "reduce_elemsize0")) gasnet_coll_reduce(T, 0, v, v, 1, 0, 0, N, 0, I64, GOOD);
  if (!strcmp(c, "reduce_count0")) gasnet_coll_reduce(T, 0, v, v, 1, 0, 8, 0, 0, I64, GOOD);
  if (!strcmp(c, "reduce_dstimage")) gasnet_coll_reduce(T, N, v, v, 1, 0, 8, N, 0, I64, GOOD);
  if (!strcmp(c, "reduce_srcoffset"))
    gasnet_coll_reduce(T, 0, v, v, 0, N + 2, 8, N, 0, I64, GOOD | GASNET_COLL_INDEFINITE_LAYOUT);
  if (!strcmp(c, "reduce_ew_offset")) gasnet_coll_reduce(T, 0, v, v, 0, 1, 8, N, 0, I64, GOOD);
  if (!strcmp(c, "reduce_nulldst"))
    gasnet_coll_reduce(T, 0, ME == 0 ? NULL : v, v, 1, 0, 8, N, 0, I64, GOOD);
  if (!strcmp(c, "reduce_misaligned")) {
#ifndef GASNET_DEBUG
    skip("alignment is checked in debug builds");
#endif
    gasnet_coll_reduce(T, 0, v, seg_buf + 4, 1, 0, 8, N, 0, I64, GOOD);
  }
  if (!strcmp(c, "reduce_misaligned16")) {
#ifndef GASNET_DEBUG
    skip("alignment is checked in debug builds");
#endif
    /* 16-byte elements need GASNET_DATA_ALIGNMENT (8) only: the first call
     * is correct, the second is 4 bytes off. */
    const int DBL = GASNET_COLL_TYPE_DOUBLE;
    gasnet_coll_loc_double_t *w = (gasnet_coll_loc_double_t *)(seg_buf + 8);
    for (gasnet_node_t i = 0; i < N; i++) w[i].value = (double)i, w[i].loc = i;
    gasnet_coll_reduce(T, 0, seg_buf + 4096, w, 1, 0, 16, N, 1, DBL, GOOD);
    gasnet_coll_reduce(T, 0, seg_buf + 4096, seg_buf + 4, 1, 0, 16, N, 1, DBL, GOOD);
  }
  if (!strcmp(c, "reduce_scanflag"))
    gasnet_coll_reduce(T, 0, v, v, 1, 0, 8, N, 0, I64, GOOD | GASNET_COLL_INCLUSIVE_SCAN);
  if (!strcmp(c, "scan_nokind")) gasnet_coll_scan(T, v + 1, 1, 0, v, 1, 0, 8, N, 0, I64, GOOD);
  if (!strcmp(c, "scan_bothkinds"))
    gasnet_coll_scan(T, v + 1, 1, 0, v, 1, 0, 8, N, 0, I64,
                     GOOD | GASNET_COLL_INCLUSIVE_SCAN | GASNET_COLL_EXCLUSIVE_SCAN);
  if (!strcmp(c, "scan_dstoffset"))
    gasnet_coll_scan(T, v + 1, 0, N, v, 1, 0, 8, N, 0, I64,
                     GOOD | GASNET_COLL_INCLUSIVE_SCAN | GASNET_COLL_INDEFINITE_LAYOUT);
  if (!strcmp(c, "scan_ew_mixed"))
    gasnet_coll_scan(T, v + 1, 1, 0, v, 0, 0, 8, N, 0, I64, GOOD | GASNET_COLL_INCLUSIVE_SCAN);
}

typedef struct {
  const char *name;
  const char *what;
} case_t;

static const case_t cases[] = {
    {"noin", "flags without an IN_*SYNC mode"},
    {"noout", "flags without an OUT_*SYNC mode"},
    {"twoin", "IN_NOSYNC | IN_MYSYNC"},
    {"twoout", "OUT_MYSYNC | OUT_ALLSYNC"},
    {"both", "SINGLE | LOCAL"},
    {"neither", "neither SINGLE nor LOCAL"},
    {"unknownflag", "a flag bit that is not a collective flag"},
    {"nbytes0", "nbytes 0"},
    {"root", "broadcast root = number of nodes"},
    {"rootscatter", "scatter root far out of range"},
    {"rootgather", "gather root out of range"},
    {"aggblocking", "GASNET_COLL_AGGREGATE on a blocking call"},
    {"beforeinit", "a collective before gasnet_coll_init"},
    {"syncbeforeinit", "a sync call before gasnet_coll_init"},
    {"inhandler", "a collective initiated inside an AM handler"},
    {"syncinhandler", "a sync call inside an AM handler"},
    {"deadhandle", "a handle synced twice (debug builds)"},
    {"dstseg", "DST_IN_SEGMENT claimed for an out-of-segment dst"},
    {"srcseg", "SRC_IN_SEGMENT claimed for an out-of-segment src"},
    {"dstsegtail", "DST_IN_SEGMENT with dst running past the segment's end"},
    {"nulldst", "LOCAL broadcast with a NULL dst"},
    {"nullsrc", "broadcast root with a NULL src"},
    {"badteam", "a team handle that is not GASNET_TEAM_ALL"},
    {"initflags", "gasnet_coll_init with init_flags 1"},
    {"inittwice", "gasnet_coll_init called twice"},
    {"images", "gasnet_coll_init with images in a GASNET_SEQ build"},
    {"badalg", "GASNET_COLL_BROADCAST_ALG=bogus (set by this program)"},
    {"badalg_exchange", "GASNET_COLL_EXCHANGE_ALG=bogus"},
    {"badalg_gather_all", "GASNET_COLL_GATHER_ALL_ALG=bogus"},
    {"badradix", "GASNET_COLL_TREE_RADIX=1"},
    {"badthreshold", "GASNET_COLL_DIRECT_THRESHOLD=32x"},
    {"badflowthreshold", "GASNET_COLL_FLOW_THRESHOLD=-1"},
    {"badxmem", "GASNET_SMP_XMEM=sometimes (smp: fatal at attach)"},
    {"mismatch_nbytes", "nbytes differs on the last node (debug builds, 2+ nodes)"},
    {"mismatch_root", "root differs on the last node (debug builds, 2+ nodes)"},
    {"mismatch_flags", "IN mode differs on the last node (debug builds, 2+ nodes)"},
    {"inbarrier", "a collective between gasnet_barrier_notify and gasnet_barrier_wait"},
    {"reduce_badfunc", "reduce with a function index past the table"},
    {"reduce_elemsize0", "reduce with elem_size 0"},
    {"reduce_count0", "reduce with elem_count 0"},
    {"reduce_dstimage", "reduce dstimage = number of nodes"},
    {"reduce_srcoffset", "indefinite-layout reduce with src_offset naming no image"},
    {"reduce_ew_offset", "element-wise reduce (src_blksz 0) with src_offset 1"},
    {"reduce_nulldst", "reduce with a NULL dst on the destination image"},
    {"reduce_misaligned", "reduce src not aligned for 8-byte elements (debug builds)"},
    {"reduce_misaligned16", "16-byte elements: 8-aligned src accepted, 4-aligned refused (debug)"},
    {"scan_nokind", "scan without INCLUSIVE_SCAN or EXCLUSIVE_SCAN"},
    {"scan_bothkinds", "scan with both INCLUSIVE_SCAN and EXCLUSIVE_SCAN"},
    {"scan_dstoffset", "indefinite-layout scan with dst_offset naming no image"},
    {"scan_ew_mixed", "scan with src_blksz 0 and dst_blksz 1"},
    {"reduce_scanflag", "reduce given GASNET_COLL_INCLUSIVE_SCAN"},
    {"badalg_reduce", "GASNET_COLL_REDUCE_ALG=bogus"},
    {"badalg_scan", "GASNET_COLL_SCAN_ALG=bogus"},
    {"team_badhandle", "gasnet_coll_team_size of an odd value that names no team"},
    {"team_freed", "a broadcast on a team after gasnet_coll_team_free"},
    {"team_rank2node", "gasnet_coll_team_rank2node of rank = team size (even/odd team)"},
    {"team_node2rank", "gasnet_coll_team_node2rank of a node of the other half (2+ nodes)"},
    {"team_root", "a broadcast on the even/odd team with root = its size"},
    {"team_busyfree", "gasnet_coll_team_free with a collective of the team in flight (2+ nodes)"},
    {"team_freeall", "gasnet_coll_team_free(GASNET_TEAM_ALL)"},
    {"team_nonotify", "gasnet_coll_barrier_wait on a team without a notify"},
    {"team_listdup", "gasnet_coll_team_create with a node listed twice"},
};
#define NCASES (sizeof cases / sizeof cases[0])

/* One team mistake, on the even/odd split of GASNET_TEAM_ALL. */
static void team_cases(const char *c) {
  gasnet_team_handle_t eo = gasnet_coll_team_split(GASNET_TEAM_ALL, ME % 2, ME, NULL);
  gasnet_node_t size = gasnet_coll_team_size(eo);
  if (!strcmp(c, "team_badhandle")) (void)gasnet_coll_team_size((gasnet_team_handle_t)(uintptr_t)0x4321);
  if (!strcmp(c, "team_freed")) {
    gasnet_coll_team_free(eo);
    gasnet_coll_broadcast(eo, seg_buf, 0, seg_buf, 8, GOOD);
  }
  if (!strcmp(c, "team_rank2node")) (void)gasnet_coll_team_rank2node(eo, (int)size);
  if (!strcmp(c, "team_node2rank")) {
    if (N < 2) skip("needs 2 nodes: at 1 node every node is in the even team");
    (void)gasnet_coll_team_node2rank(eo, (ME + 1) % N);
  }
  if (!strcmp(c, "team_root")) gasnet_coll_broadcast(eo, seg_buf, size, seg_buf, 8, GOOD);
  if (!strcmp(c, "team_busyfree")) {
    /* A team of every node whose last node never joins the gather_all:
     * the others' IN_ALLSYNC op cannot finish, so their free must fail. */
    if (N < 2) skip("needs 2 nodes: a one-node team's gather_all finishes at once");
    gasnet_team_handle_t rev = gasnet_coll_team_split(GASNET_TEAM_ALL, 0, N - 1 - ME, NULL);
    if (ME == N - 1)
      for (;;) gasnet_AMPoll(); /* ended with the job */
    (void)gasnet_coll_gather_all_nb(rev, seg_buf + 4096, seg_buf, 8,
                                    GASNET_COLL_IN_ALLSYNC | GASNET_COLL_OUT_ALLSYNC |
                                        GASNET_COLL_LOCAL);
    gasnet_coll_team_free(rev);
  }
  if (!strcmp(c, "team_freeall")) gasnet_coll_team_free(GASNET_TEAM_ALL);
  if (!strcmp(c, "team_nonotify")) (void)gasnet_coll_barrier_wait(eo, 0, 0);
  if (!strcmp(c, "team_listdup")) {
    gasnet_node_t list[2] = {0, 0};
    (void)gasnet_coll_team_create(GASNET_TEAM_ALL, 2, list);
  }
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: testcollerr CASE   (testcollerr list)\n");
    return 2;
  }
  const char *c = argv[1];
  if (!strcmp(c, "list")) {
    for (size_t i = 0; i < NCASES; i++) printf("%-18s %s\n", cases[i].name, cases[i].what);
    return 0;
  }
  int known = 0;
  for (size_t i = 0; i < NCASES; i++) known |= !strcmp(c, cases[i].name);
  if (!known) {
    fprintf(stderr, "testcollerr: unknown case '%s' (try: testcollerr list)\n", c);
    return 2;
  }
  /* The selector reads these in gasnet_coll_init. */
  if (!strcmp(c, "badalg")) setenv("GASNET_COLL_BROADCAST_ALG", "bogus", 1);
  if (!strcmp(c, "badalg_exchange")) setenv("GASNET_COLL_EXCHANGE_ALG", "bogus", 1);
  if (!strcmp(c, "badalg_gather_all")) setenv("GASNET_COLL_GATHER_ALL_ALG", "bogus", 1);
  if (!strcmp(c, "badalg_reduce")) setenv("GASNET_COLL_REDUCE_ALG", "bogus", 1);
  if (!strcmp(c, "badalg_scan")) setenv("GASNET_COLL_SCAN_ALG", "bogus", 1);
  if (!strcmp(c, "badradix")) setenv("GASNET_COLL_TREE_RADIX", "1", 1);
  if (!strcmp(c, "badthreshold")) setenv("GASNET_COLL_DIRECT_THRESHOLD", "32x", 1);
  if (!strcmp(c, "badflowthreshold")) setenv("GASNET_COLL_FLOW_THRESHOLD", "-1", 1);
  if (!strcmp(c, "badxmem")) setenv("GASNET_SMP_XMEM", "sometimes", 1);

  gasnet_handlerentry_t handlers[] = {{H_BAD_COLL, (void (*)())bad_coll_handler},
                                      {H_BAD_SYNC, (void (*)())bad_sync_handler}};
  test_init_handlers(&argc, &argv, 1 << 20, handlers, 2);
  N = gasnet_nodes();
  ME = gasnet_mynode();
  seg_buf = test_seg(ME);
  test_print0("testcollerr %s: %u nodes: %s\n", c, (unsigned)N, "expecting a fatal error");

  if (!strcmp(c, "beforeinit")) bcast(seg_buf, 0, seg_buf, 8, GOOD);
  if (!strcmp(c, "syncbeforeinit")) gasnet_coll_wait_sync(GASNET_COLL_INVALID_HANDLE);

  if (!strcmp(c, "initflags")) gasnet_coll_init(NULL, 0, NULL, 0, 1);
  if (!strcmp(c, "images")) {
#ifdef GASNET_SEQ
    gasnet_image_t *images = malloc(N * sizeof *images);
    for (gasnet_node_t i = 0; i < N; i++) images[i] = 1;
    gasnet_coll_init(images, ME, NULL, 0, 0);
#endif
  }
  static const gasnet_coll_fn_entry_t fns[] = {{gasnet_coll_fn_sum, 0}, {gasnet_coll_fn_minloc, 0}};
  gasnet_coll_init(NULL, 0, fns, sizeof fns / sizeof fns[0], 0);
  if (!strcmp(c, "inittwice")) gasnet_coll_init(NULL, 0, NULL, 0, 0);

  /* A correct collective first: the library works until the mistake. */
  bcast(seg_buf, 0, seg_buf, 8, GOOD | GASNET_COLL_DST_IN_SEGMENT);
  test_barrier();

  gasnet_team_handle_t T = GASNET_TEAM_ALL;
  if (!strcmp(c, "noin")) bcast(seg_buf, 0, seg_buf, 8, GASNET_COLL_OUT_MYSYNC | GASNET_COLL_LOCAL);
  if (!strcmp(c, "noout")) bcast(seg_buf, 0, seg_buf, 8, GASNET_COLL_IN_MYSYNC | GASNET_COLL_LOCAL);
  if (!strcmp(c, "twoin")) bcast(seg_buf, 0, seg_buf, 8, GOOD | GASNET_COLL_IN_NOSYNC);
  if (!strcmp(c, "twoout")) bcast(seg_buf, 0, seg_buf, 8, GOOD | GASNET_COLL_OUT_ALLSYNC);
  if (!strcmp(c, "both")) bcast(seg_buf, 0, seg_buf, 8, GOOD | GASNET_COLL_SINGLE);
  if (!strcmp(c, "neither"))
    bcast(seg_buf, 0, seg_buf, 8, GASNET_COLL_IN_MYSYNC | GASNET_COLL_OUT_MYSYNC);
  if (!strcmp(c, "unknownflag")) bcast(seg_buf, 0, seg_buf, 8, GOOD | (1 << 20));
  if (!strcmp(c, "nbytes0")) bcast(seg_buf, 0, seg_buf, 0, GOOD);
  if (!strcmp(c, "root")) bcast(seg_buf, N, seg_buf, 8, GOOD);
  if (!strcmp(c, "rootscatter"))
    gasnet_coll_scatter(T, seg_buf, (gasnet_image_t)(N + 1000), seg_buf, 8, GOOD);
  if (!strcmp(c, "rootgather"))
    gasnet_coll_gather(T, (gasnet_image_t)(N + 1), seg_buf, seg_buf, 8, GOOD);
  if (!strcmp(c, "aggblocking"))
    gasnet_coll_gather_all(T, seg_buf, seg_buf, 8, GOOD | GASNET_COLL_AGGREGATE);

  if (!strcmp(c, "inhandler") || !strcmp(c, "syncinhandler")) {
    if (ME == 0) {
      GASNET_Safe(gasnet_AMRequestShort0(0, !strcmp(c, "inhandler") ? H_BAD_COLL : H_BAD_SYNC));
      GASNET_BLOCKUNTIL(handler_ran);
    }
    test_barrier();
  }

  if (!strcmp(c, "deadhandle")) {
#ifndef GASNET_DEBUG
    skip("dead handles are detected only in debug builds (GASNET_DEBUG)");
#endif
    /* A call that finishes at once returns GASNET_COLL_INVALID_HANDLE
     * (at 1 node every one does); an aggregate's closing call always
     * returns its live handle. */
    (void)gasnet_coll_gather_all_nb(T, seg_buf, seg_buf + 4096, 8, GOOD | GASNET_COLL_AGGREGATE);
    gasnet_coll_handle_t h = gasnet_coll_gather_all_nb(T, seg_buf + 8192, seg_buf + 12288, 8, GOOD);
    TEST_CHECK(h != GASNET_COLL_INVALID_HANDLE, "an aggregate's handle is not live");
    gasnet_coll_wait_sync(h);
    gasnet_coll_wait_sync(h); /* dead */
  }

  if (!strcmp(c, "dstseg")) bcast(heap_like, 0, seg_buf, 8, GOOD | GASNET_COLL_DST_IN_SEGMENT);
  if (!strcmp(c, "srcseg"))
    bcast(seg_buf, 0, heap_like + 100, 8, GOOD | GASNET_COLL_SRC_IN_SEGMENT);
  if (!strcmp(c, "dstsegtail")) {
    /* Starts inside the segment, ends 1 byte past it. */
    unsigned char *end = seg_buf + test_segsize(ME);
    bcast(end - 7, 0, heap_like, 8, GOOD | GASNET_COLL_DST_IN_SEGMENT);
  }
  if (!strcmp(c, "nulldst")) bcast(NULL, 0, seg_buf, 8, GOOD);
  if (!strcmp(c, "nullsrc")) bcast(seg_buf, 0, ME == 0 ? NULL : seg_buf, 8, GOOD);
  if (!strncmp(c, "team_", 5)) team_cases(c);
  if (!strcmp(c, "badteam")) {
    static int not_a_team;
    gasnet_coll_broadcast((gasnet_team_handle_t)(void *)&not_a_team, seg_buf, 0, seg_buf, 8, GOOD);
  }

  if (!strncmp(c, "mismatch_", 9)) {
#ifndef GASNET_DEBUG
    skip("single-valued arguments are compared only in debug builds (GASNET_DEBUG)");
#endif
    if (N < 2) skip("a mismatch needs two nodes");
    int last = ME == N - 1;
    if (!strcmp(c, "mismatch_nbytes")) bcast(seg_buf, 0, seg_buf, last ? 9 : 8, GOOD);
    if (!strcmp(c, "mismatch_root")) bcast(seg_buf, last ? 1 : 0, seg_buf, 8, GOOD);
    if (!strcmp(c, "mismatch_flags"))
      bcast(seg_buf, 0, seg_buf, 8,
            last ? GOOD : (GOOD & ~GASNET_COLL_IN_MYSYNC) | GASNET_COLL_IN_ALLSYNC);
  }

  reduce_cases(c);
  if (!strcmp(c, "inbarrier")) {
    gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
    bcast(seg_buf, 0, seg_buf, 8, GOOD);
    GASNET_Safe(gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS));
  }

  test_barrier();
  test_print0("testcollerr %s: should not get here: the mistake was not caught\n", c);
  test_barrier();
  gasnet_exit(0);
  return 0;
}
