/* gasnete_ops.c: handles. Per-thread state, the per-thread pools of
 * operations and value gets, access regions, and every sync call.
 *
 * Each thread owns a pool of gasnete_op_t: gasnet_*_nb and access regions
 * take one, the sync call that finds it complete gives it back. Since a
 * handle must be synced by the thread that made it, the pools need no
 * locks; only the counters inside an op are shared with reply handlers.
 * Implicit (nbi) operations count on the thread's own `implicit` op, or on
 * the open access region. */
#include "gasnete_internal.h"

#include <stdlib.h>

GASNETE_THREAD_LOCAL gasnete_threaddata_t *gasnete_mythread_;

/* Every thread's state stays reachable from here, so the pools of threads
 * that have exited are not leaks (and their handles stay valid). */
static gasnete_threaddata_t *gasnete_all_threads;
static pthread_mutex_t gasnete_threads_lock = PTHREAD_MUTEX_INITIALIZER;

#define GASNETE_OPS_PER_BLOCK 64

typedef struct gasnete_op_block_s {
  struct gasnete_op_block_s *next;
  gasnete_op_t ops[GASNETE_OPS_PER_BLOCK];
} gasnete_op_block_t;

static void *gasnete_malloc(size_t bytes, const char *what) {
  void *p = calloc(1, bytes);
  if (!p) gasneti_fatalerror("extended-ref: failed to allocate %zu bytes for %s", bytes, what);
  return p;
}

gasnete_threaddata_t *gasnete_threaddata_slow(void) {
  gasnete_threaddata_t *td = gasnete_malloc(sizeof(*td), "thread state");
  td->implicit.kind = GASNETE_OP_IMPLICIT;
  td->implicit.owner = td;
  gasnete_counter_init(&td->implicit.ctr[GASNETE_CTR_PUTS]);
  gasnete_counter_init(&td->implicit.ctr[GASNETE_CTR_GETS]);
  td->current = &td->implicit;
  pthread_mutex_lock(&gasnete_threads_lock);
  td->next_thread = gasnete_all_threads;
  gasnete_all_threads = td;
  pthread_mutex_unlock(&gasnete_threads_lock);
  gasnete_mythread_ = td;
  return td;
}

static void gasnete_op_grow(gasnete_threaddata_t *td) {
  gasnete_op_block_t *block = gasnete_malloc(sizeof(*block), "handles");
  block->next = td->blocks;
  td->blocks = block;
  for (int i = GASNETE_OPS_PER_BLOCK - 1; i >= 0; i--) {
    gasnete_op_t *op = &block->ops[i];
    op->kind = GASNETE_OP_FREE;
    op->owner = td;
    op->next = td->free_ops;
    td->free_ops = op;
  }
}

gasnete_op_t *gasnete_op_new(gasnete_threaddata_t *td, gasnete_op_kind_t kind) {
  if (!td->free_ops) gasnete_op_grow(td);
  gasnete_op_t *op = td->free_ops;
  td->free_ops = op->next;
  op->next = NULL;
  op->kind = (uint8_t)kind;
  gasnete_counter_init(&op->ctr[GASNETE_CTR_PUTS]);
  gasnete_counter_init(&op->ctr[GASNETE_CTR_GETS]);
  return op;
}

void gasnete_op_free(gasnete_op_t *op) {
  gasnete_threaddata_t *td = op->owner;
  op->kind = GASNETE_OP_FREE;
  op->next = td->free_ops;
  td->free_ops = op;
}

static inline int gasnete_op_done(gasnete_op_t *op) {
  return gasnete_counter_done(&op->ctr[GASNETE_CTR_PUTS]) &&
         gasnete_counter_done(&op->ctr[GASNETE_CTR_GETS]);
}

/* A handle passed to a sync call must be live; a dead one (synced before)
 * is caught here as long as its op has not been handed out again. */
static void gasnete_op_check(gasnete_op_t *op, const char *call) {
  if (op->kind != GASNETE_OP_EXPLICIT && op->kind != GASNETE_OP_REGION)
    gasneti_fatalerror("%s: handle %p is not a live handle (already synced?)", call, (void *)op);
#ifdef GASNET_DEBUG
  if (op->owner != gasnete_mythread_)
    gasneti_fatalerror("%s: handle %p was created by another thread; a handle must be synced "
                       "by the thread that created it",
                       call, (void *)op);
#endif
}

/* ------------------------------------------------------------ value gets */
gasnete_valget_t *gasnete_valget_new(gasnete_threaddata_t *td) {
  gasnete_valget_t *v = td->free_valgets;
  if (v)
    td->free_valgets = v->next;
  else
    v = gasnete_malloc(sizeof(*v), "value get handles");
  v->owner = td;
  v->next = NULL;
  v->live = 1;
  v->buf.reg = 0;
  return v;
}

void gasnete_valget_free(gasnete_valget_t *v) {
  gasnete_threaddata_t *td = v->owner;
  v->live = 0;
  v->next = td->free_valgets;
  td->free_valgets = v;
}

/* ------------------------------------------------------------ explicit handles
 * Each sync call is one event of category S, named after it
 * (gasneti_event_start / _waited / _tried / _mark, gasnet_hooks.h). */
/* The try calls poll once when the work is not yet done; their _nopoll
 * forms (for clients that poll elsewhere, e.g. from a progress thread) only
 * look. */
static int gasnete_try_one(gasnet_handle_t handle, int poll, const char *call) {
  if (handle == GASNET_INVALID_HANDLE) return GASNET_OK;
  gasnete_op_check(handle, call);
  if (!gasnete_op_done(handle)) {
    if (poll) gasnet_AMPoll();
    if (!gasnete_op_done(handle)) return GASNET_ERR_NOT_READY;
  }
  gasnete_op_free(handle);
  return GASNET_OK;
}

int gasnete_try_syncnb(gasnet_handle_t handle) {
  static const char call[] = "gasnet_try_syncnb";
  int rc = gasnete_try_one(handle, 1, call);
  return gasneti_event_tried('S', call, rc);
}

int gasnete_try_syncnb_nopoll(gasnet_handle_t handle) {
  static const char call[] = "gasnet_try_syncnb_nopoll";
  int rc = gasnete_try_one(handle, 0, call);
  return gasneti_event_tried('S', call, rc);
}

void gasnete_wait_syncnb(gasnet_handle_t handle) {
  static const char call[] = "gasnet_wait_syncnb";
  int64_t t0 = gasneti_event_start('S');
  if (handle != GASNET_INVALID_HANDLE) {
    gasnete_op_check(handle, call);
    unsigned spins = 0;
    while (!gasnete_op_done(handle)) gasneti_wait_step(&spins);
    gasnete_op_free(handle);
  }
  gasneti_event_waited('S', call, t0);
}

static void gasnete_check_handles(gasnet_handle_t *phandle, size_t numhandles, const char *call) {
  if (!phandle && numhandles)
    gasneti_fatalerror("%s: phandle is NULL with numhandles %zu", call, numhandles);
}

/* Frees the complete handles of the array (setting them to
 * GASNET_INVALID_HANDLE); counts those freed and those still pending. */
static void gasnete_sweep(gasnet_handle_t *phandle, size_t numhandles, const char *call,
                          size_t *freed_p, size_t *pending_p) {
  size_t freed = 0, pending = 0;
  for (size_t i = 0; i < numhandles; i++) {
    gasnete_op_t *op = phandle[i];
    if (op == GASNET_INVALID_HANDLE) continue;
    gasnete_op_check(op, call);
    if (gasnete_op_done(op)) {
      gasnete_op_free(op);
      phandle[i] = GASNET_INVALID_HANDLE;
      freed++;
    } else {
      pending++;
    }
  }
  *freed_p = freed;
  *pending_p = pending;
}

/* OK when at least one handle completed, or when none was live. */
static int gasnete_some_done(gasnet_handle_t *phandle, size_t numhandles, const char *call) {
  size_t freed, pending;
  gasnete_sweep(phandle, numhandles, call, &freed, &pending);
  return (freed || !pending) ? GASNET_OK : GASNET_ERR_NOT_READY;
}

static int gasnete_all_done(gasnet_handle_t *phandle, size_t numhandles, const char *call) {
  size_t freed, pending;
  gasnete_sweep(phandle, numhandles, call, &freed, &pending);
  return pending ? GASNET_ERR_NOT_READY : GASNET_OK;
}

int gasnete_try_syncnb_some(gasnet_handle_t *phandle, size_t numhandles) {
  static const char call[] = "gasnet_try_syncnb_some";
  gasnete_check_handles(phandle, numhandles, call);
  gasnet_AMPoll();
  int rc = gasnete_some_done(phandle, numhandles, call);
  return gasneti_event_tried('S', call, rc);
}

int gasnete_try_syncnb_some_nopoll(gasnet_handle_t *phandle, size_t numhandles) {
  static const char call[] = "gasnet_try_syncnb_some_nopoll";
  gasnete_check_handles(phandle, numhandles, call);
  int rc = gasnete_some_done(phandle, numhandles, call);
  return gasneti_event_tried('S', call, rc);
}

void gasnete_wait_syncnb_some(gasnet_handle_t *phandle, size_t numhandles) {
  static const char call[] = "gasnet_wait_syncnb_some";
  int64_t t0 = gasneti_event_start('S');
  gasnete_check_handles(phandle, numhandles, call);
  unsigned spins = 0;
  while (gasnete_some_done(phandle, numhandles, call) != GASNET_OK) gasneti_wait_step(&spins);
  gasneti_event_waited('S', call, t0);
}

int gasnete_try_syncnb_all(gasnet_handle_t *phandle, size_t numhandles) {
  static const char call[] = "gasnet_try_syncnb_all";
  gasnete_check_handles(phandle, numhandles, call);
  gasnet_AMPoll();
  int rc = gasnete_all_done(phandle, numhandles, call);
  return gasneti_event_tried('S', call, rc);
}

int gasnete_try_syncnb_all_nopoll(gasnet_handle_t *phandle, size_t numhandles) {
  static const char call[] = "gasnet_try_syncnb_all_nopoll";
  gasnete_check_handles(phandle, numhandles, call);
  int rc = gasnete_all_done(phandle, numhandles, call);
  return gasneti_event_tried('S', call, rc);
}

void gasnete_wait_syncnb_all(gasnet_handle_t *phandle, size_t numhandles) {
  static const char call[] = "gasnet_wait_syncnb_all";
  int64_t t0 = gasneti_event_start('S');
  gasnete_check_handles(phandle, numhandles, call);
  unsigned spins = 0;
  while (gasnete_all_done(phandle, numhandles, call) != GASNET_OK) gasneti_wait_step(&spins);
  gasneti_event_waited('S', call, t0);
}

/* ------------------------------------------------------------ implicit handles */
static int gasnete_nbi_done(gasnete_threaddata_t *td, int which) {
  if ((which & GASNETE_SYNC_PUTS) && !gasnete_counter_done(&td->implicit.ctr[GASNETE_CTR_PUTS]))
    return 0;
  if ((which & GASNETE_SYNC_GETS) && !gasnete_counter_done(&td->implicit.ctr[GASNETE_CTR_GETS]))
    return 0;
  return 1;
}

static gasnete_threaddata_t *gasnete_nbi_sync_thread(const char *call) {
  gasnete_threaddata_t *td = gasnete_mythread();
  if (td->current != &td->implicit)
    gasneti_fatalerror("%s: called inside an access region (end it with "
                       "gasnet_end_nbi_accessregion first)",
                       call);
  return td;
}

static int gasnete_try_syncnbi_now(int which, const char *call) {
  gasnete_threaddata_t *td = gasnete_nbi_sync_thread(call);
  if (gasnete_nbi_done(td, which)) return GASNET_OK;
  gasnet_AMPoll();
  return gasnete_nbi_done(td, which) ? GASNET_OK : GASNET_ERR_NOT_READY;
}

int gasnete_try_syncnbi(int which, const char *call) {
  int rc = gasnete_try_syncnbi_now(which, call);
  return gasneti_event_tried('S', call, rc);
}

void gasnete_wait_syncnbi(int which, const char *call) {
  int64_t t0 = gasneti_event_start('S');
  gasnete_threaddata_t *td = gasnete_nbi_sync_thread(call);
  unsigned spins = 0;
  while (!gasnete_nbi_done(td, which)) gasneti_wait_step(&spins);
  gasneti_event_waited('S', call, t0);
}

/* ------------------------------------------------------------ access regions */
void gasnete_begin_nbi_accessregion(void) {
  gasnete_threaddata_t *td = gasnete_mythread();
  if (td->current != &td->implicit)
    gasneti_fatalerror("gasnet_begin_nbi_accessregion: an access region is already open "
                       "(regions do not nest)");
  td->current = gasnete_op_new(td, GASNETE_OP_REGION);
  gasneti_event_mark('S', "gasnet_begin_nbi_accessregion");
}

gasnet_handle_t gasnete_end_nbi_accessregion(void) {
  gasnete_threaddata_t *td = gasnete_mythread();
  if (td->current == &td->implicit)
    gasneti_fatalerror("gasnet_end_nbi_accessregion: no access region is open");
  gasnete_op_t *region = td->current;
  td->current = &td->implicit;
  gasneti_event_mark('S', "gasnet_end_nbi_accessregion");
  return region;
}
