/* mpiamflood: amflood's twin through MPI point-to-point, the same
 * workload (amflood_common.h) as an MPI code would write it, so that
 * tests/perf/compare_am_mpi.sh can set the two side by side.
 *
 *   flood, flood_bi  osu_bw's pattern: per window the receiver posts
 *                    `window` MPI_Irecv, the sender `window` MPI_Isend,
 *                    both wait for all, then a 0-byte acknowledgement;
 *                    "Short" is a 0-byte message, "Medium" and "Long" the
 *                    same MPI message at each size (amflood's two paths)
 *   frontier_a/_b    each update (a) or each packed message (b) is an
 *                    MPI_Isend to its owner from a ring of 64 buffers per
 *                    owner; 64 MPI_Irecv from any source stay posted and
 *                    MPI_Testsome runs before every send (the poll); a
 *                    0-byte message per peer ends the round, then
 *                    MPI_Barrier
 *
 * Usage: mpirun -np N mpiamflood [amflood's options]. Every message is
 * counted and checked as in amflood, every table replayed; a difference
 * fails the run (exit 3, AMF_EXIT_BAD), as it must with -X. */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>

#include "amflood_common.h"

enum { TAG_DATA = 11, TAG_ACK, TAG_UPDATE };
enum { RING = 64, POOL = 64 };

static amf_opts_t opt;
static int me, nodes;
static unsigned char *sendbuf, *recvbuf;
static uint64_t *table;
static long errors;

static void fail(const char *what) {
  fprintf(stderr, "mpiamflood: FAILED on rank %d: %s\n", me, what);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

static void *alloc(size_t bytes) {
  void *p = calloc(1, bytes ? bytes : 1);
  if (!p) fail("out of memory");
  return p;
}

/* ------------------------------------------------------------ floods */
static double flood_once(size_t bytes, int window, int iters, int both) {
  int half = nodes / 2, paired = nodes == 1 || me < 2 * half;
  int peer = nodes == 1 ? 0 : (me < half ? me + half : me - half);
  int sends = paired && (both || nodes == 1 || me < half);
  int receives = paired && (both || nodes == 1 || me >= half);
  MPI_Request rreq[2048], sreq[2048], ackr, acks;
  MPI_Status st[2048];
  long arrived = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int w = 0; w < iters / window; w++) {
    if (receives)
      for (int i = 0; i < window; i++)
        MPI_Irecv(recvbuf + (size_t)i * bytes, (int)bytes, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD,
                  &rreq[i]);
    int damaged = opt.damage && w == 0 && bytes > 0 && sends;
    if (damaged) sendbuf[bytes / 2] ^= 0x40; /* -X: the checks must catch it */
    if (sends) {
      MPI_Irecv(NULL, 0, MPI_BYTE, peer, TAG_ACK, MPI_COMM_WORLD, &ackr);
      for (int i = 0; i < window; i++)
        MPI_Isend(sendbuf, (int)bytes, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, &sreq[i]);
    }
    if (receives) {
      MPI_Waitall(window, rreq, st);
      for (int i = 0; i < window; i++) {
        int got;
        MPI_Get_count(&st[i], MPI_BYTE, &got);
        if ((size_t)got != bytes ||
            !amf_payload_ok(recvbuf + (size_t)i * bytes, (unsigned)peer, bytes, opt.verify))
          errors++;
        arrived++;
      }
      MPI_Isend(NULL, 0, MPI_BYTE, peer, TAG_ACK, MPI_COMM_WORLD, &acks);
    }
    if (sends) {
      MPI_Waitall(window, sreq, MPI_STATUSES_IGNORE);
      MPI_Wait(&ackr, MPI_STATUS_IGNORE);
    }
    if (damaged) sendbuf[bytes / 2] ^= 0x40;
    if (receives) MPI_Wait(&acks, MPI_STATUS_IGNORE);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  double t = (MPI_Wtime() - t0) * 1e6;
  if (receives && arrived != iters) errors++;
  return t;
}

static void check_errors(const char *what) {
  long all = 0;
  MPI_Allreduce(&errors, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (all && me == 0) {
    fprintf(stderr, "mpiamflood: FAILED: %ld bad messages or updates in %s\n", all, what);
    MPI_Abort(MPI_COMM_WORLD, AMF_EXIT_BAD);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

static void flood(const char *kind, size_t bytes, int both) {
  int window = amf_window(&opt, bytes), iters = amf_iters(&opt, bytes, window);
  double t[64];
  if (window > 2048) window = 2048;
  amf_fill(sendbuf, (unsigned)me, bytes);
  flood_once(bytes, window, iters, both); /* warm-up */
  for (int r = 0; r < opt.reps; r++) t[r] = flood_once(bytes, window, iters, both);
  check_errors(both ? "flood_bi" : "flood");
  long senders = nodes == 1 ? 1 : (long)(nodes / 2) * (both ? 2 : 1);
  if (me == 0)
    amf_row(&opt, both ? "flood_bi" : "flood", kind, bytes, bytes, (unsigned)nodes, window,
            senders * iters, amf_median(t, opt.reps));
}

/* AM's Medium and Long paths are one MPI message each: the same loop,
 * named after each; the Medium sizes include both conduits' limits. */
static void floods(int both) {
  size_t sizes[32];
  flood("Short", 0, both);
  int nm = amf_sizes(65536, opt.maxsize, 65280, sizes, 32);
  for (int i = 0; i < nm; i++) flood("Medium", sizes[i], both);
  int nl = amf_sizes((size_t)4 << 20, opt.maxsize, 0, sizes, 32);
  for (int i = 0; i < nl; i++) flood("Long", sizes[i], both);
}

/* ------------------------------------------------------------ frontier */
typedef struct {
  unsigned char *buf[RING]; /* message buffers, `msgbytes` each */
  MPI_Request req[RING];
  int cur, fill; /* the slot being filled, and its updates */
} outbox_t;

static outbox_t *outbox;
static MPI_Request pool[POOL];
static unsigned char *poolbuf;
static size_t msgbytes;
static int ends; /* end-of-round markers seen this round */

static void apply(const unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; i++) {
    amf_update_t u;
    memcpy(&u, p + i * sizeof u, sizeof u);
    if (u.word >= opt.words) {
      errors++;
      continue;
    }
    table[u.word] += u.value;
  }
}

static void post(int i) {
  MPI_Irecv(poolbuf + (size_t)i * msgbytes, (int)msgbytes, MPI_BYTE, MPI_ANY_SOURCE, TAG_UPDATE,
            MPI_COMM_WORLD, &pool[i]);
}

/* The poll: whatever has arrived is applied, its receive posted again. */
static void progress(void) {
  int n, idx[POOL];
  MPI_Status st[POOL];
  MPI_Testsome(POOL, pool, &n, idx, st);
  for (int k = 0; k < n && n != MPI_UNDEFINED; k++) {
    int got;
    MPI_Get_count(&st[k], MPI_BYTE, &got);
    if (got == 0)
      ends++;
    else if (got % (int)sizeof(amf_update_t))
      errors++;
    else
      apply(poolbuf + (size_t)idx[k] * msgbytes, (size_t)got / sizeof(amf_update_t));
    post(idx[k]);
  }
}

/* Waits for a send, polling meanwhile (the peer may wait for us). */
static void finish(MPI_Request *r) {
  int done = 0;
  while (!done) {
    MPI_Test(r, &done, MPI_STATUS_IGNORE);
    if (!done) progress();
  }
}

static void send_slot(int owner) {
  outbox_t *o = &outbox[owner];
  if (o->fill == 0) return;
  progress();
  MPI_Isend(o->buf[o->cur], o->fill * (int)sizeof(amf_update_t), MPI_BYTE, owner, TAG_UPDATE,
            MPI_COMM_WORLD, &o->req[o->cur]);
  o->cur = (o->cur + 1) % RING;
  o->fill = 0;
}

static void add(int owner, const amf_update_t *u, int per) {
  outbox_t *o = &outbox[owner];
  if (o->fill == 0) finish(&o->req[o->cur]); /* the slot's last send */
  memcpy(o->buf[o->cur] + (size_t)o->fill * sizeof *u, u, sizeof *u);
  if (++o->fill == per) send_slot(owner);
}

static void frontier_round(uint64_t round, int per) {
  MPI_Request endreq[1024];
  int damaged = 0;
  for (int k = 0; k < opt.updates; k++) {
    unsigned owner;
    amf_update_t u;
    amf_update((unsigned)me, (unsigned)nodes, opt.words, round, (uint64_t)k, &owner, &u);
    if ((int)owner != me) amf_damage_update(&opt, round, &damaged, &u);
    if ((int)owner == me)
      apply((const unsigned char *)&u, 1);
    else
      add((int)owner, &u, per);
  }
  for (int p = 0; p < nodes; p++) send_slot(p);
  int nend = 0;
  for (int p = 0; p < nodes; p++)
    if (p != me) MPI_Isend(NULL, 0, MPI_BYTE, p, TAG_UPDATE, MPI_COMM_WORLD, &endreq[nend++]);
  while (ends < nodes - 1) progress();
  ends = 0;
  for (int i = 0; i < nend; i++) finish(&endreq[i]);
  for (int p = 0; p < nodes; p++)
    for (int s = 0; s < RING; s++) finish(&outbox[p].req[s]);
  MPI_Barrier(MPI_COMM_WORLD);
}

static void frontier(size_t agg) {
  double t[64];
  uint64_t round = 0;
  int per = agg ? (int)(agg / sizeof(amf_update_t)) : 1;
  msgbytes = (size_t)per * sizeof(amf_update_t);
  outbox = alloc((size_t)nodes * sizeof *outbox);
  for (int p = 0; p < nodes; p++)
    for (int s = 0; s < RING; s++) {
      outbox[p].buf[s] = alloc(msgbytes);
      outbox[p].req[s] = MPI_REQUEST_NULL;
    }
  poolbuf = alloc(POOL * msgbytes);
  for (int i = 0; i < POOL; i++) post(i);
  memset(table, 0, opt.words * sizeof *table);
  MPI_Barrier(MPI_COMM_WORLD);
  for (int r = -1; r < opt.reps; r++) { /* r = -1: warm-up */
    double t0 = MPI_Wtime();
    for (int d = 0; d < opt.rounds; d++) frontier_round(round++, per);
    if (r >= 0) t[r] = (MPI_Wtime() - t0) * 1e6;
  }
  for (int i = 0; i < POOL; i++) {
    MPI_Cancel(&pool[i]);
    MPI_Wait(&pool[i], MPI_STATUS_IGNORE);
  }
  errors += (long)amf_table_errors(table, (unsigned)me, (unsigned)nodes, opt.words, round,
                                   opt.updates);
  check_errors(agg ? "frontier_b" : "frontier_a");
  if (me == 0)
    amf_row(&opt, agg ? "frontier_b" : "frontier_a", agg ? "agg" : "poll1", msgbytes,
            sizeof(amf_update_t), (unsigned)nodes, 0, (long)nodes * opt.updates * opt.rounds,
            amf_median(t, opt.reps));
  for (int p = 0; p < nodes; p++)
    for (int s = 0; s < RING; s++) free(outbox[p].buf[s]);
  free(outbox);
  free(poolbuf);
}

static void frontiers(void) {
  if (amf_wants(&opt, "frontier_a")) frontier(0);
  if (!amf_wants(&opt, "frontier_b")) return;
  size_t aggs[3];
  int na = amf_agg_sizes(65280, aggs);
  for (int i = 0; i < na; i++) frontier(aggs[i]);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &nodes);
  if (nodes > 1024) fail("more than 1024 ranks");
  if (amf_parse(argc, argv, &opt, me == 0)) {
    MPI_Finalize();
    return 2;
  }
  size_t window_bytes = (size_t)32 << 20;
  if ((size_t)opt.window * opt.maxsize < window_bytes) window_bytes = (size_t)opt.window * opt.maxsize;
  if (window_bytes < 2 * opt.maxsize) window_bytes = 2 * opt.maxsize;
  sendbuf = alloc(opt.maxsize);
  recvbuf = alloc(window_bytes);
  table = alloc(opt.words * sizeof *table);
  if (me == 0) amf_header(&opt);
  if (amf_wants(&opt, "flood")) floods(0);
  if (amf_wants(&opt, "flood_bi")) floods(1);
  frontiers();
  MPI_Finalize();
  return 0;
}
