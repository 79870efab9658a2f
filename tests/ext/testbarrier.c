/* testbarrier.c: the split-phase barrier.
 *
 * Usage: testbarrier [-barrier NAME] [-am] [-iters N]
 *
 *  1. anonymous and named barriers, gasnet_barrier_result;
 *  2. named and anonymous participants mixed (anonymous matches anything);
 *  3. mismatches: differing ids, GASNET_BARRIERFLAG_MISMATCH; every node
 *     must get GASNET_ERR_BARRIER_MISMATCH, and the next barrier is fine;
 *  4. N barriers (default 2000) with AM traffic between notify and wait,
 *     some completed by gasnet_barrier_try loops, some with one node late;
 *     after each, every node checks (by a get) that every node had reached
 *     it and none is two ahead. In PAR a thread polls meanwhile, so
 *     handlers and barrier progress also run on it;
 *  5. gasnet_barrier(), and ids at the extremes of int. */
#include "ext_test.h"

#include <limits.h>
#include <time.h>

#ifdef GASNET_PAR
#include <pthread.h>
#endif

enum { H_PING = 128, H_PONG };

static gasnet_node_t me, nodes;
static int iters = 2000;
static uint32_t pings_sent, pongs;    /* pongs: atomic */
static uint32_t pings_received;      /* atomic */

static void ping_reqh(gasnet_token_t token, gasnet_handlerarg_t a) {
  __atomic_add_fetch(&pings_received, 1, __ATOMIC_RELAXED);
  gasnet_AMReplyShort1(token, H_PONG, a);
}

static void pong_reph(gasnet_token_t token, gasnet_handlerarg_t a) {
  (void)token;
  (void)a;
  __atomic_add_fetch(&pongs, 1, __ATOMIC_RELEASE);
}

static void expect_rc(int rc, int want, const char *what, int i) {
  EXT_CHECK(rc == want, "%s, iteration %d: got %s, expected %s", what, i, gasnet_ErrorName(rc),
            gasnet_ErrorName(want));
}

/* ------------------------------------------------------------ 1, 2, 3 */
static void test_basic(void) {
  for (int i = 0; i < 100; i++) {
    gasnet_barrier_notify(i, GASNET_BARRIERFLAG_ANONYMOUS);
    expect_rc(gasnet_barrier_wait(i, GASNET_BARRIERFLAG_ANONYMOUS), GASNET_OK, "anonymous", i);
    int id = -1;
    EXT_CHECK(gasnet_barrier_result(&id) != 0, "anonymous barrier %d reported as named", i);
  }
  for (int i = 0; i < 100; i++) {
    int name = i * 7 + 1;
    gasnet_barrier_notify(name, 0);
    expect_rc(gasnet_barrier_wait(name, 0), GASNET_OK, "named", i);
    int id = -1;
    EXT_CHECK(gasnet_barrier_result(&id) == 0 && id == name, "named barrier %d: result id %d", i,
              id);
  }
}

static void test_mixed(void) {
  for (int i = 0; i < 100; i++) {
    int anon = (me + (unsigned)i) % 3 == 0, any_named = 0;
    for (gasnet_node_t k = 0; k < nodes; k++) any_named |= (k + (unsigned)i) % 3 != 0;
    int flags = anon ? GASNET_BARRIERFLAG_ANONYMOUS : 0, name = 1000 + i;
    gasnet_barrier_notify(anon ? -7 : name, flags);
    expect_rc(gasnet_barrier_wait(anon ? -7 : name, flags), GASNET_OK, "named+anonymous", i);
    int id = -1, r = gasnet_barrier_result(&id);
    if (any_named)
      EXT_CHECK(r == 0 && id == name, "mixed barrier %d: result %d id %d", i, r, id);
    else
      EXT_CHECK(r != 0, "mixed barrier %d: all anonymous, reported named", i);
  }
}

static void recovery_barrier(int i) {
  gasnet_barrier_notify(i, 0);
  expect_rc(gasnet_barrier_wait(i, 0), GASNET_OK, "barrier after a mismatch", i);
}

static void test_mismatch(void) {
  const int want = nodes > 1 ? GASNET_ERR_BARRIER_MISMATCH : GASNET_OK;
  for (int i = 0; i < 40; i++) {
    /* one node names another id */
    gasnet_node_t odd = (gasnet_node_t)i % nodes;
    int name = 5000 + i + (me == odd);
    gasnet_barrier_notify(name, 0);
    expect_rc(gasnet_barrier_wait(name, 0), want, "differing ids", i);
    recovery_barrier(i);
    /* two named ids differ, the others anonymous */
    int flags = (me == odd || me == (odd + 1) % nodes) ? 0 : GASNET_BARRIERFLAG_ANONYMOUS;
    name = 6000 + (me == odd);
    gasnet_barrier_notify(name, flags);
    if (i & 1) {
      int rc;
      while ((rc = gasnet_barrier_try(name, flags)) == GASNET_ERR_NOT_READY) ext_pause();
      expect_rc(rc, want, "differing ids among anonymous (try)", i);
    } else {
      expect_rc(gasnet_barrier_wait(name, flags), want, "differing ids among anonymous", i);
    }
    recovery_barrier(i);
    /* one node forces a mismatch; at any node count */
    flags = GASNET_BARRIERFLAG_ANONYMOUS | (me == odd ? GASNET_BARRIERFLAG_MISMATCH : 0);
    gasnet_barrier_notify(i, flags);
    expect_rc(gasnet_barrier_wait(i, flags), GASNET_ERR_BARRIER_MISMATCH,
              "GASNET_BARRIERFLAG_MISMATCH", i);
    recovery_barrier(i);
  }
}

/* ------------------------------------------------------------ 4 */
#ifdef GASNET_PAR
static volatile int stop_polling;
static void *poller(void *arg) {
  (void)arg;
  while (!__atomic_load_n(&stop_polling, __ATOMIC_ACQUIRE)) {
    gasnet_AMPoll();
    ext_pause();
  }
  return NULL;
}
#endif

static void short_sleep(long ns) {
  struct timespec ts = {0, ns};
  nanosleep(&ts, NULL);
}

static void send_pings(uint32_t *rnd, int count) {
  for (int k = 0; k < count; k++) {
    *rnd = ext_mix(*rnd, 5);
    gasnet_AMRequestShort1((gasnet_node_t)(*rnd % nodes), H_PING, (gasnet_handlerarg_t)k);
    pings_sent++;
  }
}

static void test_stress(void) {
  uint32_t *arrived = (uint32_t *)(void *)ext_seg(0); /* one word per node, on node 0 */
  uint32_t *seen = calloc(nodes, sizeof(uint32_t));
  EXT_CHECK(seen != NULL, "out of memory");
  uint32_t rnd = ext_mix(0x5eedu, me);
  long not_ready = 0;
#ifdef GASNET_PAR
  pthread_t poll_thread;
  stop_polling = 0;
  EXT_CHECK(pthread_create(&poll_thread, NULL, poller, NULL) == 0, "pthread_create");
#endif
  for (int i = 0; i < iters; i++) {
    gasnet_put_val(0, &arrived[me], (gasnet_register_value_t)(i + 1), sizeof(uint32_t));
    if (i % 7 == 3 && me == (gasnet_node_t)i % nodes) short_sleep(100000);
    int named = i % 3 != 0, flags = named ? 0 : GASNET_BARRIERFLAG_ANONYMOUS;
    gasnet_barrier_notify(i, flags);
    send_pings(&rnd, 2); /* AM traffic inside the split phase */
    int rc;
    if (i % 4 == 1) {
      while ((rc = gasnet_barrier_try(i, flags)) == GASNET_ERR_NOT_READY) {
        not_ready++;
        if (not_ready % 64 == 0) send_pings(&rnd, 1);
        ext_pause();
      }
    } else {
      rc = gasnet_barrier_wait(i, flags);
    }
    expect_rc(rc, GASNET_OK, "stress barrier", i);
    gasnet_get(seen, 0, arrived, nodes * sizeof(uint32_t));
    for (gasnet_node_t k = 0; k < nodes; k++)
      EXT_CHECK(seen[k] == (uint32_t)i + 1 || seen[k] == (uint32_t)i + 2,
                "after barrier %d node %u is at %u", i, (unsigned)k, seen[k]);
  }
  GASNET_BLOCKUNTIL(__atomic_load_n(&pongs, __ATOMIC_ACQUIRE) == pings_sent);
#ifdef GASNET_PAR
  __atomic_store_n(&stop_polling, 1, __ATOMIC_RELEASE);
  pthread_join(poll_thread, NULL);
#endif
  ext_barrier();
  /* Every ping sent was received: totals gathered on node 0. */
  uint32_t *totals = (uint32_t *)(void *)(ext_seg(0) + 4096);
  uint32_t mine[2] = {pings_sent, __atomic_load_n(&pings_received, __ATOMIC_RELAXED)};
  gasnet_put(0, &totals[2 * me], mine, sizeof(mine));
  ext_barrier();
  if (me == 0) {
    uint64_t sent = 0, received = 0;
    for (gasnet_node_t k = 0; k < nodes; k++) sent += totals[2 * k], received += totals[2 * k + 1];
    EXT_CHECK(sent == received, "%llu pings sent, %llu received", (unsigned long long)sent,
              (unsigned long long)received);
  }
  free(seen);
  if (me == 0)
    printf("%s: %d barriers with AM traffic; %ld try calls found them not ready (node 0)\n",
           ext_progname, iters, not_ready);
}

/* ------------------------------------------------------------ 5 */
static void test_combined(void) {
  static const int ids[] = {0, -1, 1, INT_MAX, INT_MIN, 0x12345678};
  for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
    expect_rc(gasnet_barrier(ids[i], 0), GASNET_OK, "gasnet_barrier", (int)i);
    int id = 0;
    EXT_CHECK(gasnet_barrier_result(&id) == 0 && id == ids[i], "gasnet_barrier(%d): result %d",
              ids[i], id);
  }
  if (nodes > 1) {
    expect_rc(gasnet_barrier(me == 0 ? INT_MIN : INT_MAX, 0), GASNET_ERR_BARRIER_MISMATCH,
              "gasnet_barrier with differing ids", 0);
  }
  expect_rc(gasnet_barrier(7, GASNET_BARRIERFLAG_ANONYMOUS), GASNET_OK, "gasnet_barrier anon", 0);
}

int main(int argc, char **argv) {
  static gasnet_handlerentry_t handlers[] = {
      {H_PING, (void (*)())ping_reqh},
      {H_PONG, (void (*)())pong_reph},
  };
  ext_parse_common(&argc, &argv);
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-iters") && i + 1 < argc) {
      iters = atoi(argv[++i]);
    } else {
      fprintf(stderr, "usage: %s [-barrier NAME] [-am] [-iters N]\n", ext_progname);
      return 2;
    }
  }
  ext_init(&argc, &argv, handlers, 2, 64 * 1024);
  me = gasnet_mynode();
  nodes = gasnet_nodes();
  ext_barrier();

  test_basic();
  test_mixed();
  test_mismatch();
  test_stress();
  test_combined();

  ext_barrier(); /* every node has checked everything */
  if (me == 0) {
    const char *impl = getenv("GASNET_BARRIER");
    printf("%s: %u nodes, barrier %s: PASS\n", ext_progname, (unsigned)nodes,
           impl ? impl : "(default)");
  }
  ext_finish();
  return 0;
}
