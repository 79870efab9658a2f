/* testmpi_backlog: a receiver that stops polling while every other node
 * sends it all that its credits allow. On the mpi conduit the receiver
 * posts a fixed pool of receives (GASNET_MPI_RECVS), far fewer than the
 * packets the others may have in flight to it (nodes x depth), so nearly
 * all of them find no posted receive and wait in MPI as unexpected
 * messages until the receiver polls again.
 *
 * Each round, every node but node 0 sends node 0 COUNT requests, Medium
 * and Long alternating, of SIZE bytes each, numbered; node 0 sleeps MS
 * milliseconds without calling GASNet (the senders run out of credits and
 * wait), then polls until all have arrived. Every request must arrive once,
 * in its sender's order, with its payload intact (Longs where they were
 * sent). With SIZE above the packet size the payloads travel separately
 * and may themselves wait in MPI before their receive is posted.
 *
 * Node 0 also prints how much its peak resident memory (VmHWM, Linux) grew
 * over the rounds: the memory it took to hold the backlog, which the
 * credits bound (docs/mpi-conduit.md, Flow control).
 *
 * Usage: testmpi_backlog [ROUNDS [COUNT [SIZE [MS]]]]  (defaults 4 64 1000 200) */
#include "test.h"

#include <unistd.h>

enum { H_MEDIUM = TEST_HIDX_FIRST, H_LONG };

static unsigned rounds = 4, count = 64, pause_ms = 200;
static size_t size = 1000, region;
static uint8_t *src_buf;
static uint32_t *next_seq; /* node 0: the number due next from each sender */
static uint64_t *sent_to, *recv_from;
static volatile unsigned arrived; /* node 0: requests handled this round */

static uint32_t msg_seed(gasnet_node_t src, uint32_t seq) {
  return test_mix(test_mix(0xb4c1u, src), seq);
}

/* Node 0's landing place for a sender's Long number seq. */
static uint8_t *long_slot(gasnet_node_t src, uint32_t seq) {
  return (uint8_t *)test_seg(0) + ((size_t)src * count + seq % count) * region;
}

static void arrive(gasnet_token_t token, const void *buf, size_t nbytes, uint32_t seq,
                   const char *what) {
  gasnet_node_t src;
  GASNET_Safe(gasnet_AMGetMsgSource(token, &src));
  TEST_CHECK(src > 0 && src < TEST_NODES, "%s from node %u", what, (unsigned)src);
  TEST_CHECK(seq == next_seq[src], "%s %u from node %u arrived out of order (expected %u)", what,
             (unsigned)seq, (unsigned)src, (unsigned)next_seq[src]);
  next_seq[src]++;
  TEST_CHECK(nbytes == size, "%s: %zu bytes arrived, %zu were sent", what, nbytes, size);
  TEST_CHECK_PATTERN(buf, nbytes, msg_seed(src, seq), what);
  recv_from[src]++;
  arrived++;
}

static void medium_handler(gasnet_token_t token, void *buf, size_t nbytes,
                           gasnet_handlerarg_t seq) {
  arrive(token, buf, nbytes, (uint32_t)seq, "Medium");
}

static void long_handler(gasnet_token_t token, void *buf, size_t nbytes, gasnet_handlerarg_t seq) {
  gasnet_node_t src;
  GASNET_Safe(gasnet_AMGetMsgSource(token, &src));
  TEST_CHECK(buf == long_slot(src, (uint32_t)seq), "Long %u from node %u landed at %p",
             (unsigned)seq, (unsigned)src, buf);
  arrive(token, buf, nbytes, (uint32_t)seq, "Long");
}

/* Peak resident memory in KiB, or -1 where /proc does not say. */
static long peak_rss_kib(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long kib = -1;
  if (!f) return -1;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "VmHWM: %ld kB", &kib) == 1) break;
  fclose(f);
  return kib;
}

static void send_round(unsigned round) {
  for (unsigned k = 0; k < count; k++) {
    uint32_t seq = round * count + k;
    test_fill(src_buf, size, msg_seed(TEST_MYNODE, seq));
    if (k % 2 == 0)
      GASNET_Safe(gasnet_AMRequestMedium1(0, H_MEDIUM, src_buf, size, (gasnet_handlerarg_t)seq));
    else
      GASNET_Safe(gasnet_AMRequestLong1(0, H_LONG, src_buf, size, long_slot(TEST_MYNODE, seq),
                                        (gasnet_handlerarg_t)seq));
    sent_to[0]++;
  }
}

static void receive_round(void) {
  struct timespec nap = {(time_t)(pause_ms / 1000), (long)(pause_ms % 1000) * 1000000L};
  nanosleep(&nap, NULL); /* no GASNet call: nothing is received meanwhile */
  GASNET_BLOCKUNTIL(arrived == (TEST_NODES - 1) * count);
  arrived = 0;
}

int main(int argc, char **argv) {
  gasnet_handlerentry_t table[] = {
      {H_MEDIUM, (void (*)())medium_handler},
      {H_LONG, (void (*)())long_handler},
  };
  test_init_only(&argc, &argv);
  if (argc > 1) rounds = (unsigned)atoi(argv[1]);
  if (argc > 2) count = (unsigned)atoi(argv[2]);
  if (argc > 3) size = (size_t)atol(argv[3]);
  if (argc > 4) pause_ms = (unsigned)atoi(argv[4]);
  TEST_CHECK(rounds > 0 && count > 0 && count < 100000 && pause_ms < 60000,
             "bad ROUNDS %u, COUNT %u or MS %u", rounds, count, pause_ms);
  TEST_CHECK(size <= gasnet_AMMaxMedium() && size <= gasnet_AMMaxLongRequest(),
             "SIZE %zu exceeds the AM limits", size);
  region = (size + 63) & ~(size_t)63;
  uintptr_t segsize = (uintptr_t)TEST_NODES * count * region;
  segsize = (segsize + GASNET_PAGESIZE - 1) & ~(uintptr_t)(GASNET_PAGESIZE - 1);
  GASNET_Safe(test_attach(table, 2, segsize));
  src_buf = malloc(size + 1);
  next_seq = calloc(TEST_NODES, sizeof(uint32_t));
  sent_to = calloc(TEST_NODES, sizeof(uint64_t));
  recv_from = calloc(TEST_NODES, sizeof(uint64_t));
  TEST_CHECK(src_buf && next_seq && sent_to && recv_from, "out of memory");
  test_print0("testmpi_backlog: %u nodes, %u rounds of %u requests of %zu bytes per sender, "
              "node 0 away %u ms each\n", (unsigned)TEST_NODES, rounds, count, size, pause_ms);

  /* The Longs' landing area is touched now, so the growth below is what
   * holding the backlog took. */
  if (TEST_MYNODE == 0) memset(test_seg(0), 0, segsize);
  long before = peak_rss_kib();
  for (unsigned round = 0; round < rounds; round++) {
    test_barrier();
    if (TEST_MYNODE == 0)
      receive_round();
    else
      send_round(round);
  }
  long after = peak_rss_kib();
  test_check_counts(sent_to, recv_from, "backlog requests");
  if (before >= 0 && after >= 0)
    test_print0("testmpi_backlog: node 0's peak resident memory grew by %ld KiB (%ld to %ld)\n",
                after - before, before, after);
  test_finish("testmpi_backlog");
}
