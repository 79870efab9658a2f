/* testcoll: every data-movement collective, checked byte for byte.
 *
 * Usage: testcoll [-c CONFIG] [-a OP=ALG]... [-R RADIX] [-o OPS] [-s SIZES]
 *                 [-l LEVEL] [-v]
 *
 *   -c CONFIG  which algorithms to force (see `configs` below): default
 *              (the selector's choice), flat, binomial, binary, knomial,
 *              hier (broadcast, scatter, gather), put, put_tree (broadcast's
 *              put down a binomial tree; the others put), direct, segmented (the flow-controlled algorithms:
 *              broadcast pipe, scatter and gather flow, gather_all ring,
 *              exchange pairwise), sag (the same with broadcast
 *              scatter_allgather). A config sets GASNET_COLL_<OP>_ALG for every op (and
 *              GASNET_COLL_TREE_RADIX) before gasnet_init, so the forked
 *              nodes inherit it; gasnet_coll_init reads it.
 *   -a OP=ALG  force ALG for OP (broadcast, scatter, gather, gather_all,
 *              exchange) on top of the config; repeatable.
 *   -R RADIX   GASNET_COLL_TREE_RADIX for the k-nomial trees.
 *   -o OPS     comma list of ops to test (default: all five).
 *   -s SIZES   comma list of block sizes in bytes (K and M suffixes);
 *              default depends on the node count (below).
 *   -l LEVEL   all | full | medium | small: how much of the matrix to
 *              run. all: every variant for every (op, mode, size). full:
 *              the whole op x mode x SINGLE/LOCAL x size cross product
 *              (single and seg), mixed and overlap on alternate (mode,
 *              size) pairs. medium: seg plus one other variant, rotating;
 *              fewer large blocks. small: one variant each (seg for half),
 *              fewer sizes. Default: all at 1-2 nodes, full at 3, medium
 *              at 4-5, small above, so a case line may list any node
 *              counts (GASNET_TEST_NODES) and still finish in its time.
 *   -S OP=ALG  expect the selector's choice for a 1 MiB OP out of the
 *              segment (gasnet_coll_dumpTuningState) to be ALG, or not to
 *              be ALG with OP=!ALG (e.g. that GASNET_SMP_XMEM=off makes
 *              the direct algorithms ineligible); checked on node 0.
 *              OP@BYTES=ALG asks the same of another size (a power of 4,
 *              as the tuning state lists them), and OP@BYTES:seg=ALG (or
 *              OP:seg=ALG) of the choice with SRC/DST_IN_SEGMENT.
 *   -N COUNT   the -S choices are those of a job of COUNT nodes (a rule
 *              for one team size); at another count (GASNET_TEST_NODES)
 *              they are not checked, which node 0 says, and the data still is.
 *   -v         print every collective as it runs (node 0).
 *
 * For each op, each of the nine IN x OUT sync modes, each size and each
 * buffer variant, one collective runs and every node compares the whole of
 * its buffers (destination, source, and guard bytes around both) with a
 * model of what they must hold afterwards: destination blocks from the
 * reference, everything else unchanged. Buffer variants:
 *   single   GASNET_COLL_SINGLE with static arrays (the same address in
 *            every process of the smp conduit);
 *   seg      GASNET_COLL_LOCAL, src and dst in the segment at addresses
 *            that differ between nodes, SRC_ and DST_IN_SEGMENT claimed
 *            (so the put-based algorithms are eligible); sometimes NULL
 *            for the arguments that do not apply on a node;
 *   mixed    LOCAL, rotating through malloc'd buffers (arguments that do
 *            not apply passed as NULL), src in segment only, dst in
 *            segment only, and in-segment buffers without the flags;
 *   overlap  the overlap exceptions: broadcast src == the root's dst;
 *            scatter/gather/gather_all block i of src identical to block i
 *            of dst (single or seg addressing; exchange has none).
 * Roots rotate through every rank. Calls alternate between the blocking
 * form and _nb with each of the six sync calls. Nodes enter after random
 * delays. Buffers are filled just before a node enters; under IN_NOSYNC a
 * barrier first makes every node's buffers ready (the client's duty),
 * under IN_MYSYNC/IN_ALLSYNC there is none, so reading a source or writing
 * a destination before its owner entered shows up as a mismatch. Under
 * IN_ALLSYNC with buffers in the segment, half the time a node's src and
 * dst are written by its neighbour with puts just before the neighbour
 * enters ("remote writer", the UPC use of IN_ALLSYNC): data moved before
 * every node entered would be stale or overwritten. After
 * OUT_NOSYNC a barrier precedes the check (memory is synchronized only
 * when every node has synced); after OUT_MYSYNC and OUT_ALLSYNC a node
 * checks its own buffers at once, then overwrites its source (it may reuse
 * it now: a peer still reading it would get the new bytes), and after
 * OUT_ALLSYNC with the destination in the segment it also reads a peer's
 * destination with a get: that must be complete too. */
#define _POSIX_C_SOURCE 200809L
#include "coll_test.h"

#include <errno.h>
#include <unistd.h>

/* Algorithm names by op, as in coll/bcast.c, scatter.c, gather.c,
 * gather_all.c, exchange.c. A config forces one per op; NULL leaves the
 * selector's choice. */
typedef struct {
  const char *name;
  const char *alg[OP_COUNT];
  const char *radix;
} config_t;

static const config_t configs[] = {
    {"default", {NULL, NULL, NULL, NULL, NULL}, NULL},
    {"flat", {"flat", "flat", "flat", "flat", "staggered"}, NULL},
    {"binomial", {"binomial", "binomial", "binomial", "dissem", "bruck"}, NULL},
    {"binary", {"binary", "binary", "binary", "gather_bcast", "staggered"}, NULL},
    {"knomial", {"knomial", "knomial", "knomial", "dissem", "bruck"}, "3"},
    /* The two-level trees over the supernodes (gather_all: a hier gather
     * and a hier broadcast; exchange has none: the selector's choice). */
    {"hier", {"hier", "hier", "hier", "hier", NULL}, NULL},
    {"put", {"put", "put", "put", "put", "put"}, NULL},
    /* Broadcast's put down a tree (the others have one put: put again). */
    {"put_tree", {"put_tree", "put", "put", "put", "put"}, NULL},
    {"direct", {"direct", "direct", "direct", "direct", "direct"}, NULL},
    /* The flow-controlled algorithms for large data (scatter and gather
     * have none: the selector's choice). */
    {"segmented", {"pipe", "flow", "flow", "ring", "pairwise"}, NULL},
    {"sag", {"scatter_allgather", "flow", "flow", "ring", "pairwise"}, NULL},
};
#define NCONFIGS (sizeof(configs) / sizeof(configs[0]))

/* ------------------------------------------------------------ sync modes */
static const char *const in_names[3] = {"IN_NO", "IN_MY", "IN_ALL"};
static const char *const out_names[3] = {"OUT_NO", "OUT_MY", "OUT_ALL"};

/* ------------------------------------------------------------ buffers */
#define GUARD 64
#define MAX_REGION ((size_t)8 << 20) /* nbytes * nodes at most */
#define ARENA_BYTES (MAX_REGION + 4 * GUARD + 256)

/* SINGLE: static arrays, at the same address in every forked process. */
static unsigned char static_dst[ARENA_BYTES];
static unsigned char static_src[ARENA_BYTES];
/* LOCAL out of segment: malloc'd per node. */
static unsigned char *heap_dst, *heap_src;
/* Models of the arenas after the collective. */
static unsigned char *model_dst, *model_src;

typedef enum { PL_STATIC, PL_SEG, PL_HEAP } placement_t;
typedef enum { V_SINGLE, V_SEG, V_MIXED, V_OVERLAP, V_COUNT } variant_t;

/* What one collective uses; built identically on every node except for
 * the addresses, which each node computes for itself (and, for the remote
 * check, for a peer). */
typedef struct {
  int op;
  size_t nbytes;
  gasnet_node_t root;
  int flags;
  int single;
  int overlap;
  int null_unused;         /* LOCAL: pass NULL for arguments that do not apply */
  placement_t dst_pl, src_pl;
  int remote_writer; /* IN_ALLSYNC: the neighbour writes src and dst by put */
  int blocking;
  int sync_call; /* 0..5 for _nb */
  uint32_t it;   /* collective number: seeds its data */
} coll_t;

typedef struct {
  unsigned char *dst_arena, *src_arena; /* src_arena NULL when overlapping */
  size_t dst_arena_len, src_arena_len;
  unsigned char *dst, *src; /* the arguments */
} layout_t;

static gasnet_node_t N, ME;
static int verbose;
static uint64_t rng_state;
static unsigned long collectives_run, remote_checks;

static size_t src_len(const coll_t *c, gasnet_node_t n) { return op_src_len(c->op, c->nbytes, n); }
static size_t dst_len(const coll_t *c, gasnet_node_t n) { return op_dst_len(c->op, c->nbytes, n); }
static int uses_src(const coll_t *c, gasnet_node_t node) { return op_uses_src(c->op, c->root, node); }
static int uses_dst(const coll_t *c, gasnet_node_t node) { return op_uses_dst(c->op, c->root, node); }

/* Node-dependent shift of LOCAL buffers: addresses differ between nodes
 * and are not aligned. */
static size_t local_shift(gasnet_node_t node, uint32_t it) {
  return 8 * (size_t)(node % 5) + (it % 3) * 1 + (node % 2) * 3;
}

static unsigned char *arena_base(placement_t pl, int is_dst, gasnet_node_t node) {
  switch (pl) {
    case PL_STATIC: return is_dst ? static_dst : static_src;
    case PL_HEAP: return is_dst ? heap_dst : heap_src;
    case PL_SEG: return (unsigned char *)test_seg(node) + (is_dst ? 0 : ARENA_BYTES + 128);
  }
  return NULL;
}

/* Where node `node` keeps its buffers for c (addresses in that node's own
 * address space; for PL_SEG they are valid targets of a get). */
static layout_t layout_of(const coll_t *c, gasnet_node_t node) {
  layout_t L;
  memset(&L, 0, sizeof L);
  size_t shift = c->single ? 0 : local_shift(node, c->it);
  size_t dl = dst_len(c, N), sl = src_len(c, N);
  L.dst_arena = arena_base(c->dst_pl, 1, node) + shift;
  if (c->overlap) {
    /* One arena holds both: the larger of the two regions plus guards. */
    size_t big = dl > sl ? dl : sl;
    L.dst_arena_len = big + 2 * GUARD;
    unsigned char *region = L.dst_arena + GUARD;
    switch (c->op) {
      case OP_BCAST: L.dst = L.src = region; break;
      case OP_SCATTER: /* dst is block root of src */
        L.src = region;
        L.dst = region + (size_t)c->root * c->nbytes;
        break;
      case OP_GATHER: /* src is block root of dst */
        L.dst = region;
        L.src = region + (size_t)c->root * c->nbytes;
        break;
      case OP_GATHER_ALL: /* src is block `node` of dst (LOCAL only) */
        L.dst = region;
        L.src = region + (size_t)node * c->nbytes;
        break;
      default: test_fail("no overlap exception for %s", op_names[c->op]);
    }
  } else {
    L.dst_arena_len = dl + 2 * GUARD;
    L.src_arena = arena_base(c->src_pl, 0, node) + shift;
    L.src_arena_len = sl + 2 * GUARD;
    L.dst = L.dst_arena + GUARD;
    L.src = L.src_arena + GUARD;
  }
  return L;
}

/* ------------------------------------------------------------ reference */
static uint32_t expected_dst_seed(const coll_t *c, gasnet_node_t node, uint32_t b) {
  return coll_dst_seed(c->op, c->it, c->root, node, b);
}

/* Fill this node's buffers, and build the model of what they must hold
 * after the collective. */
static void prepare(const coll_t *c, const layout_t *L) {
  size_t nb = c->nbytes;
  coll_fill(L->dst_arena, L->dst_arena_len, coll_garbage_seed(c->it, ME, 0));
  if (L->src_arena) coll_fill(L->src_arena, L->src_arena_len, coll_garbage_seed(c->it, ME, 1));
  /* Every node fills a source, even where it does not apply: it must then
   * stay untouched. In overlap layouts it lands inside the dst region.
   * With a remote writer the neighbour puts it there later; the model has
   * it already. */
  if (!c->remote_writer) coll_fill_src(c->op, c->it, c->nbytes, N, ME, L->src);
  memcpy(model_dst, L->dst_arena, L->dst_arena_len);
  if (L->src_arena) memcpy(model_src, L->src_arena, L->src_arena_len);
  if (c->remote_writer)
    coll_fill_src(c->op, c->it, c->nbytes, N, ME, model_src + (L->src - L->src_arena));
  if (c->remote_writer && !uses_dst(c, ME))
    coll_fill(model_dst + (L->dst - L->dst_arena), dst_len(c, N), coll_garbage_seed(c->it, ME, 3));
  if (uses_dst(c, ME)) {
    size_t blocks = dst_len(c, N) / nb;
    unsigned char *m = model_dst + (L->dst - L->dst_arena);
    for (size_t b = 0; b < blocks; b++)
      coll_fill(m + b * nb, nb, expected_dst_seed(c, ME, (uint32_t)b));
  }
}

static void describe(const coll_t *c, char *buf, size_t len) {
  int in = c->flags & GASNET_COLL_IN_NOSYNC ? 0 : c->flags & GASNET_COLL_IN_MYSYNC ? 1 : 2;
  int out = c->flags & GASNET_COLL_OUT_NOSYNC ? 0 : c->flags & GASNET_COLL_OUT_MYSYNC ? 1 : 2;
  static const char *const pl[] = {"static", "seg", "heap"};
  static const char *const how[] = {"wait_sync", "try_sync", "wait_sync_all", "try_sync_all",
                                    "wait_sync_some", "try_sync_some"};
  snprintf(buf, len, "#%u %s nbytes=%zu root=%u %s|%s %s%s%s%s dst=%s src=%s%s%s %s",
           (unsigned)c->it, op_names[c->op], c->nbytes, (unsigned)c->root, in_names[in],
           out_names[out], c->single ? "SINGLE" : "LOCAL", c->overlap ? " overlap" : "",
           c->null_unused ? " null-unused" : "", c->remote_writer ? " remote-writer" : "",
           pl[c->dst_pl], pl[c->src_pl],
           (c->flags & GASNET_COLL_DST_IN_SEGMENT) ? " DST_IN_SEG" : "",
           (c->flags & GASNET_COLL_SRC_IN_SEGMENT) ? " SRC_IN_SEG" : "",
           c->blocking ? "blocking" : how[c->sync_call]);
}

static void check_arena(const coll_t *c, const layout_t *L, const unsigned char *arena,
                        const unsigned char *model, size_t len, const char *which) {
  if (!memcmp(arena, model, len)) return;
  size_t off = 0;
  while (arena[off] == model[off]) off++;
  char what[512];
  describe(c, what, sizeof what);
  const unsigned char *addr = arena + off;
  const char *where = "guard/unused bytes";
  long block = -1;
  size_t in_block = 0;
  if (addr >= L->dst && addr < L->dst + dst_len(c, N)) {
    where = "dst";
    block = (long)((size_t)(addr - L->dst) / c->nbytes);
    in_block = (size_t)(addr - L->dst) % c->nbytes;
  } else if (addr >= L->src && addr < L->src + src_len(c, N)) {
    where = "src";
    block = (long)((size_t)(addr - L->src) / c->nbytes);
    in_block = (size_t)(addr - L->src) % c->nbytes;
  }
  test_fail("%s: %s arena byte %zu (%s block %ld, byte %zu) is 0x%02x, expected 0x%02x", what,
            which, off, where, block, in_block, arena[off], model[off]);
}

/* ------------------------------------------------------------ running */
static void delay_us(unsigned us) {
  double end = test_now() + us * 1e-6;
  while (test_now() < end) gasnet_AMPoll();
}

static void random_delay(void) {
  uint64_t r = test_rand(&rng_state) % 100;
  if (r < 60) return;
  if (r < 85) delay_us(20);
  else if (r < 98) delay_us(200);
  else delay_us(2000);
}

static gasnet_coll_handle_t initiate(const coll_t *c, const layout_t *L, int blocking) {
  void *dst = L->dst, *src = L->src;
  if (c->null_unused) {
    if (!uses_dst(c, ME)) dst = NULL;
    if (!uses_src(c, ME)) src = NULL;
  }
  return coll_initiate(c->op, blocking, dst, src, c->root, c->nbytes, c->flags);
}

/* Sync one handle with one of the six sync calls. */
static void sync_handle(gasnet_coll_handle_t h, int how) {
  gasnet_coll_handle_t hs[1] = {h};
  switch (how) {
    case 0: gasnet_coll_wait_sync(h); break;
    case 1:
      while (gasnet_coll_try_sync(h) != GASNET_OK) {}
      break;
    case 2: gasnet_coll_wait_sync_all(hs, 1); break;
    case 3:
      while (gasnet_coll_try_sync_all(hs, 1) != GASNET_OK) {}
      break;
    case 4:
      while (hs[0] != GASNET_COLL_INVALID_HANDLE) gasnet_coll_wait_sync_some(hs, 1);
      break;
    default:
      while (hs[0] != GASNET_COLL_INVALID_HANDLE) (void)gasnet_coll_try_sync_some(hs, 1);
      break;
  }
  if (how >= 2)
    TEST_CHECK(hs[0] == GASNET_COLL_INVALID_HANDLE, "sync call %d left the handle live", how);
}

/* After OUT_ALLSYNC, every destination is complete: read a peer's (in the
 * segment) and check it. */
static void remote_check(const coll_t *c) {
  gasnet_node_t peer = c->op == OP_GATHER ? c->root : (gasnet_node_t)((ME + 1) % N);
  if (peer == ME) return;
  layout_t P = layout_of(c, peer);
  size_t len = dst_len(c, N), nb = c->nbytes;
  unsigned char *copy = malloc(len);
  TEST_CHECK(copy != NULL, "out of memory");
  gasnet_get_bulk(copy, peer, P.dst, len);
  for (size_t b = 0; b < len / nb; b++) {
    uint32_t seed = expected_dst_seed(c, peer, (uint32_t)b);
    long bad = coll_mismatch(copy + b * nb, nb, seed);
    if (bad >= 0) {
      char what[512];
      describe(c, what, sizeof what);
      test_fail("%s: after OUT_ALLSYNC, node %u's dst block %zu byte %ld is 0x%02x, expected "
                "0x%02x",
                what, (unsigned)peer, b, bad, copy[b * nb + (size_t)bad],
                coll_byte(seed, (size_t)bad));
    }
  }
  free(copy);
  remote_checks++;
}

/* IN_ALLSYNC: data may move only once every node has entered. Here node
 * me - 1 writes this node's src (its real contents) and dst (garbage) with
 * puts just before it enters, perhaps long after this node entered; data
 * moved before that would be stale, or overwritten. */
static void write_neighbour(const coll_t *c) {
  gasnet_node_t peer = (gasnet_node_t)((ME + 1) % N);
  layout_t P = layout_of(c, peer);
  size_t sl = src_len(c, N), dl = dst_len(c, N);
  unsigned char *tmp = malloc(sl > dl ? sl : dl);
  TEST_CHECK(tmp != NULL, "out of memory");
  coll_fill(tmp, dl, coll_garbage_seed(c->it, peer, 3));
  gasnet_put_bulk(peer, P.dst, tmp, dl);
  coll_fill_src(c->op, c->it, c->nbytes, N, peer, tmp);
  gasnet_put_bulk(peer, P.src, tmp, sl);
  free(tmp);
}

/* After OUT_MYSYNC or OUT_ALLSYNC this node's source is its own again: a
 * put the conduit still carries (a detached Long) must not read it. So it
 * is overwritten at once, and a peer that got any byte of it afterwards
 * finds it in its own check. */
static void reuse_src(const coll_t *c, const layout_t *L) {
  if ((c->flags & GASNET_COLL_OUT_NOSYNC) || c->overlap || !uses_src(c, ME)) return;
  coll_fill(L->src, src_len(c, N), coll_garbage_seed(c->it, ME, 5));
}

static void run_one(const coll_t *c) {
  layout_t L = layout_of(c, ME);
  if (verbose && ME == 0) {
    char what[512];
    describe(c, what, sizeof what);
    printf("  %s\n", what);
    fflush(stdout);
  }
  prepare(c, &L);
  if (c->flags & GASNET_COLL_IN_NOSYNC) coll_barrier(); /* every node's buffers are ready */
  if (c->remote_writer) coll_barrier(); /* nobody writes a peer's buffers before they filled them */
  random_delay();
  if (c->remote_writer) write_neighbour(c);
  gasnet_coll_handle_t h = initiate(c, &L, c->blocking);
  if (!c->blocking) {
    if (test_rand(&rng_state) % 4 == 0) delay_us(10); /* let it progress in the background */
    sync_handle(h, c->sync_call);
  }
  if (c->flags & GASNET_COLL_OUT_NOSYNC) coll_barrier(); /* every node has synced */
  check_arena(c, &L, L.dst_arena, model_dst, L.dst_arena_len, "dst");
  if (L.src_arena) check_arena(c, &L, L.src_arena, model_src, L.src_arena_len, "src");
  reuse_src(c, &L);
  if ((c->flags & GASNET_COLL_OUT_ALLSYNC) && c->dst_pl == PL_SEG && !c->overlap && N > 1) {
    remote_check(c);
    coll_barrier(); /* the peer may not refill its buffers before the get */
  }
  collectives_run++;
}

/* SINGLE uses the static arrays: skipped unless they are at the same
 * address on every node (true for the smp conduit's forked processes). */
static int static_differs;

/* ------------------------------------------------------------ the matrix */
typedef enum { LEVEL_SMALL, LEVEL_MEDIUM, LEVEL_FULL, LEVEL_ALL } level_t;

static size_t sizes[32];
static int nsizes;
static int op_enabled[OP_COUNT];

static void build_coll(coll_t *c, int op, int in, int out, size_t nbytes, variant_t v,
                       uint32_t it) {
  memset(c, 0, sizeof *c);
  c->op = op;
  c->nbytes = nbytes;
  c->it = it;
  c->root = (gasnet_node_t)((it * 7u + 3u) % N);
  c->flags = in_modes[in] | out_modes[out];
  c->blocking = it % 3 == 0;
  c->sync_call = (int)((it / 3) % 6);
  switch (v) {
    case V_SINGLE:
      c->single = 1;
      c->dst_pl = c->src_pl = PL_STATIC;
      break; /* (skipped by the caller when static_differs) */
    case V_SEG:
      c->dst_pl = c->src_pl = PL_SEG;
      c->flags |= GASNET_COLL_DST_IN_SEGMENT | GASNET_COLL_SRC_IN_SEGMENT;
      c->null_unused = it % 4 == 1; /* NULL where it does not apply, with the flags */
      break;
    case V_MIXED:
      switch (it % 4) {
        case 0:
          c->dst_pl = c->src_pl = PL_HEAP;
          c->null_unused = 1;
          break;
        case 1:
          c->dst_pl = PL_HEAP;
          c->src_pl = PL_SEG;
          c->flags |= GASNET_COLL_SRC_IN_SEGMENT;
          break;
        case 2:
          c->dst_pl = PL_SEG;
          c->src_pl = PL_HEAP;
          c->flags |= GASNET_COLL_DST_IN_SEGMENT;
          break;
        default: c->dst_pl = c->src_pl = PL_SEG; break; /* in the segment, unclaimed */
      }
      break;
    case V_OVERLAP:
      c->overlap = 1;
      /* gather_all's overlap puts src at a node-dependent address: LOCAL. */
      if (op != OP_GATHER_ALL && it % 2 == 0) {
        c->single = 1;
        c->dst_pl = c->src_pl = PL_STATIC;
      } else {
        c->dst_pl = c->src_pl = PL_SEG;
        c->flags |= GASNET_COLL_DST_IN_SEGMENT | GASNET_COLL_SRC_IN_SEGMENT;
      }
      break;
    default: break;
  }
  c->flags |= c->single ? GASNET_COLL_SINGLE : GASNET_COLL_LOCAL;
  /* Half the IN_ALLSYNC ones with both buffers in the segment. */
  c->remote_writer = in == 2 && c->dst_pl == PL_SEG && c->src_pl == PL_SEG && !c->overlap &&
                     it % 2 == 1;
}

/* The variant other than seg that (op, sync mode, size index) gets when
 * not all of them run: rotating, so each appears with every op, mode and
 * size class. */
static variant_t other_variant(int op, int mode, int si) {
  variant_t v = (variant_t[]){V_SINGLE, V_MIXED, V_OVERLAP}[(op + mode + si) % 3];
  return v == V_OVERLAP && op == OP_EXCHANGE ? V_SINGLE : v;
}

/* Which variants run for (op, sync mode, size index) at a level. */
static int variant_runs(level_t level, int op, int mode, int si, variant_t v) {
  if (v == V_OVERLAP && op == OP_EXCHANGE) return 0; /* exchange has no overlap exception */
  switch (level) {
    case LEVEL_ALL: return 1;
    case LEVEL_FULL:
      /* The cross product with SINGLE and LOCAL; mixed and overlap on
       * alternate (mode, size) pairs. */
      if (v == V_SINGLE || v == V_SEG) return 1;
      return (mode + si + (v == V_OVERLAP)) % 2 == 0;
    case LEVEL_MEDIUM: return v == V_SEG || v == other_variant(op, mode, si);
    case LEVEL_SMALL:
      /* One each: seg (where the put algorithms run) for half of them. */
      return v == ((op + mode + si) % 2 ? V_SEG : other_variant(op, mode, si / 2));
  }
  return 0;
}

/* Large blocks cost time at many nodes: fewer of them below full. */
static int size_runs(level_t level, size_t nbytes, int mode, int op) {
  if (nbytes * N > MAX_REGION) return 0;
  if (level >= LEVEL_FULL) return 1;
  if (nbytes >= ((size_t)1 << 20)) return mode == (op * 2) % 9;
  if (nbytes == 65536) return mode % 3 == op % 3;
  if (nbytes == 12345) return level == LEVEL_MEDIUM && mode % 2 == op % 2;
  if (nbytes == 13 || nbytes == 4096) return level == LEVEL_MEDIUM || (mode + op + (nbytes == 13)) % 2;
  return 1;
}

static size_t parse_size(const char *s) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (*end == 'K' || *end == 'k') v <<= 10, end++;
  else if (*end == 'M' || *end == 'm') v <<= 20, end++;
  if (errno || end == s || *end || v == 0) {
    fprintf(stderr, "testcoll: bad size '%s'\n", s);
    exit(2);
  }
  return (size_t)v;
}

/* The algorithm the tuning table names for an OP of `bytes` (first column:
 * out of the segment; with in_segment, the second: SRC/DST_IN_SEGMENT),
 * read back from gasnet_coll_dumpTuningState's file; "" if absent. */
static void chosen_for(const char *op, const char *bytes, int in_segment, char *alg, size_t len) {
  char path[] = "/tmp/testcoll-tuning-XXXXXX", line[256], want[64];
  int fd = mkstemp(path);
  TEST_CHECK(fd >= 0, "mkstemp: %s", strerror(errno));
  close(fd);
  gasnet_coll_dumpTuningState(path, GASNET_TEAM_ALL);
  FILE *f = fopen(path, "r");
  TEST_CHECK(f != NULL, "cannot read back %s", path);
  snprintf(want, sizeof want, "%s:", op);
  int in_op = 0;
  alg[0] = 0;
  while (fgets(line, sizeof line, f)) {
    char w1[64], w2[64], w3[64];
    if (line[0] != ' ') in_op = !strncmp(line, want, strlen(want));
    else if (in_op && sscanf(line, "%63s %63s %63s", w1, w2, w3) == 3 && !strcmp(w1, bytes))
      snprintf(alg, len, "%s", in_segment ? w3 : w2);
  }
  fclose(f);
  unlink(path);
}

/* -S OP[@BYTES][:seg]=ALG / ...=!ALG: is the selector's choice what the
 * environment says? */
static void check_selection(const char *spec) {
  if (ME != 0) return;
  const char *eq = strchr(spec, '=');
  const char *at = memchr(spec, '@', (size_t)(eq - spec));
  const char *seg = memchr(spec, ':', (size_t)(eq - spec));
  const char *op_end = at ? at : seg ? seg : eq;
  char op[32], bytes[32] = "1048576", alg[64];
  snprintf(op, sizeof op, "%.*s", (int)(op_end - spec), spec);
  if (at) snprintf(bytes, sizeof bytes, "%.*s", (int)((seg ? seg : eq) - at - 1), at + 1);
  int negate = eq[1] == '!';
  const char *name = eq + 1 + negate;
  const char *where = seg ? " in the segment" : "";
  chosen_for(op, bytes, seg != NULL, alg, sizeof alg);
  TEST_CHECK(alg[0], "no %s-byte row for %s in the tuning state", bytes, op);
  TEST_CHECK((strcmp(alg, name) == 0) != negate, "a %s-byte %s%s chose %s, expected %s%s", bytes,
             op, where, alg, negate ? "anything but " : "", name);
  test_print0("testcoll: a %s-byte %s%s chooses %s, as expected\n", bytes, op, where, alg);
}

/* -S options one run may give: a few sizes of each op. */
#define MAX_EXPECTED_CHOICES 16

static void usage(void) {
  fprintf(stderr, "usage: testcoll [-c CONFIG] [-a OP=ALG]... [-R RADIX] [-o OPS] [-s SIZES] "
                  "[-l all|full|medium|small] [-e VAR=VALUE]... [-S OP[@BYTES][:seg]=[!]ALG]... [-N COUNT] [-v]\n  configs:");
  for (size_t i = 0; i < NCONFIGS; i++) fprintf(stderr, " %s", configs[i].name);
  fprintf(stderr, "\n");
  exit(2);
}

static int op_index(const char *name, size_t len) {
  int o = coll_op_index(name, len);
  if (o < 0) {
    fprintf(stderr, "testcoll: unknown op '%.*s'\n", (int)len, name);
    exit(2);
  }
  return o;
}

int main(int argc, char **argv) {
  const config_t *cfg = &configs[0];
  const char *forced[OP_COUNT] = {NULL};
  const char *radix = NULL, *ops = NULL, *size_list = NULL, *level_name = NULL;
  const char *expect_sel[MAX_EXPECTED_CHOICES];
  int nexpect = 0;
  long expect_nodes = 0; /* -N: the count the -S choices are for; 0: any */
  /* Options come before gasnet_init: the forced algorithms must be in the
   * environment the nodes inherit. */
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "-v")) { verbose = 1; continue; }
    if (!v) usage();
    i++;
    if (!strcmp(a, "-c")) {
      cfg = NULL;
      for (size_t k = 0; k < NCONFIGS; k++)
        if (!strcmp(configs[k].name, v)) cfg = &configs[k];
      if (!cfg) usage();
    } else if (!strcmp(a, "-a")) {
      const char *eq = strchr(v, '=');
      if (!eq) usage();
      forced[op_index(v, (size_t)(eq - v))] = eq + 1;
    } else if (!strcmp(a, "-e")) {
      /* Before gasnet_init, so every node sees it (e.g. GASNET_SMP_PUTGET=am). */
      test_setenv_pair("testcoll", v);
    } else if (!strcmp(a, "-S")) {
      if (!strchr(v, '=') || nexpect == MAX_EXPECTED_CHOICES) usage();
      expect_sel[nexpect++] = v;
    } else if (!strcmp(a, "-N")) {
      char *end = NULL;
      expect_nodes = strtol(v, &end, 10);
      if (expect_nodes < 1 || !end || *end) usage(); /* a count, nothing after it */
    } else if (!strcmp(a, "-R")) radix = v;
    else if (!strcmp(a, "-o")) ops = v;
    else if (!strcmp(a, "-s")) size_list = v;
    else if (!strcmp(a, "-l")) level_name = v;
    else usage();
  }
  for (int o = 0; o < OP_COUNT; o++) {
    const char *alg = forced[o] ? forced[o] : cfg->alg[o];
    if (alg) setenv(op_env[o], alg, 1);
  }
  if (radix || cfg->radix) setenv("GASNET_COLL_TREE_RADIX", radix ? radix : cfg->radix, 1);

  for (int o = 0; o < OP_COUNT; o++) op_enabled[o] = ops == NULL;
  if (ops) {
    for (const char *p = ops; *p;) {
      size_t len = strcspn(p, ",");
      op_enabled[op_index(p, len)] = 1;
      p += len + (p[len] == ',');
    }
  }

  test_init_only(&argc, &argv);
  N = gasnet_nodes();
  ME = gasnet_mynode();
  uintptr_t segsize = 2 * (ARENA_BYTES + 128) + GASNET_PAGESIZE;
  segsize = (segsize + GASNET_PAGESIZE - 1) & ~(uintptr_t)(GASNET_PAGESIZE - 1);
  TEST_CHECK(gasnet_getMaxLocalSegmentSize() >= segsize,
             "need a %lu-byte segment, the conduit offers %lu", (unsigned long)segsize,
             (unsigned long)gasnet_getMaxLocalSegmentSize());
  gasnet_handlerentry_t handlers[] = {{COLL_TEST_H_ADDR, (void (*)())coll_addr_handler}};
  GASNET_Safe(test_attach(handlers, 1, segsize));
  gasnet_coll_init(NULL, 0, NULL, 0, 0);
  static_differs = !coll_same_address_everywhere(static_dst);
  if (static_differs)
    test_print0("testcoll: static arrays are not at the same address on every node: "
                "skipping the SINGLE variants\n");

  level_t level = N <= 2 ? LEVEL_ALL : N <= 3 ? LEVEL_FULL : N <= 5 ? LEVEL_MEDIUM : LEVEL_SMALL;
  if (level_name) {
    if (!strcmp(level_name, "all")) level = LEVEL_ALL;
    else if (!strcmp(level_name, "full")) level = LEVEL_FULL;
    else if (!strcmp(level_name, "medium")) level = LEVEL_MEDIUM;
    else if (!strcmp(level_name, "small")) level = LEVEL_SMALL;
    else usage();
  }
  if (size_list) {
    for (const char *p = size_list; *p && nsizes < 32;) {
      size_t len = strcspn(p, ",");
      char word[64];
      snprintf(word, sizeof word, "%.*s", (int)len, p);
      sizes[nsizes++] = parse_size(word);
      p += len + (p[len] == ',');
    }
  } else {
    /* 1 B, odd sizes below and above the put threshold and the AM Medium
     * size, 4 KiB, 64 KiB, 1 MiB. */
    static const size_t dflt[] = {1, 13, 4096, 12345, 65536, 70001, (size_t)1 << 20};
    for (size_t i = 0; i < sizeof dflt / sizeof dflt[0]; i++) sizes[nsizes++] = dflt[i];
  }

  heap_dst = malloc(ARENA_BYTES + 64);
  heap_src = malloc(ARENA_BYTES + 64);
  model_dst = malloc(ARENA_BYTES);
  model_src = malloc(ARENA_BYTES);
  TEST_CHECK(heap_dst && heap_src && model_dst && model_src, "out of memory");
  rng_state = test_mix(0x7e57c011u, ME) | 1;

  static const char *const level_names[] = {"small", "medium", "full", "all"};
  test_print0("testcoll: config %s, %u nodes, level %s, max segment needed %lu\n", cfg->name,
              (unsigned)N, level_names[level], (unsigned long)segsize);
  for (int o = 0; o < OP_COUNT; o++)
    if (getenv(op_env[o])) test_print0("  %s=%s\n", op_env[o], getenv(op_env[o]));
  if (getenv("GASNET_COLL_TREE_RADIX"))
    test_print0("  GASNET_COLL_TREE_RADIX=%s\n", getenv("GASNET_COLL_TREE_RADIX"));

  if (expect_nodes && (long)N != expect_nodes)
    test_print0("testcoll: the -S choices are for %ld nodes, not checked at %u\n", expect_nodes,
                (unsigned)N);
  else
    for (int i = 0; i < nexpect; i++) check_selection(expect_sel[i]);

  uint32_t it = 0;
  for (int op = 0; op < OP_COUNT; op++) {
    if (!op_enabled[op]) continue;
    double t0 = test_now();
    unsigned long before = collectives_run;
    for (int mode = 0; mode < 9; mode++) {
      for (int si = 0; si < nsizes; si++) {
        if (!size_list && !size_runs(level, sizes[si], mode, op)) continue;
        if (sizes[si] * N > MAX_REGION) continue;
        for (int v = 0; v < V_COUNT; v++) {
          if (!variant_runs(level, op, mode, si, (variant_t)v)) continue;
          coll_t c;
          build_coll(&c, op, mode / 3, mode % 3, sizes[si], (variant_t)v, it++);
          if (c.single && static_differs) continue;
          run_one(&c);
        }
      }
    }
    test_print0("  %-10s %5lu collectives ok (%.2fs)\n", op_names[op], collectives_run - before,
                test_now() - t0);
  }
  test_print0("testcoll: %lu collectives, %lu remote OUT_ALLSYNC checks on node 0\n",
              collectives_run, remote_checks);
  test_finish("testcoll");
}
