/* gasnet_tools_timer.h: the high-resolution timer of the GASNet tools.
 * Included by gasnet_tools.h.
 *
 * A tick is one nanosecond of CLOCK_MONOTONIC: it never goes backwards,
 * is unaffected by changes to the wall clock, is calibrated by the kernel
 * (so conversions are exact, unlike a TSC scaled by a guessed frequency),
 * and costs ~20 ns through the vDSO. */
#ifndef GASNET_TOOLS_TIMER_H
#define GASNET_TOOLS_TIMER_H

#include <time.h>

#include "gasnet_tools_basic.h"

GASNETT_BEGIN_EXTERNC

typedef uint64_t gasnett_tick_t;
#define GASNETT_TICK_MIN ((gasnett_tick_t)0)
#define GASNETT_TICK_MAX ((gasnett_tick_t)(((uint64_t)-1) >> 1))
/* GASNETT_USING_GETTIMEOFDAY would be defined when the only timer were
 * gettimeofday; the timers here are clock_gettime, so it stays undefined
 * (clients test it with #ifdef and warn when it is defined). */

/* The library's copy of gasnett_ticks_now(). */
extern gasnett_tick_t gasneti_tools_ticks_now_call(void);

#if defined(CLOCK_MONOTONIC)
GASNETTI_INLINE gasnett_tick_t gasnett_ticks_now(void) {
  struct timespec ts;
  (void)clock_gettime(CLOCK_MONOTONIC, &ts);
  return (gasnett_tick_t)ts.tv_sec * 1000000000u + (gasnett_tick_t)ts.tv_nsec;
}
#else
/* A client compiled in strict ISO mode does not see the POSIX clocks in
 * <time.h>; the library reads the same clock for it. */
GASNETTI_INLINE gasnett_tick_t gasnett_ticks_now(void) { return gasneti_tools_ticks_now_call(); }
#endif

GASNETTI_INLINE uint64_t gasnett_ticks_to_ns(gasnett_tick_t ticks) { return ticks; }
GASNETTI_INLINE uint64_t gasnett_ticks_to_us(gasnett_tick_t ticks) { return ticks / 1000u; }

/* Smallest observable difference between two readings, and the cost of one
 * reading, in microseconds. Measured on first call, then cached. */
extern double gasnett_tick_granularityus(void);
extern double gasnett_tick_overheadus(void);

/* Wall-clock time in microseconds since the Epoch. */
extern uint64_t gasnett_gettimeofday_us(void);

GASNETT_END_EXTERNC

#endif /* GASNET_TOOLS_TIMER_H */
