/* coll_test.h: what the collectives tests share (after tests/test.h): the
 * five data-movement ops by number, their buffer sizes, the reference data
 * every node can compute for every other, and one call that initiates any
 * op in its blocking or _nb form. Public names only. */
#ifndef COLL_TEST_H
#define COLL_TEST_H

#include <gasnet.h>
#include <gasnet_coll.h>

#include "test.h"

enum { OP_BCAST, OP_SCATTER, OP_GATHER, OP_GATHER_ALL, OP_EXCHANGE, OP_COUNT };
static const char *const op_names[OP_COUNT] = {"broadcast", "scatter", "gather", "gather_all",
                                               "exchange"};
static const char *const op_env[OP_COUNT] = {
    "GASNET_COLL_BROADCAST_ALG", "GASNET_COLL_SCATTER_ALG", "GASNET_COLL_GATHER_ALG",
    "GASNET_COLL_GATHER_ALL_ALG", "GASNET_COLL_EXCHANGE_ALG"};

static const int in_modes[3] = {GASNET_COLL_IN_NOSYNC, GASNET_COLL_IN_MYSYNC,
                                GASNET_COLL_IN_ALLSYNC};
static const int out_modes[3] = {GASNET_COLL_OUT_NOSYNC, GASNET_COLL_OUT_MYSYNC,
                                 GASNET_COLL_OUT_ALLSYNC};

/* The conduit's barrier: cheaper than test.h's AM barrier when processes
 * outnumber cores. Called only with no collective in flight (collectives
 * may not span a barrier). */
static inline void coll_barrier(void) {
  gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
  GASNET_Safe(gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS));
}

static inline int op_rooted(int op) { return op == OP_BCAST || op == OP_SCATTER || op == OP_GATHER; }

/* Bytes of src / dst on a node that uses them, with n nodes. */
static inline size_t op_src_len(int op, size_t nbytes, gasnet_node_t n) {
  return (op == OP_SCATTER || op == OP_EXCHANGE) ? nbytes * n : nbytes;
}
static inline size_t op_dst_len(int op, size_t nbytes, gasnet_node_t n) {
  return (op == OP_GATHER || op == OP_GATHER_ALL || op == OP_EXCHANGE) ? nbytes * n : nbytes;
}
/* Does node use its src / dst argument? */
static inline int op_uses_src(int op, gasnet_node_t root, gasnet_node_t node) {
  return !((op == OP_BCAST || op == OP_SCATTER) && node != root);
}
static inline int op_uses_dst(int op, gasnet_node_t root, gasnet_node_t node) {
  return !(op == OP_GATHER && node != root);
}

/* Data patterns, 8 bytes per hash step (test.h's byte patterns are too
 * slow for the megabytes these tests move): byte j of pattern SEED is
 * byte j % 8 of coll_word(SEED, j / 8), so data shifted by any amount, or
 * taken from another block, mismatches. */
static inline uint64_t coll_word(uint32_t seed, uint64_t w) {
  uint64_t x = (w + 1) * 0x9e3779b97f4a7c15ull ^ ((uint64_t)seed << 32 | seed);
  x ^= x >> 29;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 32;
  return x;
}
static inline unsigned char coll_byte(uint32_t seed, size_t j) {
  uint64_t x = coll_word(seed, j / 8);
  unsigned char b[8];
  memcpy(b, &x, 8);
  return b[j % 8];
}
static inline void coll_fill(void *buf, size_t len, uint32_t seed) {
  unsigned char *p = (unsigned char *)buf;
  size_t i = 0;
  for (; i + 8 <= len; i += 8) {
    uint64_t x = coll_word(seed, i / 8);
    memcpy(p + i, &x, 8);
  }
  if (i < len) {
    uint64_t x = coll_word(seed, i / 8);
    memcpy(p + i, &x, len - i);
  }
}
/* Offset of the first byte of buf that differs from pattern seed, or -1. */
static inline long coll_mismatch(const void *buf, size_t len, uint32_t seed) {
  const unsigned char *p = (const unsigned char *)buf;
  size_t i = 0;
  for (; i + 8 <= len; i += 8) {
    uint64_t x = coll_word(seed, i / 8);
    if (memcmp(p + i, &x, 8)) break;
  }
  for (; i < len; i++)
    if (p[i] != coll_byte(seed, i)) return (long)i;
  return -1;
}

/* Block b of node owner's src in collective number it. */
static inline uint32_t coll_block_seed(uint32_t it, gasnet_node_t owner, uint32_t b) {
  return test_mix(test_mix(test_mix(0x5eed0c01u, it), owner), b);
}
/* Bytes that must not change (guards, unused buffers). */
static inline uint32_t coll_garbage_seed(uint32_t it, gasnet_node_t node, uint32_t which) {
  return test_mix(test_mix(0xbad0bad0u ^ which, it), node);
}
/* Block b of node's dst after collective number it. */
static inline uint32_t coll_dst_seed(int op, uint32_t it, gasnet_node_t root, gasnet_node_t node,
                                     uint32_t b) {
  switch (op) {
    case OP_BCAST: return coll_block_seed(it, root, 0);
    case OP_SCATTER: return coll_block_seed(it, root, node);
    case OP_GATHER:
    case OP_GATHER_ALL: return coll_block_seed(it, b, 0);
    default: return coll_block_seed(it, b, node);
  }
}

/* Fill node me's src (all its blocks) for collective it. */
static inline void coll_fill_src(int op, uint32_t it, size_t nbytes, gasnet_node_t n,
                                 gasnet_node_t me, unsigned char *src) {
  size_t blocks = op_src_len(op, nbytes, n) / nbytes;
  for (size_t b = 0; b < blocks; b++)
    coll_fill(src + b * nbytes, nbytes, coll_block_seed(it, me, (uint32_t)b));
}

/* First byte of dst (node me's, dst_len bytes) that differs from the
 * reference, or -1; *seed_p gets the seed of that byte's block. */
static inline long coll_dst_mismatch(int op, uint32_t it, size_t nbytes, gasnet_node_t root,
                                     gasnet_node_t n, gasnet_node_t me, const unsigned char *dst,
                                     uint32_t *seed_p) {
  size_t blocks = op_dst_len(op, nbytes, n) / nbytes;
  for (size_t b = 0; b < blocks; b++) {
    uint32_t seed = coll_dst_seed(op, it, root, me, (uint32_t)b);
    long bad = coll_mismatch(dst + b * nbytes, nbytes, seed);
    if (bad >= 0) {
      if (seed_p) *seed_p = seed;
      return (long)(b * nbytes) + bad;
    }
  }
  return -1;
}

/* Initiate op on team T: the blocking form (returns INVALID) or _nb. */
static inline gasnet_coll_handle_t coll_initiate_on(gasnet_team_handle_t T, int op, int blocking,
                                                    void *dst, void *src, gasnet_node_t root,
                                                    size_t nbytes, int flags) {
  gasnet_image_t r = (gasnet_image_t)root;
  if (blocking) {
    switch (op) {
      case OP_BCAST: gasnet_coll_broadcast(T, dst, r, src, nbytes, flags); break;
      case OP_SCATTER: gasnet_coll_scatter(T, dst, r, src, nbytes, flags); break;
      case OP_GATHER: gasnet_coll_gather(T, r, dst, src, nbytes, flags); break;
      case OP_GATHER_ALL: gasnet_coll_gather_all(T, dst, src, nbytes, flags); break;
      default: gasnet_coll_exchange(T, dst, src, nbytes, flags); break;
    }
    return GASNET_COLL_INVALID_HANDLE;
  }
  switch (op) {
    case OP_BCAST: return gasnet_coll_broadcast_nb(T, dst, r, src, nbytes, flags);
    case OP_SCATTER: return gasnet_coll_scatter_nb(T, dst, r, src, nbytes, flags);
    case OP_GATHER: return gasnet_coll_gather_nb(T, r, dst, src, nbytes, flags);
    case OP_GATHER_ALL: return gasnet_coll_gather_all_nb(T, dst, src, nbytes, flags);
    default: return gasnet_coll_exchange_nb(T, dst, src, nbytes, flags);
  }
}
static inline gasnet_coll_handle_t coll_initiate(int op, int blocking, void *dst, void *src,
                                                 gasnet_node_t root, size_t nbytes, int flags) {
  return coll_initiate_on(GASNET_TEAM_ALL, op, blocking, dst, src, root, nbytes, flags);
}

/* SINGLE addressing needs buffers at the same address on every node:
 * static storage is, in the forked processes of the smp conduit, but not
 * in separately started processes with address-space randomization.
 * coll_same_address_everywhere(p) tells (collective; every node passes
 * its own p); register coll_addr_handler at COLL_TEST_H_ADDR. */
#define COLL_TEST_H_ADDR TEST_HIDX_LAST
static uintptr_t coll_addr_mine;
static int coll_addr_differs;
static unsigned coll_addr_reports;
static inline void coll_addr_handler(gasnet_token_t token, gasnet_handlerarg_t hi,
                                     gasnet_handlerarg_t lo) {
  (void)token;
  uintptr_t a = (uintptr_t)(((uint64_t)(uint32_t)hi << 32) | (uint32_t)lo);
  if (a != __atomic_load_n(&coll_addr_mine, __ATOMIC_ACQUIRE))
    __atomic_store_n(&coll_addr_differs, 1, __ATOMIC_RELEASE);
  __atomic_fetch_add(&coll_addr_reports, 1, __ATOMIC_ACQ_REL);
}
static inline int coll_same_address_everywhere(const void *p) {
  uint64_t a = (uint64_t)(uintptr_t)p;
  __atomic_store_n(&coll_addr_mine, (uintptr_t)p, __ATOMIC_RELEASE);
  __atomic_store_n(&coll_addr_differs, 0, __ATOMIC_RELEASE);
  __atomic_store_n(&coll_addr_reports, 0, __ATOMIC_RELEASE);
  test_barrier(); /* everyone's coll_addr_mine is set */
  for (gasnet_node_t n = 0; n < TEST_NODES; n++)
    GASNET_Safe(gasnet_AMRequestShort2(n, COLL_TEST_H_ADDR,
                                       (gasnet_handlerarg_t)(uint32_t)(a >> 32),
                                       (gasnet_handlerarg_t)(uint32_t)a));
  GASNET_BLOCKUNTIL(__atomic_load_n(&coll_addr_reports, __ATOMIC_ACQUIRE) == TEST_NODES);
  test_barrier();
  /* Any two addresses differing: every node has seen one unlike its own. */
  return !__atomic_load_n(&coll_addr_differs, __ATOMIC_ACQUIRE);
}

static inline int coll_op_index(const char *name, size_t len) {
  for (int o = 0; o < OP_COUNT; o++)
    if (strlen(op_names[o]) == len && !strncmp(op_names[o], name, len)) return o;
  return -1;
}

/* "-a OP=ALG" before gasnet_init: force ALG for OP in the environment the
 * nodes inherit (gasnet_coll_init reads it). Returns 0 on a bad argument. */
static inline int coll_force_alg(const char *arg) {
  const char *eq = strchr(arg, '=');
  if (!eq) return 0;
  int op = coll_op_index(arg, (size_t)(eq - arg));
  if (op < 0) return 0;
  setenv(op_env[op], eq + 1, 1);
  return 1;
}

#endif
