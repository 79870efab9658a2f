/* gasnete_internal.h: what the files of extended-ref share. extended-ref is
 * written only on the public core API (gasnet.h), the named hooks
 * (gasnet_hooks.h) and the tools; it never includes a core or conduit
 * internal header. */
#ifndef GASNETE_INTERNAL_H
#define GASNETE_INTERNAL_H

#include <gasnet.h>
#include <gasnet_hooks.h>

#include "gasnet_extended_conduit.h"

#include <pthread.h>

#if defined(GASNET_PAR) || defined(GASNET_PARSYNC)
#define GASNETE_THREADS 1
#define GASNETE_THREAD_LOCAL __thread
#else
#define GASNETE_THREAD_LOCAL
#endif

#define GASNETE_CONSTRUCTOR __attribute__((constructor))

/* ------------------------------------------------------------ handler indices
 * extended-ref owns 64..99 (gasnet_hooks.h). */
enum {
  GASNETE_H_PUT_MEDIUM = 64, /* Medium request: payload to copy; reply DONE */
  GASNETE_H_PUT_LONG,        /* Long request: payload already in place; reply DONE */
  GASNETE_H_GET_MEDIUM,      /* Short request: reply GET_MEDIUM_REPLY with the data */
  GASNETE_H_GET_LONG,        /* Short request: reply GET_LONG_REPLY into the segment */
  GASNETE_H_GET_MEDIUM_REPLY,
  GASNETE_H_GET_LONG_REPLY,
  GASNETE_H_MEMSET,          /* Short request; reply DONE */
  GASNETE_H_DONE,            /* Short reply: count one completion */
  GASNETE_H_AMDISSEM_NOTIFY = 80,
  GASNETE_H_AMCENTRAL_NOTIFY,
  GASNETE_H_AMCENTRAL_DONE
};

/* ------------------------------------------------------------ 64-bit values in handler args */
static inline gasnet_handlerarg_t gasnete_hi(uint64_t v) {
  return (gasnet_handlerarg_t)(uint32_t)(v >> 32);
}
static inline gasnet_handlerarg_t gasnete_lo(uint64_t v) { return (gasnet_handlerarg_t)(uint32_t)v; }
static inline uint64_t gasnete_u64(gasnet_handlerarg_t hi, gasnet_handlerarg_t lo) {
  return ((uint64_t)(uint32_t)hi << 32) | (uint32_t)lo;
}
static inline void *gasnete_ptr(gasnet_handlerarg_t hi, gasnet_handlerarg_t lo) {
  return (void *)(uintptr_t)gasnete_u64(hi, lo);
}
static inline gasnet_handlerarg_t gasnete_phi(const void *p) {
  return gasnete_hi((uint64_t)(uintptr_t)p);
}
static inline gasnet_handlerarg_t gasnete_plo(const void *p) {
  return gasnete_lo((uint64_t)(uintptr_t)p);
}

/* ------------------------------------------------------------ locks
 * Handlers may run on any thread of a PAR process; SEQ needs no locks. */
#ifdef GASNETE_THREADS
typedef pthread_mutex_t gasnete_lock_t;
#define GASNETE_LOCK_INITIALIZER PTHREAD_MUTEX_INITIALIZER
static inline void gasnete_lock(gasnete_lock_t *l) { pthread_mutex_lock(l); }
static inline void gasnete_unlock(gasnete_lock_t *l) { pthread_mutex_unlock(l); }
#else
typedef int gasnete_lock_t;
#define GASNETE_LOCK_INITIALIZER 0
static inline void gasnete_lock(gasnete_lock_t *l) { (void)l; }
static inline void gasnete_unlock(gasnete_lock_t *l) { (void)l; }
#endif

/* ------------------------------------------------------------ completion counters
 * The initiating thread counts the messages it sends and the conduit
 * transfers it starts (initiated, private to it); the DONE reply handler
 * and the conduit count completions (completed, atomic, on whatever thread
 * polls). The address of `completed` travels in two handler
 * args. Equal counts mean everything initiated has completed; unsigned
 * wrap-around keeps that true forever. */
typedef struct {
  uint32_t initiated;
  gasnete_done_t completed; /* atomic; a conduit's deferred transfers signal it too */
} gasnete_counter_t;

static inline void gasnete_counter_init(gasnete_counter_t *c) {
  c->initiated = 0;
  __atomic_store_n(&c->completed, 0, __ATOMIC_RELAXED);
}
static inline int gasnete_counter_done(gasnete_counter_t *c) {
  return __atomic_load_n(&c->completed, __ATOMIC_ACQUIRE) == c->initiated;
}
static inline void gasnete_counter_complete(uint32_t *completed) {
  __atomic_add_fetch(completed, 1, __ATOMIC_RELEASE);
}

/* ------------------------------------------------------------ operations
 * Every handle points at a gasnete_op_t from its thread's pool: an explicit
 * operation or an access region. Explicit operations count on ctr[PUTS]
 * only; access regions (and each thread's implicit operations) count puts
 * and gets apart, as the nbi sync calls need. */
#define GASNETE_CTR_PUTS 0
#define GASNETE_CTR_GETS 1

typedef enum {
  GASNETE_OP_FREE = 0,
  GASNETE_OP_EXPLICIT,
  GASNETE_OP_REGION,
  GASNETE_OP_IMPLICIT /* the per-thread implicit op, never freed */
} gasnete_op_kind_t;

struct gasnete_threaddata_s;

struct gasnete_op_s {
  uint8_t kind; /* gasnete_op_kind_t */
  struct gasnete_threaddata_s *owner;
  struct gasnete_op_s *next; /* free list */
  gasnete_counter_t ctr[2];
};
typedef struct gasnete_op_s gasnete_op_t;

/* A value get: its buffer and the get that fills it. */
struct gasnete_valget_s {
  uint8_t live;
  struct gasnete_threaddata_s *owner;
  struct gasnete_valget_s *next; /* free list */
  gasnet_handle_t handle;
  size_t nbytes;
  union {
    gasnet_register_value_t reg;
    uint8_t bytes[sizeof(gasnet_register_value_t)];
  } buf;
};
typedef struct gasnete_valget_s gasnete_valget_t;

typedef struct gasnete_threaddata_s {
  gasnete_op_t *free_ops;
  gasnete_valget_t *free_valgets;
  gasnete_op_t implicit;    /* nbi operations outside any access region */
  gasnete_op_t *current;    /* &implicit, or the open access region */
  void *blocks;             /* allocated pool blocks (kept reachable) */
  struct gasnete_threaddata_s *next_thread;
} gasnete_threaddata_t;

/* gasnete_ops.c */
extern gasnete_threaddata_t *gasnete_threaddata_slow(void);
extern GASNETE_THREAD_LOCAL gasnete_threaddata_t *gasnete_mythread_;
static inline gasnete_threaddata_t *gasnete_mythread(void) {
  gasnete_threaddata_t *td = gasnete_mythread_;
  return td ? td : gasnete_threaddata_slow();
}
extern gasnete_op_t *gasnete_op_new(gasnete_threaddata_t *td, gasnete_op_kind_t kind);
/* Back to its owner's pool (the owner's thread only). */
extern void gasnete_op_free(gasnete_op_t *op);
extern gasnete_valget_t *gasnete_valget_new(gasnete_threaddata_t *td);
extern void gasnete_valget_free(gasnete_valget_t *v);

/* ------------------------------------------------------------ AM protocols (gasnete_amputget.c)
 * Each sends the messages of one transfer and counts them on ctr; the
 * transfer is complete when gasnete_counter_done(ctr). Arguments are
 * already checked. */
extern void gasnete_am_put(gasnet_node_t node, void *dest, void *src, size_t nbytes,
                           gasnete_counter_t *ctr, int bulk);
extern void gasnete_am_get(void *dest, gasnet_node_t node, void *src, size_t nbytes,
                           gasnete_counter_t *ctr);
extern void gasnete_am_memset(gasnet_node_t node, void *dest, int val, size_t nbytes,
                              gasnete_counter_t *ctr);

/* ------------------------------------------------------------ job state (gasnete_putget.c) */
extern gasnet_node_t gasnete_mynode;
extern gasnet_node_t gasnete_nodes;
/* Every node's segment, NULL before attach. */
extern gasnet_seginfo_t *gasnete_seginfo;

/* ------------------------------------------------------------ barriers */
extern const gasnete_barrier_impl_t gasnete_barrier_amdissem;
extern const gasnete_barrier_impl_t gasnete_barrier_amcentral;

#endif
