/* gasnet_cpuset.c: the CPUs a process may run on, as a fixed-size set that
 * conduits can exchange at start-up. The wait policy must compare the
 * host's waiting processes with the CPUs they may use, not with the CPUs
 * the machine has: a job confined by `taskset`, a container's cpuset or a
 * batch system's binding has fewer, and waiters that spin there keep the
 * process they wait for off its only CPU for a whole time slice. */
#define _GNU_SOURCE
#include "gasnet_internal.h"

#include <sched.h>
#include <string.h>
#include <unistd.h>

/* Every online CPU, when the affinity mask cannot be read. */
static void gasneti_cpuset_online(gasneti_cpuset_t *set) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  if (n < 1) n = 1;
  if (n > GASNETI_CPUSET_MAX) n = GASNETI_CPUSET_MAX;
  for (long cpu = 0; cpu < n; cpu++) set->bits[cpu / 64] |= (uint64_t)1 << (cpu % 64);
}

void gasneti_cpuset_mine(gasneti_cpuset_t *set) {
  memset(set, 0, sizeof(*set));
  cpu_set_t mask;
  CPU_ZERO(&mask);
  if (sched_getaffinity(0, sizeof(mask), &mask) != 0) {
    gasneti_cpuset_online(set);
    return;
  }
  for (int cpu = 0; cpu < CPU_SETSIZE && cpu < GASNETI_CPUSET_MAX; cpu++)
    if (CPU_ISSET(cpu, &mask)) set->bits[cpu / 64] |= (uint64_t)1 << (cpu % 64);
  if (!gasneti_cpuset_count(set)) gasneti_cpuset_online(set);
}

void gasneti_cpuset_merge(gasneti_cpuset_t *into, const gasneti_cpuset_t *from) {
  for (int w = 0; w < GASNETI_CPUSET_WORDS; w++) into->bits[w] |= from->bits[w];
}

unsigned gasneti_cpuset_count(const gasneti_cpuset_t *set) {
  unsigned n = 0;
  for (int w = 0; w < GASNETI_CPUSET_WORDS; w++) n += (unsigned)__builtin_popcountll(set->bits[w]);
  return n;
}

unsigned gasneti_cpuset_count_mine(void) {
  gasneti_cpuset_t set;
  gasneti_cpuset_mine(&set);
  return gasneti_cpuset_count(&set);
}
