/* testimages: several images (threads) per node and the multiple-address
 * (M) forms of every collective, checked byte for byte on every image.
 *
 * Built twice: testimages-par (GASNET_PAR: the main thread is local image
 * 0, the others are pthreads, every one calls gasnet_coll_init) and
 * testimages (GASNET_SEQ: images NULL, one image per node).
 *
 * Per iteration, on every image:
 *   data    broadcastM, scatterM, gatherM, gather_allM, exchangeM: sizes
 *           1 B, 8 B, 300 B, 64 KiB + 8; SINGLE lists (buffers in each
 *           node's segment) and LOCAL lists (malloc'd), blocking and _nb;
 *           the sync mode rotates through all nine, the root through every
 *           image. Then the single-address forms, each image passing its
 *           own LOCAL buffers.
 *   batch   aggregates of five _nb calls, 32 outstanding _nb calls
 *           synced with gasnet_coll_wait_sync_all, 16 synced one by one in
 *           reverse order (M forms with SINGLE and LOCAL lists mixed with
 *           single-address calls).
 *   reduce  reduceM / scanM (and the single-address forms, LOCAL) with the
 *           built-in int64 sum and a client non-commutative function
 *           (composition of affine maps mod 2^64), block sizes 0/1/3/7,
 *           offsets zero and not, 1 / a few / 3000 elements, against a
 *           reference folded in element order, compared bit for bit; then
 *           GASNet 1.x's element-wise form (blksz 0) with the built-in sum
 *           and a client function written for it (called in place).
 * Every image checks its own destination (and that sources, unused
 * destinations and guard bytes after each destination are unchanged).
 *
 * With -B the images synchronise with the team barrier over images
 * (GASNET_BARRIERFLAG_IMAGES, called by every image) instead of a
 * pthread barrier around one node barrier, and first check its results:
 * named, anonymous mixed with named, a mismatch, and try.
 *
 * With -T MODE all of the above runs on a team split off GASNET_TEAM_ALL
 * (every image calls gasnet_coll_team_split; a node's images pass the
 * same color and relrank): halves (even and odd nodes), reverse (every
 * node, ranked in reverse, so team image numbers are not the job's) or
 * solo (one-member teams). Each iteration then also keeps a gather_all
 * over GASNET_TEAM_ALL in flight across the team's collectives, checked
 * when it completes; every image frees the team at the end.
 *
 * Under IN_NOSYNC every image's buffers are made ready by a barrier of all
 * images before the call (the client's duty); after OUT_NOSYNC a barrier
 * precedes the check. Otherwise no barrier: data moved too early or too
 * late shows up as a mismatch.
 *
 * Usage: testimages[-par] [-i K] [-u] [-I LIST] [-n ITERS] [-m BYTES] [-w SECONDS]
 *                        [-T MODE] [-a OP=ALG]... [-e VAR=VAL]... [-v]
 *   -i K  images per node (PAR only; default 2; 0: images NULL)
 *   -u    uneven: node n has 1 + (n + K - 1) % K images
 *   -n    iterations (default 1: it has every sync mode and root)
 *   -w    watchdog: a process still running after SECONDS dies (default 60)
 *   -m B  the largest data-movement size (default 65544)
 *   -I L  images per node from the comma list L (PAR; cycled over the nodes)
 *   -T M  run on a split team: halves, reverse or solo
 *   -B    barriers over images (see above)
 *   -a OP=ALG   force a node-level algorithm (testcollnb's -a)
 *   -e VAR=VAL  set VAR for every node (e.g. GASNET_COLL_REDUCE_ALG=knomial)
 *   -v    one line per data-movement collective (image 0) */
#define _POSIX_C_SOURCE 200809L
#include "coll_test.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

/* ------------------------------------------------------------ job shape
 * The collectives run on TEAM; "nodes" and "images" below are its ranks
 * and its images (for GASNET_TEAM_ALL, the job's). */
static gasnet_node_t N, ME;
static gasnet_image_t NI;         /* images in the team */
static gasnet_image_t K;          /* images on this node */
static gasnet_image_t MY_FIRST;   /* this node's first image */
static gasnet_image_t *images_of; /* per team rank */
static gasnet_image_t *first_of;  /* per team rank */
static gasnet_node_t *node_of;    /* per image: its team rank */
static gasnet_node_t *real_node;  /* per team rank: its node */
static gasnet_image_t *job_images; /* per node of the job: gasnet_coll_init's images[] */
static gasnet_image_t JOB_NI, JOB_FIRST; /* the job's images, this node's first one */
static const char *team_mode;     /* -T, or NULL for GASNET_TEAM_ALL */
static gasnet_team_handle_t TEAM = GASNET_TEAM_ALL;
static int images_null;
static pthread_barrier_t node_bar;
/* What the images are doing, for the watchdog's message. Every image's
 * thread sets it and the SIGALRM handler reads it: atomic (relaxed: a
 * label, nothing is read on its strength). */
static const char *current_what = "start-up";
static void set_what(const char *what) { __atomic_store_n(&current_what, what, __ATOMIC_RELAXED); }
static int verbose;

/* ------------------------------------------------------------ buffers
 * Every image owns a region: slot 0 (blocks of BIG bytes) and NSMALL slots
 * of SMALL-byte blocks, each a src of NI blocks followed by a dst of NI
 * blocks and GUARD bytes. SINGLE lists name the regions in the segments
 * (image j of node n at seg(n) + j * region_len); LOCAL lists name
 * malloc'd regions of the same layout. */
#define GUARD 64
#define NSMALL 32
#define SMALL 64
static size_t BIG = 65544; /* 64 KiB + 8: not a power of two */
static size_t region_len;
static unsigned char **local_area; /* this node's images' LOCAL regions */

static size_t slot_cap(int slot) { return slot ? SMALL : BIG; }
static size_t slot_off(int slot) {
  if (!slot) return 0;
  return 2 * NI * BIG + GUARD + (size_t)(slot - 1) * (2 * NI * SMALL + GUARD);
}
static unsigned char *area(int single, gasnet_image_t img) {
  if (!single) return local_area[img - MY_FIRST];
  gasnet_node_t n = node_of[img];
  return (unsigned char *)test_seg(real_node[n]) + (size_t)(img - first_of[n]) * region_len;
}
static unsigned char *src_of(int single, gasnet_image_t img, int slot) {
  return area(single, img) + slot_off(slot);
}
static unsigned char *dst_of(int single, gasnet_image_t img, int slot) {
  return src_of(single, img, slot) + NI * slot_cap(slot);
}

/* The address list of an M-form call, built by each image into its own
 * array (room for NI entries): SINGLE, every image's buffer in the
 * segments; LOCAL, this node's images' malloc'd buffers. Every entry
 * differs, so a library taking another image's entry shows as a mismatch. */
static void *const *make_list(void **list, int single, int slot, int dst) {
  gasnet_image_t first = single ? 0 : MY_FIRST, n = single ? NI : K;
  for (gasnet_image_t i = 0; i < n; i++)
    list[i] = dst ? dst_of(single, first + i, slot) : src_of(single, first + i, slot);
  return list;
}

/* ------------------------------------------------------------ images */
enum { OP_REDUCE = OP_COUNT, OP_SCAN, OP_ALL };
static const char *const opm_names[OP_ALL] = {"broadcastM", "scatterM",  "gatherM", "gather_allM",
                                              "exchangeM",  "reduceM",   "scanM"};
/* M_SINGLE / M_LOCAL: the M forms; ONE: the single-address form, LOCAL. */
enum { M_SINGLE, M_LOCAL, ONE };
static const char *const form_names[3] = {"M SINGLE", "M LOCAL", "single-address LOCAL"};

typedef struct {
  gasnet_image_t me, j; /* image number, index on this node */
  uint32_t it;          /* collectives so far: the same sequence on every image */
  unsigned case_no;
  unsigned long checked[OP_ALL];
  double secs[OP_ALL]; /* time from preparing to checking, per op */
  void **dl, **sl; /* NI-entry address lists */
  uint64_t job_src, *job_dst; /* the GASNET_TEAM_ALL gather_all (-T) */
} img_t;

/* Every image of every node: a pthread barrier brackets the conduit
 * barrier, which only local image 0 enters. */
static int image_barriers; /* -B */
static void all_sync(const img_t *im) {
  if (image_barriers) {
    GASNET_Safe(gasnet_coll_barrier(TEAM, 0, GASNET_BARRIERFLAG_ANONYMOUS | GASNET_BARRIERFLAG_IMAGES));
    return;
  }
  pthread_barrier_wait(&node_bar);
  if (im->j == 0) GASNET_Safe(gasnet_coll_barrier(TEAM, 0, GASNET_BARRIERFLAG_ANONYMOUS));
  pthread_barrier_wait(&node_bar);
}

static void describe_flags(int flags, char *buf, size_t len) {
  static const char *const names[] = {"IN_NOSYNC", "IN_MYSYNC",  "IN_ALLSYNC", "OUT_NOSYNC",
                                      "OUT_MYSYNC", "OUT_ALLSYNC", "SINGLE",     "LOCAL",
                                      "AGGREGATE", "DST_IN_SEGMENT", "SRC_IN_SEGMENT",
                                      "INCLUSIVE_SCAN", "EXCLUSIVE_SCAN", "INDEFINITE_LAYOUT"};
  size_t used = 0;
  buf[0] = 0;
  for (int b = 0; b < 14; b++)
    if (flags & (1 << b))
      used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "|" : "", names[b]);
}

static int sync_flags(unsigned case_no) {
  unsigned m = case_no % 9;
  return in_modes[m / 3] | out_modes[m % 3];
}

/* Images enter at different times (one case in eight waits ~50 us), so
 * data moved before an image entered, under IN_MYSYNC / IN_ALLSYNC, shows. */
static void entry_delay(unsigned k, gasnet_image_t me) {
  if (test_mix(k, me) % 8) return;
  struct timespec ts = {0, 50000};
  nanosleep(&ts, NULL);
}

/* Waits for h in one of four ways (the handle is the image's own). */
static void sync_handle(gasnet_coll_handle_t h, unsigned how) {
  switch (how % 4) {
    case 0: gasnet_coll_wait_sync(h); break;
    case 1:
      while (gasnet_coll_try_sync(h) != GASNET_OK) {}
      break;
    case 2: gasnet_coll_wait_sync_all(&h, 1); break;
    default:
      while (h != GASNET_COLL_INVALID_HANDLE) gasnet_coll_try_sync_some(&h, 1);
      break;
  }
}

/* ------------------------------------------------------------ data ops */
typedef struct {
  int op, form, blocking, slot, flags;
  size_t nbytes;
  gasnet_image_t root;
  uint32_t it;
} dcase_t;

static void data_fail(const img_t *im, const dcase_t *c, const char *what, long off) {
  char fl[256];
  describe_flags(c->flags, fl, sizeof fl);
  test_fail("%s (%s, %s) flags %s size %zu root %u: image %u (node %u, %u images): %s wrong at "
            "byte %ld (collective %u)",
            opm_names[c->op], form_names[c->form], c->blocking ? "blocking" : "_nb", fl,
            c->nbytes, (unsigned)c->root, (unsigned)im->me, (unsigned)ME, (unsigned)NI, what, off,
            (unsigned)c->it);
}

static int form_single(int form) { return form == M_SINGLE; }

static void data_prepare(const img_t *im, const dcase_t *c) {
  int single = form_single(c->form);
  unsigned char *src = src_of(single, im->me, c->slot), *dst = dst_of(single, im->me, c->slot);
  size_t sl = op_src_len(c->op, c->nbytes, NI), dl = op_dst_len(c->op, c->nbytes, NI);
  if (op_uses_src(c->op, c->root, im->me)) coll_fill_src(c->op, c->it, c->nbytes, NI, im->me, src);
  else coll_fill(src, sl, coll_garbage_seed(c->it, im->me, 1));
  coll_fill(dst, dl + GUARD, coll_garbage_seed(c->it, im->me, 2));
}

static void data_check(img_t *im, const dcase_t *c, double t0) {
  int single = form_single(c->form);
  unsigned char *src = src_of(single, im->me, c->slot), *dst = dst_of(single, im->me, c->slot);
  size_t sl = op_src_len(c->op, c->nbytes, NI), dl = op_dst_len(c->op, c->nbytes, NI);
  long bad;
  uint32_t g2 = coll_garbage_seed(c->it, im->me, 2);
  if (op_uses_dst(c->op, c->root, im->me)) {
    bad = coll_dst_mismatch(c->op, c->it, c->nbytes, c->root, NI, im->me, dst, NULL);
    if (bad >= 0) data_fail(im, c, "dst", bad);
  } else if ((bad = coll_mismatch(dst, dl, g2)) >= 0) {
    data_fail(im, c, "unused dst (written)", bad);
  }
  /* The guard continues the garbage pattern past the end of dst. */
  unsigned char ref[GUARD];
  unsigned char *full = malloc(dl + GUARD);
  TEST_CHECK(full != NULL, "out of memory");
  coll_fill(full, dl + GUARD, g2);
  memcpy(ref, full + dl, GUARD);
  free(full);
  for (int i = 0; i < GUARD; i++)
    if (dst[dl + i] != ref[i]) data_fail(im, c, "guard after dst", (long)(dl + (size_t)i));
  unsigned char *want = malloc(sl);
  TEST_CHECK(want != NULL, "out of memory");
  if (op_uses_src(c->op, c->root, im->me)) coll_fill_src(c->op, c->it, c->nbytes, NI, im->me, want);
  else coll_fill(want, sl, coll_garbage_seed(c->it, im->me, 1));
  for (size_t i = 0; i < sl; i++)
    if (src[i] != want[i]) data_fail(im, c, "src (modified)", (long)i);
  free(want);
  im->checked[c->op]++;
  im->secs[c->op] += test_now() - t0;
  if (verbose && im->me == 0)
    printf("  %s %s %s flags 0x%x size %zu root %u: %.2f ms\n", opm_names[c->op],
           form_names[c->form], c->blocking ? "blocking" : "_nb", (unsigned)c->flags, c->nbytes,
           (unsigned)c->root, 1e3 * (test_now() - t0));
}

static gasnet_coll_handle_t data_initiate(img_t *im, const dcase_t *c, int blocking) {
  gasnet_team_handle_t T = TEAM;
  int single = form_single(c->form);
  unsigned char *mysrc = src_of(single, im->me, c->slot), *mydst = dst_of(single, im->me, c->slot);
  if (c->form == ONE)
    return coll_initiate_on(T, c->op, blocking, mydst, mysrc, c->root, c->nbytes, c->flags);
  /* The single address of a rooted M form: under SINGLE, the root's. */
  void *rsrc = single ? src_of(1, c->root, c->slot) : mysrc;
  void *rdst = single ? dst_of(1, c->root, c->slot) : mydst;
  void *const *dl = make_list(im->dl, single, c->slot, 1);
  void *const *sl = make_list(im->sl, single, c->slot, 0);
  size_t n = c->nbytes;
  int f = c->flags;
  if (blocking) {
    switch (c->op) {
      case OP_BCAST: gasnet_coll_broadcastM(T, dl, c->root, rsrc, n, f); break;
      case OP_SCATTER: gasnet_coll_scatterM(T, dl, c->root, rsrc, n, f); break;
      case OP_GATHER: gasnet_coll_gatherM(T, c->root, rdst, sl, n, f); break;
      case OP_GATHER_ALL: gasnet_coll_gather_allM(T, dl, sl, n, f); break;
      default: gasnet_coll_exchangeM(T, dl, sl, n, f); break;
    }
    return GASNET_COLL_INVALID_HANDLE;
  }
  switch (c->op) {
    case OP_BCAST: return gasnet_coll_broadcastM_nb(T, dl, c->root, rsrc, n, f);
    case OP_SCATTER: return gasnet_coll_scatterM_nb(T, dl, c->root, rsrc, n, f);
    case OP_GATHER: return gasnet_coll_gatherM_nb(T, c->root, rdst, sl, n, f);
    case OP_GATHER_ALL: return gasnet_coll_gather_allM_nb(T, dl, sl, n, f);
    default: return gasnet_coll_exchangeM_nb(T, dl, sl, n, f);
  }
}

static void data_case(img_t *im, int op, int form, size_t nbytes, int blocking) {
  dcase_t c = {op, form, blocking, 0, 0, nbytes, 0, im->it++};
  unsigned k = im->case_no++;
  c.flags = sync_flags(k) | (form == M_SINGLE ? GASNET_COLL_SINGLE : GASNET_COLL_LOCAL);
  if (form == M_SINGLE && (k / 9) % 2)
    c.flags |= GASNET_COLL_DST_IN_SEGMENT | GASNET_COLL_SRC_IN_SEGMENT;
  c.root = (gasnet_image_t)((k + k / 9) % NI);
  double t0 = test_now();
  data_prepare(im, &c);
  if (c.flags & GASNET_COLL_IN_NOSYNC) all_sync(im);
  entry_delay(k, im->me);
  gasnet_coll_handle_t h = data_initiate(im, &c, blocking);
  if (!blocking) sync_handle(h, k / 2);
  if (c.flags & GASNET_COLL_OUT_NOSYNC) all_sync(im);
  data_check(im, &c, t0);
}

static void run_data(img_t *im) {
  const size_t sizes[] = {1, 8, 300, BIG};
  for (int op = 0; op < OP_COUNT; op++) {
    set_what(opm_names[op]);
    for (int s = 0; s < 4; s++)
      for (int form = M_SINGLE; form <= M_LOCAL; form++)
        for (int blocking = 1; blocking >= 0; blocking--) data_case(im, op, form, sizes[s], blocking);
    for (int blocking = 1; blocking >= 0; blocking--) {
      data_case(im, op, ONE, 8, blocking);
      data_case(im, op, ONE, 300, blocking);
    }
  }
}

/* Several _nb calls in flight at once, each in its own small slot, the
 * forms cycling through M SINGLE, M LOCAL and single-address (form0
 * first): an aggregate (all but the last with GASNET_COLL_AGGREGATE), or
 * separate handles synced with gasnet_coll_wait_sync_all (how 0) or one by
 * one in reverse order with wait_sync / try_sync_some (how 1). */
enum { BATCH_AGGREGATE, BATCH_SYNC_ALL, BATCH_REVERSE };
static void batch_sync(gasnet_coll_handle_t *hs, int count, int how) {
  if (how == BATCH_AGGREGATE) gasnet_coll_wait_sync(hs[count - 1]);
  else if (how == BATCH_SYNC_ALL) gasnet_coll_wait_sync_all(hs, (size_t)count);
  else
    for (int i = count - 1; i >= 0; i--) sync_handle(hs[i], (unsigned)i);
}

static void run_batch(img_t *im, int count, int how, int form0) {
  int aggregate = how == BATCH_AGGREGATE;
  dcase_t cs[NSMALL];
  gasnet_coll_handle_t hs[NSMALL];
  double t0 = test_now();
  set_what(aggregate ? "aggregate" : "outstanding");
  for (int i = 0; i < count; i++) {
    unsigned k = im->case_no++;
    int form = (form0 + i) % 3;
    dcase_t c = {i % OP_COUNT, form, 0, i + 1, 0, (size_t)(1 + (k * 7) % SMALL), 0, im->it++};
    c.flags = sync_flags(k) | (form == M_SINGLE ? GASNET_COLL_SINGLE : GASNET_COLL_LOCAL);
    if (aggregate && i + 1 < count) c.flags |= GASNET_COLL_AGGREGATE;
    c.root = (gasnet_image_t)((k * 5 + (unsigned)i) % NI);
    cs[i] = c;
    data_prepare(im, &cs[i]);
  }
  all_sync(im); /* some members are IN_NOSYNC */
  for (int i = 0; i < count; i++) hs[i] = data_initiate(im, &cs[i], 0);
  batch_sync(hs, count, how);
  all_sync(im); /* some members are OUT_NOSYNC */
  for (int i = 0; i < count; i++) data_check(im, &cs[i], t0);
}

/* ------------------------------------------------------------ reduce, scan */
static uint64_t mix64(uint64_t x) {
  x = (x + 1) * 0x9e3779b97f4a7c15ull;
  x ^= x >> 31;
  x *= 0xbf58476d1ce4e5b9ull;
  return x ^ (x >> 29);
}

typedef struct {
  const char *name;
  size_t es;
  void (*gen)(void *out, uint64_t seed, uint64_t i);
  void (*comb)(void *acc, const void *b); /* acc = acc op b */
} elem_ops_t;

/* Small values: the built-in sum of signed int64 must not overflow. */
static void gen_i64(void *out, uint64_t seed, uint64_t i) {
  *(int64_t *)out = (int64_t)(mix64(seed ^ (i << 20)) % 2001) - 1000;
}
static void comb_i64(void *acc, const void *b) { *(int64_t *)acc += *(const int64_t *)b; }

/* x -> a x + b mod 2^64; acc op b is "acc, then b": (b.a acc.a, b.a acc.b + b.b). */
typedef struct { uint64_t a, b; } affine_t;
static void gen_aff(void *out, uint64_t seed, uint64_t i) {
  affine_t *f = out;
  f->a = mix64(seed ^ (i << 20)) | 1;
  f->b = mix64(seed ^ (i << 20) ^ 0x5555);
}
static void comb_aff(void *acc, const void *b) {
  affine_t *x = acc;
  const affine_t *y = b;
  x->b = y->a * x->b + y->b;
  x->a = y->a * x->a;
}

static const elem_ops_t OPS_SUM = {"int64 sum (built-in)", 8, gen_i64, comb_i64};
static const elem_ops_t OPS_AFF = {"affine composition (client, NONCOMM)", sizeof(affine_t),
                                   gen_aff, comb_aff};

/* testreduce's fold: results[0..n) are the prefixes of left[0..nleft)
 * followed by right[0..n). */
static void fold(const elem_ops_t *t, void *results, size_t n, const void *left, size_t nleft,
                 const void *right) {
  unsigned char acc[32];
  const unsigned char *l = left, *r = right;
  unsigned char *out = results;
  size_t i = 0;
  memcpy(acc, nleft ? l : r, t->es);
  if (!nleft) i = 1;
  for (size_t j = 1; j < nleft; j++) t->comb(acc, l + j * t->es);
  if (i) memcpy(out, acc, t->es);
  for (; i < n; i++) {
    t->comb(acc, r + i * t->es);
    memcpy(out + i * t->es, acc, t->es);
  }
}
static void fn_affine(void *res, size_t n, const void *l, size_t nl, const void *r, size_t es,
                      int flags, int arg) {
  TEST_CHECK(es == sizeof(affine_t), "affine: elem_size %zu", es);
  TEST_CHECK(flags & GASNET_COLL_NONCOMM, "affine: flags 0x%x lack GASNET_COLL_NONCOMM",
             (unsigned)flags);
  TEST_CHECK(arg == 7, "affine: func_arg %d, expected 7", arg);
  fold(&OPS_AFF, res, n, l, nl, r);
}

/* The element-wise form (blksz 0), as GASNet 1.x calls it: in place,
 * element i of right composed after element i of the result. */
static void fn_affine_ew(void *res, size_t n, const void *l, size_t nl, const void *r, size_t es,
                         int flags, int arg) {
  TEST_CHECK(res == l && n == nl, "element-wise affine: not called in place (%zu, %zu)", n, nl);
  TEST_CHECK(es == sizeof(affine_t) && arg == 7 && (flags & GASNET_COLL_NONCOMM),
             "element-wise affine: elem_size %zu, func_arg %d, flags 0x%x", es, arg, (unsigned)flags);
  for (size_t i = 0; i < n; i++) comb_aff((affine_t *)res + i, (const affine_t *)r + i);
}

enum { FN_SUM, FN_AFF, FN_COUNT, FN_AFF_EW = FN_COUNT, FN_ALL };
static const gasnet_coll_fn_entry_t fn_table[FN_ALL] = {
    {gasnet_coll_fn_sum, GASNET_COLL_AMSAFE},
    {fn_affine, GASNET_COLL_NONCOMM},
    {fn_affine_ew, GASNET_COLL_NONCOMM},
};
static const elem_ops_t *const fn_ops[FN_ALL] = {&OPS_SUM, &OPS_AFF, &OPS_AFF};
static const int fn_arg[FN_ALL] = {GASNET_COLL_TYPE_INT64, 7, 7};

typedef struct { size_t blksz, off; } layout_t;
static size_t lblk(layout_t l, size_t count) { return l.blksz ? l.blksz : count; }
static size_t lgoff(layout_t l, size_t count) { return l.blksz ? l.off : l.off * count; }
static gasnet_image_t owner(layout_t l, size_t count, size_t i) {
  return (gasnet_image_t)(((lgoff(l, count) + i) / lblk(l, count)) % NI);
}
static size_t local_index(layout_t l, size_t count, size_t i) {
  size_t g = lgoff(l, count) + i, b = lblk(l, count);
  return (g / b / NI) * b + g % b;
}
static size_t local_extent(layout_t l, size_t count, gasnet_image_t img) {
  size_t ext = 0;
  for (size_t i = 0; i < count; i++)
    if (owner(l, count, i) == img && local_index(l, count, i) + 1 > ext)
      ext = local_index(l, count, i) + 1;
  return ext;
}

typedef struct {
  int scan, fn, form, blocking, flags;
  layout_t sl, dl; /* {0, 0} without GASNET_COLL_INDEFINITE_LAYOUT: element-wise */
  size_t count;
  gasnet_image_t root;
  uint32_t it;
} rcase_t;

/* An element-wise call (blksz 0, GASNet 1.x): image m gives count elements,
 * elements m * count .. of the array of every image's contributions, which
 * is block-cyclic with blocks of count. */
static int red_elementwise(const rcase_t *c) {
  return !c->sl.blksz && !(c->flags & GASNET_COLL_INDEFINITE_LAYOUT);
}

static void red_fail(const img_t *im, const rcase_t *c, const char *what, long off) {
  char fl[256];
  describe_flags(c->flags, fl, sizeof fl);
  char where[64];
  if (c->scan)
    snprintf(where, sizeof where, "dst (blksz %zu, offset %zu)", c->dl.blksz, c->dl.off);
  else
    snprintf(where, sizeof where, "dstimage %u", (unsigned)c->root);
  test_fail("%s %s (%s, %s) flags %s: src (blksz %zu, offset %zu) %s count %zu: image %u "
            "(node %u, %u images): %s wrong at byte %ld (collective %u)",
            opm_names[c->scan ? OP_SCAN : OP_REDUCE], fn_ops[c->fn]->name, form_names[c->form],
            c->blocking ? "blocking" : "_nb", fl, c->sl.blksz, c->sl.off, where, c->count,
            (unsigned)im->me, (unsigned)ME, (unsigned)NI, what, off, (unsigned)c->it);
}

/* This image's part of the distributed array all[] under layout l, with
 * the unowned positions garbage. */
static void place(const elem_ops_t *t, layout_t l, size_t count, gasnet_image_t img,
                  const unsigned char *all, unsigned char *buf, size_t len, uint32_t garbage) {
  coll_fill(buf, len, garbage);
  for (size_t i = 0; i < count; i++)
    if (owner(l, count, i) == img)
      memcpy(buf + local_index(l, count, i) * t->es, all + i * t->es, t->es);
}

static void compare(const img_t *im, const rcase_t *c, const unsigned char *got,
                    const unsigned char *want, size_t len, const char *what) {
  for (size_t i = 0; i < len; i++)
    if (got[i] != want[i]) red_fail(im, c, what, (long)i);
}

static gasnet_coll_handle_t red_initiate(img_t *im, const rcase_t *c, void *src, void *dst) {
  gasnet_team_handle_t T = TEAM;
  const elem_ops_t *t = fn_ops[c->fn];
  int single = form_single(c->form), f = c->flags, fn = c->fn, arg = fn_arg[c->fn];
  size_t es = t->es, n = c->count, sb = c->sl.blksz, so = c->sl.off, db = c->dl.blksz,
         dof = c->dl.off;
  void *const *sl = make_list(im->sl, single, 0, 0);
  void *const *dl = make_list(im->dl, single, 0, 1);
  void *rdst = single ? dst_of(1, c->root, 0) : dst;
  if (c->form == ONE && !c->scan) {
    if (c->blocking) gasnet_coll_reduce(T, c->root, dst, src, sb, so, es, n, fn, arg, f);
    else return gasnet_coll_reduce_nb(T, c->root, dst, src, sb, so, es, n, fn, arg, f);
  } else if (c->form == ONE) {
    if (c->blocking) gasnet_coll_scan(T, dst, db, dof, src, sb, so, es, n, fn, arg, f);
    else return gasnet_coll_scan_nb(T, dst, db, dof, src, sb, so, es, n, fn, arg, f);
  } else if (!c->scan) {
    if (c->blocking) gasnet_coll_reduceM(T, c->root, rdst, sl, sb, so, es, n, fn, arg, f);
    else return gasnet_coll_reduceM_nb(T, c->root, rdst, sl, sb, so, es, n, fn, arg, f);
  } else {
    if (c->blocking) gasnet_coll_scanM(T, dl, db, dof, sl, sb, so, es, n, fn, arg, f);
    else return gasnet_coll_scanM_nb(T, dl, db, dof, sl, sb, so, es, n, fn, arg, f);
  }
  return GASNET_COLL_INVALID_HANDLE;
}

/* The expected dst of this image: for a reduce, the last prefix on the
 * root (garbage elsewhere); for a scan, the prefixes it owns under dl. */
/* Element-wise: element i over images first..last-1, for every i. */
static void expected_ew(const rcase_t *c, const unsigned char *all, gasnet_image_t last,
                        unsigned char *want) {
  const elem_ops_t *t = fn_ops[c->fn];
  size_t n = c->count, es = t->es;
  memcpy(want, all, n * es);
  for (gasnet_image_t m = 1; m < last; m++)
    for (size_t i = 0; i < n; i++) t->comb(want + i * es, all + (m * n + i) * es);
}

static void expected_dst(const img_t *im, const rcase_t *c, const unsigned char *all,
                         const unsigned char *pre, const unsigned char *got, unsigned char *want,
                         size_t len, uint32_t g) {
  const elem_ops_t *t = fn_ops[c->fn];
  coll_fill(want, len, g);
  if (red_elementwise(c)) {
    int excl = !!(c->flags & GASNET_COLL_EXCLUSIVE_SCAN);
    if (!c->scan && im->me == c->root) expected_ew(c, all, NI, want);
    if (c->scan && !(excl && im->me == 0)) expected_ew(c, all, im->me + !excl, want);
    return;
  }
  if (!c->scan) {
    if (im->me == c->root) memcpy(want, pre + (c->count - 1) * t->es, t->es);
    return;
  }
  int excl = !!(c->flags & GASNET_COLL_EXCLUSIVE_SCAN);
  for (size_t i = 0; i < c->count; i++) {
    if (owner(c->dl, c->count, i) != im->me) continue;
    size_t at = local_index(c->dl, c->count, i) * t->es;
    /* Element 0 of an exclusive scan is undefined: take what arrived. */
    memcpy(want + at, excl && i == 0 ? got + at : pre + (i - (size_t)excl) * t->es, t->es);
  }
}

/* The array of collective it (element i a function of it and i) and its
 * inclusive prefixes, folded serially in element order. */
static unsigned char *reference(const elem_ops_t *t, size_t n, uint32_t it, unsigned char **pre_p) {
  size_t es = t->es;
  unsigned char *all = malloc(n * es), *pre = malloc(n * es);
  TEST_CHECK(all && pre, "out of memory");
  for (size_t i = 0; i < n; i++) t->gen(all + i * es, it, i);
  memcpy(pre, all, es);
  for (size_t i = 1; i < n; i++) {
    memcpy(pre + i * es, pre + (i - 1) * es, es);
    t->comb(pre + i * es, all + i * es);
  }
  *pre_p = pre;
  return all;
}

static void red_case(img_t *im, rcase_t *c) {
  const elem_ops_t *t = fn_ops[c->fn];
  int single = form_single(c->form);
  size_t es = t->es, n = c->count;
  double t0 = test_now();
  int ew = red_elementwise(c);
  layout_t sl = ew ? (layout_t){n, 0} : c->sl;
  size_t total = ew ? n * NI : n;
  unsigned char *pre, *all = reference(t, total, c->it, &pre);
  unsigned char *src = src_of(single, im->me, 0), *dst = dst_of(single, im->me, 0);
  size_t slen = local_extent(sl, total, im->me) * es;
  size_t dlen = (ew ? n * es : c->scan ? local_extent(c->dl, n, im->me) * es : es) + GUARD;
  uint32_t gs = coll_garbage_seed(c->it, im->me, 3), gd = coll_garbage_seed(c->it, im->me, 4);
  place(t, sl, total, im->me, all, src, slen, gs);
  coll_fill(dst, dlen, gd);
  if (c->flags & GASNET_COLL_IN_NOSYNC) all_sync(im);
  entry_delay(c->it, im->me);
  gasnet_coll_handle_t h = red_initiate(im, c, src, dst);
  if (!c->blocking) sync_handle(h, c->it);
  if (c->flags & GASNET_COLL_OUT_NOSYNC) all_sync(im);
  unsigned char *want = malloc(dlen > slen ? dlen : slen);
  TEST_CHECK(want != NULL, "out of memory");
  expected_dst(im, c, all, pre, dst, want, dlen, gd);
  compare(im, c, dst, want, dlen, "dst");
  place(t, sl, total, im->me, all, want, slen, gs);
  compare(im, c, src, want, slen, "src (modified)");
  free(want);
  free(all);
  free(pre);
  im->checked[c->scan ? OP_SCAN : OP_REDUCE]++;
  im->secs[c->scan ? OP_SCAN : OP_REDUCE] += test_now() - t0;
}

/* GASNet 1.x's element-wise reduce and scan (blksz 0) over the images: the
 * built-in sum and a non-commutative client function, every form. */
static void run_reduce_elementwise(img_t *im) {
  const size_t counts[] = {1, 5, 1000};
  const int fns[] = {FN_SUM, FN_AFF_EW};
  for (int scan = 0; scan < 2; scan++) {
    set_what(scan ? "element-wise scanM" : "element-wise reduceM");
    for (int ci = 0; ci < 3; ci++)
      for (int f = 0; f < 2; f++) {
        unsigned k = im->case_no++;
        rcase_t c = {scan,     fns[f],   (int)(k % 3), (int)(k / 3 % 2), 0, {0, 0}, {0, 0},
                     counts[ci], (gasnet_image_t)(k / 2 % NI), im->it++};
        c.flags = sync_flags(k / 2) | (c.form == M_SINGLE ? GASNET_COLL_SINGLE : GASNET_COLL_LOCAL);
        if (scan) c.flags |= (k / 4) % 2 ? GASNET_COLL_EXCLUSIVE_SCAN : GASNET_COLL_INCLUSIVE_SCAN;
        red_case(im, &c);
      }
  }
}

static void run_reduce(img_t *im) {
  const layout_t lays[] = {{0, 0}, {0, NI - 1}, {1, 0}, {1, 3}, {3, 0}, {3, 5}, {7, 0}, {7, 2 * (size_t)NI + 1}};
  const size_t nl = sizeof lays / sizeof lays[0];
  const size_t counts[] = {1, 2 * (size_t)NI + 1, 3000};
  for (int scan = 0; scan < 2; scan++) {
    set_what(scan ? "scanM" : "reduceM");
    for (size_t li = 0; li < nl; li++)
      for (int ci = 0; ci < 3; ci++)
        for (int fn = 0; fn < FN_COUNT; fn++) {
          unsigned k = im->case_no++;
          /* k / 2: both functions see every root and dst layout. */
          rcase_t c = {scan, fn, (int)(k % 3), (int)(k / 3 % 2), 0, lays[li],
                       lays[(li + 3 + k / 2 % 2) % nl], counts[ci], (gasnet_image_t)(k / 2 % NI),
                       im->it++};
          c.flags = sync_flags(k / 2) | (c.form == M_SINGLE ? GASNET_COLL_SINGLE : GASNET_COLL_LOCAL);
          if (scan)
            c.flags |= (k / 4) % 2 ? GASNET_COLL_EXCLUSIVE_SCAN : GASNET_COLL_INCLUSIVE_SCAN;
          if (!c.sl.blksz || (scan && !c.dl.blksz)) c.flags |= GASNET_COLL_INDEFINITE_LAYOUT;
          red_case(im, &c);
        }
  }
  run_reduce_elementwise(im);
}

/* ------------------------------------------------------------ threads */
static int iters = 1;

/* ------------------------------------------------------------ teams */
static gasnet_node_t team_color(gasnet_node_t node) {
  if (!strcmp(team_mode, "halves")) return node % 2;
  return !strcmp(team_mode, "solo") ? node : 0;
}
static gasnet_node_t team_relrank(gasnet_node_t node) {
  if (!strcmp(team_mode, "halves")) return node / 2;
  return !strcmp(team_mode, "reverse") ? gasnet_nodes() - 1 - node : 0;
}

/* Every image splits; all images of a node get the same handle, for the
 * team set_shape predicted. */
static void join_team(const img_t *im) {
  static gasnet_team_handle_t first_handle;
  if (!team_mode) return;
  gasnet_node_t me = gasnet_mynode();
  gasnet_team_handle_t h = gasnet_coll_team_split(GASNET_TEAM_ALL, team_color(me), team_relrank(me), NULL);
  if (im->j == 0) first_handle = h;
  pthread_barrier_wait(&node_bar);
  TEST_CHECK(h == first_handle, "image %u got team %p, local image 0 got %p", (unsigned)im->me,
             (void *)h, (void *)first_handle);
  TEST_CHECK(gasnet_coll_team_size(h) == N, "team size %u, expected %u",
             (unsigned)gasnet_coll_team_size(h), (unsigned)N);
  for (gasnet_node_t r = 0; r < N; r++)
    TEST_CHECK(gasnet_coll_team_rank2node(h, (int)r) == real_node[r], "team rank %u is node %u, "
               "expected %u", (unsigned)r, (unsigned)gasnet_coll_team_rank2node(h, (int)r),
               (unsigned)real_node[r]);
  pthread_barrier_wait(&node_bar);
  if (im->j == 0) TEAM = h;
  pthread_barrier_wait(&node_bar);
}

/* The team barrier over images returns the same verdict on every image. */
static int images_barrier(const img_t *im, int id, int flags, int use_try) {
  (void)im;
  flags |= GASNET_BARRIERFLAG_IMAGES;
  gasnet_coll_barrier_notify(TEAM, id, flags);
  if (!use_try) return gasnet_coll_barrier_wait(TEAM, id, flags);
  int rc;
  while ((rc = gasnet_coll_barrier_try(TEAM, id, flags)) == GASNET_ERR_NOT_READY) continue;
  return rc;
}
static void check_image_barriers(const img_t *im) {
  if (!image_barriers) return;
  set_what("barriers over images");
  int rc = images_barrier(im, 7, 0, 0);
  TEST_CHECK(rc == GASNET_OK, "named barrier over images, every image id 7: rc %d", rc);
  rc = images_barrier(im, 9, im->me % 2 ? GASNET_BARRIERFLAG_ANONYMOUS : 0, 1);
  TEST_CHECK(rc == GASNET_OK, "barrier over images, odd images anonymous, even ones id 9 (try): "
             "rc %d", rc);
  rc = images_barrier(im, im->me == NI - 1 ? 1 : 2, 0, im->me % 2);
  int want = NI > 1 ? GASNET_ERR_BARRIER_MISMATCH : GASNET_OK;
  TEST_CHECK(rc == want, "barrier over images, image %u of %u names %d: rc %d, expected %d",
             (unsigned)im->me, (unsigned)NI, im->me == NI - 1 ? 1 : 2, rc, want);
  rc = images_barrier(im, 0, GASNET_BARRIERFLAG_ANONYMOUS, 0);
  TEST_CHECK(rc == GASNET_OK, "anonymous barrier over images after a mismatch: rc %d", rc);
}

/* A gather_all of 8 bytes per image over GASNET_TEAM_ALL, started before
 * an iteration's team collectives and completed after them. */
static uint64_t job_value(gasnet_image_t job_image, int iter) {
  return ((uint64_t)job_image << 32) ^ (uint64_t)(iter * 2654435761u + 1u);
}
static gasnet_coll_handle_t job_op_start(img_t *im, int iter) {
  if (!team_mode) return GASNET_COLL_INVALID_HANDLE;
  im->job_src = job_value(JOB_FIRST + im->j, iter);
  memset(im->job_dst, 0, JOB_NI * sizeof *im->job_dst);
  return gasnet_coll_gather_all_nb(GASNET_TEAM_ALL, im->job_dst, &im->job_src, 8,
                                   GASNET_COLL_IN_MYSYNC | GASNET_COLL_OUT_MYSYNC | GASNET_COLL_LOCAL);
}
static void job_op_finish(img_t *im, gasnet_coll_handle_t h, int iter) {
  if (!team_mode) return;
  gasnet_coll_wait_sync(h);
  for (gasnet_image_t i = 0; i < JOB_NI; i++)
    TEST_CHECK(im->job_dst[i] == job_value(i, iter), "GASNET_TEAM_ALL gather_all beside team "
               "collectives: image %u got 0x%llx from image %u, expected 0x%llx",
               (unsigned)(JOB_FIRST + im->j), (unsigned long long)im->job_dst[i], (unsigned)i,
               (unsigned long long)job_value(i, iter));
}

static void *image_main(void *arg) {
  img_t *im = arg;
  if (images_null) gasnet_coll_init(NULL, 0, fn_table, FN_ALL, 0);
  else gasnet_coll_init(job_images, JOB_FIRST + im->j, fn_table, FN_ALL, 0);
  join_team(im);
  im->dl = malloc(NI * sizeof(void *));
  im->sl = malloc(NI * sizeof(void *));
  im->job_dst = malloc(JOB_NI * sizeof *im->job_dst);
  TEST_CHECK(im->dl && im->sl && im->job_dst, "out of memory");
  check_image_barriers(im);
  all_sync(im);
  for (int i = 0; i < iters; i++) {
    gasnet_coll_handle_t job_op = job_op_start(im, i);
    run_data(im);
    run_batch(im, OP_COUNT, BATCH_AGGREGATE, M_SINGLE);
    run_batch(im, OP_COUNT, BATCH_AGGREGATE, M_LOCAL);
    run_batch(im, NSMALL, BATCH_SYNC_ALL, i % 3);
    run_batch(im, NSMALL / 2, BATCH_REVERSE, (i + 1) % 3);
    run_reduce(im);
    job_op_finish(im, job_op, i);
    all_sync(im);
  }
  if (team_mode) gasnet_coll_team_free(TEAM);
  return NULL;
}

static void watchdog(int sig) {
  char msg[200];
  int n = snprintf(msg, sizeof msg,
                   "testimages: node %u: watchdog: still in '%s' after the -w limit (deadlock?); "
                   "killing this node\n",
                   (unsigned)ME, __atomic_load_n(&current_what, __ATOMIC_RELAXED));
  if (n > 0) (void)!write(2, msg, (size_t)n);
  signal(sig, SIG_DFL);
  raise(sig);
}

/* "-e VAR=VAL" before gasnet_init: the nodes inherit it. */
static void usage(void) {
  fprintf(stderr, "usage: testimages [-i K] [-u] [-I LIST] [-n ITERS] [-m BYTES] [-w SECONDS] "
                  "[-T halves|reverse|solo] [-B] [-a OP=ALG]... [-e VAR=VAL]... [-v]\n");
  exit(2);
}

static int max_in_list(const char *list) {
  int m = 0;
  for (const char *p = list; *p; p += strcspn(p, ","), p += *p == ',')
    if (atoi(p) > m) m = atoi(p);
  return m;
}
/* Entry n (cycled) of a comma list of counts. */
static gasnet_image_t list_entry(const char *list, gasnet_node_t n) {
  size_t len = 1;
  for (const char *p = list; *p; p++) len += *p == ',';
  const char *p = list;
  for (size_t i = 0; i < n % len; i++) p += strcspn(p, ",") + 1;
  return (gasnet_image_t)atoi(p);
}

/* job_images from the per-node count. */
static void set_job_images(int k, int uneven, const char *list) {
  gasnet_node_t nodes = gasnet_nodes();
  job_images = malloc(nodes * sizeof *job_images);
  TEST_CHECK(job_images != NULL, "out of memory");
  JOB_NI = 0;
  for (gasnet_node_t n = 0; n < nodes; n++) {
    job_images[n] = (gasnet_image_t)(uneven ? 1 + (n + (unsigned)k - 1) % (unsigned)k : (unsigned)k);
    if (list) job_images[n] = list_entry(list, n);
    TEST_CHECK(job_images[n] >= 1, "-I %s: every node needs an image", list);
    if (n == gasnet_mynode()) JOB_FIRST = JOB_NI;
    JOB_NI += job_images[n];
  }
}

/* The team's members (real_node), N and ME, as the split will rank them:
 * by relrank, then node. */
static void set_team(void) {
  gasnet_node_t nodes = gasnet_nodes(), me = gasnet_mynode();
  real_node = malloc(nodes * sizeof *real_node);
  TEST_CHECK(real_node != NULL, "out of memory");
  N = 0;
  for (gasnet_node_t n = 0; n < nodes; n++)
    if (!team_mode || team_color(n) == team_color(me)) real_node[N++] = n;
  for (gasnet_node_t i = 1; i < N; i++) /* insertion sort by relrank (stable) */
    for (gasnet_node_t j = i; j > 0 && team_mode && team_relrank(real_node[j]) < team_relrank(real_node[j - 1]); j--) {
      gasnet_node_t t = real_node[j];
      real_node[j] = real_node[j - 1];
      real_node[j - 1] = t;
    }
  for (gasnet_node_t r = 0; r < N; r++)
    if (real_node[r] == me) ME = r;
}

/* images_of / first_of / node_of: the team's images. */
static void set_shape(int k, int uneven, const char *list) {
  set_job_images(k, uneven, list);
  set_team();
  images_of = malloc(N * sizeof *images_of);
  first_of = malloc(N * sizeof *first_of);
  TEST_CHECK(images_of && first_of, "out of memory");
  NI = 0;
  for (gasnet_node_t n = 0; n < N; n++) {
    images_of[n] = job_images[real_node[n]];
    first_of[n] = NI;
    NI += images_of[n];
  }
  node_of = malloc(NI * sizeof *node_of);
  TEST_CHECK(node_of != NULL, "out of memory");
  for (gasnet_node_t n = 0; n < N; n++)
    for (gasnet_image_t i = 0; i < images_of[n]; i++) node_of[first_of[n] + i] = n;
  K = job_images[gasnet_mynode()];
  MY_FIRST = first_of[ME];
  if (NI > 16) BIG = 4104; /* keep the segment small at large image counts */
  region_len = (slot_off(NSMALL + 1) + 63) & ~(size_t)63;
}

static void print_summary(const img_t *im, double secs) {
  for (int op = 0; op < OP_ALL; op++)
    test_print0("testimages: %-12s %5lu collectives checked on image 0 (%.2fs)\n",
                opm_names[op], im->checked[op], im->secs[op]);
  test_print0("testimages: %u collectives in %.2fs\n", (unsigned)im->it, secs);
}

int main(int argc, char **argv) {
  int k = 2, uneven = 0, wd = 60;
  size_t big_arg = 0;
  const char *list = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-u")) { uneven = 1; continue; }
    if (!strcmp(argv[i], "-v")) { verbose = 1; continue; }
    if (!strcmp(argv[i], "-B")) { image_barriers = 1; continue; }
    if (i + 1 >= argc) usage();
    const char *a = argv[i], *v = argv[++i];
    if (!strcmp(a, "-i")) k = atoi(v);
    else if (!strcmp(a, "-n")) iters = atoi(v);
    else if (!strcmp(a, "-w")) wd = atoi(v);
    else if (!strcmp(a, "-m")) big_arg = (size_t)strtoul(v, NULL, 10);
    else if (!strcmp(a, "-I")) list = v;
    else if (!strcmp(a, "-T")) team_mode = v;
    else if (!strcmp(a, "-a")) { if (!coll_force_alg(v)) usage(); }
    else if (!strcmp(a, "-e")) test_setenv_pair("testimages", v);
    else usage();
  }
  if (list) k = max_in_list(list);
#if !defined(GASNET_PAR)
  k = 0, list = NULL; /* SEQ: images NULL is the only legal value */
#endif
  if (k < 0 || iters < 1) usage();
  if (team_mode && strcmp(team_mode, "halves") && strcmp(team_mode, "reverse") && strcmp(team_mode, "solo"))
    usage();
  images_null = k == 0;
  if (images_null) k = 1, uneven = 0;

  test_init_only(&argc, &argv);
  if (wd > 0) {
    signal(SIGALRM, watchdog);
    alarm((unsigned)wd);
  }
  set_shape(k, uneven, list);
  if (big_arg) BIG = big_arg, region_len = (slot_off(NSMALL + 1) + 63) & ~(size_t)63;
  /* Slot 0 also holds the reduce / scan arrays (3000 16-byte elements). */
  TEST_CHECK(NI * BIG >= 3000 * 16 && BIG >= 300, "-m %zu is too small", BIG);
  uintptr_t seg = ((uintptr_t)k * region_len + GASNET_PAGESIZE - 1) & ~(uintptr_t)(GASNET_PAGESIZE - 1);
  GASNET_Safe(test_attach(NULL, 0, seg));
  local_area = malloc(K * sizeof *local_area);
  TEST_CHECK(local_area != NULL, "out of memory");
  for (gasnet_image_t j = 0; j < K; j++) {
    local_area[j] = malloc(region_len);
    TEST_CHECK(local_area[j] != NULL, "out of memory");
  }
  pthread_barrier_init(&node_bar, NULL, K);
  test_print0("testimages (%s): %u nodes, %u images (per node: %s), %d iterations, team %s\n",
              images_null ? "images NULL" : "GASNET_PAR", (unsigned)gasnet_nodes(), (unsigned)JOB_NI,
              list ? list : uneven ? "uneven" : "even", iters, team_mode ? team_mode : "ALL");

  img_t *ims = calloc(K, sizeof *ims);
  pthread_t *th = calloc(K, sizeof *th);
  TEST_CHECK(ims && th, "out of memory");
  for (gasnet_image_t j = 0; j < K; j++) ims[j].me = MY_FIRST + j, ims[j].j = j;
  double t0 = test_now();
  for (gasnet_image_t j = 1; j < K; j++)
    TEST_CHECK(pthread_create(&th[j], NULL, image_main, &ims[j]) == 0, "pthread_create");
  image_main(&ims[0]);
  for (gasnet_image_t j = 1; j < K; j++) pthread_join(th[j], NULL);
  print_summary(&ims[0], test_now() - t0);
  test_finish("testimages");
}
