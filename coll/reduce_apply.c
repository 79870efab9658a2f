/* reduce_apply.c: see reduce_apply.h. */
#include "reduce_apply.h"

#include <stdlib.h>

extern size_t gasnete_coll_fn_count;

void gasnete_coll_check_fn(gasnet_coll_fn_handle_t func, const char *call) {
  if (func >= gasnete_coll_fn_count)
    gasneti_fatalerror("%s: func %u is not an index of the function table given to "
                       "gasnet_coll_init (it has %zu entries)",
                       call, (unsigned)func, gasnete_coll_fn_count);
  if (!gasnete_coll_fn_table[func].fnptr)
    gasneti_fatalerror("%s: func %u: entry %u of the function table has a NULL fnptr", call,
                       (unsigned)func, (unsigned)func);
}

void gasnete_coll_apply_init(gasnete_coll_apply_t *fn, gasnet_coll_fn_handle_t func, int arg,
                             size_t elem_size) {
  gasnete_coll_apply_init_in(fn, func, arg, elem_size, gasnete_coll_malloc(elem_size));
  fn->owns_scratch = 1;
}

void gasnete_coll_apply_free(gasnete_coll_apply_t *fn) {
  if (fn->owns_scratch) free(fn->scratch);
  fn->scratch = NULL;
}

static inline void gasnete_coll_apply_call(const gasnete_coll_apply_t *fn, void *results,
                                           size_t result_count, const void *left, size_t left_count,
                                           const void *right) {
  if (fn->fold)
    fn->fold(results, result_count, left, left_count, right);
  else
    fn->fnptr(results, result_count, left, left_count, right, fn->elem_size, (int)fn->flags,
              fn->arg);
}

void gasnete_coll_apply_reduce(const gasnete_coll_apply_t *fn, void *out, const void *elems,
                               size_t n) {
  if (n == 1) {
    memcpy(out, elems, fn->elem_size);
    return;
  }
  /* Every element but the last on the left, the last on the right: one
   * call, so the client's loop runs over the whole run. */
  gasnete_coll_apply_call(fn, out, 1, elems, n - 1, (const char *)elems + (n - 1) * fn->elem_size);
}

/* A client's function may not write results over its operands; a
 * built-in's typed loop may (it reads both before it writes). */
void gasnete_coll_apply_accumulate(const gasnete_coll_apply_t *fn, void *acc, const void *right) {
  if (fn->fold) {
    fn->fold(acc, 1, acc, 1, right);
    return;
  }
  gasnete_coll_apply_call(fn, fn->scratch, 1, acc, 1, right);
  memcpy(acc, fn->scratch, fn->elem_size);
}

void gasnete_coll_apply_prepend(const gasnete_coll_apply_t *fn, void *acc, const void *left) {
  if (fn->fold) {
    fn->fold(acc, 1, left, 1, acc);
    return;
  }
  gasnete_coll_apply_call(fn, fn->scratch, 1, left, 1, acc);
  memcpy(acc, fn->scratch, fn->elem_size);
}

void gasnete_coll_apply_prefix(const gasnete_coll_apply_t *fn, void *out, const void *carry,
                               const void *elems, size_t n) {
  gasnete_coll_apply_call(fn, out, n, carry, carry ? 1 : 0, elems);
}
