/* collperf: latency of the data-movement collectives.
 *
 * Usage: collperf [-a ALG] [-o OPS] [-n MIN] [-m MAX] [-x FACTOR] [-l SIZES]
 *                 [-i ITERS] [-r REPS] [-s SYNCS] [-R RADIX] [-O] [-c] [-L]
 *                 [-I IMAGES] [-h]
 *
 *   -a ALG     force algorithm ALG for every op that has one of that name
 *              (GASNET_COLL_<OP>_ALG, set before gasnet_init so every node
 *              inherits it; gasnet_coll_init reads it once) and measure
 *              only those ops. Default: no forcing, i.e. the selector's
 *              choice ("auto"). To compare algorithms run once per ALG;
 *              tests/coll/collperf_all.sh does that and joins the tables.
 *   -o OPS     comma list of ops (broadcast, scatter, gather, gather_all,
 *              exchange, reduce, reduce_nc, scan, scan_nc); default all
 *              (that have ALG)
 *   -n MIN, -m MAX   block sizes in bytes, default 8 .. 1M (K/M suffixes)
 *   -x FACTOR  size step, default 4 (MAX is always measured)
 *   -l SIZES   comma list of block sizes instead (e.g. 8,4K,64K,1M), in
 *              that order; tests/perf/mpicollperf takes the same list
 *   -i ITERS   collectives per repetition for small blocks (default 200;
 *              fewer for large blocks: at most ~32 MiB moved per node per
 *              repetition, at least 3)
 *   -r REPS    repetitions; the median is reported (default 7)
 *   -s SYNCS   comma list of: all (IN_ALLSYNC|OUT_ALLSYNC), no
 *              (IN_NOSYNC|OUT_NOSYNC), my (IN_MYSYNC|OUT_MYSYNC);
 *              default all,no
 *   -R RADIX   GASNET_COLL_TREE_RADIX for the k-nomial trees
 *   -O         buffers outside the segment (malloc); default: in the
 *              segment with SRC_/DST_IN_SEGMENT, where the put-based
 *              algorithms are eligible
 *   -c         CSV instead of tables (the last column: images per node)
 *   -L         also print, on stderr, every node's own time per collective
 *              in each repetition, taken before the closing barrier
 *              ("local,OP,BYTES,SYNC,NODE,REP,US"): the node that takes
 *              longest is the one the others wait for
 *   -I IMAGES  images (threads) per node, default 1. More than one needs
 *              the PAR build, tests/perf/collperf-par: each node starts
 *              IMAGES-1 pthreads, every image calls gasnet_coll_init with
 *              IMAGES for every node and runs every collective with its
 *              own malloc'd buffers (-O is implied)
 *   -h         print this list
 *
 * Every call is the blocking form with GASNET_COLL_LOCAL addressing; the
 * root of rooted ops is image 0 (on node 0); the block size is per image
 * (a gather at 1 MiB gathers NImages MiB at the root). One repetition: a
 * barrier, ITERS collectives back to back, a barrier; its time / ITERS is
 * one sample, measured by image 0 of node 0 (the closing barrier makes it
 * include the slowest image). Under IN_NOSYNC|OUT_NOSYNC consecutive
 * collectives may overlap, so that column is the pipelined cost per
 * collective. Printed by image 0 of node 0: the median and the minimum of
 * the samples, in microseconds. */
#define _POSIX_C_SOURCE 200809L
#include <gasnet.h>
#include <gasnet_coll.h>
#include <gasnet_tools.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(GASNET_PAR)
#include <pthread.h>
#endif

/* reduce and scan: int32 sums in a blocked layout (one block of bytes / 4
 * elements per image), with the built-in sum registered commutative
 * ("reduce", "scan") and as NONCOMM ("reduce_nc", "scan_nc"). Their rows
 * add two yardsticks: "compute", the time to sum one node's elements with
 * one call of the same function, and "bcast8", the 8-byte broadcast. */
enum { OP_BCAST, OP_SCATTER, OP_GATHER, OP_GATHER_ALL, OP_EXCHANGE,
       OP_REDUCE, OP_REDUCE_NC, OP_SCAN, OP_SCAN_NC, OP_COUNT };
static const char *const op_names[OP_COUNT] = {"broadcast", "scatter", "gather", "gather_all",
                                               "exchange", "reduce", "reduce_nc", "scan",
                                               "scan_nc"};
static const char *const op_env[OP_COUNT] = {
    "GASNET_COLL_BROADCAST_ALG", "GASNET_COLL_SCATTER_ALG", "GASNET_COLL_GATHER_ALG",
    "GASNET_COLL_GATHER_ALL_ALG", "GASNET_COLL_EXCHANGE_ALG", "GASNET_COLL_REDUCE_ALG",
    "GASNET_COLL_REDUCE_ALG", "GASNET_COLL_SCAN_ALG", "GASNET_COLL_SCAN_ALG"};
enum { FN_SUM, FN_SUM_NONCOMM };
static const gasnet_coll_fn_entry_t fn_table[] = {
    {gasnet_coll_fn_sum, GASNET_COLL_AMSAFE},
    {gasnet_coll_fn_sum, GASNET_COLL_AMSAFE | GASNET_COLL_NONCOMM}};
static int op_computes(int op) { return op >= OP_REDUCE; }
/* The algorithms of each op (coll/ops/bcast.c, scatter.c, gather.c,
 * gather_all.c, exchange.c), to know which ops a -a name applies to. */
static const char *const op_algs[OP_COUNT][11] = {
    {"flat", "binomial", "binary", "knomial", "hier", "put", "put_tree", "direct", "pipe", "scatter_allgather",
     NULL},
    {"flat", "binomial", "binary", "knomial", "hier", "put", "direct", "flow", NULL},
    {"flat", "binomial", "binary", "knomial", "hier", "put", "direct", "flow", NULL},
    {"dissem", "flat", "gather_bcast", "hier", "put", "direct", "ring", NULL},
    {"staggered", "bruck", "put", "direct", "pairwise", NULL},
    {"flat", "binomial", "binary", "knomial", "hier", NULL},
    {"flat", "binomial", "binary", "knomial", "hier", NULL},
    {"dissem", "chain", NULL},
    {"dissem", "chain", NULL},
};

enum { SYNC_ALL, SYNC_NO, SYNC_MY, SYNC_COUNT };
static const char *const sync_names[SYNC_COUNT] = {"all", "no", "my"};
static const int sync_flags[SYNC_COUNT] = {
    GASNET_COLL_IN_ALLSYNC | GASNET_COLL_OUT_ALLSYNC,
    GASNET_COLL_IN_NOSYNC | GASNET_COLL_OUT_NOSYNC,
    GASNET_COLL_IN_MYSYNC | GASNET_COLL_OUT_MYSYNC};

static struct {
    const char *alg;
    int ops[OP_COUNT];
    size_t min, max, factor;
    int iters, reps, csv, out_of_seg, images, local_times;
    int syncs[SYNC_COUNT];
    size_t sizes[64]; /* the block sizes measured, in order */
    int nsizes;
} opt = {NULL, {0}, 8, (size_t)1 << 20, 4, 200, 7, 0, 0, 1, 0, {0}, {0}, 0};
enum { MAX_SIZES = sizeof opt.sizes / sizeof opt.sizes[0] };

static gasnet_node_t N, ME;
static size_t NIMG; /* images in the job: N * opt.images */

/* One image: its place on the node and its buffers. */
typedef struct {
    gasnet_image_t local;     /* 0 .. opt.images - 1 */
    unsigned char *dst, *src; /* opt.max * NIMG bytes each */
    int reporter;             /* image 0 of node 0 measures and prints */
} image_t;

#if defined(GASNET_PAR)
static pthread_barrier_t node_images; /* the images of this node */
#endif

static void die(const char *msg, const char *arg) {
  fprintf(stderr, "collperf: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
  exit(2);
}

static void usage(void) {
  printf("usage: collperf [-a ALG] [-o OPS] [-n MIN] [-m MAX] [-x FACTOR] [-l SIZES] [-i ITERS]\n"
         "                [-r REPS] [-s all,no,my] [-R RADIX] [-O] [-c] [-L] [-I IMAGES] [-h]\n"
         "  -I IMAGES  images (threads) per node; more than 1 needs collperf-par\n"
         "  (the other options: the comment at the top of tests/perf/collperf.c)\n");
  exit(0);
}

static size_t parse_size(const char *s) {
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  if (*end == 'K' || *end == 'k') v <<= 10, end++;
  else if (*end == 'M' || *end == 'm') v <<= 20, end++;
  if (end == s || *end || v == 0) die("bad size", s);
  return (size_t)v;
}

/* -l: an explicit comma list of sizes. */
static void parse_sizes(const char *arg) {
  char *copy = strdup(arg), *save = NULL;
  if (!copy) die("out of memory", NULL);
  opt.nsizes = 0; /* the last -l counts */
  for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    if (opt.nsizes == MAX_SIZES) die("too many sizes", arg);
    opt.sizes[opt.nsizes++] = parse_size(t);
  }
  free(copy);
  if (opt.nsizes == 0) die("no sizes", arg);
}

/* Without -l: MIN, MIN * FACTOR, ... and always MAX. With either, MAX
 * becomes the largest size (it sizes the buffers). */
static void settle_sizes(void) {
  if (opt.nsizes == 0)
    for (size_t nb = opt.min;; nb = nb * opt.factor > opt.max ? opt.max : nb * opt.factor) {
      if (opt.nsizes == MAX_SIZES) die("too many sizes", NULL);
      opt.sizes[opt.nsizes++] = nb;
      if (nb >= opt.max) break;
    }
  opt.max = 0;
  for (int s = 0; s < opt.nsizes; s++)
    if (opt.sizes[s] > opt.max) opt.max = opt.sizes[s];
}

static int has_alg(int op, const char *alg) {
  for (int i = 0; op_algs[op][i]; i++)
    if (!strcmp(op_algs[op][i], alg)) return 1;
  return 0;
}

static void node_barrier(void) {
  gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
  gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS);
}

/* A barrier of every image. The node barrier takes one call per node:
 * image 0 makes it once the node's images have all arrived, and the
 * others leave only after it has completed. */
static void barrier(const image_t *im) {
#if defined(GASNET_PAR)
  if (opt.images > 1) {
    pthread_barrier_wait(&node_images);
    if (im->local == 0) node_barrier();
    pthread_barrier_wait(&node_images);
    return;
  }
#endif
  (void)im;
  node_barrier();
}

static void run_coll(int op, void *dst, void *src, size_t nbytes, int flags) {
  gasnet_team_handle_t T = GASNET_TEAM_ALL;
  switch (op) {
    case OP_BCAST: gasnet_coll_broadcast(T, dst, 0, src, nbytes, flags); break;
    case OP_SCATTER: gasnet_coll_scatter(T, dst, 0, src, nbytes, flags); break;
    case OP_GATHER: gasnet_coll_gather(T, 0, dst, src, nbytes, flags); break;
    case OP_GATHER_ALL: gasnet_coll_gather_all(T, dst, src, nbytes, flags); break;
    case OP_EXCHANGE: gasnet_coll_exchange(T, dst, src, nbytes, flags); break;
    default: {
      size_t per_image = nbytes / 4 ? nbytes / 4 : 1, count = per_image * NIMG;
      int fn = (op == OP_REDUCE || op == OP_SCAN) ? FN_SUM : FN_SUM_NONCOMM;
      if (op == OP_REDUCE || op == OP_REDUCE_NC)
        gasnet_coll_reduce(T, 0, dst, src, per_image, 0, 4, count, fn, GASNET_COLL_TYPE_INT32,
                           flags);
      else
        gasnet_coll_scan(T, dst, per_image, 0, src, per_image, 0, 4, count, fn,
                         GASNET_COLL_TYPE_INT32, flags | GASNET_COLL_INCLUSIVE_SCAN);
    }
  }
}

/* The compute floor: one image's elements summed by one call (us). */
static double compute_floor(const void *src, size_t nbytes) {
  size_t n = nbytes / 4 ? nbytes / 4 : 1;
  int32_t out;
  int reps = (int)(((size_t)64 << 20) / (n * 4 + 64)) + 1;
  if (reps > 2000) reps = 2000;
  gasnett_tick_t t0 = gasnett_ticks_now();
  for (int r = 0; r < reps; r++)
    if (n > 1) gasnet_coll_fn_sum(&out, 1, src, n - 1, (const int32_t *)src + n - 1, 4, 0,
                                  GASNET_COLL_TYPE_INT32);
  gasnett_tick_t t1 = gasnett_ticks_now();
  return (double)gasnett_ticks_to_ns(t1 - t0) / 1000.0 / reps;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* -L: this node's time per collective of repetition rep, up to now. */
static void print_local_time(int op, size_t nbytes, int sync, int rep, gasnett_tick_t t0,
                             int iters) {
  double us = (double)gasnett_ticks_to_ns(gasnett_ticks_now() - t0) / 1000.0 / iters;
  fprintf(stderr, "local,%s,%zu,%s,%u,%d,%.3f\n", op_names[op], nbytes, sync_names[sync],
          (unsigned)ME, rep, us);
}

/* Median and minimum latency (us) of one (op, size, sync), as this image
 * times it (only the reporter's are printed). */
static void measure(const image_t *im, int op, size_t nbytes, int sync, double *median_p,
                    double *min_p) {
  int flags = sync_flags[sync] | GASNET_COLL_LOCAL;
  if (!opt.out_of_seg) flags |= GASNET_COLL_DST_IN_SEGMENT | GASNET_COLL_SRC_IN_SEGMENT;
  size_t per_iter = nbytes * NIMG;
  int iters = opt.iters;
  if ((size_t)iters * per_iter > ((size_t)32 << 20)) iters = (int)(((size_t)32 << 20) / per_iter);
  if (iters < 3) iters = 3;
  double *samples = malloc((size_t)opt.reps * sizeof *samples);
  if (!samples) die("out of memory", NULL);
  barrier(im);
  run_coll(op, im->dst, im->src, nbytes, flags); /* warm-up */
  run_coll(op, im->dst, im->src, nbytes, flags);
  for (int r = 0; r < opt.reps; r++) {
    barrier(im);
    gasnett_tick_t t0 = gasnett_ticks_now();
    for (int i = 0; i < iters; i++) run_coll(op, im->dst, im->src, nbytes, flags);
    if (opt.local_times && im->local == 0) print_local_time(op, nbytes, sync, r, t0, iters);
    barrier(im);
    gasnett_tick_t t1 = gasnett_ticks_now();
    samples[r] = (double)gasnett_ticks_to_ns(t1 - t0) / 1000.0 / iters;
  }
  qsort(samples, (size_t)opt.reps, sizeof *samples, cmp_double);
  *median_p = opt.reps % 2 ? samples[opt.reps / 2]
                           : (samples[opt.reps / 2 - 1] + samples[opt.reps / 2]) / 2;
  *min_p = samples[0];
  free(samples);
}

static void parse_list(const char *arg, const char *const *names, int count, int *set,
                       const char *what) {
  for (const char *p = arg; *p;) {
    size_t len = strcspn(p, ",");
    int found = 0;
    for (int i = 0; i < count; i++)
      if (strlen(names[i]) == len && !strncmp(names[i], p, len)) set[i] = found = 1;
    if (!found) die(what, p);
    p += len + (p[len] == ',');
  }
}

static void parse_args(int argc, char **argv, const char **ops, const char **syncs,
                       const char **radix) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-c")) { opt.csv = 1; continue; }
    if (!strcmp(a, "-O")) { opt.out_of_seg = 1; continue; }
    if (!strcmp(a, "-L")) { opt.local_times = 1; continue; }
    if (!strcmp(a, "-h")) usage();
    if (i + 1 >= argc) die("missing value after", a);
    const char *v = argv[++i];
    if (!strcmp(a, "-a")) opt.alg = strcmp(v, "auto") ? v : NULL;
    else if (!strcmp(a, "-o")) *ops = v;
    else if (!strcmp(a, "-n")) opt.min = parse_size(v);
    else if (!strcmp(a, "-m")) opt.max = parse_size(v);
    else if (!strcmp(a, "-x")) opt.factor = parse_size(v);
    else if (!strcmp(a, "-l")) parse_sizes(v);
    else if (!strcmp(a, "-i")) opt.iters = atoi(v);
    else if (!strcmp(a, "-r")) opt.reps = atoi(v);
    else if (!strcmp(a, "-s")) *syncs = v;
    else if (!strcmp(a, "-R")) *radix = v;
    else if (!strcmp(a, "-I")) opt.images = atoi(v);
    else die("unknown option", a);
  }
  if (opt.iters < 1 || opt.reps < 1 || opt.factor < 2 || opt.min > opt.max || opt.images < 1)
    die("bad options", NULL);
  settle_sizes();
#if !defined(GASNET_PAR)
  if (opt.images > 1)
    die("-I above 1 needs the PAR build, tests/perf/collperf-par (this SEQ build runs one "
        "image per node)",
        NULL);
#endif
  /* Each image has its own buffers: they cannot all be the node's segment. */
  if (opt.images > 1) opt.out_of_seg = 1;
}

/* Select the ops and force -a's algorithm (before gasnet_init: the nodes
 * inherit the environment). */
static void select_ops(const char *ops, const char *syncs, const char *radix) {
  if (ops) parse_list(ops, op_names, OP_COUNT, opt.ops, "unknown op");
  else for (int o = 0; o < OP_COUNT; o++) opt.ops[o] = 1;
  parse_list(syncs, sync_names, SYNC_COUNT, opt.syncs, "unknown sync variant");
  if (opt.alg) {
    int any = 0;
    for (int o = 0; o < OP_COUNT; o++) {
      if (!has_alg(o, opt.alg)) opt.ops[o] = 0;
      if (opt.ops[o]) {
        setenv(op_env[o], opt.alg, 1);
        any = 1;
      }
    }
    if (!any) die("no selected op has an algorithm named", opt.alg);
  }
  if (radix) setenv("GASNET_COLL_TREE_RADIX", radix, 1);
}

/* The image's buffers: the node's segment (one image per node, no -O) or
 * malloc'd. */
static void image_buffers(image_t *im) {
  size_t region = opt.max * NIMG; /* the largest src or dst */
  if (opt.out_of_seg) {
    im->dst = malloc(region);
    im->src = malloc(region);
    if (!im->dst || !im->src) die("out of memory", NULL);
  } else {
    gasnet_seginfo_t *si = calloc(N, sizeof *si);
    if (!si || gasnet_getSegmentInfo(si, (int)N) != GASNET_OK) die("no segment info", NULL);
    im->dst = si[ME].addr;
    im->src = im->dst + ((region + GASNET_PAGESIZE - 1) & ~(size_t)(GASNET_PAGESIZE - 1));
    free(si);
  }
  /* The sources are zero: a sum takes as long whatever the values, and
   * int32 sums of zeros never overflow (the compute floor and the
   * reductions add many elements; signed overflow is undefined). */
  memset(im->dst, 1, region);
  memset(im->src, 0, region);
}

static const char *alg_name(void) { return opt.alg ? opt.alg : "auto"; }

static void print_header(void) {
  if (opt.csv) {
    printf("op,alg,nodes,bytes,sync,usec_median,usec_min,images_per_node\n");
  } else {
    printf("collperf: %u nodes x %d image%s per node, algorithm %s%s, buffers %s, median of %d "
           "repetitions (us)\n",
           (unsigned)N, opt.images, opt.images > 1 ? "s" : "", alg_name(),
           opt.alg ? "" : " (the selector's choice)",
           opt.out_of_seg ? "outside the segment" : "in the segment (LOCAL, *_IN_SEGMENT)",
           opt.reps);
  }
  fflush(stdout);
}

static void print_op_header(int op) {
  printf("\n%s, algorithm %s, %u nodes\n%10s", op_names[op], alg_name(), (unsigned)N, "bytes");
  for (int s = 0; s < SYNC_COUNT; s++)
    if (opt.syncs[s]) printf("  %9ssync med  %6s min", sync_names[s], "");
  if (op_computes(op)) printf("  %9s  %9s", "compute", "bcast8");
  printf("\n");
}

/* The yardsticks of reduce and scan: the compute floor and bcast8. */
static void measure_floors(const image_t *im, int op, size_t nb) {
  double floor_us = im->reporter ? compute_floor(im->src, nb) : 0, bmed, bmin;
  measure(im, OP_BCAST, 8, 0, &bmed, &bmin);
  if (!im->reporter) return;
  if (opt.csv)
    printf("%s_floors,compute_bcast8,%u,%zu,all,%.3f,%.3f,%d\n", op_names[op], (unsigned)N, nb,
           floor_us, bmed, opt.images);
  else
    printf("  %9.2f  %9.2f", floor_us, bmed);
}

/* One row: every sync variant of (op, nb). */
static void measure_row(const image_t *im, int op, size_t nb) {
  if (im->reporter && !opt.csv) printf("%10zu", nb);
  for (int s = 0; s < SYNC_COUNT; s++) {
    if (!opt.syncs[s]) continue;
    double med, mn;
    measure(im, op, nb, s, &med, &mn);
    if (!im->reporter) continue;
    if (opt.csv)
      printf("%s,%s,%u,%zu,%s,%.3f,%.3f,%d\n", op_names[op], alg_name(), (unsigned)N, nb,
             sync_names[s], med, mn, opt.images);
    else
      printf("  %17.2f  %10.2f", med, mn);
  }
  if (op_computes(op)) measure_floors(im, op, nb);
  if (im->reporter) {
    if (!opt.csv) printf("\n");
    fflush(stdout);
  }
}

/* What every image runs after gasnet_coll_init. */
static void run_image(image_t *im) {
  image_buffers(im);
  if (im->reporter) print_header();
  for (int op = 0; op < OP_COUNT; op++) {
    if (!opt.ops[op]) continue;
    if (im->reporter && !opt.csv) print_op_header(op);
    for (int s = 0; s < opt.nsizes; s++) measure_row(im, op, opt.sizes[s]);
  }
  barrier(im);
  if (opt.out_of_seg) {
    free(im->dst);
    free(im->src);
  }
}

static gasnet_image_t *images_arg; /* images[] for gasnet_coll_init; NULL: one per node */

static void coll_init(const image_t *im) {
  gasnet_image_t mine = (gasnet_image_t)(ME * (size_t)opt.images + im->local);
  gasnet_coll_init(images_arg, images_arg ? mine : 0, fn_table, 2, 0);
}

#if defined(GASNET_PAR)
static void *image_thread(void *arg) {
  image_t *im = arg;
  coll_init(im);
  run_image(im);
  return NULL;
}

/* Images 1 .. opt.images-1 of this node, each on its own pthread. */
static pthread_t *start_images(image_t *ims) {
  pthread_t *threads = calloc((size_t)opt.images, sizeof *threads);
  if (!threads || pthread_barrier_init(&node_images, NULL, (unsigned)opt.images))
    die("cannot set up the images", NULL);
  for (int j = 1; j < opt.images; j++)
    if (pthread_create(&threads[j], NULL, image_thread, &ims[j]))
      die("pthread_create failed", NULL);
  return threads;
}

static void join_images(pthread_t *threads) {
  for (int j = 1; j < opt.images; j++) pthread_join(threads[j], NULL);
  pthread_barrier_destroy(&node_images);
  free(threads);
}
#endif

static void attach(void) {
  size_t region = opt.max * NIMG;
  uintptr_t segsize = 2 * region + 2 * GASNET_PAGESIZE;
  segsize = (segsize + GASNET_PAGESIZE - 1) & ~(uintptr_t)(GASNET_PAGESIZE - 1);
  if (segsize > gasnet_getMaxLocalSegmentSize()) die("-m too large for the segment", NULL);
  if (gasnet_attach(NULL, 0, segsize, 0) != GASNET_OK) die("gasnet_attach failed", NULL);
}

int main(int argc, char **argv) {
  const char *ops = NULL, *syncs = "all,no", *radix = NULL;
  parse_args(argc, argv, &ops, &syncs, &radix);
  select_ops(ops, syncs, radix);

  if (gasnet_init(&argc, &argv) != GASNET_OK) die("gasnet_init failed", NULL);
  N = gasnet_nodes();
  ME = gasnet_mynode();
  NIMG = (size_t)N * (size_t)opt.images;
  attach();

  image_t *ims = calloc((size_t)opt.images, sizeof *ims);
  if (!ims) die("out of memory", NULL);
  for (int j = 0; j < opt.images; j++) {
    ims[j].local = (gasnet_image_t)j;
    ims[j].reporter = ME == 0 && j == 0;
  }
  if (opt.images > 1) {
    images_arg = malloc(N * sizeof *images_arg);
    if (!images_arg) die("out of memory", NULL);
    for (gasnet_node_t n = 0; n < N; n++) images_arg[n] = (gasnet_image_t)opt.images;
  }
#if defined(GASNET_PAR)
  pthread_t *threads = opt.images > 1 ? start_images(ims) : NULL;
#endif
  coll_init(&ims[0]); /* this thread is image 0 of the node */
  run_image(&ims[0]);
#if defined(GASNET_PAR)
  if (threads) join_images(threads);
#endif
  free(images_arg);
  free(ims);
  gasnet_exit(0);
  return 0;
}
