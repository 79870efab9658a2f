/* mpiputperf: putgetperf's measurements through MPI alone, the yardstick
 * for the mpi conduit's put/get (tests/perf/compare_putget_mpi.sh runs
 * both in one go).
 *
 * Usage: mpirun -np N mpiputperf [-i iters] [-r reps] [-m maxsize] [-w window] [-c]
 *
 * The options, sizes, iteration counts and output (table or CSV, -c) are
 * putgetperf's. Rank 0 works with rank 1 on a window over a page-aligned
 * buffer of each rank (MPI_Win_create, one MPI_Win_lock_all epoch, as the
 * conduit's), while the other ranks wait in MPI_Barrier:
 *   put us    MPI_Put + MPI_Win_flush, one at a time
 *   get us    MPI_Get + MPI_Win_flush_local, one at a time
 *   put MB/s  windows of MPI_Put closed by MPI_Win_flush
 *   get MB/s  windows of MPI_Get closed by MPI_Win_flush_local
 *   pingpong us  half an MPI_Send / MPI_Recv round trip
 * When MPI cannot create the window (Open MPI over TCP by default), the
 * RMA columns say so and only the ping-pong runs. MB is 10^6 bytes;
 * each figure is the median of the repetitions. */
#include <mpi.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static int iters = 2000, reps = 3, window = 32, csv, rank, size, peer;
static size_t maxsize = (size_t)4 << 20;
static uint8_t *local, *base;
static MPI_Win win;
static int have_win;

typedef enum { M_PUT_LAT, M_GET_LAT, M_PUT_BW, M_GET_BW, M_PINGPONG, M_COUNT } metric_t;

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static int iters_for(size_t n) {
  size_t cap = ((size_t)64 << 20) / n;
  int it = (size_t)iters < cap ? iters : (int)cap;
  return it < 4 ? 4 : it;
}

/* Microseconds per operation (rank 0; rank 1 takes part in the ping-pong). */
static double run_once(metric_t m, size_t n, int it) {
  int len = (int)n;
  double t0 = MPI_Wtime();
  for (int i = 0; i < it; i++) {
    switch (m) {
      case M_PUT_LAT:
        MPI_Put(local, len, MPI_BYTE, peer, (MPI_Aint)maxsize, len, MPI_BYTE, win);
        MPI_Win_flush(peer, win);
        break;
      case M_GET_LAT:
        MPI_Get(local, len, MPI_BYTE, peer, (MPI_Aint)maxsize, len, MPI_BYTE, win);
        MPI_Win_flush_local(peer, win);
        break;
      case M_PUT_BW:
        MPI_Put(local, len, MPI_BYTE, peer, (MPI_Aint)maxsize, len, MPI_BYTE, win);
        if ((i + 1) % window == 0 || i + 1 == it) MPI_Win_flush(peer, win);
        break;
      case M_GET_BW:
        MPI_Get(local, len, MPI_BYTE, peer, (MPI_Aint)maxsize, len, MPI_BYTE, win);
        if ((i + 1) % window == 0 || i + 1 == it) MPI_Win_flush_local(peer, win);
        break;
      default:
        if (rank == 0) {
          MPI_Send(local, len, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
          MPI_Recv(local, len, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
          MPI_Recv(local, len, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          MPI_Send(local, len, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
        }
        break;
    }
  }
  double us = (MPI_Wtime() - t0) * 1e6 / it;
  return m == M_PINGPONG ? us / 2 : us;
}

/* Rank 0 measures; in the ping-pong rank 1 answers. */
static double measure(metric_t m, size_t n) {
  double t[32];
  int it = iters_for(n), r = reps < 32 ? reps : 32;
  int active = rank == 0 || (m == M_PINGPONG && rank == peer);
  if (!active || (m != M_PINGPONG && !have_win) || (m == M_PINGPONG && size < 2)) return -1;
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

static void print_row(size_t n, const double *r) {
  double put_bw = r[M_PUT_BW] > 0 ? (double)n / r[M_PUT_BW] : -1;
  double get_bw = r[M_GET_BW] > 0 ? (double)n / r[M_GET_BW] : -1;
  if (csv)
    printf("%d,mpi,%zu,%.3f,%.3f,%.1f,%.1f,%.3f\n", size, n, r[M_PUT_LAT], r[M_GET_LAT], put_bw,
           get_bw, r[M_PINGPONG]);
  else if (have_win)
    printf("%10zu %10.3f %10.3f %12.1f %12.1f %12.3f\n", n, r[M_PUT_LAT], r[M_GET_LAT], put_bw,
           get_bw, r[M_PINGPONG]);
  else
    printf("%10zu %10s %10s %12s %12s %12.3f\n", n, "-", "-", "-", "-", r[M_PINGPONG]);
  fflush(stdout);
}

static int parse_args(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-i") && i + 1 < argc) iters = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-r") && i + 1 < argc) reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-w") && i + 1 < argc) window = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-m") && i + 1 < argc) maxsize = strtoull(argv[++i], NULL, 0);
    else if (!strcmp(argv[i], "-c")) csv = 1;
    else return 0;
  }
  return iters >= 1 && reps >= 1 && window >= 1 && maxsize >= 8 && maxsize <= ((size_t)1 << 30);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (!parse_args(argc, argv)) {
    if (rank == 0)
      fprintf(stderr, "usage: %s [-i iters] [-r reps] [-m maxsize (8..1G)] [-w window] [-c]\n",
              argv[0]);
    MPI_Finalize();
    return 2;
  }
  peer = size > 1 ? 1 : 0;
  base = mmap(NULL, 2 * maxsize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED) MPI_Abort(MPI_COMM_WORLD, 1);
  memset(base, 1, 2 * maxsize);
  local = base;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  have_win = MPI_Win_create(base, (MPI_Aint)(2 * maxsize), 1, MPI_INFO_NULL, MPI_COMM_WORLD,
                            &win) == MPI_SUCCESS;
  MPI_Allreduce(MPI_IN_PLACE, &have_win, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (have_win) MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
  size_t sizes[64];
  int nsizes = 0;
  for (size_t s = 8; s <= maxsize; s *= 4) nsizes = add_size(sizes, nsizes, s);
  nsizes = add_size(sizes, nsizes, maxsize);
  nsizes = add_size(sizes, nsizes, 65536);
  nsizes = add_size(sizes, nsizes, 65536 + 8);
  if (rank == 0) {
    if (csv) {
      printf("nodes,path,bytes,put_us,get_us,put_MBps,get_MBps,pingpong_us\n");
    } else {
      printf("mpiputperf: %d ranks, rank 0 with rank %d, MPI RMA %s\n", size, peer,
             have_win ? "on a window from MPI_Win_create" : "unavailable (MPI_Win_create failed)");
      printf("  latency: put+flush / get+flush_local; bandwidth: window %d; median of %d\n",
             window, reps);
      printf("%10s %10s %10s %12s %12s %12s\n", "bytes", "put us", "get us", "put MB/s",
             "get MB/s", "pingpong us");
    }
  }
  for (int i = 0; i < nsizes; i++) {
    double r[M_COUNT];
    for (int m = 0; m < M_COUNT; m++) {
      MPI_Barrier(MPI_COMM_WORLD); /* the others wait here, inside MPI */
      r[m] = measure((metric_t)m, sizes[i]);
    }
    if (rank == 0) print_row(sizes[i], r);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (have_win) {
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
  }
  MPI_Finalize();
  return 0;
}
