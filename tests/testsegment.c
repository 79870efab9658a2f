/* testsegment.c: the segment every node attaches, and node information.
 *
 *   testsegment         attach a segment whose size is not a page multiple;
 *                       check every node's segment info, the size limits and
 *                       node info; fill each segment with the owner's pattern
 *                       and fetch every peer's with AM Long replies (and,
 *                       with shared memory, read it directly)
 *   testsegment toobig  attach more than gasnet_getMaxLocalSegmentSize():
 *                       exit 0 iff gasnet_attach returns GASNET_ERR_BAD_ARG */
#include "test.h"

#define KiB ((uintptr_t)1 << 10)
#define MiB ((uintptr_t)1 << 20)
/* Deliberately not a page multiple: attach must round it up. */
#define SEG_REQUEST (3 * MiB + 123)
#define FETCH_CHUNK (192 * KiB + 77) /* odd, so chunks start at odd offsets */

enum { H_FETCH = TEST_HIDX_FIRST, H_FETCHED };

static uintptr_t round_up_page(uintptr_t n) {
  return (n + GASNET_PAGESIZE - 1) / GASNET_PAGESIZE * GASNET_PAGESIZE;
}

static uint32_t seg_seed(gasnet_node_t owner) { return test_mix(0x5e9u, owner); }

/* Each segment: [0, half) holds the owner's pattern, [half, 2*half) is
 * where fetched data lands. All nodes attach the same size. */
static uintptr_t half;

/* ------------------------------------------------------------ limits and info */

static void check_limits_before_attach(void) {
  uintptr_t local = gasnet_getMaxLocalSegmentSize();
  uintptr_t global = gasnet_getMaxGlobalSegmentSize();
  test_print0("testsegment: max local %lu, max global %lu\n", (unsigned long)local,
              (unsigned long)global);
  TEST_CHECK(global <= local, "max global %lu > max local %lu", (unsigned long)global,
             (unsigned long)local);
  TEST_CHECK(local % GASNET_PAGESIZE == 0 && global % GASNET_PAGESIZE == 0,
             "max sizes %lu/%lu are not page multiples", (unsigned long)local,
             (unsigned long)global);
  TEST_CHECK(global >= round_up_page(SEG_REQUEST), "max global %lu < the %lu this test needs",
             (unsigned long)global, (unsigned long)round_up_page(SEG_REQUEST));
}

static void check_seginfo(const gasnet_seginfo_t *si) {
  uintptr_t want = round_up_page(SEG_REQUEST);
  for (gasnet_node_t i = 0; i < TEST_NODES; i++) {
    TEST_CHECK(si[i].addr != NULL && (uintptr_t)si[i].addr % GASNET_PAGESIZE == 0,
               "node %u's segment at %p is not page aligned", (unsigned)i, si[i].addr);
    TEST_CHECK(si[i].size >= want && si[i].size % GASNET_PAGESIZE == 0,
               "node %u's segment has %lu bytes; asked %lu (rounded up: %lu)", (unsigned)i,
               (unsigned long)si[i].size, (unsigned long)SEG_REQUEST, (unsigned long)want);
    TEST_CHECK(si[i].size <= gasnet_getMaxLocalSegmentSize(),
               "node %u's segment (%lu) exceeds the max local size", (unsigned)i,
               (unsigned long)si[i].size);
  }
  /* A shorter table gets the first entries only. */
  gasnet_seginfo_t first;
  GASNET_Safe(gasnet_getSegmentInfo(&first, 1));
  TEST_CHECK(first.addr == si[0].addr && first.size == si[0].size,
             "getSegmentInfo with 1 entry gave %p/%lu, the full table %p/%lu", first.addr,
             (unsigned long)first.size, si[0].addr, (unsigned long)si[0].size);
}

/* On one host every node shares host and supernode; with shared memory the
 * peers' segments, as mapped here, must not overlap. */
static void check_nodeinfo(const gasnet_seginfo_t *si, const gasnet_nodeinfo_t *ni) {
  for (gasnet_node_t i = 0; i < TEST_NODES; i++) {
    TEST_CHECK(ni[i].host < TEST_NODES && ni[i].supernode < TEST_NODES,
               "node %u: host %u, supernode %u", (unsigned)i, (unsigned)ni[i].host,
               (unsigned)ni[i].supernode);
#ifdef GASNET_CONDUIT_SMP
    TEST_CHECK(ni[i].host == ni[0].host && ni[i].supernode == ni[0].supernode,
               "smp node %u: host %u supernode %u, node 0: host %u supernode %u", (unsigned)i,
               (unsigned)ni[i].host, (unsigned)ni[i].supernode, (unsigned)ni[0].host,
               (unsigned)ni[0].supernode);
#endif
  }
#ifdef GASNET_PSHM
  gasnet_node_t me = TEST_MYNODE;
  for (gasnet_node_t i = 0; i < TEST_NODES; i++)
    for (gasnet_node_t j = 0; j < i; j++) {
      if (ni[i].supernode != ni[me].supernode || ni[j].supernode != ni[me].supernode) continue;
      uintptr_t a = (uintptr_t)si[i].addr + (uintptr_t)ni[i].offset;
      uintptr_t b = (uintptr_t)si[j].addr + (uintptr_t)ni[j].offset;
      TEST_CHECK(a + si[i].size <= b || b + si[j].size <= a,
                 "segments of nodes %u and %u overlap as mapped here", (unsigned)i, (unsigned)j);
    }
#else
  (void)si;
#endif
}

/* ------------------------------------------------------------ fetching */

static int fetched;

/* Fetch request: send LEN bytes from OFFSET of this node's pattern half
 * into the requester's landing half, as a Long reply. */
static void fetch_handler(gasnet_token_t token, gasnet_handlerarg_t offset,
                          gasnet_handlerarg_t len) {
  gasnet_node_t src;
  GASNET_Safe(gasnet_AMGetMsgSource(token, &src));
  uint8_t *from = (uint8_t *)test_seg(TEST_MYNODE) + (uint32_t)offset;
  uint8_t *to = (uint8_t *)test_seg(src) + half;
  GASNET_Safe(gasnet_AMReplyLong2(token, H_FETCHED, from, (size_t)(uint32_t)len, to, offset, len));
}

static gasnet_node_t fetch_from;
static void fetched_handler(gasnet_token_t token, void *buf, size_t nbytes,
                            gasnet_handlerarg_t offset, gasnet_handlerarg_t len) {
  gasnet_node_t src;
  GASNET_Safe(gasnet_AMGetMsgSource(token, &src));
  TEST_CHECK(src == fetch_from, "fetch reply from %u, asked %u", (unsigned)src,
             (unsigned)fetch_from);
  TEST_CHECK(nbytes == (uint32_t)len, "fetch of %u bytes brought %zu", (unsigned)len, nbytes);
  TEST_CHECK(buf == (uint8_t *)test_seg(TEST_MYNODE) + half, "fetch landed at %p", buf);
  TEST_CHECK_PATTERN_AT(buf, nbytes, seg_seed(src), (uint32_t)offset, "fetched segment data");
  __atomic_store_n(&fetched, 1, __ATOMIC_RELEASE);
}

/* All of PEER's pattern half, chunk by chunk, through AM Long replies. */
static void fetch_all(gasnet_node_t peer) {
  uintptr_t chunk = FETCH_CHUNK < gasnet_AMMaxLongReply() ? FETCH_CHUNK : gasnet_AMMaxLongReply();
  fetch_from = peer;
  for (uintptr_t off = 0; off < half; off += chunk) {
    uintptr_t len = half - off < chunk ? half - off : chunk;
    __atomic_store_n(&fetched, 0, __ATOMIC_RELEASE);
    GASNET_Safe(
        gasnet_AMRequestShort2(peer, H_FETCH, (gasnet_handlerarg_t)off, (gasnet_handlerarg_t)len));
    GASNET_BLOCKUNTIL(__atomic_load_n(&fetched, __ATOMIC_ACQUIRE));
  }
}

static gasnet_handlerentry_t handlers[] = {
    {H_FETCH, (void (*)())fetch_handler},
    {H_FETCHED, (void (*)())fetched_handler},
};

static int segment_test(int *argc, char ***argv) {
  test_init_only(argc, argv);
  check_limits_before_attach();
  GASNET_Safe(test_attach(handlers, 2, SEG_REQUEST));

  gasnet_seginfo_t *si = calloc(TEST_NODES, sizeof *si);
  gasnet_nodeinfo_t *ni = calloc(TEST_NODES, sizeof *ni);
  TEST_CHECK(si && ni, "out of memory");
  GASNET_Safe(gasnet_getSegmentInfo(si, (int)TEST_NODES));
  GASNET_Safe(gasnet_getNodeInfo(ni, (int)TEST_NODES));
  check_seginfo(si);
  check_nodeinfo(si, ni);
  half = si[0].size / 2;
  for (gasnet_node_t i = 1; i < TEST_NODES; i++)
    TEST_CHECK(si[i].size == si[0].size, "node %u attached %lu bytes, node 0 %lu", (unsigned)i,
               (unsigned long)si[i].size, (unsigned long)si[0].size);

  /* The whole reported size must be usable: the landing half ends there. */
  test_fill(si[TEST_MYNODE].addr, half, seg_seed(TEST_MYNODE));
  memset((uint8_t *)si[TEST_MYNODE].addr + half, 0xa5, si[TEST_MYNODE].size - half);
  test_barrier();

#ifdef GASNET_PSHM
  for (gasnet_node_t p = 0; p < TEST_NODES; p++)
    if (ni[p].supernode == ni[TEST_MYNODE].supernode)
      TEST_CHECK_PATTERN((uint8_t *)si[p].addr + ni[p].offset, half, seg_seed(p),
                         "peer segment read through shared memory");
#endif
  for (gasnet_node_t k = 0; k < TEST_NODES; k++) fetch_all((TEST_MYNODE + k) % TEST_NODES);
  TEST_CHECK_PATTERN(si[TEST_MYNODE].addr, half, seg_seed(TEST_MYNODE),
                     "own segment after the fetches");
  test_finish("testsegment");
}

/* ------------------------------------------------------------ too big */

static int toobig_test(int *argc, char ***argv) {
  test_init_only(argc, argv);
  uintptr_t max = gasnet_getMaxLocalSegmentSize();
  if (max > UINTPTR_MAX - 2 * GASNET_PAGESIZE) {
    test_print0("testsegment toobig: no size exceeds the max local size %lu\n", (unsigned long)max);
    return 0;
  }
  int rc = test_attach(NULL, 0, max + GASNET_PAGESIZE);
  if (rc == GASNET_ERR_BAD_ARG) {
    test_print0("testsegment toobig: attach of %lu > max %lu returned %s as it should\n",
                (unsigned long)(max + GASNET_PAGESIZE), (unsigned long)max, gasnet_ErrorName(rc));
    return 0;
  }
  fprintf(stderr, "node %u: attach of %lu bytes (max local %lu) returned %s, expected %s\n",
          (unsigned)gasnet_mynode(), (unsigned long)(max + GASNET_PAGESIZE), (unsigned long)max,
          gasnet_ErrorName(rc), gasnet_ErrorName(GASNET_ERR_BAD_ARG));
  return 1;
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "toobig")) return toobig_test(&argc, &argv);
  return segment_test(&argc, &argv);
}
