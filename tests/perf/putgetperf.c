/* putgetperf: put/get latency and bandwidth by size.
 *
 * Usage: putgetperf [-am] [-i iters] [-r reps] [-m maxsize] [-w window] [-c]
 *
 *   -am        move data by active messages (GASNET_SMP_PUTGET=am) instead
 *              of the conduit's direct copies; run once with and once
 *              without to compare the two paths
 *   -i iters   timed operations per repetition and size (default 2000;
 *              large sizes use fewer, at most 64 MiB per repetition)
 *   -r reps    repetitions; the median is reported (default 3)
 *   -m maxsize largest transfer (default 4 MiB)
 *   -w window  bandwidth: nbi operations in flight before a sync (default 32)
 *   -c         CSV instead of a table
 *
 * Node 0 works with node 1 (with itself on one node); every other node
 * waits in a barrier, polling. Latency: blocking gasnet_put / gasnet_get
 * (destination in the segment), one at a time. Bandwidth: windows of
 * gasnet_put_nbi_bulk / gasnet_get_nbi_bulk closed by the nbi sync. Sizes:
 * powers of two, plus the AM Medium limit and just past it (where the AM
 * path switches protocol). MB is 10^6 bytes. */
#include "ext_test.h"

static int iters = 2000, reps = 3, window = 32, csv;
static size_t maxsize = (size_t)4 << 20;
static gasnet_node_t peer;
static uint8_t *local, *remote;

static double now_us(void) { return (double)gasnett_ticks_to_ns(gasnett_ticks_now()) / 1000.0; }

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static int iters_for(size_t n) {
  size_t cap = ((size_t)64 << 20) / n;
  int it = (size_t)iters < cap ? iters : (int)cap;
  return it < 4 ? 4 : it;
}

typedef enum { M_PUT_LAT, M_GET_LAT, M_PUT_BW, M_GET_BW, M_COUNT } metric_t;

/* Microseconds per operation for one repetition. */
static double run_once(metric_t m, size_t n, int it) {
  double t0 = now_us();
  switch (m) {
    case M_PUT_LAT:
      for (int i = 0; i < it; i++) gasnet_put(peer, remote, local, n);
      break;
    case M_GET_LAT:
      for (int i = 0; i < it; i++) gasnet_get(local, peer, remote, n);
      break;
    case M_PUT_BW:
      for (int i = 0; i < it; i++) {
        gasnet_put_nbi_bulk(peer, remote, local, n);
        if ((i + 1) % window == 0) gasnet_wait_syncnbi_puts();
      }
      gasnet_wait_syncnbi_puts();
      break;
    default:
      for (int i = 0; i < it; i++) {
        gasnet_get_nbi_bulk(local, peer, remote, n);
        if ((i + 1) % window == 0) gasnet_wait_syncnbi_gets();
      }
      gasnet_wait_syncnbi_gets();
      break;
  }
  return (now_us() - t0) / it;
}

static double measure(metric_t m, size_t n) {
  double t[32];
  int it = iters_for(n), r = reps < 32 ? reps : 32;
  run_once(m, n, it / 10 + 1); /* warm up */
  for (int k = 0; k < r; k++) t[k] = run_once(m, n, it);
  qsort(t, (size_t)r, sizeof(double), cmp_double);
  return t[r / 2];
}

static int add_size(size_t *sizes, int n, size_t s) {
  if (s == 0 || s > maxsize) return n;
  for (int i = 0; i < n; i++)
    if (sizes[i] == s) return n;
  sizes[n++] = s;
  for (int i = n - 1; i > 0 && sizes[i] < sizes[i - 1]; i--) {
    size_t x = sizes[i];
    sizes[i] = sizes[i - 1];
    sizes[i - 1] = x;
  }
  return n;
}

int main(int argc, char **argv) {
  ext_parse_common(&argc, &argv);
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-i") && i + 1 < argc) iters = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-r") && i + 1 < argc) reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-w") && i + 1 < argc) window = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-m") && i + 1 < argc) maxsize = (size_t)gasnett_parse_int(argv[++i], 1);
    else if (!strcmp(argv[i], "-c")) csv = 1;
    else {
      fprintf(stderr, "usage: %s [-am] [-i iters] [-r reps] [-m maxsize] [-w window] [-c]\n",
              ext_progname);
      return 2;
    }
  }
  if (iters < 1 || reps < 1 || window < 1 || maxsize < 8) {
    fprintf(stderr, "%s: -i, -r, -w must be positive and -m at least 8\n", ext_progname);
    return 2;
  }
  ext_init(&argc, &argv, NULL, 0, (2 * maxsize + 4095) & ~(uintptr_t)4095);
  gasnet_node_t me = gasnet_mynode(), nodes = gasnet_nodes();
  peer = nodes > 1 ? 1 : 0;
  local = ext_seg(me);
  remote = ext_seg(peer) + maxsize;
  memset(local, 1, 2 * maxsize);
  ext_barrier();

  if (me == 0) {
    size_t sizes[64];
    int nsizes = 0;
    for (size_t s = 8; s <= maxsize; s *= 4) nsizes = add_size(sizes, nsizes, s);
    nsizes = add_size(sizes, nsizes, maxsize);
    nsizes = add_size(sizes, nsizes, gasnet_AMMaxMedium());
    nsizes = add_size(sizes, nsizes, gasnet_AMMaxMedium() + 8);
    const char *path = ext_am_path ? "am (GASNET_SMP_PUTGET=am)" : "default (conduit's direct copies where it has them)";
    if (csv) {
      printf("nodes,path,bytes,put_us,get_us,put_MBps,get_MBps\n");
    } else {
      printf("putgetperf: %u nodes, node 0 with node %u, path %s\n", (unsigned)nodes,
             (unsigned)peer, path);
      printf("  latency: blocking put/get; bandwidth: nbi_bulk, window %d; median of %d\n",
             window, reps);
      printf("%10s %10s %10s %12s %12s\n", "bytes", "put us", "get us", "put MB/s", "get MB/s");
    }
    for (int i = 0; i < nsizes; i++) {
      size_t n = sizes[i];
      double r[M_COUNT];
      for (int m = 0; m < M_COUNT; m++) r[m] = measure((metric_t)m, n);
      double put_bw = (double)n / r[M_PUT_BW], get_bw = (double)n / r[M_GET_BW];
      if (csv)
        printf("%u,%s,%zu,%.3f,%.3f,%.1f,%.1f\n", (unsigned)nodes, ext_am_path ? "am" : "default",
               n, r[M_PUT_LAT], r[M_GET_LAT], put_bw, get_bw);
      else
        printf("%10zu %10.3f %10.3f %12.1f %12.1f\n", n, r[M_PUT_LAT], r[M_GET_LAT], put_bw,
               get_bw);
      fflush(stdout);
    }
  }
  ext_barrier();
  gasnet_exit(0);
  return 0;
}
