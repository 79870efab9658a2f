/* testloopback.c: a node's own memory is not a remote range. Puts, gets,
 * memsets and the _val forms whose node is gasnet_mynode() copy between
 * the two local addresses wherever they lie: the stack, the heap, static
 * data, the segment, in any combination, with every sync flavour.
 *
 * Usage: testloopback [-am]
 *
 * Every node works on itself only, at once. Each transfer goes to a
 * destination with a guard byte on each side and is checked byte for byte;
 * sizes cover 1 B to 100 KB, aligned and not. */
#include "ext_test.h"

#define BUF_BYTES (256 * 1024)
#define STACK_BYTES 4096
#define GUARD 0x5A

enum { A_STACK, A_HEAP, A_STATIC, A_SEGMENT, A_COUNT };
static const char *const area_names[A_COUNT] = {"stack", "heap", "static", "segment"};

static uint8_t static_buf[BUF_BYTES + 64];
static uint8_t *areas[A_COUNT];
static size_t area_bytes[A_COUNT];
static gasnet_node_t me;
static unsigned long checks;

enum {
  P_PUT, P_PUT_BULK, P_PUT_NB, P_PUT_NB_BULK, P_PUT_NBI, P_PUT_NBI_BULK, P_PUT_REGION,
  P_GET, P_GET_BULK, P_GET_NB, P_GET_NB_BULK, P_GET_NBI, P_GET_NBI_BULK, P_GET_REGION,
  P_PUT_VAL, P_PUT_NB_VAL, P_PUT_NBI_VAL, P_GET_VAL, P_GET_NB_VAL,
  P_MEMSET, P_MEMSET_NB, P_MEMSET_NBI, P_COUNT
};
static const char *const form_names[P_COUNT] = {
    "put", "put_bulk", "put_nb", "put_nb_bulk", "put_nbi", "put_nbi_bulk", "put_nbi (region)",
    "get", "get_bulk", "get_nb", "get_nb_bulk", "get_nbi", "get_nbi_bulk", "get_nbi (region)",
    "put_val", "put_nb_val", "put_nbi_val", "get_val", "get_nb_val",
    "memset", "memset_nb", "memset_nbi"};

static int is_val(int f) { return f >= P_PUT_VAL && f <= P_GET_NB_VAL; }
static int is_memset(int f) { return f >= P_MEMSET; }

/* Moves n bytes from src to dst (memset: fills dst with val) on this node. */
static void transfer(int f, uint8_t *dst, const uint8_t *src, size_t n, int val) {
  uint8_t *s = (uint8_t *)src;
  gasnet_handle_t h;
  switch (f) {
    case P_PUT: gasnet_put(me, dst, s, n); break;
    case P_PUT_BULK: gasnet_put_bulk(me, dst, s, n); break;
    case P_PUT_NB: gasnet_wait_syncnb(gasnet_put_nb(me, dst, s, n)); break;
    case P_PUT_NB_BULK: gasnet_wait_syncnb(gasnet_put_nb_bulk(me, dst, s, n)); break;
    case P_PUT_NBI:
      gasnet_put_nbi(me, dst, s, n);
      gasnet_wait_syncnbi_puts();
      break;
    case P_PUT_NBI_BULK:
      gasnet_put_nbi_bulk(me, dst, s, n);
      gasnet_wait_syncnbi_all();
      break;
    case P_PUT_REGION:
      gasnet_begin_nbi_accessregion();
      gasnet_put_nbi(me, dst, s, n);
      h = gasnet_end_nbi_accessregion();
      gasnet_wait_syncnb(h);
      break;
    case P_GET: gasnet_get(dst, me, s, n); break;
    case P_GET_BULK: gasnet_get_bulk(dst, me, s, n); break;
    case P_GET_NB: gasnet_wait_syncnb(gasnet_get_nb(dst, me, s, n)); break;
    case P_GET_NB_BULK: gasnet_wait_syncnb(gasnet_get_nb_bulk(dst, me, s, n)); break;
    case P_GET_NBI:
      gasnet_get_nbi(dst, me, s, n);
      gasnet_wait_syncnbi_gets();
      break;
    case P_GET_NBI_BULK:
      gasnet_get_nbi_bulk(dst, me, s, n);
      gasnet_wait_syncnbi_all();
      break;
    case P_GET_REGION:
      gasnet_begin_nbi_accessregion();
      gasnet_get_nbi(dst, me, s, n);
      h = gasnet_end_nbi_accessregion();
      gasnet_wait_syncnb(h);
      break;
    case P_PUT_VAL: gasnet_put_val(me, dst, ext_val_of(src, n), n); break;
    case P_PUT_NB_VAL: gasnet_wait_syncnb(gasnet_put_nb_val(me, dst, ext_val_of(src, n), n)); break;
    case P_PUT_NBI_VAL:
      gasnet_put_nbi_val(me, dst, ext_val_of(src, n), n);
      gasnet_wait_syncnbi_puts();
      break;
    case P_GET_VAL:
    case P_GET_NB_VAL: {
      gasnet_register_value_t v = f == P_GET_VAL
                                      ? gasnet_get_val(me, s, n)
                                      : gasnet_wait_syncnb_valget(gasnet_get_nb_val(me, s, n));
      EXT_CHECK(v == ext_val_of(src, n), "%s of %zu bytes: 0x%llx, expected 0x%llx",
                form_names[f], n, (unsigned long long)v, (unsigned long long)ext_val_of(src, n));
      memcpy(dst, src, n); /* the value was checked; let the byte check pass */
      break;
    }
    case P_MEMSET: gasnet_memset(me, dst, val, n); break;
    case P_MEMSET_NB: gasnet_wait_syncnb(gasnet_memset_nb(me, dst, val, n)); break;
    case P_MEMSET_NBI:
      gasnet_memset_nbi(me, dst, val, n);
      gasnet_wait_syncnbi_puts();
      break;
    default: EXT_CHECK(0, "form %d", f);
  }
}

/* One transfer from area sa (at soff) to area da (at doff), checked. Source
 * and destination never overlap: the source lies in the first half of its
 * area, the destination in the second half. */
static void one(int f, int sa, int da, size_t n, size_t soff, size_t doff, uint32_t seed) {
  size_t half_s = area_bytes[sa] / 2, half_d = area_bytes[da] / 2;
  if (n + soff + 1 > half_s || n + doff + 2 > half_d) return;
  uint8_t *src = areas[sa] + soff;
  uint8_t *dst = areas[da] + half_d + 1 + doff;
  ext_fill(src, n, seed);
  memset(dst, 0, n);
  dst[-1] = GUARD;
  dst[n] = GUARD;
  transfer(f, dst, src, n, (int)(uint8_t)seed);
  if (is_memset(f)) {
    for (size_t j = 0; j < n; j++)
      EXT_CHECK(dst[j] == (uint8_t)seed, "%s of %zu bytes into the %s: byte %zu is 0x%02x",
                form_names[f], n, area_names[da], j, dst[j]);
  } else {
    size_t bad = ext_verify(dst, n, seed);
    EXT_CHECK(bad == n, "%s of %zu bytes from the %s (+%zu) to the %s (+%zu): byte %zu differs",
              form_names[f], n, area_names[sa], soff, area_names[da], doff, bad);
  }
  EXT_CHECK(dst[-1] == GUARD && dst[n] == GUARD,
            "%s of %zu bytes from the %s to the %s wrote outside its range", form_names[f], n,
            area_names[sa], area_names[da]);
  checks++;
}

static void run_all(void) {
  static const size_t sizes[] = {1, 2, 3, 4, 5, 7, 8, 9, 16, 31, 64, 1000, 4096, 4097, 65536,
                                 100000};
  uint8_t stack_buf[2 * STACK_BYTES + 64];
  areas[A_STACK] = stack_buf + (8 - ((uintptr_t)stack_buf & 7)) % 8;
  area_bytes[A_STACK] = 2 * STACK_BYTES;
  uint32_t seed = ext_mix(0x10bu, me);
  for (int f = 0; f < P_COUNT; f++) {
    for (int sa = 0; sa < A_COUNT; sa++) {
      for (int da = 0; da < A_COUNT; da++) {
        if (is_memset(f) && sa != A_STACK) continue; /* no source: once per destination */
        for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
          size_t n = sizes[si];
          if (is_val(f) && n > sizeof(gasnet_register_value_t)) continue;
          /* aligned to n, and off by one and three */
          static const size_t offs[] = {0, 1, 3};
          for (size_t o = 0; o < sizeof(offs) / sizeof(offs[0]); o++) {
            seed = ext_mix(seed, (uint32_t)(f * 131 + sa * 17 + da * 5 + (int)si));
            size_t doff = (n < 8 ? n : 8) * 8 - 1 + offs[o]; /* + the 1 in one(): aligned at o=0 */
            one(f, sa, da, n, offs[(o + 1) % 3] * 8 + offs[o], doff, seed);
          }
        }
      }
    }
  }
}

int main(int argc, char **argv) {
  ext_init(&argc, &argv, NULL, 0, 2 * BUF_BYTES + 4096);
  if (argc > 1) {
    if (gasnet_mynode() == 0) fprintf(stderr, "usage: %s [-am]\n", ext_progname);
    gasnet_exit(2);
  }
  me = gasnet_mynode();
  uint8_t *heap = malloc(BUF_BYTES + 64);
  EXT_CHECK(heap != NULL, "out of memory");
  areas[A_HEAP] = heap;
  area_bytes[A_HEAP] = BUF_BYTES;
  areas[A_STATIC] = static_buf + (8 - ((uintptr_t)static_buf & 7)) % 8;
  area_bytes[A_STATIC] = BUF_BYTES;
  areas[A_SEGMENT] = ext_seg(me);
  area_bytes[A_SEGMENT] = 2 * BUF_BYTES;
  ext_barrier();
  run_all();
  ext_barrier();
  if (me == 0)
    printf("%s: %u nodes, %s path: %lu loopback transfers between stack, heap, static data "
           "and segment ok\n",
           ext_progname, (unsigned)gasnet_nodes(), ext_path_name(), checks);
  free(heap);
  ext_finish();
  return 0;
}
