/* compat_aligned.c: aligned segments, as GASNet-1 clients and test programs
 * look for them.
 *
 * GASNet 1.x's smp conduit gives every process its segment at the same
 * virtual address; clients compare the addresses gasnet_getSegmentInfo
 * reports (GASNET_ALIGNED_SEGMENTS is 0 with shared memory, as in GASNet,
 * so they look at run time) and then take their single-address paths:
 * a remote address is the local one. This client checks the addresses
 * agree (argument "aligned"; "any" accepts either, for
 * GASNET_SEGMENT_ALIGN=no) and then, when they do, runs what such a client
 * runs: puts and gets to the same offset of every peer's segment named by
 * the local address, collectives with GASNET_COLL_SINGLE and both buffers
 * in the segment at one address everywhere, and direct loads from peers
 * that share memory through gasnet_getNodeInfo's offsets. Every node
 * prints "compat_aligned: node I/N OK". */
#include <gasnet.h>

static gasnet_node_t mynode, nodes;

static void die(const char *what, long detail) {
  fprintf(stderr, "compat_aligned: node %u: %s (%ld)\n", (unsigned)mynode, what, detail);
  fflush(stderr);
  gasnet_exit(1);
}

static void barrier(void) {
  gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
  if (gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS) != GASNET_OK) die("barrier", 0);
}

static int segments_aligned(const gasnet_seginfo_t *seg) {
  for (gasnet_node_t n = 1; n < nodes; n++)
    if (seg[n].addr != seg[0].addr) return 0;
  return 1;
}

/* Every node writes its number at offset 8 * mynode of every peer's
 * segment, named by its own address, and reads it back. */
static void puts_and_gets(uint64_t *base) {
  uint64_t mine = 1000 + mynode;
  for (gasnet_node_t n = 0; n < nodes; n++) gasnet_put(n, base + mynode, &mine, sizeof mine);
  barrier();
  for (gasnet_node_t n = 0; n < nodes; n++) {
    if (base[n] != 1000 + n) die("a put to my segment, by its sender's address", (long)n);
    uint64_t got = 0;
    gasnet_get(&got, n, base + mynode, sizeof got);
    if (got != mine) die("a get at my own address from a peer", (long)n);
  }
  barrier();
}

/* Single-address collectives: one address, in the segment, everywhere. */
static void single_collectives(uint64_t *base) {
  const int flags = GASNET_COLL_SINGLE | GASNET_COLL_DST_IN_SEGMENT | GASNET_COLL_SRC_IN_SEGMENT |
                    GASNET_COLL_IN_ALLSYNC | GASNET_COLL_OUT_ALLSYNC;
  uint64_t *src = base + 64, *dst = base + 64 + nodes;
  for (gasnet_node_t n = 0; n < nodes; n++) src[n] = ((uint64_t)mynode << 32) | n;
  gasnet_coll_broadcast(GASNET_TEAM_ALL, dst, nodes - 1, src, sizeof(uint64_t), flags);
  if (dst[0] != ((uint64_t)(nodes - 1) << 32)) die("broadcast (SINGLE, in segment)", (long)dst[0]);
  gasnet_coll_gather_all(GASNET_TEAM_ALL, dst, src + mynode, sizeof(uint64_t), flags);
  for (gasnet_node_t n = 0; n < nodes; n++)
    if (dst[n] != (((uint64_t)n << 32) | n)) die("gather_all (SINGLE, in segment)", (long)n);
  gasnet_coll_exchange(GASNET_TEAM_ALL, dst, src, sizeof(uint64_t), flags);
  for (gasnet_node_t n = 0; n < nodes; n++)
    if (dst[n] != (((uint64_t)n << 32) | mynode)) die("exchange (SINGLE, in segment)", (long)n);
}

/* Peers sharing memory: their segment, through the offset, by loads. */
static void direct_loads(const gasnet_seginfo_t *seg, uint64_t *base) {
  gasnet_nodeinfo_t *info = calloc(nodes, sizeof *info);
  if (!info) die("out of memory", 0);
  if (gasnet_getNodeInfo(info, (int)nodes) != GASNET_OK) die("gasnet_getNodeInfo", 0);
  base[200] = 7000 + mynode;
  barrier();
  for (gasnet_node_t n = 0; n < nodes; n++) {
    if (info[n].supernode != info[mynode].supernode) continue;
    const uint64_t *theirs = (const uint64_t *)((char *)seg[n].addr + info[n].offset);
    if (theirs[200] != 7000 + n) die("a load through gasnet_getNodeInfo's offset", (long)n);
  }
  barrier();
  free(info);
}

int main(int argc, char **argv) {
  if (gasnet_init(&argc, &argv) != GASNET_OK) return 1;
  if (gasnet_attach(NULL, 0, 1 << 20, 0) != GASNET_OK) return 1;
  mynode = gasnet_mynode();
  nodes = gasnet_nodes();
  gasnet_coll_init(NULL, 0, NULL, 0, 0);
  gasnet_seginfo_t *seg = calloc(nodes, sizeof *seg);
  if (!seg) die("out of memory", 0);
  if (gasnet_getSegmentInfo(seg, (int)nodes) != GASNET_OK) die("gasnet_getSegmentInfo", 0);
  int aligned = segments_aligned(seg);
  int want = argc > 1 && !strcmp(argv[1], "aligned");
  if (want && !aligned) die("the segments are not at one address", (long)mynode);
  uint64_t *base = seg[mynode].addr;
  if (aligned) {
    puts_and_gets(base);
    single_collectives(base);
  }
  direct_loads(seg, base);
  printf("compat_aligned: node %u/%u OK%s\n", (unsigned)mynode, (unsigned)nodes,
         aligned ? " (aligned)" : " (not aligned)");
  fflush(stdout);
  barrier();
  free(seg);
  gasnet_exit(0);
  return 0;
}
