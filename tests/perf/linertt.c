/* linertt.c: how long one cache line takes to go from one CPU to another
 * and back. Two threads, pinned to two CPUs, pass a counter back and forth
 * through one line; a round trip is one increment by each.
 *
 *   linertt [-i ITERS] [-r ROUNDS] [-c CPU_A,CPU_B]
 *
 * Prints each round's mean round trip in nanoseconds and the median of
 * the rounds. A number that moves between runs says the CPUs changed:
 * on a VM the host may place the same two virtual CPUs on cores that share
 * a cache in one minute and on cores that do not in the next, and every
 * transfer through shared memory follows (docs/performance.md, "Broadcast
 * and scatter read directly from 1 MiB"). Without -c, the first two CPUs
 * this process may run on. Needs no GASNet library. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
  _Alignas(64) volatile unsigned long turn; /* odd: B's move; even: A's */
  char pad[64 - sizeof(unsigned long)];
} line_t;

static line_t line;
static long iters = 100000;
static int cpu_a = -1, cpu_b = -1; /* -1: not given with -c */

static void pin_to(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  int rc = pthread_setaffinity_np(pthread_self(), sizeof set, &set);
  if (rc) {
    fprintf(stderr, "linertt: cannot pin a thread to CPU %d: %s\n", cpu, strerror(rc));
    exit(1);
  }
}

/* Spin until the line holds want; yield now and then so that a CPU shared
 * with another process (a loaded machine) cannot stall the pair. */
static void wait_for(unsigned long want) {
  for (unsigned spins = 1; __atomic_load_n(&line.turn, __ATOMIC_ACQUIRE) != want; spins++)
    if (!(spins & 0xffff)) sched_yield();
}

static void *side_b(void *arg) {
  unsigned long base = *(const unsigned long *)arg;
  pin_to(cpu_b);
  for (long i = 0; i < iters; i++) {
    wait_for(base + 2 * (unsigned long)i + 1);
    __atomic_store_n(&line.turn, base + 2 * (unsigned long)i + 2, __ATOMIC_RELEASE);
  }
  return NULL;
}

static double one_round(void) {
  unsigned long base = line.turn;
  pthread_t b;
  if (pthread_create(&b, NULL, side_b, &base)) {
    perror("linertt: pthread_create");
    exit(1);
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (long i = 0; i < iters; i++) {
    __atomic_store_n(&line.turn, base + 2 * (unsigned long)i + 1, __ATOMIC_RELEASE);
    wait_for(base + 2 * (unsigned long)i + 2);
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  pthread_join(b, NULL);
  if (line.turn != base + 2 * (unsigned long)iters) {
    fprintf(stderr, "linertt: the counter ended at %lu, expected %lu\n", line.turn,
            base + 2 * (unsigned long)iters);
    exit(1);
  }
  return ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) /
         (double)iters;
}

/* The first two CPUs of this process's affinity mask (a container or a
 * cpuset may leave out CPU 0 or 1); 0 when there are fewer. */
static int first_two_cpus(void) {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set)) return 0;
  for (int c = 0; c < CPU_SETSIZE && cpu_b < 0; c++) {
    if (!CPU_ISSET(c, &set)) continue;
    if (cpu_a < 0)
      cpu_a = c;
    else
      cpu_b = c;
  }
  return cpu_b >= 0;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void usage(void) {
  fprintf(stderr, "usage: linertt [-i ITERS] [-r ROUNDS] [-c CPU_A,CPU_B]\n");
  exit(2);
}

int main(int argc, char **argv) {
  int rounds = 5;
  for (int i = 1; i < argc; i++) {
    if (i + 1 >= argc) usage();
    if (!strcmp(argv[i], "-i")) iters = atol(argv[++i]);
    else if (!strcmp(argv[i], "-r")) rounds = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-c")) {
      if (sscanf(argv[++i], "%d,%d", &cpu_a, &cpu_b) != 2) usage();
    } else usage();
  }
  if (iters < 1 || rounds < 1 || rounds > 1000) usage();
  if (cpu_a < 0 && !first_two_cpus()) {
    printf("linertt: this process may run on fewer than two CPUs: no pair to measure\n");
    return 0;
  }
  if (cpu_a < 0 || cpu_b < 0 || cpu_a == cpu_b) usage();
  pin_to(cpu_a);
  double ns[1000];
  for (int r = 0; r < rounds; r++) {
    ns[r] = one_round();
    printf("round %d: %.0f ns\n", r, ns[r]);
  }
  qsort(ns, (size_t)rounds, sizeof ns[0], by_value);
  printf("cache-line round trip, CPU %d <-> CPU %d: median %.0f ns over %d rounds of %ld\n", cpu_a,
         cpu_b, ns[rounds / 2], rounds, iters);
  return 0;
}
