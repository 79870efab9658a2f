/* reduce_apply.h: calling the client's reduction functions on behalf of
 * reduce and scan.
 *
 * The algorithms combine elements of elem_size bytes. In a layout call a
 * registered function f takes left operands L[0..l-1] and right operands
 * R[0..n-1] and writes results[i] = L[0] op .. op L[l-1] op R[0] op .. op
 * R[i]: one signature for reductions (n == 1) and prefix reductions. The
 * helpers below only ever pass operands in array order, so a
 * non-commutative function sees its elements in order; they never let
 * results alias an operand, which the spec does not promise clients.
 *
 * In an element-wise call (vec_count > 0) an element is a vector of
 * vec_count client elements, one per image, and two vectors combine
 * element by element as GASNet 1.x combines them: f(acc, v, acc, v,
 * right, ...) with the result in place, acc the vector of the images
 * before right's (so results is left and result_count is left_count,
 * which clients check). */
#ifndef COLL_REDUCE_APPLY_H
#define COLL_REDUCE_APPLY_H

#include "ops/reduce_builtin.h"

typedef struct {
  gasnet_coll_reduce_fn_t fnptr;
  gasnete_coll_fold_t fold; /* a built-in's typed loop for this call, or NULL */
  gasnete_coll_zip_t zip;   /* its element-wise loop, or NULL */
  unsigned flags; /* as registered: GASNET_COLL_AMSAFE, GASNET_COLL_NONCOMM */
  int arg;        /* func_arg of the call */
  size_t elem_size; /* of the elements the algorithms move */
  size_t vec_count; /* element-wise: client elements per element; 0: a layout call */
  void *scratch;  /* one element, for combining in place */
  int owns_scratch;
} gasnete_coll_apply_t;

extern gasnet_coll_fn_entry_t *gasnete_coll_fn_table;
extern gasnete_coll_builtin_t *gasnete_coll_fn_builtins;

/* For the call's reduce arguments, with the caller's scratch element (kept
 * by the caller; NULL when only built-ins will combine in place). A
 * built-in function is checked against func_arg and the client's element
 * size here (a mismatch ends the job, naming the function) and then
 * applied through its typed loops. */
static inline void gasnete_coll_apply_init_in(gasnete_coll_apply_t *fn,
                                              const gasnete_coll_reduce_args_t *r, void *scratch) {
  gasnete_coll_builtin_t b = gasnete_coll_fn_builtins[r->func];
  size_t client_size = r->vec_count ? r->elem_size / r->vec_count : r->elem_size;
  gasnete_coll_builtin_loops_t loops = {NULL, NULL};
  if (b != GASNETE_COLL_NOT_BUILTIN) loops = gasnete_coll_builtin_loops(b, r->func_arg, client_size);
  fn->fnptr = gasnete_coll_fn_table[r->func].fnptr;
  fn->fold = loops.fold;
  fn->zip = loops.zip;
  fn->flags = gasnete_coll_fn_table[r->func].flags;
  fn->arg = r->func_arg;
  fn->elem_size = r->elem_size;
  fn->vec_count = r->vec_count;
  fn->scratch = scratch;
  fn->owns_scratch = 0;
}
/* The same with a scratch element of its own. */
extern void gasnete_coll_apply_init(gasnete_coll_apply_t *fn, const gasnete_coll_reduce_args_t *r);
extern void gasnete_coll_apply_free(gasnete_coll_apply_t *fn);

static inline int gasnete_coll_apply_noncomm(const gasnete_coll_apply_t *fn) {
  return (fn->flags & GASNET_COLL_NONCOMM) != 0;
}

/* May the function run here and now? A function registered without
 * AMSAFE runs only on an application thread outside handler context
 * (inside a poll or sync call), never on the library's progress thread;
 * progress functions that need it return "not yet" otherwise and run it
 * on the next poll. */
static inline int gasnete_coll_apply_may_run(const gasnete_coll_apply_t *fn) {
  return (fn->flags & GASNET_COLL_AMSAFE) ||
         (!gasneti_in_handler() && !gasnete_coll_on_progress_thread());
}

/* out = elems[0] op .. op elems[n-1] (n >= 1; out must not overlap elems). */
extern void gasnete_coll_apply_reduce(const gasnete_coll_apply_t *fn, void *out, const void *elems,
                                      size_t n);
/* acc = acc op right. */
extern void gasnete_coll_apply_accumulate(const gasnete_coll_apply_t *fn, void *acc,
                                          const void *right);
/* acc = left op acc (left comes first in the array). */
extern void gasnete_coll_apply_prepend(const gasnete_coll_apply_t *fn, void *acc,
                                       const void *left);
/* out[i] = carry op elems[0] op .. op elems[i] for i < n; carry may be NULL
 * (nothing to the left). out must not overlap elems. */
extern void gasnete_coll_apply_prefix(const gasnete_coll_apply_t *fn, void *out, const void *carry,
                                      const void *elems, size_t n);

/* The index check every reduce and scan call makes. */
extern void gasnete_coll_check_fn(gasnet_coll_fn_handle_t func, const char *call);

#endif
