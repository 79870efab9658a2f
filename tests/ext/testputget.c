/* testputget.c: put, get, memset and the _val forms, every sync flavour.
 *
 * Usage: testputget [-am] [-quick]
 *   -am     force the AM protocols (else the conduit's direct copies)
 *   -quick  fewer large transfers; GASNET_TEST_QUICK=yes (or 1) in the
 *           environment does the same (the test suite's secondary job
 *           shapes set it, as a shape cannot pass arguments to a case)
 *
 * Each node's segment holds three slots: T, where peers put; G, filled
 * once with a pattern of its own that peers get from; L, a local buffer
 * inside the segment (gets into it take Long replies, gets into the heap
 * buffer H take Medium ones). In round r every node works with the node r
 * places ahead (round 0: itself), so every pair is covered and each T slot
 * has one writer per round.
 *
 * Sizes: 1 B, odd sizes, around the Medium limit and the Long limit, and
 * 4 MiB; offsets vary so transfers start and end unaligned. Puts are
 * checked by their target after a barrier, with a guard byte on each side;
 * gets by the getter, also with guards. Built for PAR too: then several
 * threads move data at once while another one polls. */
#include "ext_test.h"

#ifdef GASNET_PAR
#include <pthread.h>
#endif

#define CAP_BYTES ((size_t)4 << 20) /* largest transfer, also limits size classes */
#define SLACK 64
#define GUARD 0xA5
#define NPIECES 3

static gasnet_node_t me, nodes;
static size_t slot;  /* bytes per slot */
static uint8_t *heapbuf; /* H */
static int quick;

static uint8_t *slot_T(gasnet_node_t n) { return ext_seg(n); }
static uint8_t *slot_G(gasnet_node_t n) { return ext_seg(n) + slot; }
static uint8_t *slot_L(void) { return ext_seg(me) + 2 * slot; }
static uint32_t gseed(gasnet_node_t n) { return ext_mix(0x6e7u, n); }

/* ------------------------------------------------------------ sizes */
#define MAX_SIZES 48
static size_t sizes[MAX_SIZES];
static int nsizes;

static void add_size(size_t s) {
  if (s == 0 || s > CAP_BYTES + 1) return;
  for (int i = 0; i < nsizes; i++)
    if (sizes[i] == s) return;
  if (nsizes < MAX_SIZES) sizes[nsizes++] = s;
}

static int cmp_size(const void *a, const void *b) {
  size_t x = *(const size_t *)a, y = *(const size_t *)b;
  return x < y ? -1 : x > y;
}

static void make_sizes(void) {
  static const size_t fixed[] = {1, 2, 3, 4, 5, 7, 8, 9, 13, 16, 31, 64, 127, 1000, 4095, 4096,
                                 4097, 32771};
  for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) add_size(fixed[i]);
  size_t mm = gasnet_AMMaxMedium(), ml = gasnet_AMMaxLongRequest(), mr = gasnet_AMMaxLongReply();
  add_size(mm - 1), add_size(mm), add_size(mm + 1), add_size(2 * mm + 7);
  add_size(ml - 1), add_size(ml), add_size(ml + 1);
  add_size(mr - 1), add_size(mr), add_size(mr + 1);
  add_size(((size_t)1 << 20) + 13);
  add_size(CAP_BYTES);
  qsort(sizes, (size_t)nsizes, sizeof(sizes[0]), cmp_size);
}

/* Large transfers take a share of the flavours per round (all of them at
 * one or two nodes), so the test stays quick at 8 nodes on few cores. */
static int applies(int flavour, int si, int round) {
  if (sizes[si] <= 256 * 1024) return 1;
  int share = quick ? 8 : (nodes <= 2 ? 1 : 4);
  return (flavour + si + round) % share == 0;
}

/* ------------------------------------------------------------ sync helpers */
static void wait_some_loop(gasnet_handle_t *h, size_t n) {
  for (;;) {
    size_t live = 0;
    for (size_t i = 0; i < n; i++) live += h[i] != GASNET_INVALID_HANDLE;
    if (!live) return;
    gasnet_wait_syncnb_some(h, n);
  }
}

static void try_some_loop(gasnet_handle_t *h, size_t n) {
  for (;;) {
    size_t live = 0;
    for (size_t i = 0; i < n; i++) live += h[i] != GASNET_INVALID_HANDLE;
    if (!live) break;
    if (gasnet_try_syncnb_some(h, n) == GASNET_ERR_NOT_READY) ext_pause();
  }
  EXT_SAFE(gasnet_try_syncnb_some(h, n)); /* all invalid: OK */
}

static void try_all_loop(gasnet_handle_t *h, size_t n) {
  while (gasnet_try_syncnb_all(h, n) != GASNET_OK) ext_pause();
  for (size_t i = 0; i < n; i++) EXT_CHECK(h[i] == GASNET_INVALID_HANDLE, "handle %zu left", i);
}

static void try_loop(gasnet_handle_t h) {
  int rc;
  while ((rc = gasnet_try_syncnb(h)) == GASNET_ERR_NOT_READY) ext_pause();
  EXT_SAFE(rc);
}

/* Piece k of n bytes split NPIECES ways (some may be empty). */
static size_t piece_off(size_t n, int k) { return (n / NPIECES) * (size_t)k; }
static size_t piece_len(size_t n, int k) {
  return k == NPIECES - 1 ? n - piece_off(n, k) : n / NPIECES;
}

/* ------------------------------------------------------------ puts */
enum {
  P_BLOCKING, P_BULK, P_NB_WAIT, P_NB_BULK_TRY, P_NB_ALL, P_NB_SOME, P_NB_TRYALL, P_NB_TRYSOME,
  P_NBI_PUTS, P_NBI_BULK_TRYALL, P_REGION, P_REGION_TRY, P_MEMSET, P_MEMSET_NB, P_MEMSET_NBI,
  P_VAL, P_NB_VAL, P_NBI_VAL, P_COUNT
};

static int is_memset(int f) { return f == P_MEMSET || f == P_MEMSET_NB || f == P_MEMSET_NBI; }
static int is_val(int f) { return f == P_VAL || f == P_NB_VAL || f == P_NBI_VAL; }

static void do_put(int f, gasnet_node_t peer, uint8_t *dst, uint8_t *src, size_t n, int val) {
  gasnet_handle_t h[NPIECES];
  int rc;
  switch (f) {
    case P_BLOCKING: gasnet_put(peer, dst, src, n); break;
    case P_BULK: gasnet_put_bulk(peer, dst, src, n); break;
    case P_NB_WAIT: gasnet_wait_syncnb(gasnet_put_nb(peer, dst, src, n)); break;
    case P_NB_BULK_TRY: try_loop(gasnet_put_nb_bulk(peer, dst, src, n)); break;
    case P_NB_ALL:
    case P_NB_SOME:
    case P_NB_TRYALL:
    case P_NB_TRYSOME:
      for (int k = 0; k < NPIECES; k++)
        h[k] = (k & 1 ? gasnet_put_nb_bulk : gasnet_put_nb)(peer, dst + piece_off(n, k),
                                                            src + piece_off(n, k), piece_len(n, k));
      if (f == P_NB_ALL) gasnet_wait_syncnb_all(h, NPIECES);
      if (f == P_NB_SOME) wait_some_loop(h, NPIECES);
      if (f == P_NB_TRYALL) try_all_loop(h, NPIECES);
      if (f == P_NB_TRYSOME) try_some_loop(h, NPIECES);
      break;
    case P_NBI_PUTS:
      gasnet_put_nbi(peer, dst, src, n);
      gasnet_wait_syncnbi_puts();
      break;
    case P_NBI_BULK_TRYALL:
      for (int k = 0; k < NPIECES; k++)
        gasnet_put_nbi_bulk(peer, dst + piece_off(n, k), src + piece_off(n, k), piece_len(n, k));
      while ((rc = gasnet_try_syncnbi_all()) == GASNET_ERR_NOT_READY) ext_pause();
      EXT_SAFE(rc);
      break;
    case P_REGION:
    case P_REGION_TRY:
      gasnet_begin_nbi_accessregion();
      for (int k = 0; k < NPIECES; k++)
        gasnet_put_nbi(peer, dst + piece_off(n, k), src + piece_off(n, k), piece_len(n, k));
      h[0] = gasnet_end_nbi_accessregion();
      EXT_CHECK(h[0] != GASNET_INVALID_HANDLE, "an access region gave no handle");
      if (f == P_REGION) gasnet_wait_syncnb(h[0]);
      else try_loop(h[0]);
      break;
    case P_MEMSET: gasnet_memset(peer, dst, val, n); break;
    case P_MEMSET_NB: gasnet_wait_syncnb(gasnet_memset_nb(peer, dst, val, n)); break;
    case P_MEMSET_NBI:
      gasnet_memset_nbi(peer, dst, val, n);
      gasnet_wait_syncnbi_all();
      break;
    case P_VAL: gasnet_put_val(peer, dst, ext_val_of(src, n), n); break;
    case P_NB_VAL: gasnet_wait_syncnb(gasnet_put_nb_val(peer, dst, ext_val_of(src, n), n)); break;
    case P_NBI_VAL:
      gasnet_put_nbi_val(peer, dst, ext_val_of(src, n), n);
      gasnet_wait_syncnbi_puts();
      break;
    default: EXT_CHECK(0, "put flavour %d", f);
  }
}

static uint32_t put_seed(gasnet_node_t writer, int si, int f, int r) {
  return ext_mix(ext_mix(ext_mix(ext_mix(0x9u, writer), (uint32_t)si), (uint32_t)f), (uint32_t)r);
}

static void check_put(int f, int si, int r, size_t off) {
  gasnet_node_t writer = (gasnet_node_t)((me + nodes - (gasnet_node_t)r) % nodes);
  size_t n = sizes[si];
  uint32_t seed = put_seed(writer, si, f, r);
  uint8_t *p = slot_T(me) + off;
  if (is_memset(f)) {
    for (size_t j = 0; j < n; j++)
      EXT_CHECK(p[j] == (uint8_t)seed, "memset flavour %d size %zu from node %u: byte %zu is %u",
                f, n, (unsigned)writer, j, p[j]);
  } else {
    size_t bad = ext_verify(p, n, seed);
    EXT_CHECK(bad == n, "put flavour %d size %zu offset %zu from node %u: byte %zu differs", f, n,
              off, (unsigned)writer, bad);
  }
  EXT_CHECK(p[-1] == GUARD && p[n] == GUARD,
            "put flavour %d size %zu from node %u wrote outside its range", f, n,
            (unsigned)writer);
}

static void test_puts(void) {
  for (int r = 0; r < (int)nodes; r++) {
    gasnet_node_t peer = (gasnet_node_t)((me + (gasnet_node_t)r) % nodes);
    for (int si = 0; si < nsizes; si++) {
      size_t n = sizes[si];
      for (int f = 0; f < P_COUNT; f++) {
        if (!applies(f, si, r)) continue;
        if (is_val(f) && n > sizeof(gasnet_register_value_t)) continue;
        size_t off = 1 + (size_t)(si + f) % 8, soff = (size_t)(3 * si + f) % 8;
        slot_T(me)[off - 1] = GUARD;
        slot_T(me)[off + n] = GUARD;
        ext_barrier();
        uint8_t *src = (f & 1 ? heapbuf : slot_L()) + soff;
        uint32_t seed = put_seed(me, si, f, r);
        if (!is_memset(f)) ext_fill(src, n, seed);
        do_put(f, peer, slot_T(peer) + off, src, n, (int)(uint8_t)seed);
        ext_barrier();
        check_put(f, si, r, off);
      }
    }
  }
}

/* ------------------------------------------------------------ gets */
enum {
  G_BLOCKING, G_BULK, G_NB_WAIT, G_NB_BULK_TRY, G_NB_ALL, G_NB_SOME, G_NB_TRYSOME, G_NBI_GETS,
  G_NBI_BULK_TRYGETS, G_NBI_ALL, G_REGION, G_REGION_TRY, G_VAL, G_NB_VAL, G_COUNT
};

static void do_get(int f, uint8_t *dst, gasnet_node_t peer, uint8_t *src, size_t n) {
  gasnet_handle_t h[NPIECES];
  gasnet_register_value_t v = 0;
  int rc;
  switch (f) {
    case G_BLOCKING: gasnet_get(dst, peer, src, n); break;
    case G_BULK: gasnet_get_bulk(dst, peer, src, n); break;
    case G_NB_WAIT: gasnet_wait_syncnb(gasnet_get_nb(dst, peer, src, n)); break;
    case G_NB_BULK_TRY: try_loop(gasnet_get_nb_bulk(dst, peer, src, n)); break;
    case G_NB_ALL:
    case G_NB_SOME:
    case G_NB_TRYSOME:
      for (int k = 0; k < NPIECES; k++)
        h[k] = (k & 1 ? gasnet_get_nb_bulk : gasnet_get_nb)(dst + piece_off(n, k), peer,
                                                            src + piece_off(n, k), piece_len(n, k));
      if (f == G_NB_ALL) gasnet_wait_syncnb_all(h, NPIECES);
      if (f == G_NB_SOME) wait_some_loop(h, NPIECES);
      if (f == G_NB_TRYSOME) try_some_loop(h, NPIECES);
      break;
    case G_NBI_GETS:
      gasnet_get_nbi(dst, peer, src, n);
      gasnet_wait_syncnbi_gets();
      break;
    case G_NBI_BULK_TRYGETS:
      for (int k = 0; k < NPIECES; k++)
        gasnet_get_nbi_bulk(dst + piece_off(n, k), peer, src + piece_off(n, k), piece_len(n, k));
      while ((rc = gasnet_try_syncnbi_gets()) == GASNET_ERR_NOT_READY) ext_pause();
      EXT_SAFE(rc);
      break;
    case G_NBI_ALL:
      gasnet_get_nbi_bulk(dst, peer, src, n);
      gasnet_wait_syncnbi_all();
      break;
    case G_REGION:
    case G_REGION_TRY:
      gasnet_begin_nbi_accessregion();
      for (int k = 0; k < NPIECES; k++)
        gasnet_get_nbi(dst + piece_off(n, k), peer, src + piece_off(n, k), piece_len(n, k));
      h[0] = gasnet_end_nbi_accessregion();
      if (f == G_REGION) gasnet_wait_syncnb(h[0]);
      else try_loop(h[0]);
      break;
    case G_VAL: v = gasnet_get_val(peer, src, n); break;
    case G_NB_VAL: v = gasnet_wait_syncnb_valget(gasnet_get_nb_val(peer, src, n)); break;
    default: EXT_CHECK(0, "get flavour %d", f);
  }
  if (f == G_VAL || f == G_NB_VAL) {
    uint8_t expect[sizeof(gasnet_register_value_t)];
    size_t start = (size_t)(src - slot_G(peer));
    for (size_t j = 0; j < n; j++) expect[j] = ext_pattern(gseed(peer), start + j);
    EXT_CHECK(v == ext_val_of(expect, n), "get_val flavour %d size %zu from node %u: 0x%llx", f,
              n, (unsigned)peer, (unsigned long long)v);
    memcpy(dst, expect, n); /* so the caller's byte check passes too */
  }
}

static void test_gets(void) {
  for (int r = 0; r < (int)nodes; r++) {
    gasnet_node_t peer = (gasnet_node_t)((me + (gasnet_node_t)r) % nodes);
    for (int si = 0; si < nsizes; si++) {
      size_t n = sizes[si];
      for (int f = 0; f < G_COUNT; f++) {
        if (!applies(f, si, r)) continue;
        if ((f == G_VAL || f == G_NB_VAL) && n > sizeof(gasnet_register_value_t)) continue;
        size_t soff = (size_t)(5 * si + f) % 8, doff = 1 + (size_t)(si + 2 * f) % 8;
        int into_heap = (f + si) & 1;
        uint8_t *dst = (into_heap ? heapbuf : slot_L()) + doff;
        dst[-1] = GUARD;
        dst[n] = GUARD;
        do_get(f, dst, peer, slot_G(peer) + soff, n);
        size_t bad = ext_verify_at(dst, n, gseed(peer), soff);
        EXT_CHECK(bad == n, "get flavour %d size %zu from node %u (into %s): byte %zu differs", f,
                  n, (unsigned)peer, into_heap ? "heap" : "segment", bad);
        EXT_CHECK(dst[-1] == GUARD && dst[n] == GUARD,
                  "get flavour %d size %zu wrote outside its range", f, n);
      }
    }
  }
}

/* ------------------------------------------------------------ odds and ends */
static void test_misc(void) {
  gasnet_node_t peer = (gasnet_node_t)((me + 1) % nodes);
  gasnet_handle_t h[300];

  /* The invalid handle is complete for every sync call. */
  EXT_SAFE(gasnet_try_syncnb(GASNET_INVALID_HANDLE));
  gasnet_wait_syncnb(GASNET_INVALID_HANDLE);
  for (int i = 0; i < 4; i++) h[i] = GASNET_INVALID_HANDLE;
  EXT_SAFE(gasnet_try_syncnb_some(h, 4));
  EXT_SAFE(gasnet_try_syncnb_all(h, 4));
  gasnet_wait_syncnb_some(h, 4);
  gasnet_wait_syncnb_all(h, 4);
  EXT_SAFE(gasnet_try_syncnbi_all());
  gasnet_wait_syncnbi_all();

  /* Zero-length transfers are complete no-ops. */
  EXT_CHECK(gasnet_put_nb(peer, slot_T(peer), heapbuf, 0) == GASNET_INVALID_HANDLE, "put_nb 0");
  EXT_CHECK(gasnet_get_nb(heapbuf, peer, slot_G(peer), 0) == GASNET_INVALID_HANDLE, "get_nb 0");
  gasnet_put(peer, slot_T(peer), heapbuf, 0);
  gasnet_memset(peer, slot_T(peer), 0, 0);

  /* Many handles in flight: more than one block of the pool. Each node
   * gets 8 bytes from each of 300 places of its peer's G slot. */
  uint64_t *vals = (uint64_t *)(void *)(slot_L());
  for (int i = 0; i < 300; i++)
    h[i] = gasnet_get_nb(&vals[i], peer, slot_G(peer) + 8 * (size_t)i, 8);
  gasnet_wait_syncnb_all(h, 300);
  for (int i = 0; i < 300; i++)
    EXT_CHECK(ext_verify_at((uint8_t *)&vals[i], 8, gseed(peer), 8 * (size_t)i) == 8,
              "many handles: get %d", i);

  /* Implicit ops outside a region are not synced by the region's handle,
   * and ops inside it are not counted as implicit ones. */
  ext_barrier();
  ext_fill(heapbuf, 1000, 77);
  gasnet_put_nbi(peer, slot_T(peer) + 8, heapbuf, 1000);
  gasnet_begin_nbi_accessregion();
  gasnet_get_nbi(heapbuf + 2000, peer, slot_G(peer), 500);
  gasnet_handle_t region = gasnet_end_nbi_accessregion();
  gasnet_wait_syncnb(region);
  EXT_CHECK(ext_verify(heapbuf + 2000, 500, gseed(peer)) == 500, "get inside region");
  gasnet_wait_syncnbi_puts();
  ext_barrier();
  EXT_CHECK(ext_verify(slot_T(me) + 8, 1000, 77) == 1000, "nbi put around a region");
  ext_barrier();
}

/* ------------------------------------------------------------ threads (PAR) */
#ifdef GASNET_PAR
#define NTHREADS 4
#define THREAD_ITERS 300
static size_t thread_area; /* bytes of T per (writer, thread) */
static volatile int stop_polling;

static void *poller(void *arg) {
  (void)arg;
  while (!__atomic_load_n(&stop_polling, __ATOMIC_ACQUIRE)) {
    gasnet_AMPoll();
    ext_pause();
  }
  return NULL;
}

static void *worker(void *arg) {
  const int t = (int)(intptr_t)arg;
  uint8_t *src = malloc(thread_area), *dst_heap = malloc(thread_area);
  EXT_CHECK(src && dst_heap, "out of memory");
  uint8_t *dst_seg = slot_L() + (size_t)t * thread_area;
  uint32_t rnd = ext_mix(me, (uint32_t)t);
  for (int i = 0; i < THREAD_ITERS; i++) {
    rnd = ext_mix(rnd, (uint32_t)i);
    gasnet_node_t peer = (gasnet_node_t)(rnd % nodes);
    size_t n = 1 + (ext_mix(rnd, 1) % (thread_area - 1));
    uint8_t *dst = slot_T(peer) + ((size_t)me * NTHREADS + (size_t)t) * thread_area;
    uint8_t *back = (i & 1) ? dst_heap : dst_seg;
    uint32_t seed = ext_mix(rnd, 2);
    ext_fill(src, n, seed);
    switch (i % 4) {
      case 0:
        gasnet_wait_syncnb(gasnet_put_nb_bulk(peer, dst, src, n));
        gasnet_wait_syncnb(gasnet_get_nb(back, peer, dst, n));
        break;
      case 1:
        gasnet_put_nbi(peer, dst, src, n);
        gasnet_wait_syncnbi_puts();
        gasnet_get_nbi_bulk(back, peer, dst, n);
        gasnet_wait_syncnbi_gets();
        break;
      case 2:
        gasnet_begin_nbi_accessregion();
        gasnet_put_nbi_bulk(peer, dst, src, n);
        gasnet_wait_syncnb(gasnet_end_nbi_accessregion());
        gasnet_get(back, peer, dst, n);
        break;
      default:
        gasnet_put(peer, dst, src, n);
        try_loop(gasnet_get_nb_bulk(back, peer, dst, n));
        break;
    }
    size_t bad = ext_verify(back, n, seed);
    EXT_CHECK(bad == n, "thread %d iteration %d: %zu bytes via node %u: byte %zu differs", t, i,
              n, (unsigned)peer, bad);
  }
  free(src);
  free(dst_heap);
  return NULL;
}

static void test_threads(void) {
  thread_area = slot / ((size_t)nodes * NTHREADS);
  if (thread_area > 200000) thread_area = 200000; /* covers Medium and Long */
  pthread_t poll_thread, threads[NTHREADS];
  stop_polling = 0;
  EXT_CHECK(pthread_create(&poll_thread, NULL, poller, NULL) == 0, "pthread_create");
  for (int t = 0; t < NTHREADS; t++)
    EXT_CHECK(pthread_create(&threads[t], NULL, worker, (void *)(intptr_t)t) == 0,
              "pthread_create");
  for (int t = 0; t < NTHREADS; t++) pthread_join(threads[t], NULL);
  __atomic_store_n(&stop_polling, 1, __ATOMIC_RELEASE);
  pthread_join(poll_thread, NULL);
  ext_barrier();
}
#endif

int main(int argc, char **argv) {
  ext_parse_common(&argc, &argv);
  /* A job shape cannot pass -quick to a case; the variable can. */
  quick = gasnett_getenv_yesno_withdefault("GASNET_TEST_QUICK", 0);
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-quick")) {
      quick = 1;
    } else {
      fprintf(stderr, "usage: %s [-am] [-quick]\n", ext_progname);
      return 2;
    }
  }
  make_sizes();
  slot = (sizes[nsizes - 1] + 2 * SLACK + 4095) & ~(size_t)4095;
  ext_init(&argc, &argv, NULL, 0, 3 * slot);
  me = gasnet_mynode();
  nodes = gasnet_nodes();
  heapbuf = malloc(slot);
  EXT_CHECK(heapbuf != NULL, "out of memory");
  ext_fill(slot_G(me), slot, gseed(me));
  ext_barrier();

  test_puts();
  test_gets();
  test_misc();
#ifdef GASNET_PAR
  test_threads();
#endif

  ext_barrier(); /* every node has checked everything */
  if (me == 0)
    printf("%s: %u nodes, path %s, %d sizes up to %zu bytes, %d put and %d get flavours: PASS\n",
           ext_progname, (unsigned)nodes, ext_path_name(), nsizes, sizes[nsizes - 1], P_COUNT,
           G_COUNT);
  free(heapbuf);
  ext_finish();
  return 0;
}
