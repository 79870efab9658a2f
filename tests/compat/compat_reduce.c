/* compat_reduce.c: the element-wise reduce and scan of GASNet 1.x clients.
 *
 * A client calls gasnet_coll_reduce(team, root, dst, src, 0, 0, elem_size,
 * count, fn, arg, flags) meaning: every image gives count elements, and
 * element i of the result is every image's element i combined in image
 * order; GASNet 1.x calls fn with the result in place, fn(dst, n, dst, n,
 * src, ...), and clients assert it. Here two such functions (an int64 sum
 * and a non-commutative composition of affine maps) check that
 * convention on every call, and the results of reduce (every root) and
 * of the inclusive and exclusive scan are checked element by element
 * against a serial reference.
 *
 * Usage: compat_reduce [IMAGES]   IMAGES (PAR only): "2" gives every node
 * two images, "var" gives node n 1 + n % 2 images; without it, one image
 * per node. Every image's thread prints "compat_reduce: node I/N OK" once
 * per node (its first image). */
#include <gasnet.h>

static gasnet_node_t mynode, nodes;

static void die(const char *what, long detail) {
  fprintf(stderr, "compat_reduce: node %u: %s (%ld)\n", (unsigned)mynode, what, detail);
  fflush(stderr);
  gasnet_exit(1);
}

/* ------------------------------------------------------------ the functions */
typedef struct {
  uint64_t a, b; /* x -> a x + b (mod 2^64) */
} affine_t;

static void combine_affine(affine_t *acc, const affine_t *next) { /* acc, then next */
  acc->b = next->a * acc->b + next->b;
  acc->a = next->a * acc->a;
}

/* What GASNet 1.x promises an element-wise function, and clients check. */
static void check_in_place(void *results, size_t result_count, const void *left,
                           size_t left_count) {
  if (results != left) die("the function was not called in place", 0);
  if (result_count != left_count) die("result_count != left_count", (long)result_count);
}

static void sum_fn(void *results, size_t result_count, const void *left, size_t left_count,
                   const void *right, size_t elem_size, int flags, int arg) {
  check_in_place(results, result_count, left, left_count);
  if (elem_size != sizeof(int64_t) || arg != 11) die("sum: elem_size or func_arg", arg);
  int64_t *out = results;
  const int64_t *r = right;
  for (size_t i = 0; i < result_count; i++) out[i] += r[i];
  (void)flags;
}

static void affine_fn(void *results, size_t result_count, const void *left, size_t left_count,
                      const void *right, size_t elem_size, int flags, int arg) {
  check_in_place(results, result_count, left, left_count);
  if (elem_size != sizeof(affine_t) || !(flags & GASNET_COLL_NONCOMM)) die("affine: flags", flags);
  affine_t *out = results;
  const affine_t *r = right;
  for (size_t i = 0; i < result_count; i++) combine_affine(&out[i], &r[i]);
  (void)arg;
}

enum { FN_SUM, FN_AFFINE };
static const gasnet_coll_fn_entry_t fns[] = {{sum_fn, 0}, {affine_fn, GASNET_COLL_NONCOMM}};

/* ------------------------------------------------------------ images */
static gasnet_image_t total = 1; /* images of the job */


/* Image m's element i, for the call numbered `call`. */
static uint64_t value(unsigned call, gasnet_image_t m, size_t i) {
  uint64_t x = ((uint64_t)call << 40) ^ ((uint64_t)m << 20) ^ i;
  x = (x + 1) * 0x9e3779b97f4a7c15ull;
  return x ^ (x >> 29);
}

static void make(int fn, unsigned call, gasnet_image_t m, size_t count, void *out) {
  for (size_t i = 0; i < count; i++) {
    uint64_t v = value(call, m, i);
    if (fn == FN_SUM) ((int64_t *)out)[i] = (int64_t)(v % 1000) - 500;
    else ((affine_t *)out)[i] = (affine_t){v | 1, v >> 7};
  }
}

/* Element i of images 0..upto-1 combined in order, for every i. */
static void reference(int fn, unsigned call, gasnet_image_t upto, size_t count, void *want) {
  size_t es = fn == FN_SUM ? sizeof(int64_t) : sizeof(affine_t);
  unsigned char *next = malloc(count * es);
  if (!next) die("out of memory", 0);
  make(fn, call, 0, count, want);
  for (gasnet_image_t m = 1; m < upto; m++) {
    make(fn, call, m, count, next);
    for (size_t i = 0; i < count; i++) {
      if (fn == FN_SUM) ((int64_t *)want)[i] += ((int64_t *)next)[i];
      else combine_affine(&((affine_t *)want)[i], &((affine_t *)next)[i]);
    }
  }
  free(next);
}

/* ------------------------------------------------------------ one image's calls */
static void check(const void *got, const void *want, size_t bytes, const char *what, unsigned call) {
  if (memcmp(got, want, bytes)) {
    fprintf(stderr, "compat_reduce: node %u: %s (call %u) differs from the reference\n",
            (unsigned)mynode, what, call);
    die("wrong result", (long)call);
  }
}

static void run_image(gasnet_image_t me) {
  const size_t counts[] = {1, 7, 1000};
  const int flags = GASNET_COLL_LOCAL | GASNET_COLL_IN_MYSYNC | GASNET_COLL_OUT_MYSYNC;
  unsigned call = 0;
  for (int fn = FN_SUM; fn <= FN_AFFINE; fn++)
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
      size_t n = counts[c], es = fn == FN_SUM ? sizeof(int64_t) : sizeof(affine_t);
      unsigned char *src = malloc(n * es), *dst = malloc(n * es), *want = malloc(n * es);
      if (!src || !dst || !want) die("out of memory", 0);
      for (gasnet_image_t root = 0; root < total; root++, call++) {
        make(fn, call, me, n, src);
        gasnet_coll_reduce(GASNET_TEAM_ALL, root, dst, src, 0, 0, es, n, fn, 11, flags);
        if (me != root) continue;
        reference(fn, call, total, n, want);
        check(dst, want, n * es, "reduce", call);
      }
      for (int exclusive = 0; exclusive < 2; exclusive++, call++) {
        make(fn, call, me, n, src);
        memset(dst, 0x5a, n * es);
        gasnet_coll_scan(GASNET_TEAM_ALL, dst, 0, 0, src, 0, 0, es, n, fn, 11,
                         flags | (exclusive ? GASNET_COLL_EXCLUSIVE_SCAN : GASNET_COLL_INCLUSIVE_SCAN));
        if (exclusive && me == 0) {
          memset(want, 0x5a, n * es); /* image 0 of an exclusive scan: untouched */
        } else {
          reference(fn, call, exclusive ? me : me + 1, n, want);
        }
        check(dst, want, n * es, exclusive ? "exclusive scan" : "inclusive scan", call);
      }
      free(src);
      free(dst);
      free(want);
    }
}

#if defined(GASNET_PAR)
static gasnet_image_t *images; /* per node (gasnet_coll_init's images[]) */

static gasnet_image_t first_image(gasnet_node_t n) {
  gasnet_image_t f = 0;
  for (gasnet_node_t i = 0; i < n; i++) f += images[i];
  return f;
}

static void *image_thread(void *arg) {
  gasnet_image_t me = (gasnet_image_t)(uintptr_t)arg;
  gasnet_coll_init(images, me, fns, 2, 0);
  run_image(me);
  return NULL;
}

static void run_images(void) {
  gasnet_image_t mine = images[mynode], first = first_image(mynode);
  pthread_t threads[8];
  for (gasnet_image_t j = 0; j < mine; j++)
    if (pthread_create(&threads[j], NULL, image_thread, (void *)(uintptr_t)(first + j)))
      die("pthread_create", (long)j);
  for (gasnet_image_t j = 0; j < mine; j++) pthread_join(threads[j], NULL);
}
#endif

int main(int argc, char **argv) {
  if (gasnet_init(&argc, &argv) != GASNET_OK) return 1;
  if (gasnet_attach(NULL, 0, 1 << 16, 0) != GASNET_OK) return 1;
  mynode = gasnet_mynode();
  nodes = gasnet_nodes();
  if (argc > 1) {
#if defined(GASNET_PAR)
    int varied = !strcmp(argv[1], "var");
    images = calloc(nodes, sizeof *images);
    if (!images) die("out of memory", 0);
    for (gasnet_node_t n = 0; n < nodes; n++) images[n] = varied ? 1 + n % 2 : 2;
    total = first_image(nodes);
    run_images();
#else
    die("images need a PAR build", 0);
#endif
  } else {
    total = nodes;
    gasnet_coll_init(NULL, 0, fns, 2, 0);
    run_image(mynode);
  }
  printf("compat_reduce: node %u/%u OK\n", (unsigned)mynode, (unsigned)nodes);
  fflush(stdout);
  gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
  if (gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS) != GASNET_OK) die("barrier", 0);
  gasnet_exit(0);
  return 0;
}
