/* testthreads.c (GASNET_PAR only): AMs from many threads at once.
 *
 * Per node, NWORKERS threads each send thousands of Short and Medium
 * requests to random nodes (self included) with a window of requests in
 * flight, and check every reply; one more thread does nothing but call
 * gasnet_AMPoll, as a client's progress thread would. Handlers run on
 * whichever thread polls; the counters they share are guarded by HSLs.
 * At the end every node checks it handled exactly what was sent to it.
 *
 * One Medium in LARGE_EVERY is close to gasnet_AMMaxMedium(), and its
 * request handler checks the payload, sleeps and checks it again: while it
 * sleeps the node's other threads deliver and release the messages behind
 * it, so a conduit that lends the payload's memory to a later message
 * before this handler returns (the smp conduit's payload buffers did,
 * whenever messages were released out of order) shows here. */
#include "test.h"

#ifndef GASNET_PAR
#error "testthreads tests the PAR library: build it with -DGASNET_PAR"
#endif

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>

#define NWORKERS 4
#define MSGS_PER_WORKER 3000
#define WINDOW 16 /* requests in flight per worker */
#define SMALL_MAX 2048 /* most Medium payloads: 0 to this many bytes */
#define LARGE_EVERY 8  /* one Medium in this many is near the Medium limit */
#define LARGE_NAP_NS 100000 /* a large request's handler sleeps this long */

enum { H_REQ_SHORT = TEST_HIDX_FIRST, H_REP_SHORT, H_REQ_MEDIUM, H_REP_MEDIUM };

/* Guarded by count_lock: what this node sent to / handled from each node. */
static gasnet_hsl_t count_lock = GASNET_HSL_INITIALIZER;
static uint64_t sent_to[GASNET_MAXNODES], recv_from[GASNET_MAXNODES];

/* Guarded by worker_lock[t]: replies seen by worker t. */
static gasnet_hsl_t worker_lock[NWORKERS];
static int replies[NWORKERS];

static int stop_progress;

static uint32_t msg_seed(gasnet_node_t from, gasnet_node_t to, int thread, int seq, int reply) {
  uint32_t h = test_mix(test_mix(0x7a7au, from), to);
  return test_mix(test_mix(test_mix(h, (uint32_t)thread), (uint32_t)seq), (uint32_t)reply);
}
static size_t medium_max; /* gasnet_AMMaxMedium() */
static size_t msg_size(int seq) {
  if (seq % LARGE_EVERY == LARGE_EVERY - 1) return medium_max - (size_t)seq * 131 % (medium_max / 4);
  return (size_t)seq * 131 % (SMALL_MAX + 1);
}

static void nap(long ns) {
  struct timespec ts = {0, ns};
  nanosleep(&ts, NULL);
}

static gasnet_node_t source_of(gasnet_token_t token) {
  gasnet_node_t src;
  GASNET_Safe(gasnet_AMGetMsgSource(token, &src));
  TEST_CHECK(src < TEST_NODES, "message from node %u", (unsigned)src);
  return src;
}

static void count_received(gasnet_node_t src) {
  gasnet_hsl_lock(&count_lock);
  recv_from[src]++;
  gasnet_hsl_unlock(&count_lock);
}

static void count_reply(int thread) {
  TEST_CHECK(thread >= 0 && thread < NWORKERS, "reply for thread %d", thread);
  gasnet_hsl_lock(&worker_lock[thread]);
  replies[thread]++;
  gasnet_hsl_unlock(&worker_lock[thread]);
}

/* ------------------------------------------------------------ handlers */

static void req_short_handler(gasnet_token_t token, gasnet_handlerarg_t thread,
                              gasnet_handlerarg_t seq, gasnet_handlerarg_t check) {
  gasnet_node_t src = source_of(token), me = TEST_MYNODE;
  TEST_CHECK((uint32_t)check == msg_seed(src, me, thread, seq, 0),
             "Short %d of thread %d on node %u: bad arg", (int)seq, (int)thread, (unsigned)src);
  count_received(src);
  GASNET_Safe(gasnet_AMReplyShort3(token, H_REP_SHORT, thread, seq,
                                   (gasnet_handlerarg_t)msg_seed(me, src, thread, seq, 1)));
}

static void rep_short_handler(gasnet_token_t token, gasnet_handlerarg_t thread,
                              gasnet_handlerarg_t seq, gasnet_handlerarg_t check) {
  gasnet_node_t src = source_of(token);
  TEST_CHECK((uint32_t)check == msg_seed(src, TEST_MYNODE, thread, seq, 1),
             "Short reply %d for thread %d from node %u: bad arg", (int)seq, (int)thread,
             (unsigned)src);
  count_reply(thread);
}

static void req_medium_handler(gasnet_token_t token, void *buf, size_t nbytes,
                               gasnet_handlerarg_t thread, gasnet_handlerarg_t seq) {
  gasnet_node_t src = source_of(token), me = TEST_MYNODE;
  TEST_CHECK(nbytes == msg_size(seq), "Medium %d: %zu bytes", (int)seq, nbytes);
  TEST_CHECK_PATTERN(buf, nbytes, msg_seed(src, me, thread, seq, 0), "Medium request payload");
  if (seq % LARGE_EVERY == LARGE_EVERY - 1) {
    nap(LARGE_NAP_NS);
    TEST_CHECK_PATTERN(buf, nbytes, msg_seed(src, me, thread, seq, 0),
                       "Medium request payload, again before its handler returns");
  }
  count_received(src);
  uint8_t *out = malloc(nbytes ? nbytes : 1);
  TEST_CHECK(out, "out of memory");
  test_fill(out, nbytes, msg_seed(me, src, thread, seq, 1));
  GASNET_Safe(gasnet_AMReplyMedium2(token, H_REP_MEDIUM, out, nbytes, thread, seq));
  free(out);
}

static void rep_medium_handler(gasnet_token_t token, void *buf, size_t nbytes,
                               gasnet_handlerarg_t thread, gasnet_handlerarg_t seq) {
  gasnet_node_t src = source_of(token);
  TEST_CHECK(nbytes == msg_size(seq), "Medium reply %d: %zu bytes", (int)seq, nbytes);
  TEST_CHECK_PATTERN(buf, nbytes, msg_seed(src, TEST_MYNODE, thread, seq, 1),
                     "Medium reply payload");
  count_reply(thread);
}

static gasnet_handlerentry_t handlers[] = {
    {H_REQ_SHORT, (void (*)())req_short_handler},
    {H_REP_SHORT, (void (*)())rep_short_handler},
    {H_REQ_MEDIUM, (void (*)())req_medium_handler},
    {H_REP_MEDIUM, (void (*)())rep_medium_handler},
};

/* ------------------------------------------------------------ threads */

static int replies_of(int t) {
  gasnet_hsl_lock(&worker_lock[t]);
  int r = replies[t];
  gasnet_hsl_unlock(&worker_lock[t]);
  return r;
}

static void *worker(void *arg) {
  int t = (int)(intptr_t)arg;
  gasnet_node_t me = TEST_MYNODE;
  uint64_t rng = ((uint64_t)me << 32) + (uint64_t)t + 1;
  uint8_t *out = malloc(medium_max);
  TEST_CHECK(out, "out of memory");
  for (int seq = 0; seq < MSGS_PER_WORKER; seq++) {
    gasnet_node_t dest = (gasnet_node_t)(test_rand(&rng) % TEST_NODES);
    GASNET_BLOCKUNTIL(replies_of(t) > seq - WINDOW);
    if (test_rand(&rng) & 1) {
      GASNET_Safe(gasnet_AMRequestShort3(dest, H_REQ_SHORT, t, seq,
                                         (gasnet_handlerarg_t)msg_seed(me, dest, t, seq, 0)));
    } else {
      test_fill(out, msg_size(seq), msg_seed(me, dest, t, seq, 0));
      GASNET_Safe(gasnet_AMRequestMedium2(dest, H_REQ_MEDIUM, out, msg_size(seq), t, seq));
    }
    gasnet_hsl_lock(&count_lock);
    sent_to[dest]++;
    gasnet_hsl_unlock(&count_lock);
  }
  GASNET_BLOCKUNTIL(replies_of(t) >= MSGS_PER_WORKER); /* main checks == */
  free(out);
  return NULL;
}

/* A client progress thread: polls until told to stop, yielding so that
 * oversubscribed nodes still get the cores. */
static void *progress(void *arg) {
  (void)arg;
  while (!__atomic_load_n(&stop_progress, __ATOMIC_ACQUIRE)) {
    GASNET_Safe(gasnet_AMPoll());
    sched_yield();
  }
  return NULL;
}

int main(int argc, char **argv) {
  pthread_t workers[NWORKERS], poller;
  for (int t = 0; t < NWORKERS; t++) gasnet_hsl_init(&worker_lock[t]);
  test_init_handlers(&argc, &argv, 0, handlers, (int)(sizeof handlers / sizeof handlers[0]));
  medium_max = gasnet_AMMaxMedium();
  test_barrier();
  double t0 = test_now();

  TEST_CHECK(pthread_create(&poller, NULL, progress, NULL) == 0, "pthread_create failed");
  for (int t = 0; t < NWORKERS; t++)
    TEST_CHECK(pthread_create(&workers[t], NULL, worker, (void *)(intptr_t)t) == 0,
               "pthread_create failed");
  for (int t = 0; t < NWORKERS; t++)
    TEST_CHECK(pthread_join(workers[t], NULL) == 0, "pthread_join failed");
  for (int t = 0; t < NWORKERS; t++)
    TEST_CHECK(replies_of(t) == MSGS_PER_WORKER, "worker %d got %d replies, sent %d", t,
               replies_of(t), MSGS_PER_WORKER);

  /* Every request was replied to, so every node has handled all it will. */
  gasnet_hsl_lock(&count_lock);
  uint64_t *sent = calloc(TEST_NODES, sizeof *sent), *recv = calloc(TEST_NODES, sizeof *recv);
  TEST_CHECK(sent && recv, "out of memory");
  memcpy(sent, sent_to, TEST_NODES * sizeof *sent);
  gasnet_hsl_unlock(&count_lock);
  test_barrier();
  gasnet_hsl_lock(&count_lock);
  memcpy(recv, recv_from, TEST_NODES * sizeof *recv);
  gasnet_hsl_unlock(&count_lock);
  test_check_counts(sent, recv, "testthreads requests");

  __atomic_store_n(&stop_progress, 1, __ATOMIC_RELEASE);
  TEST_CHECK(pthread_join(poller, NULL) == 0, "pthread_join failed");
  test_print0("testthreads: %d workers x %d requests per node in %.2fs\n", NWORKERS,
              MSGS_PER_WORKER, test_now() - t0);
  test_finish("testthreads");
}
