/* testmpi_interop: a client that uses MPI and GASNet side by side (mpi
 * conduit only: it includes mpi.h and links MPI).
 *
 * Usage: testmpi_interop WHO-INITS [END] [ROUNDS]
 *   WHO-INITS  client: the client calls MPI_Init_thread before gasnet_init
 *                      (GASNet must find MPI initialised and leave it be);
 *              gasnet: gasnet_init initialises MPI and the client uses it
 *   END        exit:     gasnet_exit(0) after a barrier (default)
 *              finalize: the client calls MPI_Finalize, then gasnet_exit(0)
 *              return:   return 0 from main
 *   ROUNDS     default 40
 *
 * Each round mixes the two: an MPI_Iallreduce and a ring exchange on
 * MPI_COMM_WORLD are started, using the very tags the conduit uses on its
 * private communicator (and MPI_ANY_TAG receives), then every node sends
 * Medium and Long requests to every node and waits for the replies and for
 * every request addressed to it, then completes the MPI operations, checks
 * that the MPI traffic and the AM traffic did not see each other, and
 * meets the others in MPI_Allreduce and MPI_Barrier. */
#include "test.h"

#include <mpi.h>

enum { H_REQ = TEST_HIDX_FIRST, H_REP };
enum { PER_PEER = 4, LONG_BYTES = 20000, MEDIUM_MAX = 6000 };

static volatile unsigned replies, requests;
static unsigned rounds = 40;

static void mpi_check(int rc, const char *what) {
  if (rc != MPI_SUCCESS) test_fail("%s failed with MPI error %d", what, rc);
}

static uint32_t seed_of(unsigned round, gasnet_node_t src, gasnet_node_t dst, unsigned k) {
  return test_mix(test_mix(test_mix(test_mix(0x1e7u, round), src), dst), k);
}

static size_t medium_size(uint32_t seed) { return seed % (MEDIUM_MAX + 1); }

static uint8_t *long_slot(gasnet_node_t owner, gasnet_node_t src, unsigned k) {
  return (uint8_t *)test_seg(owner) + ((size_t)src * PER_PEER + k) * LONG_BYTES;
}

/* Request: a Medium (k even) or Long (k odd) payload; reply: Short. */
static void req_handler(gasnet_token_t token, void *buf, size_t nbytes, gasnet_handlerarg_t round,
                        gasnet_handlerarg_t k) {
  gasnet_node_t src;
  GASNET_Safe(gasnet_AMGetMsgSource(token, &src));
  uint32_t seed = seed_of((unsigned)round, src, TEST_MYNODE, (unsigned)k);
  size_t want = (k & 1) ? LONG_BYTES : medium_size(seed);
  TEST_CHECK(nbytes == want, "request %d from %u: %zu bytes, expected %zu", (int)k, (unsigned)src,
             nbytes, want);
  if (k & 1)
    TEST_CHECK(buf == long_slot(TEST_MYNODE, src, (unsigned)k), "Long landed at %p", buf);
  TEST_CHECK_PATTERN(buf, nbytes, seed, "AM payload");
  __atomic_fetch_add(&requests, 1, __ATOMIC_ACQ_REL);
  GASNET_Safe(gasnet_AMReplyShort2(token, H_REP, round, k));
}

static void rep_handler(gasnet_token_t token, gasnet_handlerarg_t round, gasnet_handlerarg_t k) {
  (void)token;
  (void)round;
  (void)k;
  __atomic_fetch_add(&replies, 1, __ATOMIC_ACQ_REL);
}

/* MPI traffic on MPI_COMM_WORLD with the tags the conduit uses on its own
 * communicator (1, 2, 3, 16..): a leak between the two would deliver one
 * side's messages to the other. */
static const int world_tags[] = {1, 2, 3, 16, 17};
#define NTAGS ((int)(sizeof(world_tags) / sizeof(world_tags[0])))

typedef struct {
  MPI_Request reqs[2 * NTAGS + 1];
  int out[NTAGS], in[NTAGS];
  long mine, sum;
} mpi_round_t;

static void mpi_start(mpi_round_t *r, unsigned round, int rank, int size) {
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  for (int t = 0; t < NTAGS; t++) {
    r->out[t] = (int)test_mix(round, (uint32_t)(rank * 100 + t));
    r->in[t] = -1;
    /* ANY_TAG receives in order of posting match the sends in order. */
    mpi_check(MPI_Irecv(&r->in[t], 1, MPI_INT, left, MPI_ANY_TAG, MPI_COMM_WORLD, &r->reqs[t]),
              "MPI_Irecv");
    mpi_check(MPI_Isend(&r->out[t], 1, MPI_INT, right, world_tags[t], MPI_COMM_WORLD,
                        &r->reqs[NTAGS + t]),
              "MPI_Isend");
  }
  r->mine = (long)round + rank;
  mpi_check(MPI_Iallreduce(&r->mine, &r->sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD,
                           &r->reqs[2 * NTAGS]),
            "MPI_Iallreduce");
}

static void mpi_finish(mpi_round_t *r, unsigned round, int rank, int size) {
  MPI_Status st[2 * NTAGS + 1];
  mpi_check(MPI_Waitall(2 * NTAGS + 1, r->reqs, st), "MPI_Waitall");
  int left = (rank + size - 1) % size;
  for (int t = 0; t < NTAGS; t++) {
    int want = (int)test_mix(round, (uint32_t)(left * 100 + t));
    TEST_CHECK(r->in[t] == want && st[t].MPI_TAG == world_tags[t],
               "round %u: MPI message %d from rank %d is %d with tag %d, expected %d with tag %d",
               round, t, left, r->in[t], st[t].MPI_TAG, want, world_tags[t]);
  }
  long want_sum = (long)round * size + (long)size * (size - 1) / 2;
  TEST_CHECK(r->sum == want_sum, "round %u: MPI_Iallreduce gave %ld, expected %ld", round, r->sum,
             want_sum);
}

static void am_round(unsigned round, uint8_t *src_buf) {
  unsigned want_replies = replies + PER_PEER * TEST_NODES;
  unsigned want_requests = requests + PER_PEER * TEST_NODES;
  for (gasnet_node_t i = 0; i < TEST_NODES; i++) {
    gasnet_node_t dst = (TEST_MYNODE + i) % TEST_NODES;
    for (unsigned k = 0; k < PER_PEER; k++) {
      uint32_t seed = seed_of(round, TEST_MYNODE, dst, k);
      size_t n = (k & 1) ? LONG_BYTES : medium_size(seed);
      test_fill(src_buf, n, seed);
      if (k & 1)
        GASNET_Safe(gasnet_AMRequestLong2(dst, H_REQ, src_buf, n, long_slot(dst, TEST_MYNODE, k),
                                          (gasnet_handlerarg_t)round, (gasnet_handlerarg_t)k));
      else
        GASNET_Safe(gasnet_AMRequestMedium2(dst, H_REQ, src_buf, n, (gasnet_handlerarg_t)round,
                                            (gasnet_handlerarg_t)k));
    }
  }
  /* A node blocked in an MPI call does not serve AMs: before the next MPI
   * collective, every node must have its replies and every request meant
   * for it. */
  GASNET_BLOCKUNTIL(__atomic_load_n(&replies, __ATOMIC_ACQUIRE) == want_replies &&
                    __atomic_load_n(&requests, __ATOMIC_ACQUIRE) == want_requests);
}

int main(int argc, char **argv) {
  const char *who = argc > 1 ? argv[1] : "client";
  const char *end = argc > 2 ? argv[2] : "exit";
  if (argc > 3) rounds = (unsigned)atoi(argv[3]);
  int client_init = !strcmp(who, "client");
  if (!client_init && strcmp(who, "gasnet")) {
    fprintf(stderr, "usage: testmpi_interop client|gasnet [exit|finalize|return] [ROUNDS]\n");
    return 2;
  }
  if (client_init) {
    int provided;
#ifdef GASNET_PAR
    mpi_check(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided), "MPI_Init_thread");
#else
    mpi_check(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
#endif
  }
  gasnet_handlerentry_t table[] = {{H_REQ, (void (*)())req_handler},
                                   {H_REP, (void (*)())rep_handler}};
  test_init_only(&argc, &argv);
  uintptr_t seg = (uintptr_t)TEST_NODES * PER_PEER * LONG_BYTES;
  seg = (seg + GASNET_PAGESIZE - 1) & ~(uintptr_t)(GASNET_PAGESIZE - 1);
  GASNET_Safe(test_attach(table, 2, seg));

  int inited = 0, rank = -1, size = 0;
  MPI_Initialized(&inited);
  TEST_CHECK(inited, "MPI is not initialised after gasnet_init");
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  TEST_CHECK(rank == (int)TEST_MYNODE && size == (int)TEST_NODES,
             "MPI rank %d of %d, GASNet node %u of %u", rank, size, (unsigned)TEST_MYNODE,
             (unsigned)TEST_NODES);
  test_print0("testmpi_interop: %u nodes, MPI initialised by the %s, %u rounds, end: %s\n",
              (unsigned)TEST_NODES, client_init ? "client" : "GASNet", rounds, end);

  uint8_t *src_buf = malloc(LONG_BYTES > MEDIUM_MAX ? LONG_BYTES : MEDIUM_MAX);
  TEST_CHECK(src_buf != NULL, "out of memory");
  for (unsigned round = 0; round < rounds; round++) {
    mpi_round_t r;
    mpi_start(&r, round, rank, size);
    am_round(round, src_buf);
    mpi_finish(&r, round, rank, size);
    long got = (long)replies, total = 0;
    mpi_check(MPI_Allreduce(&got, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD), "MPI_Allreduce");
    long want = (long)(round + 1) * PER_PEER * size * size;
    TEST_CHECK(total == want, "round %u: %ld replies in the job, expected %ld", round, total, want);
    mpi_check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
  }
  free(src_buf);
  test_barrier();
  test_print0("testmpi_interop: PASS (%u nodes)\n", (unsigned)TEST_NODES);
  fflush(NULL);
  if (!strcmp(end, "finalize")) {
    mpi_check(MPI_Finalize(), "MPI_Finalize");
    gasnet_exit(0);
  }
  if (!strcmp(end, "return")) return 0;
  gasnet_exit(0);
}
