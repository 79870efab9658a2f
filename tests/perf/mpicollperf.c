/* mpicollperf: collperf's loops through MPI's own collectives, the yardstick
 * the collectives are measured against (tests/perf/compare_mpi.sh runs both
 * and prints the ratios).
 *
 * Usage: mpirun -np N mpicollperf [-o OPS] [-n MIN] [-m MAX] [-x FACTOR]
 *                                 [-l SIZES] [-i ITERS] [-r REPS] [-s SYNCS]
 *                                 [-O] [-c] [-h]
 *
 * The options, the sizes, the iteration and repetition counts, the timed
 * loop and the output (table or CSV, -c) are collperf's, so the two join
 * on (op, bytes, sync). The ops and what each call is:
 *
 *   broadcast   MPI_Bcast      root 0, BYTES bytes
 *   scatter     MPI_Scatter    root 0, BYTES bytes per rank
 *   gather      MPI_Gather     root 0, BYTES bytes per rank
 *   gather_all  MPI_Allgather  BYTES bytes per rank
 *   exchange    MPI_Alltoall   BYTES bytes per pair of ranks
 *   reduce      the sum of a distributed array of int32 (BYTES / 4 per
 *               rank) at rank 0: a local sum, then MPI_Reduce of that one
 *               element (MPI_SUM)
 *   scan        the inclusive prefix sums of that array: a local sum,
 *               MPI_Scan of it (one element), then the local prefix sums
 *               from the carry
 *   reduce_ew   MPI_Reduce, MPI_SUM, element-wise over BYTES / 4 int32
 *   scan_ew     MPI_Scan, MPI_SUM, element-wise over BYTES / 4 int32
 *   memcpy      not a collective: every rank copies BYTES bytes between
 *               its own two buffers with memcpy, all ranks at once (they
 *               share the memory system, as a collective's copies do);
 *               the copy floor compare_mpi.sh prints beside the tables
 *   move_exchange    not a collective: every rank copies its own block
 *               of an exchange (memcpy, BYTES bytes) and then reads each
 *               other rank's block for it straight from that rank's src,
 *               one cross-memory read (process_vm_readv) each, all ranks
 *               at once: what an exchange moves on one host when every
 *               byte is copied once, in the plainest order
 *   move_gather_all  the same for gather_all: every rank's src is one
 *               block, which its own copy and every other rank read
 *               compare_mpi.sh prints the two beside their ops. Where the
 *               kernel refuses the reads (ptrace rules), their rows are
 *               left out, with a note on stderr
 *   stage_exchange, stage_gather_all  the same bytes moved the other
 *               way a library could move them without cross-memory
 *               reads: every rank copies the blocks the others need
 *               into its part of a shared window (MPI_Win_allocate_shared),
 *               copies its own block, and after an MPI_Barrier copies
 *               each other rank's block out of that rank's part; a
 *               second barrier keeps the next call from overwriting a
 *               part still being read. Two copies per byte against the
 *               move ops' one; left out, with a note, when the ranks do
 *               not all share one host's memory
 *
 * reduce and scan compute what collperf's reduce and scan compute
 * (gasnet_coll_reduce / _scan of a blocked int32 array, one block of
 * BYTES / 4 elements per image: one sum, or every prefix sum), the way an
 * MPI program would. MPI's element-wise forms are another operation (each
 * rank's BYTES cross the network), so they have their own names and are
 * not in the default set.
 *
 * Sync variants (-s, default my):
 *   my   the calls back to back. MPI's blocking collectives promise what
 *        IN_MYSYNC|OUT_MYSYNC does: a call returns once this rank's
 *        buffers are done with, and promises nothing about the others.
 *   all  MPI_Barrier, the call, MPI_Barrier: what an MPI program writes to
 *        get IN_ALLSYNC|OUT_ALLSYNC's promise (nobody's data moves before
 *        every rank has entered; nobody returns before every rank is done).
 * MPI has no weaker blocking form, so "no" (IN_NOSYNC|OUT_NOSYNC) has no
 * twin and is refused.
 *
 * Buffers are malloc'd (collperf -O); -O is accepted and changes nothing.
 * One repetition: MPI_Barrier, ITERS calls back to back, MPI_Barrier; its
 * time / ITERS is one sample, taken by rank 0; the median and the minimum
 * of the samples are printed, in microseconds. */
#define _GNU_SOURCE /* process_vm_readv */
#include <mpi.h>

#include <errno.h>
#include <sys/uio.h>
#include <unistd.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OP_BCAST, OP_SCATTER, OP_GATHER, OP_GATHER_ALL, OP_EXCHANGE,
       OP_REDUCE, OP_SCAN, OP_REDUCE_EW, OP_SCAN_EW, OP_MEMCPY, OP_MOVE_EXCHANGE,
       OP_MOVE_GATHER_ALL, OP_STAGE_EXCHANGE, OP_STAGE_GATHER_ALL, OP_COUNT };
static const char *const op_names[OP_COUNT] = {"broadcast", "scatter", "gather",
                                               "gather_all", "exchange", "reduce",
                                               "scan", "reduce_ew", "scan_ew", "memcpy",
                                               "move_exchange", "move_gather_all",
                                               "stage_exchange", "stage_gather_all"};
enum { DEFAULT_OPS = OP_SCAN + 1 }; /* the ops collperf also has */

enum { SYNC_ALL, SYNC_NO, SYNC_MY, SYNC_COUNT }; /* collperf's order */
static const char *const sync_names[SYNC_COUNT] = {"all", "no", "my"};

enum { MAX_SIZES = 64 };
static struct {
  int ops[OP_COUNT];
  int syncs[SYNC_COUNT];
  size_t min, max, factor;
  size_t sizes[MAX_SIZES];
  int nsizes, iters, reps, csv;
} opt = {{0}, {0}, 8, (size_t)1 << 20, 4, {0}, 0, 200, 7, 0};

static int P, ME;
static unsigned char *dst, *src; /* opt.max * P bytes each */
/* For the move ops: every rank's pid and src, and whether the kernel let
 * every rank read them (all ranks agree before any row is measured). */
static pid_t *peer_pid;
static uint64_t *peer_src;
static int move_ok;
/* For the stage ops: every rank's part of the shared window, or NULL
 * (stage_ok 0) when the ranks are not all on one host. */
static unsigned char **stage_part;
static MPI_Win stage_win = MPI_WIN_NULL;
static int stage_ok;

static void die(const char *msg, const char *arg) {
  if (ME == 0) fprintf(stderr, "mpicollperf: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
  MPI_Finalize();
  exit(2);
}

static void usage(void) {
  if (ME == 0)
    printf("usage: mpicollperf [-o OPS] [-n MIN] [-m MAX] [-x FACTOR] [-l SIZES] [-i ITERS]\n"
           "                   [-r REPS] [-s all,my] [-O] [-c] [-h]\n"
           "  (what each op and sync variant is: the comment at the top of "
           "tests/perf/mpicollperf.c)\n");
  MPI_Finalize();
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

/* -l: an explicit comma list of sizes, measured in that order. */
static void parse_sizes(const char *arg) {
  char *copy = strdup(arg), *save = NULL;
  if (!copy) die("out of memory", NULL);
  opt.nsizes = 0;
  for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    if (opt.nsizes == MAX_SIZES) die("too many sizes", arg);
    opt.sizes[opt.nsizes++] = parse_size(t);
  }
  free(copy);
  if (opt.nsizes == 0) die("no sizes", arg);
}

/* Without -l: MIN, MIN * FACTOR, ... and always MAX (collperf's steps). */
static void size_steps(void) {
  opt.nsizes = 0;
  for (size_t nb = opt.min;; nb = nb * opt.factor > opt.max ? opt.max : nb * opt.factor) {
    if (opt.nsizes == MAX_SIZES) die("too many sizes", NULL);
    opt.sizes[opt.nsizes++] = nb;
    if (nb >= opt.max) break;
  }
}

static void parse_args(int argc, char **argv) {
  const char *ops = NULL, *syncs = "my", *sizes = NULL;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-c")) { opt.csv = 1; continue; }
    if (!strcmp(a, "-O")) continue; /* buffers are always malloc'd */
    if (!strcmp(a, "-h")) usage();
    if (i + 1 >= argc) die("missing value after", a);
    const char *v = argv[++i];
    if (!strcmp(a, "-o")) ops = v;
    else if (!strcmp(a, "-n")) opt.min = parse_size(v);
    else if (!strcmp(a, "-m")) opt.max = parse_size(v);
    else if (!strcmp(a, "-x")) opt.factor = parse_size(v);
    else if (!strcmp(a, "-l")) sizes = v;
    else if (!strcmp(a, "-i")) opt.iters = atoi(v);
    else if (!strcmp(a, "-r")) opt.reps = atoi(v);
    else if (!strcmp(a, "-s")) syncs = v;
    else die("unknown option", a);
  }
  if (opt.iters < 1 || opt.reps < 1 || opt.factor < 2 || opt.min > opt.max)
    die("bad options", NULL);
  if (ops) parse_list(ops, op_names, OP_COUNT, opt.ops, "unknown op");
  else for (int o = 0; o < DEFAULT_OPS; o++) opt.ops[o] = 1;
  parse_list(syncs, sync_names, SYNC_COUNT, opt.syncs, "unknown sync variant");
  if (opt.syncs[SYNC_NO]) die("MPI has no twin of IN_NOSYNC|OUT_NOSYNC", "-s no");
  if (sizes) parse_sizes(sizes);
  else size_steps();
  opt.max = 0;
  for (int s = 0; s < opt.nsizes; s++)
    if (opt.sizes[s] > opt.max) opt.max = opt.sizes[s];
}

/* The sum of n int32 (unsigned: the sums wrap, as the library's do), in
 * vector code as the library's built-in sum is (coll/ops/reduce_builtin.c):
 * GCC leaves it scalar at -O2, and the twin would then measure a slower
 * loop, not MPI. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC optimize("tree-vectorize", "vect-cost-model=dynamic")
#endif
static uint32_t local_sum(const uint32_t *x, size_t n) {
  uint32_t s = 0;
  for (size_t i = 0; i < n; i++) s += x[i];
  return s;
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif

/* collperf's reduce: the array's sum at rank 0. */
static void array_reduce(size_t n) {
  uint32_t part = local_sum((const uint32_t *)src, n), total = 0;
  MPI_Reduce(&part, &total, 1, MPI_UINT32_T, MPI_SUM, 0, MPI_COMM_WORLD);
  if (ME == 0) memcpy(dst, &total, sizeof total);
}

/* collperf's inclusive scan: every element's prefix sum over the array.
 * MPI_Scan gives the sum up to this rank's block; minus the block's own
 * sum it is the carry into the block. */
static void array_scan(size_t n) {
  const uint32_t *in = (const uint32_t *)src;
  uint32_t *out = (uint32_t *)dst;
  uint32_t part = local_sum(in, n), incl = 0;
  MPI_Scan(&part, &incl, 1, MPI_UINT32_T, MPI_SUM, MPI_COMM_WORLD);
  uint32_t carry = incl - part;
  for (size_t i = 0; i < n; i++) out[i] = carry += in[i];
}

/* The move ops: this rank's own block by memcpy, every other rank's block
 * by one cross-memory read from that rank's src: block ME of it for an
 * exchange, its only block for a gather_all. 0 when a read failed. */
static int move_blocks(size_t nb, int exchange) {
  size_t own = exchange ? (size_t)ME * nb : 0;
  memcpy(dst + (size_t)ME * nb, src + own, nb);
  int ok = 1;
  for (int p = 0; p < P; p++) {
    if (p == ME) continue;
    struct iovec here = {dst + (size_t)p * nb, nb};
    uint64_t theirs = exchange ? (uint64_t)ME * nb : 0;
    struct iovec there = {(void *)(uintptr_t)(peer_src[p] + theirs), nb};
    if (process_vm_readv(peer_pid[p], &here, 1, &there, 1, 0) != (ssize_t)nb) ok = 0;
  }
  return ok;
}

/* Whether every rank may read every other's memory: one try of each read. */
static int move_setup(void) {
  pid_t me = getpid();
  uint64_t base = (uint64_t)(uintptr_t)src;
  peer_pid = malloc((size_t)P * sizeof *peer_pid);
  peer_src = malloc((size_t)P * sizeof *peer_src);
  if (!peer_pid || !peer_src) die("out of memory", NULL);
  MPI_Allgather(&me, (int)sizeof me, MPI_BYTE, peer_pid, (int)sizeof me, MPI_BYTE, MPI_COMM_WORLD);
  MPI_Allgather(&base, 1, MPI_UINT64_T, peer_src, 1, MPI_UINT64_T, MPI_COMM_WORLD);
  int mine = move_blocks(8, 1), all = 0;
  int err = errno;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!mine)
    fprintf(stderr, "mpicollperf: rank %d: process_vm_readv: %s; the move ops left out\n", ME,
            strerror(err));
  return all;
}

/* The stage ops: the blocks the others need into this rank's part of
 * the shared window (block p of src for rank p in an exchange, the one
 * block for a gather_all), the own block into dst, a barrier, every
 * other rank's block out of its part, a barrier. */
static void stage_blocks(size_t nb, int exchange) {
  unsigned char *mine = stage_part[ME];
  if (exchange) {
    for (int p = 0; p < P; p++)
      if (p != ME) memcpy(mine + (size_t)p * nb, src + (size_t)p * nb, nb);
  } else {
    memcpy(mine, src, nb);
  }
  memcpy(dst + (size_t)ME * nb, src + (exchange ? (size_t)ME * nb : 0), nb);
  MPI_Win_sync(stage_win);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_sync(stage_win);
  for (int p = 0; p < P; p++)
    if (p != ME) memcpy(dst + (size_t)p * nb, stage_part[p] + (exchange ? (size_t)ME * nb : 0), nb);
  MPI_Barrier(MPI_COMM_WORLD);
}

/* A shared window of opt.max * P bytes per rank, when every rank is on
 * this host; held in one passive epoch so that MPI_Win_sync may order the
 * copies around the barriers. */
static int stage_setup(void) {
  MPI_Comm host;
  int host_size = 0;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, ME, MPI_INFO_NULL, &host);
  MPI_Comm_size(host, &host_size);
  if (host_size != P) {
    if (ME == 0) fprintf(stderr, "mpicollperf: the ranks span hosts; the stage ops left out\n");
    MPI_Comm_free(&host);
    return 0;
  }
  unsigned char *base = NULL;
  MPI_Win_allocate_shared((MPI_Aint)(opt.max * (size_t)P), 1, MPI_INFO_NULL, host, &base,
                          &stage_win);
  MPI_Comm_free(&host);
  stage_part = malloc((size_t)P * sizeof *stage_part);
  if (!stage_part) die("out of memory", NULL);
  for (int p = 0; p < P; p++) {
    MPI_Aint size;
    int unit;
    MPI_Win_shared_query(stage_win, p, &size, &unit, &stage_part[p]);
  }
  memset(base, 3, opt.max * (size_t)P); /* every page touched before timing */
  MPI_Win_lock_all(MPI_MODE_NOCHECK, stage_win);
  return 1;
}

static void run_coll(int op, size_t nb) {
  MPI_Comm W = MPI_COMM_WORLD;
  int n = (int)nb;
  size_t elems = nb / 4 ? nb / 4 : 1;
  switch (op) {
    case OP_BCAST: MPI_Bcast(src, n, MPI_BYTE, 0, W); break;
    case OP_SCATTER: MPI_Scatter(src, n, MPI_BYTE, dst, n, MPI_BYTE, 0, W); break;
    case OP_GATHER: MPI_Gather(src, n, MPI_BYTE, dst, n, MPI_BYTE, 0, W); break;
    case OP_GATHER_ALL: MPI_Allgather(src, n, MPI_BYTE, dst, n, MPI_BYTE, W); break;
    case OP_EXCHANGE: MPI_Alltoall(src, n, MPI_BYTE, dst, n, MPI_BYTE, W); break;
    case OP_REDUCE: array_reduce(elems); break;
    case OP_SCAN: array_scan(elems); break;
    case OP_REDUCE_EW:
      MPI_Reduce(src, dst, (int)elems, MPI_UINT32_T, MPI_SUM, 0, W);
      break;
    case OP_SCAN_EW: MPI_Scan(src, dst, (int)elems, MPI_UINT32_T, MPI_SUM, W); break;
    case OP_MEMCPY: memcpy(dst, src, nb); break;
    case OP_MOVE_EXCHANGE: move_blocks(nb, 1); break;
    case OP_MOVE_GATHER_ALL: move_blocks(nb, 0); break;
    case OP_STAGE_EXCHANGE: stage_blocks(nb, 1); break;
    case OP_STAGE_GATHER_ALL: stage_blocks(nb, 0); break;
  }
}

/* One call as sync variant `sync` runs it (see the top of the file). */
static void one_call(int op, size_t nb, int sync) {
  if (sync == SYNC_ALL) MPI_Barrier(MPI_COMM_WORLD);
  run_coll(op, nb);
  if (sync == SYNC_ALL) MPI_Barrier(MPI_COMM_WORLD);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* collperf's iteration count: at most ~32 MiB per rank per repetition,
 * at least 3 calls. */
static int iterations(size_t nb) {
  size_t per_iter = nb * (size_t)P;
  int iters = opt.iters;
  if ((size_t)iters * per_iter > ((size_t)32 << 20)) iters = (int)(((size_t)32 << 20) / per_iter);
  return iters < 3 ? 3 : iters;
}

/* Median and minimum latency (us) of one (op, size, sync), timed by rank 0;
 * the closing barrier makes each sample include the slowest rank. */
static void measure(int op, size_t nb, int sync, double *median_p, double *min_p) {
  int iters = iterations(nb);
  double *samples = malloc((size_t)opt.reps * sizeof *samples);
  if (!samples) die("out of memory", NULL);
  MPI_Barrier(MPI_COMM_WORLD);
  one_call(op, nb, sync); /* warm-up, as collperf */
  one_call(op, nb, sync);
  for (int r = 0; r < opt.reps; r++) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < iters; i++) one_call(op, nb, sync);
    MPI_Barrier(MPI_COMM_WORLD);
    samples[r] = (MPI_Wtime() - t0) * 1e6 / iters;
  }
  qsort(samples, (size_t)opt.reps, sizeof *samples, cmp_double);
  *median_p = opt.reps % 2 ? samples[opt.reps / 2]
                           : (samples[opt.reps / 2 - 1] + samples[opt.reps / 2]) / 2;
  *min_p = samples[0];
  free(samples);
}

static void print_header(void) {
  if (opt.csv) {
    printf("op,alg,nodes,bytes,sync,usec_median,usec_min,images_per_node\n");
  } else {
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(lib, &len);
    lib[strcspn(lib, ",\n")] = '\0'; /* the first line's name and version */
    printf("mpicollperf: %d ranks x 1 image per rank, algorithm mpi (%s), buffers "
           "malloc'd, median of %d repetitions (us)\n",
           P, lib, opt.reps);
  }
  fflush(stdout);
}

static void print_op_header(int op) {
  printf("\n%s, algorithm mpi, %d nodes\n%10s", op_names[op], P, "bytes");
  for (int s = 0; s < SYNC_COUNT; s++)
    if (opt.syncs[s]) printf("  %9ssync med  %6s min", sync_names[s], "");
  printf("\n");
}

/* One row: every sync variant of (op, nb). */
static void measure_row(int op, size_t nb) {
  if (ME == 0 && !opt.csv) printf("%10zu", nb);
  for (int s = 0; s < SYNC_COUNT; s++) {
    if (!opt.syncs[s]) continue;
    double med, mn;
    measure(op, nb, s, &med, &mn);
    if (ME != 0) continue;
    if (opt.csv)
      printf("%s,mpi,%d,%zu,%s,%.3f,%.3f,1\n", op_names[op], P, nb, sync_names[s], med, mn);
    else
      printf("  %17.2f  %10.2f", med, mn);
  }
  if (ME == 0) {
    if (!opt.csv) printf("\n");
    fflush(stdout);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  MPI_Comm_rank(MPI_COMM_WORLD, &ME);
  parse_args(argc, argv);
  if (opt.max > (size_t)INT32_MAX / (size_t)P) die("-m too large for an int count", NULL);
  size_t region = opt.max * (size_t)P; /* the largest src or dst */
  dst = malloc(region);
  src = malloc(region);
  if (!dst || !src) die("out of memory", NULL);
  memset(dst, 1, region); /* touch every page before timing, as collperf */
  memset(src, 2, region);
  if (opt.ops[OP_MOVE_EXCHANGE] || opt.ops[OP_MOVE_GATHER_ALL]) move_ok = move_setup();
  if (opt.ops[OP_STAGE_EXCHANGE] || opt.ops[OP_STAGE_GATHER_ALL]) stage_ok = stage_setup();
  if (ME == 0) print_header();
  for (int op = 0; op < OP_COUNT; op++) {
    int moves = op == OP_MOVE_EXCHANGE || op == OP_MOVE_GATHER_ALL;
    int stages = op == OP_STAGE_EXCHANGE || op == OP_STAGE_GATHER_ALL;
    if (!opt.ops[op] || (moves && !move_ok) || (stages && !stage_ok)) continue;
    if (ME == 0 && !opt.csv) print_op_header(op);
    for (int s = 0; s < opt.nsizes; s++) measure_row(op, opt.sizes[s]);
  }
  free(dst);
  free(src);
  free(peer_pid);
  free(peer_src);
  if (stage_win != MPI_WIN_NULL) {
    MPI_Win_unlock_all(stage_win);
    MPI_Win_free(&stage_win);
  }
  free(stage_part);
  MPI_Finalize();
  return 0;
}
