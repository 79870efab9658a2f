/* coll_readfan.c: see coll_readfan.h. */
#include "patterns/coll_readfan.h"

#include <stdlib.h>

/* gasneti_xmem_available for every node of the job: a team's members are
 * among them, and the conduit's answer is the same on every node, so this
 * is too (every node must choose the same algorithm). */
static int gasnete_coll_xmem_all;
/* Whether this host's processor is AMD's (gasnete_coll_host_is_amd). */
static int gasnete_coll_host_amd;

static int gasnete_coll_cpu_is_amd(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  return __builtin_cpu_is("amd") != 0;
#else
  return 0;
#endif
}

void gasnete_coll_readfan_init(void) {
  int all = 1;
  for (gasnet_node_t n = 0; n < gasnet_nodes() && all; n++) all = gasneti_xmem_available(n);
  gasnete_coll_xmem_all = all;
  gasnete_coll_host_amd = gasnete_coll_cpu_is_amd();
}

int gasnete_coll_readfan_available(void) { return gasnete_coll_xmem_all; }

/* Any size may be forced (so tests reach small ones); the default rule
 * applies the threshold (ops/select_default.c). */
int gasnete_coll_direct_eligible(const gasnete_coll_args_t *args, const gasnete_coll_team_t *team) {
  (void)args;
  (void)team;
  return gasnete_coll_xmem_all;
}

int gasnete_coll_host_is_amd(void) { return gasnete_coll_host_amd; }

/* The root of a broadcast or scatter, once it has announced, only copies
 * its own block and then waits for its readers; each reader copies a whole
 * block. Balancing the two puts a share of about (1 - own copy / read) /
 * size of every block on the root. At 2 ranks on smp a 1 MiB direct
 * broadcast took a median 128 us with no share, 98 / 93 / 86 / 90 us with
 * 25 / 30 / 35 / 40 % (6 rounds each, alternated): 0.7 / size sits in the
 * flat middle of that range, and AMD hosts keep it (at 1 MiB on an AMD
 * EPYC host, 8 rounds alternated, 35 % took a median 101 us, 15 % 119;
 * from 64 KiB to 4 MiB the other points were within 0.89-1.08). On an
 * Intel Xeon host, where a copy costs nearly as much as a cross-memory
 * read, 10 / 15 / 20 / 25 / 35 % gave 43-44 /
 * 41-43 / 45-48 / 47-50 / 57 us for the broadcast and 44 / 49-50 / 56 /
 * 60-62 / 73-79 for the scatter, so 15 % there at 2 ranks; at 4 ranks (two
 * a core) 0.3 / size lost to 0.7 / size at 256 KiB, where a root that
 * takes more leaves its core to fewer readers (docs/performance.md,
 * "Direct reads from 64 KiB on Intel hosts"). */
unsigned gasnete_coll_readfan_root_share(gasnet_node_t size) {
  if (size < 2) return 0;
  if (size == 2 && !gasnete_coll_host_is_amd()) return 150u;
  return 700u / size;
}

/* A gather's root copies its own block and reads size - 1 blocks while
 * every other rank only waits: balanced, each of those writes about
 * (size - 1 + own copy / read) / size of its block. At 2 ranks a 1 MiB
 * direct gather took a median 188 us with no share, 137 / 109 / 119 us
 * with 40 / 60 / 80 % (4 rounds each): 1 - 0.8 / size gives the 60 %. */
unsigned gasnete_coll_readfan_leaf_share(gasnet_node_t size) {
  return size > 1 ? 1000u - 800u / size : 0;
}

#define READFAN_STEP_DATA 0u
#define READFAN_STEP_READY 1u
#define READFAN_STEP_NEED 2u
#define READFAN_STEP_DONE 3u
#define READFAN_STEP_WHERE 4u
#define READFAN_STEP_WRITTEN 5u

static uint32_t readfan_tag(uint32_t step) { return gasnete_coll_tag(GASNETE_COLL_TAG_ALG, step, 0); }

gasnete_coll_readfan_t *gasnete_coll_readfan_new(gasnete_coll_op_t *op, uint32_t nreads,
                                                 uint32_t nannounce, const void *buffer) {
  gasnet_node_t size = op->team->size;
  gasnete_coll_readfan_t *fan = gasnete_coll_calloc(1, sizeof(*fan));
  op->priv = fan;
  fan->my_buffer = buffer;
  fan->nannounce = nannounce;
  fan->announce = gasnete_coll_calloc(nannounce ? nannounce : 1, sizeof(gasnet_node_t));
  fan->reads = gasnete_coll_calloc(nreads ? nreads : 1, sizeof(gasnete_coll_read_t));
  fan->read_of = gasnete_coll_calloc(size, sizeof(int32_t));
  for (gasnet_node_t r = 0; r < size; r++) fan->read_of[r] = -1;
  fan->peer_base = gasnete_coll_calloc(size, sizeof(uint64_t));
  fan->peer_ready = gasnete_coll_calloc(size, 1);
  fan->need_off = gasnete_coll_calloc(size, sizeof(uint64_t));
  fan->need_len = gasnete_coll_calloc(size, sizeof(uint64_t));
  fan->need = gasnete_coll_calloc(size, 1);
  if (nannounce) fan->help = gasnete_coll_calloc(size, sizeof(gasnete_coll_help_t));
  return fan;
}

void gasnete_coll_readfan_add_read(gasnete_coll_readfan_t *fan, gasnet_node_t rank, void *dst,
                                   uint64_t offset) {
  fan->read_of[rank] = (int32_t)fan->nreads;
  fan->reads[fan->nreads++] = (gasnete_coll_read_t){rank, dst, offset, 0, 0, 0, 0};
  fan->reads_left++;
}

/* Where a read splits between this node (the head) and its server (the
 * tail): about the asked share at the tail, starting on a page boundary of
 * dst; all of it here when the tail would be empty. */
static size_t readfan_head(const gasnete_coll_readfan_t *fan, const gasnete_coll_read_t *rd,
                           size_t nbytes) {
  size_t want = (size_t)((uint64_t)nbytes * fan->share_permille / 1000u);
  if (!want) return nbytes;
  uintptr_t dst = (uintptr_t)rd->dst;
  uintptr_t split = (dst + nbytes - want + GASNET_PAGESIZE - 1) & ~(uintptr_t)(GASNET_PAGESIZE - 1);
  return split > dst && split < dst + nbytes ? (size_t)(split - dst) : nbytes;
}

/* Split every read and tell the servers of the tails where to write. */
static void readfan_ask_shares(gasnete_coll_readfan_t *fan, gasnete_coll_op_t *op) {
  size_t nbytes = op->args.nbytes;
  for (uint32_t i = 0; i < fan->nreads; i++) {
    gasnete_coll_read_t *rd = &fan->reads[i];
    rd->head = readfan_head(fan, rd, nbytes);
    if (rd->head == nbytes) continue;
    uint64_t where[3] = {(uint64_t)(uintptr_t)rd->dst + rd->head, rd->offset + rd->head,
                         nbytes - rd->head};
    gasnete_coll_send_data(op, rd->rank, readfan_tag(READFAN_STEP_WHERE), 0, where, sizeof(where));
  }
}

/* Ask for the shares and announce before copying this node's own block
 * (its first work, after which it writes the shares it was asked for):
 * every announced buffer is
 * a src, which the own copy only reads, so readers start at once and the
 * copy overlaps their reads instead of delaying them (a 1 MiB broadcast at
 * 2 ranks on smp: 170-230 us with the copy first, 130-156 after). */
static void readfan_start(gasnete_coll_readfan_t *fan, gasnete_coll_op_t *op) {
  if (!fan->announced) {
    fan->announced = 1;
    readfan_ask_shares(fan, op);
    for (uint32_t i = 0; i < fan->nannounce; i++)
      gasnete_coll_send_signal(op, fan->announce[i], readfan_tag(READFAN_STEP_READY),
                               (uint64_t)(uintptr_t)fan->my_buffer);
  }
  if (!fan->own_copied) {
    if (fan->own_dst && fan->own_dst != fan->own_src)
      memcpy(fan->own_dst, fan->own_src, op->args.nbytes);
    fan->own_copied = 1;
  }
}

/* Send its head to a reader whose read failed. */
static void readfan_serve_need(gasnete_coll_readfan_t *fan, gasnete_coll_op_t *op,
                               gasnet_node_t r) {
  uint8_t asked = 1;
  if (!__atomic_compare_exchange_n(&fan->need[r], &asked, 2, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    return;
  const char *block = (const char *)fan->my_buffer + fan->need_off[r];
  gasnete_coll_send_data(op, r, readfan_tag(READFAN_STEP_DATA), 0, block, fan->need_len[r]);
}

/* Write the tail a reader asked for; a refused write sends it in AM
 * chunks instead. */
static void readfan_write_share(gasnete_coll_readfan_t *fan, gasnete_coll_op_t *op,
                                gasnet_node_t r) {
  gasnete_coll_help_t *h = &fan->help[r];
  uint8_t asked = 1;
  if (!__atomic_compare_exchange_n(&h->state, &asked, 2, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    return;
  const char *tail = (const char *)fan->my_buffer + h->offset;
  size_t head = op->args.nbytes - (size_t)h->tail;
  if (!gasneti_xmem_write(gasnete_coll_rank2node(op->team, r), (void *)(uintptr_t)h->dst, tail,
                          (size_t)h->tail))
    gasnete_coll_send_signal(op, r, readfan_tag(READFAN_STEP_WRITTEN), h->tail);
  else
    gasnete_coll_send_data(op, r, readfan_tag(READFAN_STEP_DATA), head, tail, (size_t)h->tail);
}

/* What readers asked of this node, in one pass over the team: heads for
 * failed reads, tails to write (after this node's own copy, its first
 * work). Here, not in deliver (which may run inside an AM handler). */
static void readfan_serve(gasnete_coll_readfan_t *fan, gasnete_coll_op_t *op) {
  for (gasnet_node_t r = 0; r < op->team->size; r++) {
    readfan_serve_need(fan, op, r);
    if (fan->help) readfan_write_share(fan, op, r);
  }
}

/* The whole block is in once the head is and the server's tail too. */
static void readfan_finish_read(gasnete_coll_readfan_t *fan, gasnete_coll_op_t *op,
                                gasnete_coll_read_t *rd) {
  size_t tail = op->args.nbytes - rd->head;
  if (__atomic_load_n(&rd->tail_in, __ATOMIC_ACQUIRE) != tail) return;
  rd->state = 3;
  fan->reads_left--;
  gasnete_coll_send_signal(op, rd->rank, readfan_tag(READFAN_STEP_DONE), 0);
}

/* One read of the head, once its server has announced; a failed read asks
 * for those bytes instead. */
static void readfan_try_read(gasnete_coll_readfan_t *fan, gasnete_coll_op_t *op,
                             gasnete_coll_read_t *rd) {
  if (rd->state == 1 && __atomic_load_n(&rd->received, __ATOMIC_ACQUIRE) == rd->head)
    rd->state = 2;
  if (rd->state == 0 && __atomic_load_n(&fan->peer_ready[rd->rank], __ATOMIC_ACQUIRE)) {
    const void *src = (const void *)(uintptr_t)(fan->peer_base[rd->rank] + rd->offset);
    if (!gasneti_xmem_read(gasnete_coll_rank2node(op->team, rd->rank), rd->dst, src, rd->head)) {
      rd->state = 2;
    } else {
      uint64_t need[2] = {rd->offset, rd->head};
      rd->state = 1;
      gasnete_coll_send_data(op, rd->rank, readfan_tag(READFAN_STEP_NEED), 0, need, sizeof(need));
    }
  }
  if (rd->state == 2) readfan_finish_read(fan, op, rd);
}

gasnete_coll_progress_t gasnete_coll_readfan_progress(gasnete_coll_op_t *op) {
  gasnete_coll_readfan_t *fan = op->priv;
  readfan_start(fan, op);
  for (uint32_t i = 0; i < fan->nreads && fan->reads_left; i++)
    readfan_try_read(fan, op, &fan->reads[i]);
  readfan_serve(fan, op);
  /* Only a message (READY, WHERE, NEED, DATA, WRITTEN, DONE) changes that: */
  if (fan->reads_left || __atomic_load_n(&fan->done_received, __ATOMIC_ACQUIRE) < fan->nannounce)
    return GASNETE_COLL_WAITING;
  return GASNETE_COLL_DONE;
}

void gasnete_coll_readfan_deliver(gasnete_coll_op_t *op, const gasnete_coll_msg_t *msg) {
  gasnete_coll_readfan_t *fan = op->priv;
  gasnet_node_t from = msg->src_rank;
  switch (gasnete_coll_tag_step(msg->tag)) {
    case READFAN_STEP_READY:
      fan->peer_base[from] = msg->offset;
      __atomic_store_n(&fan->peer_ready[from], 1, __ATOMIC_RELEASE);
      return;
    case READFAN_STEP_NEED: {
      if (msg->nbytes != 2 * sizeof(uint64_t)) break;
      uint64_t need[2];
      memcpy(need, msg->data, sizeof(need));
      fan->need_off[from] = need[0];
      fan->need_len[from] = need[1];
      __atomic_store_n(&fan->need[from], 1, __ATOMIC_RELEASE);
      return;
    }
    case READFAN_STEP_WHERE: {
      if (!fan->help || msg->nbytes != 3 * sizeof(uint64_t)) break;
      gasnete_coll_help_t *h = &fan->help[from];
      uint64_t where[3];
      memcpy(where, msg->data, sizeof(where));
      h->dst = where[0];
      h->offset = where[1];
      h->tail = where[2];
      __atomic_store_n(&h->state, 1, __ATOMIC_RELEASE);
      return;
    }
    case READFAN_STEP_WRITTEN:
      if (fan->read_of[from] < 0) break;
      __atomic_fetch_add(&fan->reads[fan->read_of[from]].tail_in, msg->offset, __ATOMIC_ACQ_REL);
      return;
    case READFAN_STEP_DATA: {
      if (fan->read_of[from] < 0) break;
      gasnete_coll_read_t *rd = &fan->reads[fan->read_of[from]];
      memcpy((char *)rd->dst + msg->offset, msg->data, msg->nbytes);
      size_t *count = msg->offset < rd->head ? &rd->received : &rd->tail_in;
      __atomic_fetch_add(count, msg->nbytes, __ATOMIC_ACQ_REL);
      return;
    }
    case READFAN_STEP_DONE: __atomic_fetch_add(&fan->done_received, 1, __ATOMIC_ACQ_REL); return;
    default: break;
  }
  gasneti_fatalerror("%s (direct algorithm): unexpected message tag 0x%x from rank %u", op->call,
                     (unsigned)msg->tag, (unsigned)from);
}

void gasnete_coll_readfan_cleanup(gasnete_coll_op_t *op) {
  gasnete_coll_readfan_t *fan = op->priv;
  free(fan->announce);
  free(fan->reads);
  free(fan->read_of);
  free(fan->peer_base);
  free(fan->peer_ready);
  free(fan->need_off);
  free(fan->need_len);
  free(fan->need);
  free(fan->help);
  free(fan);
}
