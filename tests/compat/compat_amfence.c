/* compat_amfence.c: a barrier is a fence for active messages.
 *
 * As AM-based graph codes do: in every round each node floods Medium AMs
 * at random peers (its frontier), polls once, and enters an anonymous or
 * named barrier (wait, or try in a loop); right after the barrier it
 * expects every AM sent to it in the round to have run. How many each
 * node sends to whom is a function of the round, so every node knows what
 * it must have received without asking. Each handler checks its payload
 * (a buffer the sender reuses in the next round, so a late delivery would
 * read the next round's bytes), that it is not late (it belongs to the
 * receiver's current round or the next, which nodes that already left the
 * barrier may send), and adds to the round's tally.
 *
 * Usage: compat_amfence [ROUNDS [BARRIER]]   ROUNDS default 300; BARRIER
 * sets GASNET_BARRIER (the conformance suite's cases use it). Every node
 * prints "compat_amfence: node I/N OK". */
#include <gasnet.h>

#define H_FRONTIER 200
#define MAX_PER_PEER 24
#define MAX_PAYLOAD 512

static gasnet_node_t mynode, nodes;
static volatile unsigned round_now; /* the round this node is in */
static volatile unsigned long tally[2]; /* AMs of rounds of each parity run here */
static volatile unsigned long sums[2];  /* the sums of their payloads */
static volatile unsigned late;

static void die(const char *what, long detail) {
  fprintf(stderr, "compat_amfence: node %u: %s (%ld)\n", (unsigned)mynode, what, detail);
  fflush(stderr);
  gasnet_exit(1);
}

static uint32_t mix(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  return x ^ (x >> 16);
}

/* How many AMs `from` sends `to` in round r, and the k-th one's length. */
static unsigned sends(unsigned r, gasnet_node_t from, gasnet_node_t to) {
  return mix(r * 7919u + from * 104729u + to * 31u) % (MAX_PER_PEER + 1);
}
static size_t length(unsigned r, gasnet_node_t from, unsigned k) {
  return 8 + mix(r ^ (from << 20) ^ (k << 8)) % (MAX_PAYLOAD - 8);
}

static unsigned long payload_sum(const unsigned char *p, size_t n) {
  unsigned long s = 0;
  for (size_t i = 0; i < n; i++) s += p[i];
  return s;
}

static void frontier_handler(gasnet_token_t token, void *buf, size_t nbytes, gasnet_handlerarg_t r,
                             gasnet_handlerarg_t sum) {
  (void)token;
  unsigned round = (unsigned)r;
  if (round != round_now && round != round_now + 1) late++;
  if (payload_sum(buf, nbytes) != (unsigned long)(unsigned)sum) late++;
  tally[round % 2]++;
  sums[round % 2] += (unsigned long)(unsigned)sum;
}

static unsigned char *buffers[MAX_PER_PEER]; /* reused every round */

static void flood(unsigned r) {
  for (gasnet_node_t step = 0; step < nodes; step++) {
    gasnet_node_t to = (gasnet_node_t)((mynode + 1 + step + r) % nodes);
    unsigned n = sends(r, mynode, to);
    for (unsigned k = 0; k < n; k++) {
      size_t len = length(r, mynode, k);
      for (size_t i = 0; i < len; i++) buffers[k][i] = (unsigned char)mix(r + k * 131 + (unsigned)i);
      gasnet_AMRequestMedium2(to, H_FRONTIER, buffers[k], len, (gasnet_handlerarg_t)r,
                              (gasnet_handlerarg_t)payload_sum(buffers[k], len));
    }
  }
}

static void barrier(unsigned r) {
  int flags = r % 3 ? GASNET_BARRIERFLAG_ANONYMOUS : 0;
  gasnet_barrier_notify((int)r, flags);
  int rc;
  if (r % 2) {
    while ((rc = gasnet_barrier_try((int)r, flags)) == GASNET_ERR_NOT_READY) sched_yield();
  } else {
    rc = gasnet_barrier_wait((int)r, flags);
  }
  if (rc != GASNET_OK) die("barrier", rc);
}

/* What the others sent here in round r. */
static void expected(unsigned r, unsigned long *count_p, unsigned long *sum_p) {
  *count_p = *sum_p = 0;
  for (gasnet_node_t from = 0; from < nodes; from++) {
    unsigned n = sends(r, from, mynode);
    for (unsigned k = 0; k < n; k++) {
      size_t len = length(r, from, k);
      unsigned long s = 0;
      for (size_t i = 0; i < len; i++) s += (unsigned char)mix(r + k * 131 + (unsigned)i);
      *sum_p += (unsigned long)(unsigned)(uint32_t)s;
    }
    *count_p += n;
  }
}

int main(int argc, char **argv) {
  gasnet_handlerentry_t handlers[] = {{H_FRONTIER, (gasneti_handler_fn_t)frontier_handler}};
  if (argc > 2) setenv("GASNET_BARRIER", argv[2], 1);
  if (gasnet_init(&argc, &argv) != GASNET_OK) return 1;
  if (gasnet_attach(handlers, 1, 1 << 16, 0) != GASNET_OK) return 1;
  mynode = gasnet_mynode();
  nodes = gasnet_nodes();
  unsigned rounds = argc > 1 ? (unsigned)atoi(argv[1]) : 300;
  for (unsigned k = 0; k < MAX_PER_PEER; k++)
    if (!(buffers[k] = malloc(MAX_PAYLOAD))) die("out of memory", 0);
  for (unsigned r = 0; r < rounds; r++) {
    flood(r);
    gasnet_AMPoll();
    barrier(r);
    unsigned long want, want_sum;
    expected(r, &want, &want_sum);
    if (tally[r % 2] != want) {
      fprintf(stderr, "compat_amfence: node %u: round %u: %lu of %lu AMs had run when the "
              "barrier returned\n", (unsigned)mynode, r, tally[r % 2], want);
      die("an AM sent before the barrier had not run after it", (long)r);
    }
    if (sums[r % 2] != want_sum) die("payloads differ", (long)r);
    if (late) die("an AM ran after its round's barrier, or with a reused buffer", (long)r);
    tally[r % 2] = sums[r % 2] = 0;
    round_now = r + 1;
  }
  printf("compat_amfence: node %u/%u OK\n", (unsigned)mynode, (unsigned)nodes);
  fflush(stdout);
  gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
  if (gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS) != GASNET_OK) die("barrier", 0);
  gasnet_exit(0);
  return 0;
}
