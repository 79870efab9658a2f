/* testbarrier.c: the split-phase barrier.
 *
 * Usage: testbarrier [-barrier NAME] [-am] [-iters N] [-mismatch-iters N] [-poll-iters N]
 *
 *  1. anonymous and named barriers, gasnet_barrier_result;
 *  2. named and anonymous participants mixed (anonymous matches anything);
 *  3. mismatches, a result and never an error: chosen scenarios (a wait
 *     that does not repeat its notify, two, three or N different ids,
 *     named and anonymous mixed, _MISMATCH from one node), each with every
 *     node singled out in turn, by wait and by try, some with a late node;
 *     then N (default 400) barriers with random arguments. Every node
 *     checks its own return code and gasnet_barrier_result against the
 *     rules of GASNet 1.20 and later, and the barrier after each works;
 *  4. N barriers (default 2000) with AM traffic between notify and wait,
 *     some completed by gasnet_barrier_try loops, some with one node late;
 *     after each, every node checks (by a get) that every node had reached
 *     it and none is two ahead. In PAR a thread polls meanwhile, so
 *     handlers and barrier progress also run on it;
 *  5. gasnet_barrier(), and ids at the extremes of int;
 *  6. in PAR, N barriers back to back (-poll-iters, default 300000 at one
 *     node, where a barrier completes inside its notify, 500 above) while
 *     two threads do nothing but poll: a poll on another thread may then
 *     complete a barrier the moment notify has started it, which must not
 *     undo notify's own setup (an AM barrier once enabled its progress
 *     hook only after marking itself running, and a poll in between
 *     disabled a hook not yet enabled: a fatal error). */
#include "ext_test.h"

#include <limits.h>
#include <time.h>

#ifdef GASNET_PAR
#include <pthread.h>
#endif

enum { H_PING = 128, H_PONG };

static gasnet_node_t me, nodes;
static int iters = 2000, mismatch_iters = 400, poll_iters = -1;
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

static void short_sleep(long ns) {
  struct timespec ts = {0, ns};
  nanosleep(&ts, NULL);
}

/* ------------------------------------------------------------ 1, 2 */
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

/* ------------------------------------------------------------ 3: mismatches
 * Every node knows every node's arguments (each derives the same table),
 * so each computes what it must see by the rules of GASNet 1.20 and later
 * (docs/extended.md), modelled here apart from the library:
 *  - every node gets a mismatch when some node notified with
 *    GASNET_BARRIERFLAG_MISMATCH or two named notifies carry different ids;
 *  - a node whose wait/try is named (flags without ANONYMOUS) also gets one
 *    when its id is not the name the named notifies agreed on (there is
 *    none when every node was anonymous); the wait's flags need not repeat
 *    the notify's;
 *  - gasnet_barrier_result: 0 and the smallest named id when anyone
 *    notified named, else ANONYMOUS and this node's own notify id. */
typedef struct {
  int id, flags;           /* the notify */
  int wait_id, wait_flags; /* the wait or try */
} bar_args_t;

static bar_args_t *bar_args; /* one per node */

static void set_args(gasnet_node_t k, int id, int flags) {
  bar_args[k] = (bar_args_t){id, flags, id, flags};
}

static void expect_outcome(int *rc_p, int *anon_p, int *id_p) {
  int global = 0, named = 0, low = 0;
  for (gasnet_node_t k = 0; k < nodes; k++) {
    const bar_args_t *a = &bar_args[k];
    if (a->flags & GASNET_BARRIERFLAG_MISMATCH) global = 1;
    if (a->flags & GASNET_BARRIERFLAG_ANONYMOUS) continue;
    if (named && a->id != low) global = 1;
    if (!named || a->id < low) low = a->id;
    named = 1;
  }
  const bar_args_t *m = &bar_args[me];
  int local = !(m->wait_flags & GASNET_BARRIERFLAG_ANONYMOUS) && named && m->wait_id != low;
  *rc_p = global || local ? GASNET_ERR_BARRIER_MISMATCH : GASNET_OK;
  *anon_p = !named;
  *id_p = named ? low : m->id;
}

static void recovery_barrier(const char *what, int i) {
  gasnet_barrier_notify(i, 0);
  int rc = gasnet_barrier_wait(i, 0), id = -1;
  EXT_CHECK(rc == GASNET_OK, "%s %d: the barrier after it returned %s", what, i,
            gasnet_ErrorName(rc));
  EXT_CHECK(gasnet_barrier_result(&id) == 0 && id == i, "%s %d: the barrier after it: result id %d",
            what, i, id);
}

/* One barrier with bar_args; `late` (when < nodes) notifies late. */
static void run_args(const char *what, int i, int use_try, gasnet_node_t late) {
  const bar_args_t *m = &bar_args[me];
  if (me == late) short_sleep(200000);
  gasnet_barrier_notify(m->id, m->flags);
  int rc;
  if (use_try) {
    while ((rc = gasnet_barrier_try(m->wait_id, m->wait_flags)) == GASNET_ERR_NOT_READY)
      ext_pause();
  } else {
    rc = gasnet_barrier_wait(m->wait_id, m->wait_flags);
  }
  int want, want_anon, want_id, id = -1;
  expect_outcome(&want, &want_anon, &want_id);
  EXT_CHECK(rc == want,
            "%s %d (%s): notify(%d, 0x%x), %s(%d, 0x%x) returned %s, expected %s", what, i,
            use_try ? "try" : "wait", m->id, (unsigned)m->flags, use_try ? "try" : "wait",
            m->wait_id, (unsigned)m->wait_flags, gasnet_ErrorName(rc), gasnet_ErrorName(want));
  int r = gasnet_barrier_result(&id);
  EXT_CHECK((r != 0) == want_anon && (r == 0 || r == GASNET_BARRIERFLAG_ANONYMOUS) && id == want_id,
            "%s %d: gasnet_barrier_result gave %d and id %d, expected %s and id %d", what, i, r,
            id, want_anon ? "ANONYMOUS" : "0", want_id);
  recovery_barrier(what, i);
}

/* The scenarios, for one choice of `odd` (a node singled out). */
typedef enum {
  S_WAIT_OTHER_ID,      /* odd waits with another id */
  S_NOTIFY_ANON_WAIT_NAMED,
  S_NOTIFY_NAMED_WAIT_ANON,
  S_NOTIFY_ANON_WAIT_OTHER, /* odd: anonymous notify, wait named other than the agreed name */
  S_ANON_OTHER_ID,      /* odd: anonymous notify and wait with different ids: fine */
  S_WAIT_MISMATCH_FLAG, /* odd waits with GASNET_BARRIERFLAG_MISMATCH */
  S_ALL_WAIT_OTHER_ID,  /* every node waits with another id */
  S_ALL_DISTINCT,       /* every node its own id */
  S_THREE_IDS,          /* ids 0, 1, 2 by node modulo 3 */
  S_MIXED_AGREE,        /* anonymous and named mixed, the named agree */
  S_MIXED_TWO_IDS,      /* odd and the node after it named differently, the rest anonymous */
  S_MISMATCH_NAMED,     /* odd passes _MISMATCH, the others named alike */
  S_MISMATCH_ANON,      /* odd passes _MISMATCH | _ANONYMOUS, the others anonymous */
  S_ONE_NAMED,          /* odd is named, everybody else anonymous */
  S_ALL_ANON,           /* all anonymous, all ids different */
  S_EXTREMES,           /* INT_MIN on odd, INT_MAX on the others */
  S_COUNT
} scenario_t;

static const char *const scenario_names[S_COUNT] = {
    "wait with another id",    "anonymous notify, named wait",
    "named notify, anonymous wait", "anonymous notify, wait with another name",
    "anonymous notify and wait, other ids",
    "wait with _MISMATCH",     "every node waits with another id",
    "every node its own id",   "three ids",
    "named and anonymous, agreeing", "named and anonymous, two ids",
    "_MISMATCH from one node", "_MISMATCH from one anonymous node",
    "one named node",          "all anonymous",
    "INT_MIN and INT_MAX",
};

static void make_scenario(scenario_t s, gasnet_node_t odd, int i) {
  const int A = GASNET_BARRIERFLAG_ANONYMOUS, M = GASNET_BARRIERFLAG_MISMATCH;
  for (gasnet_node_t k = 0; k < nodes; k++) {
    const int is_odd = k == odd, base = 7000 + i;
    bar_args_t *a = &bar_args[k];
    switch (s) {
      case S_WAIT_OTHER_ID:
        set_args(k, base, 0);
        if (is_odd) a->wait_id = base + 1;
        break;
      case S_NOTIFY_ANON_WAIT_NAMED:
        set_args(k, base, is_odd ? A : 0);
        if (is_odd) a->wait_flags = 0;
        break;
      case S_NOTIFY_NAMED_WAIT_ANON:
        set_args(k, base, 0);
        if (is_odd) a->wait_flags = A;
        break;
      case S_NOTIFY_ANON_WAIT_OTHER:
        set_args(k, base, is_odd ? A : 0);
        if (is_odd) a->wait_flags = 0, a->wait_id = base + 1;
        break;
      case S_ANON_OTHER_ID:
        set_args(k, base, is_odd ? A : 0);
        if (is_odd) a->wait_id = base - 1;
        break;
      case S_WAIT_MISMATCH_FLAG:
        set_args(k, base, 0);
        if (is_odd) a->wait_flags = M;
        break;
      case S_ALL_WAIT_OTHER_ID:
        set_args(k, base, 0);
        a->wait_id = base + 1 + (int)k;
        break;
      case S_ALL_DISTINCT: set_args(k, base + (int)((k + odd) % nodes), 0); break;
      case S_THREE_IDS: set_args(k, base + (int)((k + odd) % 3), 0); break;
      case S_MIXED_AGREE: set_args(k, base, (k + odd) % 2 ? A : 0); break;
      case S_MIXED_TWO_IDS:
        set_args(k, base + is_odd, (is_odd || k == (odd + 1) % nodes) ? 0 : A);
        break;
      case S_MISMATCH_NAMED: set_args(k, base, is_odd ? M : 0); break;
      case S_MISMATCH_ANON: set_args(k, base + (int)k, is_odd ? (M | A) : A); break;
      case S_ONE_NAMED: set_args(k, is_odd ? base : -(int)k, is_odd ? 0 : A); break;
      case S_ALL_ANON: set_args(k, base + (int)k, A); break;
      case S_EXTREMES: set_args(k, is_odd ? INT_MIN : INT_MAX, 0); break;
      default: EXT_CHECK(0, "scenario %d", (int)s);
    }
  }
}

/* Random arguments, the same on every node (seeded by i): one to three
 * distinct ids, some anonymous, now and then _MISMATCH, a wait that does not
 * repeat its notify. */
static void make_random(int i) {
  uint32_t style = ext_mix(0xba11u, (uint32_t)i);
  const unsigned nids = 1 + style % 3, anon_pct = (style >> 4) % 80;
  const int mismatch_ok = (style >> 12) % 4 == 0, local_ok = (style >> 16) % 4 == 0;
  for (gasnet_node_t k = 0; k < nodes; k++) {
    uint32_t r = ext_mix(style, k);
    int flags = r % 100 < anon_pct ? GASNET_BARRIERFLAG_ANONYMOUS : 0;
    if (mismatch_ok && (r >> 8) % 8 == 0) flags |= GASNET_BARRIERFLAG_MISMATCH;
    set_args(k, (int)((r >> 12) % nids) - 1, flags);
    if (local_ok && (r >> 16) % 8 == 0) bar_args[k].wait_id ^= 1;
    if (local_ok && (r >> 20) % 8 == 0) bar_args[k].wait_flags ^= GASNET_BARRIERFLAG_ANONYMOUS;
  }
}

static void test_mismatch(void) {
  bar_args = calloc(nodes, sizeof(*bar_args));
  EXT_CHECK(bar_args != NULL, "out of memory");
  const int rounds = nodes < 4 ? 8 : 2 * (int)nodes;
  int count = 0;
  for (int i = 0; i < rounds; i++) {
    /* every node singled out, by wait and by try; now and then one late */
    const gasnet_node_t odd = (gasnet_node_t)i % nodes;
    const gasnet_node_t late = i % 3 ? nodes : (gasnet_node_t)(i / 3) % nodes;
    const int use_try = ((unsigned)i / nodes + (unsigned)i) & 1;
    for (int s = 0; s < S_COUNT; s++, count++) {
      make_scenario((scenario_t)s, odd, i);
      run_args(scenario_names[s], i, use_try, late);
    }
  }
  for (int i = 0; i < mismatch_iters; i++, count++) {
    make_random(i);
    run_args("random arguments", i, i % 3 == 1, i % 5 ? nodes : (gasnet_node_t)i % nodes);
  }
  free(bar_args);
  if (me == 0)
    printf("%s: %d barriers with chosen and random arguments checked against spec 1.8 on every "
           "node\n", ext_progname, count);
}

/* ------------------------------------------------------------ 4 */
#ifdef GASNET_PAR
static volatile int stop_polling;
static const int poll_yielding = 0, poll_spinning = 1;
/* Polls until stop_polling; yields between polls unless arg points to
 * poll_spinning. */
static void *poller(void *arg) {
  const int spin = arg && *(const int *)arg;
  while (!__atomic_load_n(&stop_polling, __ATOMIC_ACQUIRE)) {
    gasnet_AMPoll();
    if (!spin) ext_pause();
  }
  return NULL;
}
#endif

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

/* ------------------------------------------------------------ 6 */
#ifdef GASNET_PAR
static void test_pollers(void) {
  int n = poll_iters >= 0 ? poll_iters : nodes == 1 ? 300000 : 500;
  /* At one node nothing else needs the cores: the pollers spin, so that
   * their polls fall inside a notify as often as they can. */
  const int *how = nodes == 1 ? &poll_spinning : &poll_yielding;
  pthread_t threads[2];
  stop_polling = 0;
  for (int t = 0; t < 2; t++)
    EXT_CHECK(pthread_create(&threads[t], NULL, poller, (void *)how) == 0, "pthread_create");
  for (int i = 0; i < n; i++) {
    int flags = i % 2 ? GASNET_BARRIERFLAG_ANONYMOUS : 0;
    gasnet_barrier_notify(i, flags);
    expect_rc(gasnet_barrier_wait(i, flags), GASNET_OK, "barrier beside two polling threads", i);
  }
  __atomic_store_n(&stop_polling, 1, __ATOMIC_RELEASE);
  for (int t = 0; t < 2; t++) pthread_join(threads[t], NULL);
  if (me == 0) printf("%s: %d barriers beside two polling threads\n", ext_progname, n);
}
#endif

int main(int argc, char **argv) {
  static gasnet_handlerentry_t handlers[] = {
      {H_PING, (void (*)())ping_reqh},
      {H_PONG, (void (*)())pong_reph},
  };
  ext_parse_common(&argc, &argv);
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-iters") && i + 1 < argc) {
      iters = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "-mismatch-iters") && i + 1 < argc) {
      mismatch_iters = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "-poll-iters") && i + 1 < argc) {
      poll_iters = atoi(argv[++i]);
    } else {
      fprintf(stderr,
              "usage: %s [-barrier NAME] [-am] [-iters N] [-mismatch-iters N] [-poll-iters N]\n",
              ext_progname);
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
#ifdef GASNET_PAR
  test_pollers();
#endif

  ext_barrier(); /* every node has checked everything */
  if (me == 0) {
    const char *impl = getenv("GASNET_BARRIER");
    printf("%s: %u nodes, barrier %s: PASS\n", ext_progname, (unsigned)nodes,
           impl ? impl : "(default)");
  }
  ext_finish();
  return 0;
}
