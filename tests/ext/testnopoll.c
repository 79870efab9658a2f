/* testnopoll.c: puts and gets complete while their target does not poll.
 *
 * Usage: testnopoll [-am] [-sleep SECONDS] [-long] [SIZE...]
 *   -sleep S  how long node 0 stays away (default 2 s)
 *   -long     also send an AM Long request of each size to node 0, whose
 *             payload must be in node 0's segment when the call returns
 *             (a conduit that writes large Long payloads one-sidedly)
 *   SIZE      transfer sizes (default 4096 65536 1048589 4194304; suffixes
 *             K and M)
 *
 * Node 0 fills a source area and, after a barrier, sleeps for S seconds
 * without calling GASNet. Meanwhile every other node moves each size to
 * node 0's segment and back in every form: blocking put and get, put_nb and
 * get_nb with wait_syncnb, put_nbi and get_nbi with the nbi syncs, and an
 * access region; each form writes its own area. A sender times the whole
 * lot: if it took half of S or more, its transfers waited for node 0, and
 * it fails. It checks every get byte for byte. Node 0, once awake and
 * before any GASNet call, checks that every put (and Long payload) has
 * landed. So a conduit whose transfers need the target's attention (active
 * messages) fails, and one that moves data one-sidedly (smp's copies, the
 * mpi conduit's RMA where MPI progresses it alone) passes. At one node
 * there is nobody to wait for node 0: the test skips (exit 77). */
#include "ext_test.h"

#include <time.h>

#define MAX_SIZES 16
#define H_LONG 200

enum { F_PUT, F_PUT_NB, F_PUT_NBI, F_REGION, F_LONG, F_COUNT };
static const char *const form_name[F_COUNT] = {"put", "put_nb", "put_nbi", "access region",
                                               "AM Long"};

static size_t sizes[MAX_SIZES];
static int nsizes;
static double sleep_s = 2.0;
static int with_long;
static size_t area;   /* bytes of one sender's areas for one form: every size, in a row */
static gasnet_node_t me, nodes;

static size_t size_off(int si) {
  size_t off = 0;
  for (int i = 0; i < si; i++) off += (sizes[i] + 63) & ~(size_t)63;
  return off;
}

/* Node 0's segment: the source area G (largest size), then per sender and
 * form an area of every size. */
static uint8_t *src_area(void) { return ext_seg(0); }
static uint8_t *put_area(gasnet_node_t sender, int form, int si) {
  size_t g = (sizes[nsizes - 1] + 4095) & ~(size_t)4095;
  return ext_seg(0) + g + ((size_t)(sender - 1) * F_COUNT + (size_t)form) * area + size_off(si);
}
static uint32_t put_seed(gasnet_node_t sender, int form, int si) {
  return ext_mix(ext_mix(0x5eedu, sender), (uint32_t)(form * MAX_SIZES + si));
}
static const uint32_t src_seed = 0xa11ceu;

static double now_s(void) { return (double)gasnett_ticks_to_ns(gasnett_ticks_now()) * 1e-9; }

static void long_handler(gasnet_token_t token, void *buf, size_t nbytes) {
  (void)token, (void)buf, (void)nbytes;
}

static size_t parse_size(const char *text) {
  char *end;
  unsigned long long v = strtoull(text, &end, 10);
  if (*end == 'K' || *end == 'k') v <<= 10, end++;
  else if (*end == 'M' || *end == 'm') v <<= 20, end++;
  if (*end || !v) {
    fprintf(stderr, "%s: bad size '%s'\n", ext_progname, text);
    exit(2);
  }
  return (size_t)v;
}

/* ------------------------------------------------------------ the sender */
static void check_get(const uint8_t *buf, size_t n, const char *form) {
  size_t bad = ext_verify(buf, n, src_seed);
  EXT_CHECK(bad == n, "%s of %zu bytes from node 0: byte %zu differs", form, n, bad);
}

static void send_all(uint8_t *src, uint8_t *back) {
  for (int si = 0; si < nsizes; si++) {
    size_t n = sizes[si];
    for (int f = 0; f < F_COUNT; f++) {
      if (f == F_LONG && !with_long) continue;
      uint8_t *dst = put_area(me, f, si);
      ext_fill(src, n, put_seed(me, f, si));
      memset(back, 0, n);
      switch (f) {
        case F_PUT:
          gasnet_put_bulk(0, dst, src, n);
          gasnet_get_bulk(back, 0, src_area(), n);
          break;
        case F_PUT_NB: {
          gasnet_handle_t h[2] = {gasnet_put_nb_bulk(0, dst, src, n),
                                  gasnet_get_nb_bulk(back, 0, src_area(), n)};
          gasnet_wait_syncnb_all(h, 2);
          break;
        }
        case F_PUT_NBI:
          gasnet_put_nbi_bulk(0, dst, src, n);
          gasnet_get_nbi_bulk(back, 0, src_area(), n);
          gasnet_wait_syncnbi_all();
          break;
        case F_REGION:
          gasnet_begin_nbi_accessregion();
          gasnet_put_nbi(0, dst, src, n);
          gasnet_get_nbi(back, 0, src_area(), n);
          gasnet_wait_syncnb(gasnet_end_nbi_accessregion());
          break;
        default:
          EXT_SAFE(gasnet_AMRequestLong0(0, H_LONG, src, n, dst));
          gasnet_get(back, 0, src_area(), n);
          break;
      }
      check_get(back, n, form_name[f]);
    }
  }
}

/* ------------------------------------------------------------ node 0 */
static void sleep_until(double end) {
  for (double t = now_s(); t < end; t = now_s()) {
    double left = end - t;
    struct timespec ts = {(time_t)left, (long)((left - (double)(time_t)left) * 1e9)};
    nanosleep(&ts, NULL);
  }
}

static void check_landed(void) {
  __atomic_thread_fence(__ATOMIC_ACQUIRE);
  for (gasnet_node_t s = 1; s < nodes; s++)
    for (int f = 0; f < F_COUNT; f++) {
      if (f == F_LONG && !with_long) continue;
      for (int si = 0; si < nsizes; si++) {
        size_t n = sizes[si];
        size_t bad = ext_verify(put_area(s, f, si), n, put_seed(s, f, si));
        EXT_CHECK(bad == n,
                  "%s of %zu bytes from node %u had not landed after %.1f s without polling "
                  "(byte %zu differs)",
                  form_name[f], n, (unsigned)s, sleep_s, bad);
      }
    }
}

int main(int argc, char **argv) {
  ext_parse_common(&argc, &argv);
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-sleep") && i + 1 < argc) {
      sleep_s = atof(argv[++i]);
    } else if (!strcmp(argv[i], "-long")) {
      with_long = 1;
    } else if (argv[i][0] != '-' && nsizes < MAX_SIZES) {
      sizes[nsizes++] = parse_size(argv[i]);
    } else {
      fprintf(stderr, "usage: %s [-am] [-sleep SECONDS] [-long] [SIZE...]\n", ext_progname);
      return 2;
    }
  }
  if (!nsizes) {
    static const size_t dflt[] = {4096, 65536, ((size_t)1 << 20) + 13, (size_t)4 << 20};
    for (size_t i = 0; i < sizeof(dflt) / sizeof(dflt[0]); i++) sizes[nsizes++] = dflt[i];
  }
  for (int i = 1; i < nsizes; i++)
    if (sizes[i] < sizes[i - 1]) {
      fprintf(stderr, "%s: sizes must not decrease\n", ext_progname);
      return 2;
    }
  area = size_off(nsizes);
  gasnet_handlerentry_t handlers[] = {{H_LONG, (void (*)())long_handler}};
  EXT_SAFE(gasnet_init(&argc, &argv));
  if (gasnet_nodes() < 2) {
    fprintf(stderr, "%s: needs 2 nodes or more: skipped\n", ext_progname);
    gasnet_exit(77);
  }
  /* The segment's size depends on the number of nodes: attach here. */
  size_t g = (sizes[nsizes - 1] + 4095) & ~(size_t)4095;
  size_t seg = (g + (size_t)(gasnet_nodes() - 1) * F_COUNT * area + GASNET_PAGESIZE - 1) &
               ~(size_t)(GASNET_PAGESIZE - 1);
  if (seg > gasnet_getMaxLocalSegmentSize()) {
    if (gasnet_mynode() == 0)
      fprintf(stderr, "%s: needs a %zu-byte segment, the maximum is %lu: skipped\n",
              ext_progname, seg, (unsigned long)gasnet_getMaxLocalSegmentSize());
    gasnet_exit(77);
  }
  EXT_SAFE(gasnet_attach(handlers, 1, seg, 0));
  me = gasnet_mynode();
  nodes = gasnet_nodes();
  if (with_long)
    EXT_CHECK(sizes[nsizes - 1] <= gasnet_AMMaxLongRequest(), "-long: %zu bytes exceed the Long "
              "limit %zu", sizes[nsizes - 1], (size_t)gasnet_AMMaxLongRequest());
  if (me == 0) ext_fill(src_area(), sizes[nsizes - 1], src_seed);
  uint8_t *src = malloc(sizes[nsizes - 1]), *back = malloc(sizes[nsizes - 1]);
  EXT_CHECK(src && back, "out of memory");
  ext_barrier();

  double t0 = now_s();
  if (me == 0) {
    sleep_until(t0 + sleep_s);
    check_landed(); /* before any GASNet call */
  } else {
    send_all(src, back);
    double took = now_s() - t0;
    EXT_CHECK(took < sleep_s / 2,
              "the transfers took %.3f s while node 0 slept %.1f s without polling: they waited "
              "for it", took, sleep_s);
    printf("%s: node %u: every transfer done in %.3f s while node 0 slept\n", ext_progname,
           (unsigned)me, took);
  }
  ext_barrier();
  if (me == 0)
    printf("%s: %u nodes, %d sizes up to %zu bytes%s, path %s: PASS\n", ext_progname,
           (unsigned)nodes, nsizes, sizes[nsizes - 1], with_long ? ", AM Longs" : "",
           ext_path_name());
  free(src);
  free(back);
  ext_finish();
  return 0;
}
