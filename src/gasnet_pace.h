/* gasnet_pace.h: how often a conduit looks at a network whose look is a
 * system call, when nothing arrives.
 *
 * A client that polls before every send (an AM-based graph code) calls
 * gasnet_AMPoll millions of times a second. Over TCP each look at the
 * network is a system call that finds nothing (epoll_wait: 300-600 ns
 * here), and that dominates the client's loop. The pacer learns what
 * an empty look costs and, after one, lets the network rest for twice that
 * long, and twice as long again after each further empty look in a row
 * (up to GASNETI_PACE_DOUBLINGS times): at most a third of a sending loop
 * goes to empty looks, far less while nothing comes, and a message waits
 * at most GASNETI_PACE_MAX_NS beyond its arrival. Any look that finds
 * work makes the next poll look again, so a busy network is looked at
 * every time, and the first empty look after it starts a rest again.
 * Only a thread that has sent a request since its previous poll is
 * paced: one that polls in a loop waiting for something (a round trip, a
 * flag) looks every time, so its latency is what it was. Looks cheaper
 * than GASNETI_PACE_MIN_NS (a shared-memory transport) are not paced at
 * all. GASNET_POLL_PACE=no turns pacing off: every poll looks.
 * tests/test_pace.c checks these rules on a clock of its own.
 *
 * Per thread: in a PAR build each polling thread paces its own looks. */
#ifndef GASNET_PACE_H
#define GASNET_PACE_H

#include "gasnet_internal.h"

#include <stdint.h>

/* The longest rest after an empty look: bounds the latency pacing adds to
 * a message that reaches a thread busy sending. With 2 us, over TCP (a look
 * of 350-550 ns) a sixth of such a loop still went to empty looks; 8 us
 * leaves a twentieth, and the packed frontier of docs/performance.md ran
 * 1.18-1.58 times faster (ucx and mpi, 2 and 4 processes), with round
 * trips, floods and collectives unchanged (their waits look every time). */
#define GASNETI_PACE_MAX_NS 8000u
/* How many times the rest doubles over empty looks in a row: 2, 4, 8, 16,
 * 32 and 64 times the look's cost, within GASNETI_PACE_MAX_NS (over TCP
 * the cap comes at the fifth). Doubling rather than a long rest from the
 * first empty look keeps a network that delivers in bursts looked at soon
 * after each burst. */
#define GASNETI_PACE_DOUBLINGS 5u
/* Looks cheaper than this are not paced: reading the clock would cost
 * about as much as it saves (a shared-memory transport's look is tens of
 * nanoseconds, an epoll_wait over TCP several hundred). */
#define GASNETI_PACE_MIN_NS 120u
/* Unpaced, one look in this many is timed, to notice a dearer network.
 * Two clock reads per timed look: at one in 16 they were a tenth of an
 * idle poll over UCX's shared memory (about 5 of 49 ns); at one in 256 a
 * network that turns dear is still learnt within some tens of microseconds
 * (a few samples, each moving the estimate by a sixteenth). */
#define GASNETI_PACE_SAMPLE_EVERY 256u
/* Resting, a sending thread reads the clock at one poll in this many, as
 * long as that many polls at the pace of the last ones still end inside
 * the rest: a read (clock_gettime, 20-25 ns here) at every poll was a
 * tenth of a loop that packs its sends (GASNET_AM_COALESCE), while a loop
 * whose every send goes out (a microsecond and more over TCP) reads it at
 * every poll, so the rest is not overshot. 16 rather than 4 since rests
 * last up to 8 us: the packed frontier over TCP ran 1.04-1.12 times
 * faster (medians of 14 alternated rounds, ucx and mpi, 2 and 4
 * processes, within this machine's spread). */
#define GASNETI_PACE_CLOCK_EVERY 16u

typedef struct {
  uint64_t next_ns;   /* do not look before this time (0: look at every poll) */
  uint64_t cost_ns;   /* what an empty look costs: a minimum that decays upward */
  unsigned looks;     /* unpaced looks, for sampling */
  unsigned empties;   /* timed empty looks in a row, up to DOUBLINGS + 1 */
  unsigned issued;    /* gasneti_am_requests_issued at the previous poll */
  unsigned unread;    /* sending polls left before the clock is read again */
  unsigned skipped;   /* polls since the last read of the clock */
  uint64_t last_read; /* when the clock was last read here */
} gasneti_pace_t;

static inline uint64_t gasneti_pace_now(void) { return (uint64_t)gasneti_now_ns(); }

/* Whether this network's empty looks cost enough to be paced. */
static inline int gasneti_pace_dear(const gasneti_pace_t *pace) {
  return pace->cost_ns >= GASNETI_PACE_MIN_NS;
}

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
    /* On a network known to be dear every look is timed, so the first
     * empty one after a busy spell starts a rest; elsewhere one in
     * SAMPLE_EVERY is, to notice a dearer network. */
    int timed = gasneti_pace_dear(pace) || ++pace->looks % GASNETI_PACE_SAMPLE_EVERY == 0;
    *start = timed ? gasneti_pace_now() : 0;
    return 1;
  }
  if (sending && pace->unread) {
    pace->unread--;
    pace->skipped++;
    return 0;
  }
  /* Timed even when not sending: an empty look must restart the rest, or
   * the next sending poll would look too (frontier_a on ucx over TCP fell
   * from 18 to 14 M updates/s with such polls untimed). */
  uint64_t now = gasneti_pace_now();
  uint64_t gap = now - pace->last_read, polls = pace->skipped + 1u;
  pace->last_read = now;
  pace->skipped = 0;
  pace->unread = 0;
  *start = now;
  if (!sending || now >= pace->next_ns) return 1;
  /* CLOCK_EVERY polls at gap / polls each still end inside the rest
   * (multiplied out: no division on the poll path). */
  if (gap * GASNETI_PACE_CLOCK_EVERY < (pace->next_ns - now) * polls)
    pace->unread = GASNETI_PACE_CLOCK_EVERY - 1;
  return 0;
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
    pace->empties = 0;
    return;
  }
  if (!start) return; /* an untimed look at a network not being paced */
  uint64_t end = gasneti_pace_now();
  gasneti_pace_learn(pace, end - start);
  if (!gasneti_pace_dear(pace)) {
    pace->next_ns = 0;
    return;
  }
  if (pace->empties <= GASNETI_PACE_DOUBLINGS) pace->empties++;
  uint64_t rest = (2 * pace->cost_ns) << (pace->empties - 1);
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
