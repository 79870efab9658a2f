/* barrierperf: barrier latency of one implementation.
 *
 * Usage: barrierperf [-barrier NAME] [-i iters] [-r reps] [-c] [-h]
 *
 *   -barrier NAME  the implementation (GASNET_BARRIER): AMDISSEM,
 *                  AMCENTRAL, or a conduit's own (SMP on smp); default the
 *                  conduit's default
 *   -i iters       barriers per repetition (default 10000)
 *   -r reps        repetitions; the median is reported (default 3)
 *   -c             CSV instead of a table; -h prints the header line only
 *
 * Every node runs back-to-back barriers: anonymous notify+wait, named
 * notify+wait, and notify followed by a gasnet_barrier_try loop. The
 * figure is microseconds per barrier, the slowest node's median (each node
 * times itself; node 0 collects the results with gets). */
#include "ext_test.h"

static int iters = 10000, reps = 3, csv;
/* More processes than cores: a try loop that only polls keeps the nodes it
 * waits for off the CPU, so it yields between tries (as a sensible client
 * would). */
static int oversubscribed;

typedef enum { B_ANON, B_NAMED, B_TRY, B_COUNT } kind_t;

static double now_us(void) { return (double)gasnett_ticks_to_ns(gasnett_ticks_now()) / 1000.0; }

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double run_once(kind_t k, int it) {
  double t0 = now_us();
  for (int i = 0; i < it; i++) {
    int rc;
    switch (k) {
      case B_ANON:
        gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
        rc = gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS);
        break;
      case B_NAMED:
        gasnet_barrier_notify(i, 0);
        rc = gasnet_barrier_wait(i, 0);
        break;
      default:
        gasnet_barrier_notify(i, 0);
        while ((rc = gasnet_barrier_try(i, 0)) == GASNET_ERR_NOT_READY)
          if (oversubscribed) gasnett_sched_yield();
        break;
    }
    EXT_CHECK(rc == GASNET_OK, "barrier %d: %s", i, gasnet_ErrorName(rc));
  }
  return (now_us() - t0) / it;
}

static double measure(kind_t k) {
  double t[32];
  int r = reps < 32 ? reps : 32;
  run_once(k, iters / 10 + 1);
  for (int j = 0; j < r; j++) t[j] = run_once(k, iters);
  qsort(t, (size_t)r, sizeof(double), cmp_double);
  return t[r / 2];
}

int main(int argc, char **argv) {
  int header_only = 0;
  ext_parse_common(&argc, &argv);
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-i") && i + 1 < argc) iters = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-r") && i + 1 < argc) reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-c")) csv = 1;
    else if (!strcmp(argv[i], "-h")) header_only = 1;
    else {
      fprintf(stderr, "usage: %s [-barrier NAME] [-i iters] [-r reps] [-c] [-h]\n", ext_progname);
      return 2;
    }
  }
  if (header_only) {
    if (csv) printf("barrier,nodes,anonymous_us,named_us,try_us\n");
    else printf("%-10s %6s %12s %12s %12s\n", "barrier", "nodes", "anon us", "named us", "try us");
    return 0;
  }
  if (iters < 1 || reps < 1) {
    fprintf(stderr, "%s: -i and -r must be positive\n", ext_progname);
    return 2;
  }
  ext_init(&argc, &argv, NULL, 0, 4096);
  gasnet_node_t me = gasnet_mynode(), nodes = gasnet_nodes();
  int cores = gasnett_cpu_count();
  oversubscribed = cores > 0 && (int)nodes > cores;
  double *results = (double *)(void *)ext_seg(me);
  for (int k = 0; k < B_COUNT; k++) results[k] = measure((kind_t)k);
  ext_barrier();
  if (me == 0) {
    double worst[B_COUNT] = {0};
    for (gasnet_node_t n = 0; n < nodes; n++) {
      double theirs[B_COUNT];
      gasnet_get(theirs, n, ext_seg(n), sizeof(theirs));
      for (int k = 0; k < B_COUNT; k++)
        if (theirs[k] > worst[k]) worst[k] = theirs[k];
    }
    const char *name = getenv("GASNET_BARRIER");
    if (!name) name = "default";
    if (csv)
      printf("%s,%u,%.3f,%.3f,%.3f\n", name, (unsigned)nodes, worst[B_ANON], worst[B_NAMED],
             worst[B_TRY]);
    else
      printf("%-10s %6u %12.3f %12.3f %12.3f\n", name, (unsigned)nodes, worst[B_ANON],
             worst[B_NAMED], worst[B_TRY]);
  }
  ext_barrier();
  gasnet_exit(0);
  return 0;
}
