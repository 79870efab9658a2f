/* coll_handle.c: collective handles and the sync calls. A handle counts
 * the ops it waits for (one, or every member of an aggregate); it belongs
 * to the thread that initiated it. Handles are recycled through a
 * per-thread free list, except in debug builds, where a synced handle is
 * kept dead so that syncing it again is caught. */
#include "engine/engine.h"

#include <stdlib.h>

#ifdef GASNETE_COLL_THREADS
static __thread gasnete_coll_handle_t *gasnete_coll_free_handles;
#else
static gasnete_coll_handle_t *gasnete_coll_free_handles;
#endif

gasnete_coll_handle_t *gasnete_coll_handle_new(void) {
  gasnete_coll_handle_t *h = gasnete_coll_free_handles;
  if (h)
    gasnete_coll_free_handles = h->next_free;
  else
    h = gasnete_coll_malloc(sizeof(*h));
  h->pending = 0;
  h->magic = GASNETE_COLL_HANDLE_LIVE;
  h->next_free = NULL;
  return h;
}

void gasnete_coll_handle_op_done(gasnete_coll_handle_t *handle) {
  gasnete_coll_count_add(&handle->pending, (size_t)-1);
}

static void gasnete_coll_handle_free(gasnete_coll_handle_t *h) {
  h->magic = GASNETE_COLL_HANDLE_DEAD;
#ifndef GASNET_DEBUG
  h->next_free = gasnete_coll_free_handles;
  gasnete_coll_free_handles = h;
#endif
}

static void gasnete_coll_check_sync_call(const char *call) {
  if (!gasnete_coll_initialized) gasnete_coll_fatal_misuse(call, "called before gasnet_coll_init");
  if (gasneti_in_handler()) gasnete_coll_fatal_misuse(call, "called from inside an AM handler");
}

static void gasnete_coll_check_handle(const gasnete_coll_handle_t *h, const char *call) {
  if (h->magic == GASNETE_COLL_HANDLE_DEAD)
    gasneti_fatalerror("%s: handle %p was already synced (a dead handle)", call, (const void *)h);
  if (h->magic != GASNETE_COLL_HANDLE_LIVE)
    gasneti_fatalerror("%s: handle %p is not a collective handle", call, (const void *)h);
}

/* Done? Then the handle dies. No polling here. */
static int gasnete_coll_handle_reap(gasnete_coll_handle_t *h, const char *call) {
  gasnete_coll_check_handle(h, call);
  if (__atomic_load_n(&h->pending, __ATOMIC_ACQUIRE) > 0) return 0;
  gasnete_coll_handle_free(h);
  return 1;
}

/* ------------------------------------------------------------ the sync calls
 * Each is one event of category X, named after it: a wait with how long it
 * waited, a try with its answer (gasneti_event_*, gasnet_hooks.h). */
int gasnet_coll_try_sync(gasnet_coll_handle_t handle) {
  static const char call[] = "gasnet_coll_try_sync";
  gasnete_coll_check_sync_call(call);
  if (handle == GASNET_COLL_INVALID_HANDLE) return gasneti_event_tried('X', call, GASNET_OK);
  gasnet_AMPoll();
  return gasneti_event_tried('X',
      call, gasnete_coll_handle_reap(handle, call) ? GASNET_OK : GASNET_ERR_NOT_READY);
}

void gasnet_coll_wait_sync(gasnet_coll_handle_t handle) {
  static const char call[] = "gasnet_coll_wait_sync";
  int64_t t0 = gasneti_event_start('X');
  gasnete_coll_check_sync_call(call);
  if (handle != GASNET_COLL_INVALID_HANDLE) {
    unsigned spins = 0;
    while (!gasnete_coll_handle_reap(handle, call)) gasneti_wait_step(&spins);
  }
  gasneti_event_waited('X', call, t0);
}

/* Reap every complete handle of the list; returns how many remain live. */
static size_t gasnete_coll_reap_list(gasnet_coll_handle_t *handles, size_t n, size_t *done_p,
                                     const char *call) {
  size_t live = 0, done = 0;
  for (size_t i = 0; i < n; i++) {
    if (handles[i] == GASNET_COLL_INVALID_HANDLE) continue;
    if (gasnete_coll_handle_reap(handles[i], call)) {
      handles[i] = GASNET_COLL_INVALID_HANDLE;
      done++;
    } else {
      live++;
    }
  }
  if (done_p) *done_p = done;
  return live;
}

static void gasnete_coll_check_list(const gasnet_coll_handle_t *handles, size_t n, const char *call) {
  if (n && !handles) gasneti_fatalerror("%s: handles is NULL with numhandles %zu", call, n);
}

int gasnet_coll_try_sync_all(gasnet_coll_handle_t *handles, size_t numhandles) {
  static const char call[] = "gasnet_coll_try_sync_all";
  gasnete_coll_check_sync_call(call);
  gasnete_coll_check_list(handles, numhandles, call);
  gasnet_AMPoll();
  return gasneti_event_tried('X',
      call, gasnete_coll_reap_list(handles, numhandles, NULL, call) ? GASNET_ERR_NOT_READY : GASNET_OK);
}

void gasnet_coll_wait_sync_all(gasnet_coll_handle_t *handles, size_t numhandles) {
  static const char call[] = "gasnet_coll_wait_sync_all";
  int64_t t0 = gasneti_event_start('X');
  gasnete_coll_check_sync_call(call);
  gasnete_coll_check_list(handles, numhandles, call);
  /* One handle at a time, in order: each is looked at until it is done
   * and then never again, so the wait costs O(handles) plus the polls,
   * not a walk of the whole list per poll. */
  gasnete_coll_reap_list(handles, numhandles, NULL, call); /* checks every handle first */
  for (size_t i = 0; i < numhandles; i++) {
    unsigned spins = 0;
    while (handles[i] != GASNET_COLL_INVALID_HANDLE) {
      if (gasnete_coll_handle_reap(handles[i], call))
        handles[i] = GASNET_COLL_INVALID_HANDLE;
      else
        gasneti_wait_step(&spins);
    }
  }
  gasneti_event_waited('X', call, t0);
}

/* Success when at least one handle completed in this call, or when none
 * was live to begin with. */
int gasnet_coll_try_sync_some(gasnet_coll_handle_t *handles, size_t numhandles) {
  static const char call[] = "gasnet_coll_try_sync_some";
  gasnete_coll_check_sync_call(call);
  gasnete_coll_check_list(handles, numhandles, call);
  gasnet_AMPoll();
  size_t done;
  size_t live = gasnete_coll_reap_list(handles, numhandles, &done, call);
  return gasneti_event_tried('X', call, (done > 0 || live == 0) ? GASNET_OK : GASNET_ERR_NOT_READY);
}

void gasnet_coll_wait_sync_some(gasnet_coll_handle_t *handles, size_t numhandles) {
  static const char call[] = "gasnet_coll_wait_sync_some";
  int64_t t0 = gasneti_event_start('X');
  gasnete_coll_check_sync_call(call);
  gasnete_coll_check_list(handles, numhandles, call);
  unsigned spins = 0;
  size_t done;
  while (gasnete_coll_reap_list(handles, numhandles, &done, call) && !done)
    gasneti_wait_step(&spins);
  gasneti_event_waited('X', call, t0);
}
