/* test_pace.c: the poll pacer of network conduits (src/gasnet_pace.h),
 * driven on a clock of its own: each "look" at the fake network costs a
 * set number of nanoseconds and finds what the test says, each poll of
 * the "client" takes its own time, so every decision is checked exactly.
 *
 * What must hold (docs/user-guide.md, "Polling over a network"):
 *  - a look cheaper than GASNETI_PACE_MIN_NS is never skipped;
 *  - a thread that polls without sending looks at every poll;
 *  - a sending thread, after an empty look that cost more, rests: the rest
 *    is twice the look's cost, doubles with each empty look in a row up to
 *    GASNETI_PACE_MAX_NS, and never lasts longer than that;
 *  - a look that finds work makes the next poll look, and the first empty
 *    look after it starts a rest again (it once did only on one look in
 *    GASNETI_PACE_SAMPLE_EVERY, so a network that had just delivered was
 *    looked at up to SAMPLE_EVERY times in a row);
 *  - with pacing off every poll looks;
 *  - requests a progress hook sends from inside gasnet_AMPoll (a
 *    collective's next step) do not count as the client sending, so they
 *    make no rest (src/gasnet_progress.c, linked in with stubs below).
 * Exits 0 when all hold, else prints the first difference and exits 1. */
#include "gasnet_pace.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* What the pacer reads from the library, provided here. */
GASNETI_THREAD_LOCAL unsigned gasneti_am_requests_issued;
int gasneti_pace_enabled = 1;
static int64_t fake_now_ns = 1000000;
int64_t gasneti_now_ns(void) { return fake_now_ns; }
/* What gasnet_progress.c reads, for the progress-hook check. */
int gasneti_attach_done = 1;
int gasneti_am_coalescing;
void gasneti_am_coalesce_polled(void) {}
int gasnetc_am_poll(void) { return 0; }
void gasneti_fatalerror(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  exit(1);
}

static struct {
  int64_t cost_ns; /* what a look costs */
  int finds;       /* what the next look finds */
  unsigned looks;  /* looks made */
} net;

static int look(int arg) {
  (void)arg;
  fake_now_ns += net.cost_ns;
  net.looks++;
  return net.finds;
}

static int failures;
static void expect(int ok, const char *what, long got, long want) {
  if (ok) return;
  if (failures++ < 8) fprintf(stderr, "test_pace: %s: got %ld, want %ld\n", what, got, want);
}

/* One poll of a client that spends work_ns between polls and sent a
 * request before it if `sending`. Returns whether the network was looked at. */
static int poll_once(gasneti_pace_t *pace, int sending, int64_t work_ns) {
  fake_now_ns += work_ns;
  if (sending) gasneti_am_requests_issued++;
  unsigned before = net.looks;
  gasneti_pace_poll(pace, look, 0);
  return net.looks != before;
}

/* A sending poll after the longest rest, and up to CLOCK_EVERY - 1 more
 * at the client's usual pace (a resting thread reads the clock at one
 * poll in that many while its polls keep their pace, so it may see the
 * end of a rest that many polls late after a long step): one must look. */
static int poll_after_longest_rest(gasneti_pace_t *pace) {
  if (poll_once(pace, 1, GASNETI_PACE_MAX_NS + 10)) return 1;
  for (unsigned i = 1; i < GASNETI_PACE_CLOCK_EVERY; i++)
    if (poll_once(pace, 1, 10)) return 1;
  return 0;
}

/* A fresh pacer over a network whose looks cost cost_ns and find nothing,
 * polled until it has learnt that cost (its sampled looks). */
static void start_learnt(gasneti_pace_t *pace, int64_t cost_ns) {
  *pace = (gasneti_pace_t){0};
  net.cost_ns = cost_ns;
  net.finds = 0;
  for (int i = 0; i < 2 * (int)GASNETI_PACE_SAMPLE_EVERY; i++) poll_once(pace, 1, 10);
}

static void cheap_network_is_never_skipped(void) {
  gasneti_pace_t pace;
  start_learnt(&pace, 30);
  net.looks = 0;
  for (int i = 0; i < 1000; i++) poll_once(&pace, 1, 10);
  expect(net.looks == 1000, "cheap network: looks in 1000 sending polls", net.looks, 1000);
}

static void waiting_thread_looks_every_time(void) {
  gasneti_pace_t pace;
  start_learnt(&pace, 400);
  poll_once(&pace, 1, 10); /* a send, then the wait for its answer */
  net.looks = 0;
  for (int i = 0; i < 100; i++) poll_once(&pace, 0, 10);
  expect(net.looks == 100, "dear network: looks in 100 polls that send nothing", net.looks, 100);
}

/* How long after an empty look the next sending poll looks again. */
static int64_t rest_after_empty_look(gasneti_pace_t *pace) {
  int64_t start = fake_now_ns;
  while (!poll_once(pace, 1, 10))
    if (fake_now_ns - start > 10 * (int64_t)GASNETI_PACE_MAX_NS) return -1;
  return fake_now_ns - net.cost_ns - start; /* the gap before this look began */
}

static void rests_grow_to_the_cap(void) {
  gasneti_pace_t pace;
  start_learnt(&pace, 400);
  net.finds = 1;
  expect(poll_after_longest_rest(&pace), "a poll after the longest rest looks", 0, 1);
  net.finds = 0;
  expect(poll_once(&pace, 1, 10), "the poll after a busy look looks", 0, 1);
  /* Empty looks in a row: rests of 2, 4, 8, ... times the look's cost up
   * to the cap, then the cap, each within a poll's step (10 ns) of it. */
  int64_t want = 2 * net.cost_ns;
  for (unsigned i = 0; i <= GASNETI_PACE_DOUBLINGS + 1; i++, want *= 2) {
    int64_t capped = want < GASNETI_PACE_MAX_NS ? want : GASNETI_PACE_MAX_NS;
    int64_t rest = rest_after_empty_look(&pace);
    expect(rest >= capped && rest <= capped + 10, "rest after an empty look", (long)rest,
           (long)capped);
  }
  expect(2 * net.cost_ns << GASNETI_PACE_DOUBLINGS >= GASNETI_PACE_MAX_NS,
         "a 400 ns look reaches the cap within the doublings", 0, 1);
}

static void busy_look_then_empty_look_rests(void) {
  gasneti_pace_t pace;
  start_learnt(&pace, 400);
  for (int round = 0; round < 40; round++) {
    net.finds = 1;
    expect(poll_after_longest_rest(&pace), "a poll after the longest rest looks", 0, 1);
    net.finds = 0;
    poll_once(&pace, 1, 10); /* looks (after work), finds nothing */
    expect(!poll_once(&pace, 1, 10), "a sending poll right after an empty look looks", 1, 0);
  }
}

static void pacing_off_looks_every_time(void) {
  gasneti_pace_t pace = {0};
  net.cost_ns = 400;
  net.finds = 0;
  gasneti_pace_enabled = 0;
  net.looks = 0;
  for (int i = 0; i < 500; i++) poll_once(&pace, 1, 10);
  gasneti_pace_enabled = 1;
  expect(net.looks == 500, "pacing off: looks in 500 sending polls", net.looks, 500);
}

/* A hook standing for a collective that sends its next message from the
 * poll: what gasneti_am_request counts. */
static int hook_sends(void *arg) {
  (void)arg;
  gasneti_am_requests_issued++;
  return 1;
}

static void hook_requests_are_not_the_clients(void) {
  gasneti_progress_hook_t *hook = gasneti_progress_register("test", hook_sends, NULL);
  gasneti_progress_enable(hook);
  unsigned before = gasneti_am_requests_issued;
  gasnet_AMPoll();
  expect(gasneti_am_requests_issued == before, "requests counted after a poll whose hook sent",
         (long)(gasneti_am_requests_issued - before), 0);
  gasneti_am_requests_issued++; /* the client's own request between polls */
  gasnet_AMPoll();
  expect(gasneti_am_requests_issued == before + 1, "the client's request still counted",
         (long)(gasneti_am_requests_issued - before), 1);
  gasneti_progress_disable(hook);
}

int main(void) {
  cheap_network_is_never_skipped();
  waiting_thread_looks_every_time();
  rests_grow_to_the_cap();
  busy_look_then_empty_look_rests();
  pacing_off_looks_every_time();
  hook_requests_are_not_the_clients();
  if (failures) {
    fprintf(stderr, "test_pace: %d checks failed\n", failures);
    return 1;
  }
  printf("test_pace: all checks passed\n");
  return 0;
}
