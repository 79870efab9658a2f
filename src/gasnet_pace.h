/* gasnet_pace.h: how often a conduit looks at a network whose look is a
 * system call, when nothing arrives.
 *
 * A client that polls before every send (an AM-based graph code) calls
 * gasnet_AMPoll millions of times a second. Over TCP each look at the
 * network is a system call that finds nothing (epoll_wait: 300-600 ns
 * here), and that dominates the client's loop. The pacer learns what
 * an empty look costs and, after one, lets the network rest for twice that
 * long: at most about a third of a sending loop goes to empty looks, and a
 * message waits at most that long (GASNETI_PACE_MAX_NS) beyond its
 * arrival. Any look that finds work makes the next poll look again, so a
 * busy network is looked at every time. Only a thread that has sent a
 * request since its previous poll is paced: one that polls in a loop
 * waiting for something (a round trip, a flag) looks every time, so its
 * latency is what it was. Looks cheaper than GASNETI_PACE_MIN_NS (a
 * shared-memory transport) are not paced at all. GASNET_POLL_PACE=no
 * turns pacing off: every poll looks.
 *
 * Per thread: in a PAR build each polling thread paces its own looks. */
#ifndef GASNET_PACE_H
#define GASNET_PACE_H

#include "gasnet_internal.h"

#include <stdint.h>

/* The longest rest after an empty look: bounds the latency pacing adds. */
#define GASNETI_PACE_MAX_NS 2000u
/* Looks cheaper than this are not paced: reading the clock would cost
 * about as much as it saves (a shared-memory transport's look is tens of
 * nanoseconds, an epoll_wait over TCP several hundred). */
#define GASNETI_PACE_MIN_NS 120u
/* Unpaced, one look in this many is timed, to notice a dearer network. */
#define GASNETI_PACE_SAMPLE_EVERY 16u

typedef struct {
  uint64_t next_ns; /* do not look before this time (0: look at every poll) */
  uint64_t cost_ns; /* what an empty look costs: a minimum that decays upward */
  unsigned looks;   /* unpaced looks, for sampling */
  unsigned issued;  /* gasneti_am_requests_issued at the previous poll */
} gasneti_pace_t;

static inline uint64_t gasneti_pace_now(void) { return (uint64_t)gasneti_now_ns(); }

/* Whether to look at the network now. *start is the time when this look is
 * to be timed, else 0; pass it to gasneti_pace_looked. */
static inline int gasneti_pace_due(gasneti_pace_t *pace, uint64_t *start) {
  if (!gasneti_pace_enabled) {
    *start = 0;
    return 1;
  }
  int sending = pace->issued != gasneti_am_requests_issued;
  pace->issued = gasneti_am_requests_issued;
  if (!pace->next_ns) {
    *start = ++pace->looks % GASNETI_PACE_SAMPLE_EVERY ? 0 : gasneti_pace_now();
    return 1;
  }
  /* Timed even when not sending: an empty look must restart the rest, or
   * the next sending poll would look too (frontier_a on ucx over TCP fell
   * from 18 to 14 M updates/s with such polls untimed). */
  *start = gasneti_pace_now();
  return !sending || *start >= pace->next_ns;
}

/* A slow look (a preemption, an interrupt) moves the estimate by 1/16 of
 * the difference; a faster one sets it. */
static inline void gasneti_pace_learn(gasneti_pace_t *pace, uint64_t sample) {
  if (!pace->cost_ns || sample < pace->cost_ns) pace->cost_ns = sample;
  else pace->cost_ns += (sample - pace->cost_ns) / 16;
}

/* After a look: `found` is what it delivered or completed. */
static inline void gasneti_pace_looked(gasneti_pace_t *pace, uint64_t start, int found) {
  if (found) {
    pace->next_ns = 0;
    return;
  }
  if (!start) return; /* an untimed look at a network not being paced */
  uint64_t end = gasneti_pace_now();
  gasneti_pace_learn(pace, end - start);
  if (pace->cost_ns < GASNETI_PACE_MIN_NS) {
    pace->next_ns = 0;
    return;
  }
  uint64_t rest = 2 * pace->cost_ns;
  pace->next_ns = end + (rest < GASNETI_PACE_MAX_NS ? rest : GASNETI_PACE_MAX_NS);
}

/* A conduit's poll of its network through the pacer: look(arg) returns
 * what it found, or -1 when another thread holds the network (that teaches
 * the pacer nothing). 0 when the look was skipped. */
static inline int gasneti_pace_poll(gasneti_pace_t *pace, int (*look)(int), int arg) {
  uint64_t start;
  if (!gasneti_pace_due(pace, &start)) return 0;
  int n = look(arg);
  if (n < 0) return 0;
  gasneti_pace_looked(pace, start, n);
  return n;
}

#endif
