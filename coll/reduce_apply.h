/* reduce_apply.h: calling the client's reduction functions on behalf of
 * reduce and scan.
 *
 * A registered function f takes left operands L[0..l-1] and right operands
 * R[0..n-1] and writes results[i] = L[0] op .. op L[l-1] op R[0] op .. op
 * R[i]: one signature for reductions (n == 1) and prefix reductions. The
 * helpers below only ever pass operands in array order, so a
 * non-commutative function sees its elements in order; they never let
 * results alias an operand, which the spec does not promise clients. */
#ifndef COLL_REDUCE_APPLY_H
#define COLL_REDUCE_APPLY_H

#include "reduce_builtin.h"

typedef struct {
  gasnet_coll_reduce_fn_t fnptr;
  gasnete_coll_fold_t fold; /* a built-in's typed loop for this call, or NULL */
  unsigned flags; /* as registered: GASNET_COLL_AMSAFE, GASNET_COLL_NONCOMM */
  int arg;        /* func_arg of the call */
  size_t elem_size;
  void *scratch; /* one element, for combining in place */
  int owns_scratch;
} gasnete_coll_apply_t;

/* A built-in function is checked against arg and elem_size here (a
 * mismatch ends the job, naming the function) and then applied through its
 * typed loop. */
extern void gasnete_coll_apply_init(gasnete_coll_apply_t *fn, gasnet_coll_fn_handle_t func, int arg,
                                    size_t elem_size);
/* The same with the caller's scratch element (kept by the caller). */
extern gasnet_coll_fn_entry_t *gasnete_coll_fn_table;
extern gasnete_coll_builtin_t *gasnete_coll_fn_builtins;
static inline void gasnete_coll_apply_init_in(gasnete_coll_apply_t *fn,
                                              gasnet_coll_fn_handle_t func, int arg,
                                              size_t elem_size, void *scratch) {
  gasnete_coll_builtin_t b = gasnete_coll_fn_builtins[func];
  fn->fnptr = gasnete_coll_fn_table[func].fnptr;
  fn->fold = b == GASNETE_COLL_NOT_BUILTIN ? NULL : gasnete_coll_builtin_fold(b, arg, elem_size);
  fn->flags = gasnete_coll_fn_table[func].flags;
  fn->arg = arg;
  fn->elem_size = elem_size;
  fn->scratch = scratch;
  fn->owns_scratch = 0;
}
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
