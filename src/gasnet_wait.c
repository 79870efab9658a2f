/* gasnet_wait.c: how a blocking wait spends its time. With spare cores a
 * waiter spins (lowest latency); when the job's processes outnumber the
 * cores, spinning steals the CPU from the very process being waited for, so
 * the waiter yields and, if the wait drags on, sleeps briefly (seed 004,
 * sec. 3.3). Threads count too: a layer running several waiting threads per
 * process says so with gasneti_wait_threads_hint. GASNET_WAIT_MODE or
 * gasnet_set_waitmode() override the choice. */
#include "gasnet_internal.h"

#include <sched.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int gasneti_wait_mode = GASNET_WAIT_SPIN;

/* Steps of a wait spent spinning before SPINBLOCK starts yielding, and
 * yields before a blocking waiter starts to sleep. */
#define GASNETI_SPIN_STEPS 2000u
#define GASNETI_YIELD_STEPS 256u
#define GASNETI_SLEEP_MAX_NS 50000L

static int gasneti_parse_waitmode(const char *text) {
  if (!strcmp(text, "spin") || !strcmp(text, "SPIN")) return GASNET_WAIT_SPIN;
  if (!strcmp(text, "block") || !strcmp(text, "BLOCK")) return GASNET_WAIT_BLOCK;
  if (!strcmp(text, "spinblock") || !strcmp(text, "SPINBLOCK")) return GASNET_WAIT_SPINBLOCK;
  gasneti_fatalerror("GASNET_WAIT_MODE=\"%s\" is not one of spin, block, spinblock", text);
}

static unsigned gasneti_wait_local_processes = 1;
static long gasneti_wait_local_cpus; /* 0: the host's online CPUs */
static int gasneti_wait_mode_given; /* by GASNET_WAIT_MODE or gasnet_set_waitmode */

/* Waiters outnumber the CPUs the host's processes of this job may run on
 * (their affinity masks together: a job confined to one CPU by taskset or
 * a cpuset spins away a whole time slice per wait otherwise). */
static int gasneti_wait_oversubscribed(unsigned waiters) {
  long cpus = gasneti_wait_local_cpus ? gasneti_wait_local_cpus : sysconf(_SC_NPROCESSORS_ONLN);
  return cpus > 0 && (long)waiters > cpus;
}

int gasneti_pace_enabled = 1;

void gasneti_wait_init(unsigned local_processes, unsigned local_cpus) {
  gasneti_wait_local_processes = local_processes ? local_processes : 1;
  gasneti_wait_local_cpus = (long)local_cpus;
  int oversubscribed = gasneti_wait_oversubscribed(local_processes);
  const char *dflt = oversubscribed ? "block (processes outnumber the CPUs they may use)" : "spin";
  const char *text = gasneti_getenv_verbose("GASNET_WAIT_MODE", dflt);
  gasneti_wait_mode_given = text != NULL;
  if (text)
    gasneti_wait_mode = gasneti_parse_waitmode(text);
  else
    gasneti_wait_mode = oversubscribed ? GASNET_WAIT_BLOCK : GASNET_WAIT_SPIN;
  gasneti_pace_enabled = gasneti_getenv_yesno("GASNET_POLL_PACE", 1);
}

/* The default counts every thread that waits: with several waiting threads
 * per process, spinning ones can steal the cores from the thread or process
 * being waited for just as surplus processes do. */
void gasneti_wait_threads_hint(unsigned threads_per_process) {
  if (gasneti_wait_mode_given || threads_per_process <= 1) return;
  if (gasneti_wait_oversubscribed(gasneti_wait_local_processes * threads_per_process))
    gasneti_wait_mode = GASNET_WAIT_BLOCK;
}

int gasnet_set_waitmode(int wait_mode) {
  if (wait_mode != GASNET_WAIT_SPIN && wait_mode != GASNET_WAIT_BLOCK &&
      wait_mode != GASNET_WAIT_SPINBLOCK)
    return gasneti_error(GASNET_ERR_BAD_ARG, "gasnet_set_waitmode", "wait_mode %d is unknown",
                         wait_mode);
  gasneti_wait_mode = wait_mode;
  gasneti_wait_mode_given = 1;
  return GASNET_OK;
}

/* ------------------------------------------------------------ the main thread's waits
 * When another node has ended the job, this node may still be on its way to
 * its own exit (a collective exit where it finishes last), or stuck in a
 * wait for something the departed nodes will never send. The main
 * thread's blocking waits tell which: their steps (every back-off, and
 * every step that found work) are noted on the coarse clock (a few ns;
 * its resolution is milliseconds), one in GASNETI_WAIT_NOTE_EVERY, and
 * notes less than GASNETI_WAIT_GAP_NS apart belong to one wait. */
#define GASNETI_WAIT_GAP_NS 100000000LL
/* How long a wait that began (or was still going) when the job began to
 * end may go on before the node counts as stuck. */
#define GASNETI_EXIT_STUCK_NS 500000000LL

static int64_t gasneti_main_wait_start, gasneti_main_wait_last; /* coarse ns; atomic */

static int64_t gasneti_clock_ns(clockid_t clock) {
  struct timespec ts;
  clock_gettime(clock, &ts);
  return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int64_t gasneti_now_ns(void) { return gasneti_clock_ns(CLOCK_MONOTONIC); }

/* One step in this many reads the clock. A step lasts from a fraction of
 * a microsecond (a spin, a poll that found work) to a 50 us nap, so the
 * steps between two reads stay within the coarse clock's resolution (a
 * millisecond or more) and far under GASNETI_WAIT_GAP_NS, while a spin
 * or a flood's poll no longer pays a clock read each time. */
#define GASNETI_WAIT_NOTE_EVERY 16u

static void gasneti_wait_note(void) {
  static GASNETI_THREAD_LOCAL unsigned steps;
  if (steps++ % GASNETI_WAIT_NOTE_EVERY) return;
  if (!gasneti_is_main_thread()) return;
  int64_t now = gasneti_clock_ns(CLOCK_MONOTONIC_COARSE);
  if (now - __atomic_load_n(&gasneti_main_wait_last, __ATOMIC_RELAXED) > GASNETI_WAIT_GAP_NS)
    __atomic_store_n(&gasneti_main_wait_start, now, __ATOMIC_RELAXED);
  __atomic_store_n(&gasneti_main_wait_last, now, __ATOMIC_RELAXED);
}

/* The main thread has been in one wait since before noticed_ns +
 * GASNETI_EXIT_STUCK_NS and is in it still. */
static int gasneti_main_stuck(int64_t noticed_ns) {
  int64_t now = gasneti_clock_ns(CLOCK_MONOTONIC_COARSE);
  int64_t last = __atomic_load_n(&gasneti_main_wait_last, __ATOMIC_RELAXED);
  int64_t start = __atomic_load_n(&gasneti_main_wait_start, __ATOMIC_RELAXED);
  if (!last || now - last > GASNETI_WAIT_GAP_NS) return 0; /* not waiting now */
  int64_t since = start > noticed_ns ? start : noticed_ns;
  return now - since > GASNETI_EXIT_STUCK_NS;
}

int gasneti_exit_may_go_on(int64_t *noticed_ns, double timeout_s) {
  int64_t now = gasneti_now_ns(), unset = 0;
  __atomic_compare_exchange_n(noticed_ns, &unset, now, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
  int64_t noticed = __atomic_load_n(noticed_ns, __ATOMIC_ACQUIRE);
  if (now - noticed > (int64_t)(timeout_s * 1e9)) return 0;
  return !gasneti_main_stuck(noticed);
}

static inline void gasneti_cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}

static void gasneti_block_step(unsigned steps) {
  if (steps < GASNETI_YIELD_STEPS) {
    sched_yield();
    return;
  }
  long ns = (long)(steps - GASNETI_YIELD_STEPS) * 1000L;
  if (ns > GASNETI_SLEEP_MAX_NS) ns = GASNETI_SLEEP_MAX_NS;
  if (ns < 1000L) ns = 1000L;
  struct timespec ts = {0, ns};
  nanosleep(&ts, NULL);
}

void gasneti_wait_backoff(unsigned *spins) {
  gasneti_wait_note();
  unsigned steps = (*spins)++;
  switch (gasneti_wait_mode) {
    case GASNET_WAIT_BLOCK: gasneti_block_step(steps); break;
    case GASNET_WAIT_SPINBLOCK:
      if (steps < GASNETI_SPIN_STEPS)
        gasneti_cpu_relax();
      else
        gasneti_block_step(steps - GASNETI_SPIN_STEPS);
      break;
    default: gasneti_cpu_relax(); break;
  }
}

/* A step that handled messages starts the back-off again: a node that is
 * serving requests while it waits must answer the next one promptly, not
 * after a nap earned by earlier idle steps. */
void gasneti_wait_step(unsigned *spins) {
  int work = 0;
  if (gasneti_am_coalescing) gasneti_am_flush(); /* a waiter sends what it packed */
  if (gasneti_attach_done) work = gasnetc_am_poll() + gasneti_progress_run();
  if (work) {
    *spins = 0;
    gasneti_wait_note();
  } else {
    gasneti_wait_backoff(spins);
  }
}
