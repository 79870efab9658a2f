/* tools_timer.c: the out-of-line parts of the tools timer. */
#define _POSIX_C_SOURCE 200809L

#include <sys/time.h>
#include <time.h>

#include "gasnet_tools_internal.h"

gasnett_tick_t gasneti_tools_ticks_now_call(void) {
  struct timespec ts;
  (void)clock_gettime(CLOCK_MONOTONIC, &ts);
  return (gasnett_tick_t)ts.tv_sec * 1000000000u + (gasnett_tick_t)ts.tv_nsec;
}

uint64_t gasnett_gettimeofday_us(void) {
  struct timeval tv;
  (void)gettimeofday(&tv, NULL);
  return (uint64_t)tv.tv_sec * 1000000u + (uint64_t)tv.tv_usec;
}

/* Both figures are measured once: the first caller pays ~1 ms. */
static double gasnetti_granularity_us;
static double gasnetti_overhead_us;
static pthread_once_t gasnetti_timer_once = PTHREAD_ONCE_INIT;

static void gasnetti_timer_measure(void) {
  enum { SAMPLES = 10000 };
  gasnett_tick_t min_step = GASNETT_TICK_MAX, prev, start, now;
  int i;

  /* Granularity: the smallest nonzero step between back-to-back readings. */
  prev = gasnett_ticks_now();
  for (i = 0; i < SAMPLES; i++) {
    now = gasnett_ticks_now();
    if (now > prev && now - prev < min_step) min_step = now - prev;
    prev = now;
  }
  /* Overhead: the average cost of one reading. */
  start = gasnett_ticks_now();
  for (i = 0; i < SAMPLES; i++) now = gasnett_ticks_now();
  now = gasnett_ticks_now();

  gasnetti_granularity_us =
      min_step == GASNETT_TICK_MAX ? 1.0 : gasnett_ticks_to_ns(min_step) / 1000.0;
  gasnetti_overhead_us = gasnett_ticks_to_ns(now - start) / 1000.0 / (SAMPLES + 1);
}

double gasnett_tick_granularityus(void) {
  pthread_once(&gasnetti_timer_once, gasnetti_timer_measure);
  return gasnetti_granularity_us;
}

double gasnett_tick_overheadus(void) {
  pthread_once(&gasnetti_timer_once, gasnetti_timer_measure);
  return gasnetti_overhead_us;
}
