/* testteam: teams. Every node makes the same sequence of teams:
 *   evenodd   split(ALL, node % 2, node)        two halves (one at 1 node)
 *   reversed  split(ALL, 0, N-1-node)           every node, ranks reversed
 *   uneven    split(ALL, node < (N+2)/3, node)  a small and a large team
 *   solo      split(ALL, node, 0)               one member each
 *   nested    split(evenodd, rank % 2, size-1-rank)   a split of a split
 *   list      create(ALL, {N-1, .., 0} without nodes = 1 mod 3)
 * and checks each against the membership it computes itself: size,
 * rank <-> node both ways, the team's view of who is where (a gather_all
 * of node numbers over the team), and that the handle and id have the same
 * bits on every member.
 *
 * Then rounds of collectives: in each round every node starts the round's
 * op (broadcast, scatter, gather, gather_all, exchange, reduce, scan) on
 * GASNET_TEAM_ALL and on each of its teams, in the same team order, blocking
 * or _nb, so several teams' collectives are in flight at once; sizes,
 * roots (team ranks), the nine sync modes and the addressing (LOCAL,
 * LOCAL in the segment with SRC/DST_IN_SEGMENT, SINGLE) rotate. Results
 * are checked byte for byte against data every rank can compute.
 *
 * Then team barriers (named, anonymous, mixed, a mismatch of ids, the
 * MISMATCH flag, split phase with try, a barrier open across a collective
 * on ALL), the profile (its call counts are checked), the tuning dump, and
 * freeing every team and making new ones.
 *
 * Usage: testteam [-r ROUNDS] */
#define _POSIX_C_SOURCE 200809L
#include "coll_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static gasnet_node_t N, ME;

enum { SLOT_ALL, SLOT_EVENODD, SLOT_REVERSED, SLOT_UNEVEN, SLOT_SOLO, SLOT_NESTED, SLOT_LIST,
       SLOT_COUNT };
static const char *const slot_names[SLOT_COUNT] = {"all",  "evenodd", "reversed", "uneven",
                                                   "solo", "nested",  "list"};

typedef struct {
  gasnet_team_handle_t team; /* NULL: this node is in no team of this slot */
  gasnet_node_t size, rank;
  gasnet_node_t members[256]; /* rank -> node, as this node expects it */
} team_t;
static team_t teams[SLOT_COUNT];

/* ------------------------------------------------------------ expected membership */
static gasnet_node_t uneven_cut(void) { return (gasnet_node_t)((N + 2) / 3); }

static gasnet_node_t list_members(gasnet_node_t *out) {
  gasnet_node_t n = 0;
  for (gasnet_node_t i = N; i-- > 0;)
    if (i % 3 != 1) out[n++] = i;
  return n;
}

/* The members of this node's team in slot s, in rank order; 0 if none. */
static gasnet_node_t expected_members(int s, gasnet_node_t *out) {
  gasnet_node_t n = 0;
  switch (s) {
    case SLOT_ALL:
      for (gasnet_node_t i = 0; i < N; i++) out[n++] = i;
      return n;
    case SLOT_EVENODD:
      for (gasnet_node_t i = 0; i < N; i++)
        if (i % 2 == ME % 2) out[n++] = i;
      return n;
    case SLOT_REVERSED:
      for (gasnet_node_t i = N; i-- > 0;) out[n++] = i;
      return n;
    case SLOT_UNEVEN:
      for (gasnet_node_t i = 0; i < N; i++)
        if ((i < uneven_cut()) == (ME < uneven_cut())) out[n++] = i;
      return n;
    case SLOT_SOLO: out[0] = ME; return 1;
    case SLOT_NESTED: {
      gasnet_node_t parent[256], p = expected_members(SLOT_EVENODD, parent), prank = 0;
      for (gasnet_node_t j = 0; j < p; j++)
        if (parent[j] == ME) prank = j;
      for (gasnet_node_t j = p; j-- > 0;) /* relrank p-1-j: descending parent rank */
        if (j % 2 == prank % 2) out[n++] = parent[j];
      return n;
    }
    case SLOT_LIST: {
      gasnet_node_t all[256], m = list_members(all);
      for (gasnet_node_t j = 0; j < m; j++)
        if (all[j] == ME) {
          memcpy(out, all, m * sizeof *all);
          return m;
        }
      return 0;
    }
    default: break;
  }
  return 0;
}

static void *slot_tag(int s) { return (void *)&slot_names[s]; }

/* Every node makes the teams in the same order. */
static void make_teams(void) {
  teams[SLOT_ALL].team = GASNET_TEAM_ALL;
  teams[SLOT_EVENODD].team = gasnet_coll_team_split(GASNET_TEAM_ALL, ME % 2, ME, slot_tag(1));
  teams[SLOT_REVERSED].team = gasnet_coll_team_split(GASNET_TEAM_ALL, 0, N - 1 - ME, slot_tag(2));
  teams[SLOT_UNEVEN].team =
      gasnet_coll_team_split(GASNET_TEAM_ALL, ME < uneven_cut(), ME, slot_tag(3));
  teams[SLOT_SOLO].team = gasnet_coll_team_split(GASNET_TEAM_ALL, ME, 0, slot_tag(4));
  gasnet_team_handle_t eo = teams[SLOT_EVENODD].team;
  gasnet_node_t r = gasnet_coll_team_node2rank(eo, ME), sz = gasnet_coll_team_size(eo);
  teams[SLOT_NESTED].team = gasnet_coll_team_split(eo, r % 2, sz - 1 - r, slot_tag(5));
  gasnet_node_t list[256], m = list_members(list);
  teams[SLOT_LIST].team = gasnet_coll_team_create(GASNET_TEAM_ALL, m, list);
}

/* What the team itself says about its members, against the expectation. */
static void check_team(int s) {
  team_t *t = &teams[s];
  gasnet_node_t want = expected_members(s, t->members);
  if (!want) {
    TEST_CHECK(t->team == NULL, "%s: node %u is not a member but got a team", slot_names[s],
               (unsigned)ME);
    return;
  }
  TEST_CHECK(t->team != NULL, "%s: node %u is a member but got no team", slot_names[s],
             (unsigned)ME);
  t->size = gasnet_coll_team_size(t->team);
  TEST_CHECK(t->size == want, "%s: size %u, expected %u", slot_names[s], (unsigned)t->size,
             (unsigned)want);
  t->rank = gasnet_coll_team_node2rank(t->team, ME);
  for (gasnet_node_t i = 0; i < want; i++) {
    gasnet_node_t node = gasnet_coll_team_rank2node(t->team, (int)i);
    TEST_CHECK(node == t->members[i], "%s: rank %u is node %u, expected node %u", slot_names[s],
               (unsigned)i, (unsigned)node, (unsigned)t->members[i]);
    TEST_CHECK(gasnet_coll_team_node2rank(t->team, node) == i, "%s: node2rank(%u) != %u",
               slot_names[s], (unsigned)node, (unsigned)i);
  }
  if (s != SLOT_ALL && s != SLOT_LIST)
    TEST_CHECK(gasnet_coll_team_clientdata(t->team) == slot_tag(s), "%s: clientdata lost",
               slot_names[s]);
  /* Each rank publishes its node, handle bits and id; all must agree. */
  uint64_t mine[3] = {ME, (uint64_t)(uintptr_t)t->team, gasnet_coll_team_id(t->team)};
  uint64_t *all = calloc(want, sizeof mine);
  TEST_CHECK(all != NULL, "out of memory");
  gasnet_coll_gather_all(t->team, all, mine, sizeof mine,
                         GASNET_COLL_IN_ALLSYNC | GASNET_COLL_OUT_ALLSYNC | GASNET_COLL_LOCAL);
  for (gasnet_node_t i = 0; i < want; i++) {
    TEST_CHECK(all[3 * i] == t->members[i], "%s: rank %u reports node %llu, expected %u",
               slot_names[s], (unsigned)i, (unsigned long long)all[3 * i],
               (unsigned)t->members[i]);
    TEST_CHECK(all[3 * i + 1] == mine[1] && all[3 * i + 2] == mine[2],
               "%s: rank %u has handle 0x%llx id %llu, rank %u has 0x%llx id %llu", slot_names[s],
               (unsigned)i, (unsigned long long)all[3 * i + 1], (unsigned long long)all[3 * i + 2],
               (unsigned)t->rank, (unsigned long long)mine[1], (unsigned long long)mine[2]);
  }
  free(all);
}

/* ------------------------------------------------------------ rounds */
#define OP_REDUCE OP_COUNT
#define OP_SCAN (OP_COUNT + 1)
#define NOPS (OP_COUNT + 2)
static const char *const all_op_names[NOPS] = {"broadcast", "scatter", "gather", "gather_all",
                                               "exchange",  "reduce",  "scan"};
static const size_t sizes[] = {1, 8, 100, 3000, 9000, 66000};
#define NSIZES (sizeof sizes / sizeof sizes[0])
#define REGION ((size_t)2 << 20) /* per slot: src, then dst at REGION / 2 */

static unsigned char static_pool[SLOT_COUNT * REGION] __attribute__((aligned(64)));
static int single_ok;
static uint64_t issued[SLOT_COUNT][NOPS]; /* calls made on each team, for the profile */

typedef struct {
  int op, flags, blocking;
  size_t nbytes; /* data ops: bytes per block; reduce/scan: elements */
  gasnet_node_t root;
  uint32_t seed;
  unsigned char *src, *dst;
} call_t;

static int64_t elem_value(uint32_t seed, uint64_t i) {
  return (int64_t)(coll_word(seed, i) % 2001) - 1000;
}

/* Reduce/scan layout: blocks of 3 elements dealt from offset 1. */
#define RED_BLK 3
#define RED_OFF 1
static gasnet_node_t red_owner(uint64_t i, gasnet_node_t n) { return ((RED_OFF + i) / RED_BLK) % n; }
static size_t red_local(uint64_t i, gasnet_node_t n) {
  uint64_t g = RED_OFF + i;
  return (size_t)((g / RED_BLK / n) * RED_BLK + g % RED_BLK);
}

static void fill_call(const team_t *t, call_t *c) {
  gasnet_node_t n = t->size;
  if (c->op < OP_COUNT) {
    memset(c->dst, 0xa5, op_dst_len(c->op, c->nbytes, n));
    if (op_uses_src(c->op, c->root, t->rank)) coll_fill_src(c->op, c->seed, c->nbytes, n, t->rank, c->src);
    return;
  }
  int64_t *src = (int64_t *)c->src, *dst = (int64_t *)c->dst;
  memset(dst, 0xa5, (c->nbytes + RED_BLK) * sizeof *dst);
  for (uint64_t i = 0; i < c->nbytes; i++)
    if (red_owner(i, n) == t->rank) src[red_local(i, n)] = elem_value(c->seed, i);
}

static gasnet_coll_handle_t start_call(const team_t *t, const call_t *c) {
  gasnet_team_handle_t T = t->team;
  gasnet_image_t r = (gasnet_image_t)c->root;
  const int I64 = GASNET_COLL_TYPE_INT64;
  if (c->op == OP_REDUCE) {
    if (c->blocking) {
      gasnet_coll_reduce(T, r, c->dst, c->src, RED_BLK, RED_OFF, 8, c->nbytes, 0, I64, c->flags);
      return GASNET_COLL_INVALID_HANDLE;
    }
    return gasnet_coll_reduce_nb(T, r, c->dst, c->src, RED_BLK, RED_OFF, 8, c->nbytes, 0, I64,
                                 c->flags);
  }
  if (c->op == OP_SCAN) {
    int f = c->flags | GASNET_COLL_INCLUSIVE_SCAN;
    if (c->blocking) {
      gasnet_coll_scan(T, c->dst, RED_BLK, RED_OFF, c->src, RED_BLK, RED_OFF, 8, c->nbytes, 0, I64, f);
      return GASNET_COLL_INVALID_HANDLE;
    }
    return gasnet_coll_scan_nb(T, c->dst, RED_BLK, RED_OFF, c->src, RED_BLK, RED_OFF, 8, c->nbytes,
                               0, I64, f);
  }
  if (c->blocking) {
    switch (c->op) {
      case OP_BCAST: gasnet_coll_broadcast(T, c->dst, r, c->src, c->nbytes, c->flags); break;
      case OP_SCATTER: gasnet_coll_scatter(T, c->dst, r, c->src, c->nbytes, c->flags); break;
      case OP_GATHER: gasnet_coll_gather(T, r, c->dst, c->src, c->nbytes, c->flags); break;
      case OP_GATHER_ALL: gasnet_coll_gather_all(T, c->dst, c->src, c->nbytes, c->flags); break;
      default: gasnet_coll_exchange(T, c->dst, c->src, c->nbytes, c->flags); break;
    }
    return GASNET_COLL_INVALID_HANDLE;
  }
  switch (c->op) {
    case OP_BCAST: return gasnet_coll_broadcast_nb(T, c->dst, r, c->src, c->nbytes, c->flags);
    case OP_SCATTER: return gasnet_coll_scatter_nb(T, c->dst, r, c->src, c->nbytes, c->flags);
    case OP_GATHER: return gasnet_coll_gather_nb(T, r, c->dst, c->src, c->nbytes, c->flags);
    case OP_GATHER_ALL: return gasnet_coll_gather_all_nb(T, c->dst, c->src, c->nbytes, c->flags);
    default: return gasnet_coll_exchange_nb(T, c->dst, c->src, c->nbytes, c->flags);
  }
}

static void check_reduction(int s, const team_t *t, const call_t *c) {
  const int64_t *dst = (const int64_t *)c->dst;
  int64_t sum = 0;
  for (uint64_t i = 0; i < c->nbytes; i++) {
    sum += elem_value(c->seed, i);
    if (c->op == OP_SCAN && red_owner(i, t->size) == t->rank)
      TEST_CHECK(dst[red_local(i, t->size)] == sum,
                 "team %s, scan of %zu: element %llu is %lld, expected %lld (rank %u)",
                 slot_names[s], c->nbytes, (unsigned long long)i,
                 (long long)dst[red_local(i, t->size)], (long long)sum, (unsigned)t->rank);
  }
  if (c->op == OP_REDUCE && t->rank == c->root)
    TEST_CHECK(dst[0] == sum, "team %s, reduce of %zu to rank %u: %lld, expected %lld",
               slot_names[s], c->nbytes, (unsigned)c->root, (long long)dst[0], (long long)sum);
}

static void check_call(int s, const team_t *t, const call_t *c) {
  if (c->op >= OP_COUNT) {
    check_reduction(s, t, c);
    return;
  }
  if (!op_uses_dst(c->op, c->root, t->rank)) return;
  uint32_t seed = 0;
  long bad = coll_dst_mismatch(c->op, c->seed, c->nbytes, c->root, t->size, t->rank, c->dst, &seed);
  TEST_CHECK(bad < 0, "team %s (rank %u of %u), %s of %zu bytes, root %u, flags 0x%x%s: dst "
             "byte %ld differs",
             slot_names[s], (unsigned)t->rank, (unsigned)t->size, op_names[c->op], c->nbytes,
             (unsigned)c->root, (unsigned)c->flags, c->blocking ? " (blocking)" : "", bad);
}

/* Round it: the same op on every team this node is in, in slot order. */
static void run_round(unsigned it) {
  call_t calls[SLOT_COUNT];
  gasnet_coll_handle_t handles[SLOT_COUNT];
  int op = (int)(it % NOPS);
  size_t nbytes = sizes[(it / NOPS) % NSIZES];
  int addressing = (int)(it % 3); /* 0 LOCAL, 1 LOCAL in segment, 2 SINGLE */
  if (addressing == 2 && !single_ok) addressing = 0;
  int flags = in_modes[it % 3] | out_modes[(it / 3) % 3];
  flags |= addressing == 2 ? GASNET_COLL_SINGLE : GASNET_COLL_LOCAL;
  if (addressing == 1) flags |= GASNET_COLL_SRC_IN_SEGMENT | GASNET_COLL_DST_IN_SEGMENT;
  unsigned char *base = addressing == 1 ? (unsigned char *)test_seg(ME) : static_pool;
  /* A slot's src and dst (up to nbytes per rank each) must not overlap. */
  while (nbytes > 1 && nbytes * N > REGION / 2) nbytes /= 2;
  if (op >= OP_COUNT) nbytes = nbytes / 8 + 1; /* elements */
  for (int s = 0; s < SLOT_COUNT; s++) {
    team_t *t = &teams[s];
    handles[s] = GASNET_COLL_INVALID_HANDLE;
    if (!t->team) continue;
    call_t *c = &calls[s];
    c->op = op;
    c->flags = flags;
    c->blocking = (int)((it / 2 + (unsigned)s) % 3 == 0);
    c->nbytes = nbytes;
    c->root = (gasnet_node_t)((it + (unsigned)s) % t->size);
    c->seed = test_mix(test_mix(it, (uint32_t)s), gasnet_coll_team_id(t->team));
    c->src = base + (size_t)s * REGION;
    c->dst = c->src + REGION / 2;
    fill_call(t, c);
  }
  /* Nothing may arrive early into a buffer still being filled above. */
  coll_barrier();
  for (int s = 0; s < SLOT_COUNT; s++)
    if (teams[s].team) {
      handles[s] = start_call(&teams[s], &calls[s]);
      issued[s][op]++;
    }
  gasnet_coll_wait_sync_all(handles, SLOT_COUNT);
  for (int s = 0; s < SLOT_COUNT; s++)
    if (teams[s].team) check_call(s, &teams[s], &calls[s]);
  coll_barrier(); /* every rank is done with its buffers before the next round refills them */
}

/* ------------------------------------------------------------ barriers */
static void expect_barrier(int s, int id, int flags, int want_rc, const char *what) {
  int rc = gasnet_coll_barrier(teams[s].team, id, flags);
  TEST_CHECK(rc == want_rc, "team %s, %s: barrier returned %d (%s), expected %d (%s)",
             slot_names[s], what, rc, gasnet_ErrorName(rc), want_rc, gasnet_ErrorName(want_rc));
}

static void check_result(int s, int want_rc, int want_id, const char *what) {
  int id = -1, rc = gasnet_coll_barrier_result(teams[s].team, &id);
  TEST_CHECK(rc == want_rc && (rc != 0 || id == want_id),
             "team %s, %s: barrier_result %d id %d, expected %d id %d", slot_names[s], what, rc,
             id, want_rc, want_id);
}

static void test_barriers_of(int s) {
  const team_t *t = &teams[s];
  const int ANON = GASNET_BARRIERFLAG_ANONYMOUS, MIS = GASNET_ERR_BARRIER_MISMATCH;
  int many = t->size > 1;
  expect_barrier(s, 77, 0, GASNET_OK, "named, same id");
  check_result(s, 0, 77, "named, same id");
  expect_barrier(s, 0, ANON, GASNET_OK, "anonymous");
  check_result(s, ANON, 0, "anonymous");
  /* Rank 0 anonymous, the others named 5: no mismatch, the name is 5. */
  expect_barrier(s, 5, t->rank == 0 ? ANON : 0, GASNET_OK, "mixed");
  if (many) check_result(s, 0, 5, "mixed");
  expect_barrier(s, (int)t->rank, 0, many ? MIS : GASNET_OK, "ids differ by rank");
  expect_barrier(s, 9, t->rank == t->size - 1 ? GASNET_BARRIERFLAG_MISMATCH : 0, MIS,
                 "MISMATCH flag from the last rank");
  expect_barrier(s, 10, 0, GASNET_OK, "named after a mismatch");
  /* A wait's flags need not repeat its notify's (GASNet 1.20 and later):
   * rank 0 notifies anonymously and waits by the name the others agree on,
   * then by another name (a mismatch for it alone); a named notify may be
   * waited on anonymously. */
  gasnet_coll_barrier_notify(t->team, 12, t->rank == 0 ? ANON : 0);
  int rc = gasnet_coll_barrier_wait(t->team, 12, 0);
  TEST_CHECK(rc == GASNET_OK, "team %s: anonymous notify, named wait: %d", slot_names[s], rc);
  gasnet_coll_barrier_notify(t->team, 13, t->rank == 0 ? ANON : 0);
  rc = gasnet_coll_barrier_wait(t->team, t->rank == 0 ? 14 : 13, 0);
  TEST_CHECK(rc == (t->rank == 0 && many ? MIS : GASNET_OK),
             "team %s: anonymous notify, wait by another name: %d", slot_names[s], rc);
  gasnet_coll_barrier_notify(t->team, 15, 0);
  rc = gasnet_coll_barrier_wait(t->team, 0, ANON);
  TEST_CHECK(rc == GASNET_OK, "team %s: named notify, anonymous wait: %d", slot_names[s], rc);
  check_result(s, 0, 15, "named notify, anonymous wait");
  /* Split phase, finished with try. */
  gasnet_coll_barrier_notify(t->team, 11, 0);
  while ((rc = gasnet_coll_barrier_try(t->team, 11, 0)) == GASNET_ERR_NOT_READY) continue;
  TEST_CHECK(rc == GASNET_OK, "team %s: try returned %d", slot_names[s], rc);
}

/* A team barrier open while a collective on ALL runs. */
static void test_barrier_across_collective(void) {
  gasnet_team_handle_t T = teams[SLOT_EVENODD].team;
  uint32_t mine = ME, *all = calloc(N, sizeof mine);
  TEST_CHECK(all != NULL, "out of memory");
  gasnet_coll_barrier_notify(T, 3, 0);
  gasnet_coll_gather_all(GASNET_TEAM_ALL, all, &mine, sizeof mine,
                         GASNET_COLL_IN_MYSYNC | GASNET_COLL_OUT_MYSYNC | GASNET_COLL_LOCAL);
  int rc = gasnet_coll_barrier_wait(T, 3, 0);
  TEST_CHECK(rc == GASNET_OK, "evenodd barrier across a gather_all on ALL returned %d", rc);
  for (gasnet_node_t i = 0; i < N; i++)
    TEST_CHECK(all[i] == i, "gather_all inside a team barrier: slot %u has %u", (unsigned)i,
               (unsigned)all[i]);
  free(all);
}

static void test_barriers(void) {
  for (int s = 1; s < SLOT_COUNT; s++)
    if (teams[s].team) test_barriers_of(s);
  test_barrier_across_collective();
}

/* ------------------------------------------------------------ diagnostics */
/* The profile of the evenodd team, read back: every op's call count must be
 * what this test issued (plus the gather_alls team creation and check_team
 * ran on it). */
static void test_profile(void) {
  const team_t *t = &teams[SLOT_EVENODD];
  char path[128];
  snprintf(path, sizeof path, "/tmp/testteam-profile-%ld-%u", (long)getpid(), (unsigned)ME);
  gasnet_coll_dumpProfile(path, t->team);
  gasnet_coll_dumpTuningState(NULL, t->team);
  if (t->rank != 0) return;
  FILE *f = fopen(path, "r");
  TEST_CHECK(f != NULL, "dumpProfile wrote no file %s", path);
  char line[256];
  int seen = 0;
  while (fgets(line, sizeof line, f)) {
    char name[64];
    unsigned long long calls, bytes;
    if (line[0] == '#' || sscanf(line, "%63s %llu %llu", name, &calls, &bytes) != 3) continue;
    for (int o = 0; o < NOPS; o++) {
      if (strcmp(name, all_op_names[o])) continue;
      /* nested was split from evenodd (one gather_all); check_team ran one. */
      uint64_t want = issued[SLOT_EVENODD][o] + (o == OP_GATHER_ALL ? 2 : 0);
      TEST_CHECK(calls == want, "profile of evenodd: %s calls %llu, expected %llu", name, calls,
                 (unsigned long long)want);
      seen++;
    }
  }
  fclose(f);
  unlink(path);
  TEST_CHECK(seen == NOPS, "profile lists %d of the %d ops", seen, NOPS);
}

/* ------------------------------------------------------------ freeing */
static void free_teams(void) {
  for (int s = SLOT_COUNT; s-- > 1;)
    if (teams[s].team) gasnet_coll_team_free(teams[s].team);
  memset(&teams[1], 0, sizeof(teams) - sizeof(teams[0]));
}

int main(int argc, char **argv) {
  unsigned rounds = 2 * NOPS * NSIZES;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-r") && i + 1 < argc) rounds = (unsigned)atoi(argv[++i]);
    else {
      fprintf(stderr, "usage: testteam [-r ROUNDS]\n");
      return 2;
    }
  }
  gasnet_handlerentry_t handlers[] = {{COLL_TEST_H_ADDR, (void (*)())coll_addr_handler}};
  test_init_handlers(&argc, &argv, (uintptr_t)SLOT_COUNT * REGION + (1 << 20), handlers, 1);
  N = gasnet_nodes();
  ME = gasnet_mynode();
  TEST_CHECK(N <= 256, "testteam runs on at most 256 nodes, not %u", (unsigned)N);
  static const gasnet_coll_fn_entry_t fns[] = {{gasnet_coll_fn_sum, GASNET_COLL_AMSAFE}};
  gasnet_coll_init(NULL, 0, fns, 1, 0);
  single_ok = coll_same_address_everywhere(static_pool);
  test_print0("testteam: %u nodes, %u rounds%s\n", (unsigned)N, rounds,
              single_ok ? "" : " (LOCAL only: the static pool differs in address)");

  make_teams();
  for (int s = 0; s < SLOT_COUNT; s++) check_team(s);
  test_print0("  teams: made and checked\n");
  for (unsigned it = 0; it < rounds; it++) run_round(it);
  test_print0("  collectives on every team at once: ok\n");
  test_barriers();
  test_print0("  team barriers: ok\n");
  coll_barrier();
  test_profile();
  test_print0("  profile: ok\n");

  /* Free every team, make them again, and run a round of each op on them. */
  coll_barrier();
  free_teams();
  make_teams();
  for (int s = 0; s < SLOT_COUNT; s++) check_team(s);
  for (unsigned it = 0; it < NOPS; it++) run_round(it + 5);
  test_barriers_of(SLOT_NESTED);
  coll_barrier();
  free_teams();
  test_print0("  freed and made again: ok\n");
  test_finish("testteam");
}
