/* ext_test.h: helpers shared by the extended API tests (tests/ext) and the
 * put/get and barrier benchmarks. Public names only (gasnet_, gasnett_), so
 * the same sources run on every conduit.
 *
 * Common options, taken out of argv before gasnet_init:
 *   -am            move put/get/memset by active messages even where the
 *                  conduit could copy directly (sets GASNET_SMP_PUTGET=am;
 *                  other conduits ignore it)
 *   -barrier NAME  barrier implementation (sets GASNET_BARRIER=NAME)
 *   -medium-max N  AM puts of up to N bytes as Mediums, larger as Longs
 *                  (sets GASNET_AMPUT_MEDIUM_MAX=N) */
#ifndef EXT_TEST_H
#define EXT_TEST_H

#include <gasnet.h>
#include <gasnet_tools.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *ext_progname = "ext";
static int ext_parsed;
static int ext_am_path;
static const char *ext_barrier_name;

#if defined(__GNUC__)
#define EXT_PRINTF(f, a) __attribute__((__format__(__printf__, f, a)))
#define EXT_NORETURN __attribute__((__noreturn__))
#else
#define EXT_PRINTF(f, a)
#define EXT_NORETURN
#endif

static inline void ext_fail(const char *file, int line, const char *what, const char *fmt, ...)
    EXT_PRINTF(4, 5) EXT_NORETURN;
static inline void ext_fail(const char *file, int line, const char *what, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  fprintf(stderr, "%s: node %u: %s:%d: FAILED: %s: %s\n", ext_progname,
          (unsigned)gasnet_mynode(), file, line, what, msg);
  fflush(stderr);
  gasnet_exit(1);
}

/* EXT_CHECK(cond, "format", args...): on failure, report and end the job. */
#define EXT_CHECK(cond, ...)                                              \
  do {                                                                    \
    if (!(cond)) ext_fail(__FILE__, __LINE__, #cond, __VA_ARGS__);        \
  } while (0)

#define EXT_SAFE(call)                                                    \
  do {                                                                    \
    int ext_rc_ = (call);                                                 \
    if (ext_rc_ != GASNET_OK)                                             \
      ext_fail(__FILE__, __LINE__, #call, "returned %s (%s)",             \
               gasnet_ErrorName(ext_rc_), gasnet_ErrorDesc(ext_rc_));     \
  } while (0)

/* Takes the common options out of argv; the rest stays for the program. */
static inline void ext_parse_common(int *argc, char ***argv) {
  if (ext_parsed) return;
  ext_parsed = 1;
  char **av = *argv;
  int out = 1;
  if (*argc > 0) {
    const char *slash = strrchr(av[0], '/');
    ext_progname = slash ? slash + 1 : av[0];
  }
  for (int i = 1; i < *argc; i++) {
    if (!strcmp(av[i], "-am")) {
      ext_am_path = 1;
    } else if (!strcmp(av[i], "-barrier") && i + 1 < *argc) {
      ext_barrier_name = av[++i];
    } else if (!strcmp(av[i], "-medium-max") && i + 1 < *argc) {
      gasnett_setenv("GASNET_AMPUT_MEDIUM_MAX", av[++i]);
    } else {
      av[out++] = av[i];
    }
  }
  av[out] = NULL;
  *argc = out;
  if (ext_am_path) gasnett_setenv("GASNET_SMP_PUTGET", "am");
  if (ext_barrier_name) {
    /* A conduit's own barrier exists only on that conduit: skip elsewhere
     * (exit 77), so the same case files serve every conduit. SMP, the
     * shared-memory barrier, exists where the job's processes share
     * memory: on smp, and where every node is in one supernode (see
     * ext_init). */
    if (!strcasecmp(ext_barrier_name, "SMP") && !GASNET_PSHM) {
      fprintf(stderr, "%s: no %s barrier on the %s conduit: skipped\n", ext_progname,
              ext_barrier_name, GASNET_CONDUIT_NAME_STR);
      exit(77);
    }
    gasnett_setenv("GASNET_BARRIER", ext_barrier_name);
  }
}

/* Whether every node shares memory with every other (gasnet_getNodeInfo:
 * one supernode); the same answer on every node. */
static inline int ext_one_supernode(void) {
  gasnet_node_t n = gasnet_nodes();
  gasnet_nodeinfo_t *ni = calloc(n, sizeof(*ni));
  EXT_CHECK(ni != NULL, "out of memory");
  EXT_SAFE(gasnet_getNodeInfo(ni, (int)n));
  int one = 1;
  for (gasnet_node_t i = 0; i < n; i++) one &= ni[i].supernode == ni[0].supernode;
  free(ni);
  return one;
}

/* gasnet_init + gasnet_attach with the given handlers and segment size
 * (the common options are taken out of argv first, if not done yet). */
static inline void ext_init(int *argc, char ***argv, gasnet_handlerentry_t *table, int numentries,
                     uintptr_t segsize) {
  ext_parse_common(argc, argv);
  EXT_SAFE(gasnet_init(argc, argv));
  if (ext_barrier_name && !strcasecmp(ext_barrier_name, "SMP") && !ext_one_supernode()) {
    if (gasnet_mynode() == 0)
      fprintf(stderr, "%s: the SMP barrier needs every node in one supernode: skipped\n",
              ext_progname);
    gasnet_exit(77);
  }
  uintptr_t max = gasnet_getMaxLocalSegmentSize();
  if (segsize > max) {
    if (gasnet_mynode() == 0)
      fprintf(stderr, "%s: needs a %lu-byte segment, the maximum is %lu: skipped\n",
              ext_progname, (unsigned long)segsize, (unsigned long)max);
    gasnet_exit(77);
  }
  EXT_SAFE(gasnet_attach(table, numentries, segsize, 0));
}

static inline const char *ext_path_name(void) { return ext_am_path ? "am" : "default"; }

/* Every node's segment. */
static inline gasnet_seginfo_t *ext_segs(void) {
  static gasnet_seginfo_t *segs;
  if (!segs) {
    segs = calloc(gasnet_nodes(), sizeof(*segs));
    EXT_CHECK(segs != NULL, "out of memory");
    EXT_SAFE(gasnet_getSegmentInfo(segs, (int)gasnet_nodes()));
  }
  return segs;
}

static inline uint8_t *ext_seg(gasnet_node_t node) { return (uint8_t *)ext_segs()[node].addr; }

/* For the body of a try loop: with more processes than cores, a loop
 * that only polls keeps the very process it waits for off the CPU. */
static inline void ext_pause(void) { gasnett_sched_yield(); }

static inline void ext_barrier(void) {
  gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
  EXT_SAFE(gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS));
}

/* The end of a test, on every node: a last barrier, so that no node's exit
 * ends the job while node 0 still prints its result (a node that calls
 * gasnet_exit ends the others at their next poll, even inside a barrier
 * they are about to leave). */
static inline void ext_finish(void) {
  fflush(stdout);
  ext_barrier();
  gasnet_exit(0);
}

/* ------------------------------------------------------------ data patterns */
static inline uint32_t ext_mix(uint32_t h, uint32_t v) {
  h ^= v + 0x9e3779b9u + (h << 6) + (h >> 2);
  h *= 0x85ebca6bu;
  return h ^ (h >> 13);
}

/* Byte j of the pattern named by seed: depends on both, so a shifted or
 * stale copy does not match. */
static inline uint8_t ext_pattern(uint32_t seed, size_t j) {
  uint32_t x = (uint32_t)j * 0x9e3779b1u + seed;
  x ^= x >> 15;
  x *= 0x2c1b3c6du;
  return (uint8_t)(x >> 24);
}

static inline void ext_fill(uint8_t *p, size_t n, uint32_t seed) {
  for (size_t j = 0; j < n; j++) p[j] = ext_pattern(seed, j);
}

/* Index of the first byte of p[0..n) that differs from bytes
 * start..start+n of the pattern, or n. */
static inline size_t ext_verify_at(const uint8_t *p, size_t n, uint32_t seed, size_t start) {
  for (size_t j = 0; j < n; j++)
    if (p[j] != ext_pattern(seed, start + j)) return j;
  return n;
}

static inline size_t ext_verify(const uint8_t *p, size_t n, uint32_t seed) {
  return ext_verify_at(p, n, seed, 0);
}

/* The register value that n bytes in memory stand for (GASNet-1): an
 * integer of that size where one exists, else the bytes in the low-order
 * end of the value. */
static inline gasnet_register_value_t ext_val_of(const uint8_t *b, size_t n) {
  uint8_t u8;
  uint16_t u16;
  uint32_t u32;
  uint64_t u64;
  gasnet_register_value_t v = 0;
  switch (n) {
    case 1: memcpy(&u8, b, 1); return u8;
    case 2: memcpy(&u16, b, 2); return u16;
    case 4: memcpy(&u32, b, 4); return u32;
    case 8: memcpy(&u64, b, 8); return (gasnet_register_value_t)u64;
    default: break;
  }
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  memcpy((uint8_t *)&v + sizeof(v) - n, b, n);
#else
  memcpy(&v, b, n);
#endif
  return v;
}

#endif
