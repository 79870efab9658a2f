/* testpshm: shared memory between the processes of a host (PSHM) is what
 * the job's shape says, and is used.
 *
 * The expected shape follows the two settings the mpi conduit reads, so
 * the same program checks every shape of a job run on one machine:
 * GASNET_MPI_HOST_SIZE (pretend hosts of that many ranks; unset or 0: one
 * host) and GASNET_SUPERNODE_MAXSIZE (supernodes of at most that many
 * processes of a host, in rank order; unset or 0: the whole host; 1: every
 * node its own). The smp conduit reads neither: its job is one host and
 * one supernode, and the case runs it with both unset. A conduit without
 * shared memory (GASNET_PSHM 0) must make every node its own supernode.
 *
 *  1. gasnet_getNodeInfo names, for every node, the host and supernode
 *     expected (each by its lowest node), and the offset of every
 *     supernode peer reaches its segment: the pattern each node wrote in
 *     its own segment reads back here through si[p].addr + offset.
 *  2. The shared path is used: each node in turn (the target) waits for
 *     data without calling GASNet at all, while every other member of its
 *     supernode gets a block from its segment, puts a block into it (bulk
 *     and 8 bytes), memsets a range, and sends it an AM Long. A member
 *     would wait for ever for the target's attention if any of these went
 *     through the network, and the target gives up after 30 s: so the test
 *     fails unless every one completes (and the Long's payload lands)
 *     while the target does not poll. Then the target polls, and its Long
 *     handler must run once per member.
 *
 * Usage: testpshm [-e VAR=VALUE]... (set before gasnet_init, in every
 * process: another shape for one case). */
#include "test.h"

#include <sched.h>

#define PSHM_SEGSIZE ((uintptr_t)1 << 20)
#define PSHM_BLOCK 4096     /* bytes each member puts / sends as a Long */
#define PSHM_MAX_NODES 64   /* the layout below has room for this many */
#define PSHM_WAIT_LIMIT 30.0 /* seconds a target waits without polling */
/* Offsets in the target's segment. */
#define OFF_WORDS 0                           /* 8 bytes from each member */
#define OFF_LONGS (64 * 1024)                 /* a Long payload from each member */
#define OFF_BULK (OFF_LONGS + PSHM_MAX_NODES * PSHM_BLOCK)   /* a bulk put from each */
#define OFF_MEMSET (OFF_BULK + PSHM_MAX_NODES * PSHM_BLOCK)  /* 256 bytes memset by each */
#define OFF_SOURCE (OFF_MEMSET + PSHM_MAX_NODES * 256)       /* what members get */
#define PSHM_GET_BYTES (PSHM_SEGSIZE - OFF_SOURCE)
#define H_LONG TEST_HIDX_FIRST

static gasnet_nodeinfo_t *ni;
static int longs_arrived; /* atomic */

static unsigned read_count(const char *name) {
  const char *text = getenv(name);
  return text ? (unsigned)strtoul(text, NULL, 10) : 0;
}

/* The expected host and supernode of node i (their lowest nodes). */
static gasnet_node_t expected_host(gasnet_node_t i, unsigned host_size) {
  return host_size ? (gasnet_node_t)(i / host_size * host_size) : 0;
}

static gasnet_node_t expected_supernode(gasnet_node_t i, unsigned host_size, unsigned maxsize) {
  gasnet_node_t host = expected_host(i, host_size);
  return maxsize ? (gasnet_node_t)(host + (i - host) / maxsize * maxsize) : host;
}

static int same_supernode(gasnet_node_t a, gasnet_node_t b) {
  return ni[a].supernode == ni[b].supernode;
}

static void check_shape(void) {
  unsigned host_size = read_count("GASNET_MPI_HOST_SIZE");
  unsigned maxsize = read_count("GASNET_SUPERNODE_MAXSIZE");
#if defined(GASNET_CONDUIT_SMP)
  host_size = maxsize = 0; /* smp: one host, one supernode */
#elif !GASNET_PSHM || defined(GASNET_SEGMENT_EVERYTHING)
  maxsize = 1; /* nothing shared: every node its own supernode */
#endif
  unsigned supernodes = 0, largest = 0;
  for (gasnet_node_t i = 0; i < TEST_NODES; i++) {
    TEST_CHECK(ni[i].host == expected_host(i, host_size),
               "node %u: host %u, expected %u (GASNET_MPI_HOST_SIZE=%u)", (unsigned)i,
               (unsigned)ni[i].host, (unsigned)expected_host(i, host_size), host_size);
    gasnet_node_t super = expected_supernode(i, host_size, maxsize);
    TEST_CHECK(ni[i].supernode == super,
               "node %u: supernode %u, expected %u (GASNET_MPI_HOST_SIZE=%u, "
               "GASNET_SUPERNODE_MAXSIZE=%u)",
               (unsigned)i, (unsigned)ni[i].supernode, (unsigned)super, host_size, maxsize);
    if (super == i) supernodes++;
    unsigned members = 0;
    for (gasnet_node_t j = 0; j < TEST_NODES; j++) members += same_supernode(i, j);
    if (members > largest) largest = members;
  }
  test_print0("testpshm: %u nodes, %u supernode(s), the largest of %u\n", (unsigned)TEST_NODES,
              supernodes, largest);
}

/* Every supernode peer's segment, as mapped here through its offset,
 * holds the pattern its owner wrote. */
static void check_offsets(void) {
  for (gasnet_node_t p = 0; p < TEST_NODES; p++) {
    if (!same_supernode(p, TEST_MYNODE)) continue;
    const uint8_t *here = (const uint8_t *)test_seg(p) + ni[p].offset;
    long bad = test_pattern_mismatch(here + OFF_SOURCE, PSHM_GET_BYTES, 1000 + p);
    TEST_CHECK(bad < 0, "node %u's segment read through its offset %ld differs at byte %ld",
               (unsigned)p, (long)ni[p].offset, bad);
  }
}

static uint64_t word_of(gasnet_node_t from, gasnet_node_t target) {
  return 0x7073686d00000000ull | ((uint64_t)from << 16) | target;
}
static uint32_t long_seed(gasnet_node_t from, gasnet_node_t target) {
  return 2000 + 64 * from + target;
}
static uint32_t bulk_seed(gasnet_node_t from, gasnet_node_t target) {
  return 9000 + 64 * from + target;
}

static void long_handler(gasnet_token_t token, void *buf, size_t nbytes, gasnet_handlerarg_t from) {
  gasnet_node_t src;
  GASNET_Safe(gasnet_AMGetMsgSource(token, &src));
  TEST_CHECK(src == (gasnet_node_t)from && nbytes == PSHM_BLOCK, "Long from %u (says %d), %zu bytes",
             (unsigned)src, (int)from, nbytes);
  TEST_CHECK_PATTERN(buf, nbytes, long_seed(src, TEST_MYNODE), "Long payload");
  __atomic_fetch_add(&longs_arrived, 1, __ATOMIC_ACQ_REL);
}

/* A member's part: everything to the target, which is not polling. */
static void act_on(gasnet_node_t target) {
  gasnet_node_t me = TEST_MYNODE;
  uint8_t *seg = (uint8_t *)test_seg(target);
  static uint8_t got[PSHM_GET_BYTES], block[PSHM_BLOCK];
  gasnet_get(got, target, seg + OFF_SOURCE, PSHM_GET_BYTES);
  TEST_CHECK_PATTERN(got, PSHM_GET_BYTES, 1000 + target, "get from a node that does not poll");
  test_fill(block, PSHM_BLOCK, bulk_seed(me, target));
  gasnet_put_bulk(target, seg + OFF_BULK + me * PSHM_BLOCK, block, PSHM_BLOCK);
  gasnet_memset(target, seg + OFF_MEMSET + me * 256, 0x40 + me, 256);
  test_fill(block, PSHM_BLOCK, long_seed(me, target));
  GASNET_Safe(gasnet_AMRequestLong1(target, H_LONG, block, PSHM_BLOCK,
                                    seg + OFF_LONGS + me * PSHM_BLOCK, (gasnet_handlerarg_t)me));
  gasnet_put_val(target, seg + OFF_WORDS + me * 8, word_of(me, target), 8);
}

/* Whether everything member m sends has landed in this (target) segment. */
static int arrived_from(gasnet_node_t m) {
  gasnet_node_t me = TEST_MYNODE;
  const uint8_t *seg = (const uint8_t *)test_seg(me);
  __atomic_thread_fence(__ATOMIC_ACQUIRE);
  uint64_t word = __atomic_load_n((const uint64_t *)(seg + OFF_WORDS + m * 8), __ATOMIC_ACQUIRE);
  if (word != word_of(m, me)) return 0;
  if (test_pattern_mismatch(seg + OFF_BULK + m * PSHM_BLOCK, PSHM_BLOCK, bulk_seed(m, me)) >= 0)
    return 0;
  if (test_pattern_mismatch(seg + OFF_LONGS + m * PSHM_BLOCK, PSHM_BLOCK, long_seed(m, me)) >= 0)
    return 0;
  for (int k = 0; k < 256; k++)
    if (seg[OFF_MEMSET + m * 256 + k] != (uint8_t)(0x40 + m)) return 0;
  return 1;
}

/* The target's part: no GASNet call until every member's data is here. */
static void wait_without_polling(void) {
  double start = test_now();
  for (gasnet_node_t m = 0; m < TEST_NODES; m++) {
    if (m == TEST_MYNODE || !same_supernode(m, TEST_MYNODE)) continue;
    while (!arrived_from(m)) {
      TEST_CHECK(test_now() - start < PSHM_WAIT_LIMIT,
                 "node %u's get, puts, memset and Long did not all complete within %.0f s while "
                 "this node did not poll: they are not going through shared memory",
                 (unsigned)m, PSHM_WAIT_LIMIT);
      sched_yield();
    }
  }
}

static void round_for(gasnet_node_t target) {
  unsigned members = 0;
  for (gasnet_node_t j = 0; j < TEST_NODES; j++) members += same_supernode(j, target);
  __atomic_store_n(&longs_arrived, 0, __ATOMIC_RELEASE);
  test_barrier();
  if (TEST_MYNODE == target) {
    wait_without_polling();
    GASNET_BLOCKUNTIL(__atomic_load_n(&longs_arrived, __ATOMIC_ACQUIRE) == (int)members - 1);
  } else if (same_supernode(TEST_MYNODE, target)) {
    act_on(target);
  }
  test_barrier();
}

/* -e VAR=VALUE, anywhere on the command line. */
static void set_environment(int argc, char **argv) {
  for (int i = 1; i + 1 < argc; i++)
    if (!strcmp(argv[i], "-e")) test_setenv_pair("testpshm", argv[++i]);
}

int main(int argc, char **argv) {
  gasnet_handlerentry_t handlers[] = {{H_LONG, (void (*)())long_handler}};
  set_environment(argc, argv);
  test_init_handlers(&argc, &argv, PSHM_SEGSIZE, handlers, 1);
  TEST_CHECK(TEST_NODES <= PSHM_MAX_NODES, "at most %d nodes", PSHM_MAX_NODES);
  ni = calloc(TEST_NODES, sizeof *ni);
  TEST_CHECK(ni != NULL, "out of memory");
  GASNET_Safe(gasnet_getNodeInfo(ni, (int)TEST_NODES));
  check_shape();
  uint8_t *mine = (uint8_t *)test_seg(TEST_MYNODE);
  memset(mine, 0, OFF_SOURCE);
  test_fill(mine + OFF_SOURCE, PSHM_GET_BYTES, 1000 + TEST_MYNODE);
  test_barrier();
  check_offsets();
  for (gasnet_node_t target = 0; target < TEST_NODES; target++) round_for(target);
  test_finish("testpshm");
}
