/* testtrace.c: a known mix of operations, for the tracing and statistics
 * checks (tests/trace/check_trace.sh counts what the trace and statistics
 * files say against it).
 *
 * Usage: testtrace [-k K], or testtrace -features (prints "trace=0|1
 * stats=0|1": what the library compiles in; no job). Every node, with peer = (mynode + 1) % nodes,
 * runs K iterations of:
 *   - an AM request of each category to the peer (Short to handler 128,
 *     Medium of 64 bytes to 129, Long of 128 bytes into the peer's segment
 *     to 130), each answered by a Short reply to handler 131;
 *   - gasnet_put of 8 bytes (0xa5 each), gasnet_put_nbi of 16, gasnet_get
 *     of 8, gasnet_get_nb of 32 then gasnet_wait_syncnb, then
 *     gasnet_wait_syncnbi_all;
 *   - gasnet_hsl_lock, _unlock, _trylock, _unlock;
 *   - a barrier named 7000 + iteration;
 *   - gasnet_coll_broadcast_nb of 64 bytes from root iteration % nodes and
 *     gasnet_coll_gather_all_nb of 16 bytes, each synced by
 *     gasnet_coll_wait_sync;
 *   - GASNETT_TRACE_SETSOURCELINE then GASNETT_TRACE_PRINTF("testtrace
 *     iteration %d");
 * then GASNETT_TRACE_PRINTF_FORCE("testtrace done"), a barrier named 9999
 * and gasnet_exit(0). The data moved is checked; the program prints
 * "testtrace: PASS" on node 0. */
#include <gasnet.h>
#include <gasnet_coll.h>
#include <gasnet_tools.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define H_SHORT 128
#define H_MEDIUM 129
#define H_LONG 130
#define H_ACK 131

#define SEG_BYTES (64 * 1024)
#define LONG_OFFSET 0     /* where the peer's Long lands */
#define PUT_OFFSET 4096   /* where this node puts into the peer */

static volatile int acks;

static void fail(const char *what) {
  fprintf(stderr, "testtrace: node %u: %s\n", (unsigned)gasnet_mynode(), what);
  gasnet_exit(1);
}

static void on_short(gasnet_token_t token, gasnet_handlerarg_t a0) {
  (void)a0;
  gasnet_AMReplyShort0(token, H_ACK);
}

static void on_medium(gasnet_token_t token, void *buf, size_t nbytes, gasnet_handlerarg_t a0) {
  (void)buf;
  if (nbytes != 64) fail("a Medium of the wrong size arrived");
  (void)a0;
  gasnet_AMReplyShort0(token, H_ACK);
}

static void on_long(gasnet_token_t token, void *buf, size_t nbytes, gasnet_handlerarg_t a0) {
  (void)buf;
  if (nbytes != 128) fail("a Long of the wrong size arrived");
  (void)a0;
  gasnet_AMReplyShort0(token, H_ACK);
}

static void on_ack(gasnet_token_t token) {
  (void)token;
  __atomic_fetch_add(&acks, 1, __ATOMIC_RELAXED);
}

static gasnet_handlerentry_t handlers[] = {
    {H_SHORT, (void (*)())on_short},
    {H_MEDIUM, (void (*)())on_medium},
    {H_LONG, (void (*)())on_long},
    {H_ACK, (void (*)())on_ack},
};

static void *seg_of(gasnet_node_t node) {
  gasnet_seginfo_t *si = malloc(gasnet_nodes() * sizeof(*si));
  if (!si || gasnet_getSegmentInfo(si, (int)gasnet_nodes()) != GASNET_OK) fail("getSegmentInfo");
  void *addr = si[node].addr;
  free(si);
  return addr;
}

static void am_round(gasnet_node_t peer, char *peer_seg, int i) {
  char payload[128];
  memset(payload, i & 0xff, sizeof(payload));
  int want = acks + 3;
  gasnet_AMRequestShort1(peer, H_SHORT, i);
  gasnet_AMRequestMedium1(peer, H_MEDIUM, payload, 64, i);
  gasnet_AMRequestLong1(peer, H_LONG, payload, 128, peer_seg + LONG_OFFSET, i);
  GASNET_BLOCKUNTIL(acks >= want);
}

static void putget_round(gasnet_node_t peer, char *peer_seg) {
  uint8_t out[16], in[32];
  memset(out, 0xa5, sizeof(out));
  gasnet_put(peer, peer_seg + PUT_OFFSET, out, 8);
  gasnet_put_nbi(peer, peer_seg + PUT_OFFSET + 16, out, 16);
  memset(in, 0, sizeof(in));
  gasnet_get(in, peer, peer_seg + PUT_OFFSET, 8);
  for (int j = 0; j < 8; j++)
    if (in[j] != 0xa5) fail("gasnet_get read back other bytes than were put");
  gasnet_handle_t h = gasnet_get_nb(in, peer, peer_seg + LONG_OFFSET, 32);
  gasnet_wait_syncnb(h);
  gasnet_wait_syncnbi_all();
}

static void lock_round(gasnet_hsl_t *lock) {
  gasnet_hsl_lock(lock);
  gasnet_hsl_unlock(lock);
  if (gasnet_hsl_trylock(lock) != GASNET_OK) fail("an uncontended trylock failed");
  gasnet_hsl_unlock(lock);
}

static void barrier_named(int id) {
  gasnet_barrier_notify(id, 0);
  if (gasnet_barrier_wait(id, 0) != GASNET_OK) fail("a barrier mismatched");
}

static void coll_round(int i) {
  const gasnet_node_t me = gasnet_mynode(), n = gasnet_nodes();
  const gasnet_image_t root = (gasnet_image_t)(i % (int)n);
  char src[64], dst[64];
  memset(src, 'a' + (i % 26), sizeof(src));
  memset(dst, 0, sizeof(dst));
  gasnet_coll_handle_t h =
      gasnet_coll_broadcast_nb(GASNET_TEAM_ALL, dst, root, src, sizeof(src),
                               GASNET_COLL_IN_MYSYNC | GASNET_COLL_OUT_MYSYNC | GASNET_COLL_LOCAL);
  gasnet_coll_wait_sync(h);
  for (size_t j = 0; j < sizeof(dst); j++)
    if (dst[j] != 'a' + (i % 26)) fail("broadcast delivered other bytes");
  char mine[16], all[16 * 64];
  memset(mine, (int)me, sizeof(mine));
  h = gasnet_coll_gather_all_nb(GASNET_TEAM_ALL, all, mine, sizeof(mine),
                                GASNET_COLL_IN_MYSYNC | GASNET_COLL_OUT_MYSYNC |
                                    GASNET_COLL_LOCAL);
  gasnet_coll_wait_sync(h);
  for (gasnet_node_t r = 0; r < n; r++)
    if (all[16 * r] != (char)r || all[16 * r + 15] != (char)r)
      fail("gather_all delivered other bytes");
}

int main(int argc, char **argv) {
  /* What the library this program was built against compiles in (no job
   * is started): the checks skip what is not there. */
  if (argc == 2 && !strcmp(argv[1], "-features")) {
    printf("trace=%d stats=%d\n", GASNETT_TRACE_ENABLED, GASNETT_STATS_ENABLED);
    return 0;
  }
  if (gasnet_init(&argc, &argv) != GASNET_OK) return 1;
  int k = 3;
  if (argc == 3 && !strcmp(argv[1], "-k")) k = atoi(argv[2]);
  if (k < 1 || gasnet_nodes() > 64) {
    fprintf(stderr, "usage: testtrace [-k ITERATIONS>0] (at most 64 nodes)\n");
    gasnet_exit(2);
  }
  if (gasnet_attach(handlers, sizeof(handlers) / sizeof(handlers[0]), SEG_BYTES, 0) != GASNET_OK)
    fail("gasnet_attach");
  gasnet_coll_init(NULL, 0, NULL, 0, 0);
  const gasnet_node_t peer = (gasnet_mynode() + 1) % gasnet_nodes();
  char *peer_seg = seg_of(peer);
  gasnet_hsl_t lock = GASNET_HSL_INITIALIZER;
  for (int i = 0; i < k; i++) {
    am_round(peer, peer_seg, i);
    putget_round(peer, peer_seg);
    lock_round(&lock);
    barrier_named(7000 + i);
    coll_round(i);
    GASNETT_TRACE_SETSOURCELINE(__FILE__, __LINE__);
    GASNETT_TRACE_PRINTF("testtrace iteration %d", i);
  }
  GASNETT_TRACE_PRINTF_FORCE("testtrace done");
  barrier_named(9999);
  if (gasnet_mynode() == 0) printf("testtrace: PASS\n");
  fflush(stdout);
  gasnet_exit(0);
  return 0;
}
