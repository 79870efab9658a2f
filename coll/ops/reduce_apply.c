/* reduce_apply.c: see reduce_apply.h. */
#include "ops/ops.h"
#include "ops/reduce_apply.h"

#include <stdlib.h>

/* The client's reduction functions, by index (reduce and scan use them),
 * and which entries are built-in functions, found once (applied through
 * their typed loops). */
gasnet_coll_fn_entry_t *gasnete_coll_fn_table;
static size_t gasnete_coll_fn_count;
gasnete_coll_builtin_t *gasnete_coll_fn_builtins;

void gasnete_coll_fn_register(const gasnet_coll_fn_entry_t fn_tbl[], size_t fn_count) {
  gasnete_coll_fn_table = gasnete_coll_calloc(fn_count, sizeof(*fn_tbl));
  if (fn_count) memcpy(gasnete_coll_fn_table, fn_tbl, fn_count * sizeof(*fn_tbl));
  gasnete_coll_fn_count = fn_count;
  gasnete_coll_fn_builtins = gasnete_coll_calloc(fn_count, sizeof(*gasnete_coll_fn_builtins));
  for (size_t i = 0; i < fn_count; i++)
    gasnete_coll_fn_builtins[i] = gasnete_coll_builtin_of(fn_tbl[i].fnptr);
}

void gasnete_coll_check_fn(gasnet_coll_fn_handle_t func, const char *call) {
  if (func >= gasnete_coll_fn_count)
    gasneti_fatalerror("%s: func %u is not an index of the function table given to "
                       "gasnet_coll_init (it has %zu entries)",
                       call, (unsigned)func, gasnete_coll_fn_count);
  if (!gasnete_coll_fn_table[func].fnptr)
    gasneti_fatalerror("%s: func %u: entry %u of the function table has a NULL fnptr", call,
                       (unsigned)func, (unsigned)func);
}

void gasnete_coll_apply_init(gasnete_coll_apply_t *fn, const gasnete_coll_reduce_args_t *r) {
  gasnete_coll_apply_init_in(fn, r, gasnete_coll_malloc(r->elem_size));
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

/* ------------------------------------------------------------ element-wise
 * acc = acc op right, vector element by vector element: a built-in's zip
 * loop, or the client's function called as GASNet 1.x calls it. */
static void gasnete_coll_apply_zip(const gasnete_coll_apply_t *fn, void *acc, const void *right) {
  size_t n = fn->vec_count;
  if (fn->zip)
    fn->zip(acc, acc, right, n);
  else
    fn->fnptr(acc, n, acc, n, right, fn->elem_size / n, (int)fn->flags, fn->arg);
}

static void gasnete_coll_apply_zip_reduce(const gasnete_coll_apply_t *fn, void *out,
                                          const void *elems, size_t n) {
  memcpy(out, elems, fn->elem_size);
  for (size_t j = 1; j < n; j++)
    gasnete_coll_apply_zip(fn, out, (const char *)elems + j * fn->elem_size);
}

/* A client's function combines into its left operand, so acc = left op acc
 * goes through the scratch vector; a zip loop may write over its right. */
static void gasnete_coll_apply_zip_prepend(const gasnete_coll_apply_t *fn, void *acc,
                                           const void *left) {
  if (fn->zip) {
    fn->zip(acc, left, acc, fn->vec_count);
    return;
  }
  memcpy(fn->scratch, left, fn->elem_size);
  gasnete_coll_apply_zip(fn, fn->scratch, acc);
  memcpy(acc, fn->scratch, fn->elem_size);
}

static void gasnete_coll_apply_zip_prefix(const gasnete_coll_apply_t *fn, void *out,
                                          const void *carry, const void *elems, size_t n) {
  size_t es = fn->elem_size;
  for (size_t i = 0; i < n; i++) {
    char *o = (char *)out + i * es;
    const void *before = i ? o - es : carry;
    const void *elem = (const char *)elems + i * es;
    if (!before) {
      memcpy(o, elem, es);
      continue;
    }
    memcpy(o, before, es);
    gasnete_coll_apply_zip(fn, o, elem);
  }
}

/* ------------------------------------------------------------ the helpers */
void gasnete_coll_apply_reduce(const gasnete_coll_apply_t *fn, void *out, const void *elems,
                               size_t n) {
  if (fn->vec_count) {
    gasnete_coll_apply_zip_reduce(fn, out, elems, n);
    return;
  }
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
  if (fn->vec_count) {
    gasnete_coll_apply_zip(fn, acc, right);
    return;
  }
  if (fn->fold) {
    fn->fold(acc, 1, acc, 1, right);
    return;
  }
  gasnete_coll_apply_call(fn, fn->scratch, 1, acc, 1, right);
  memcpy(acc, fn->scratch, fn->elem_size);
}

void gasnete_coll_apply_prepend(const gasnete_coll_apply_t *fn, void *acc, const void *left) {
  if (fn->vec_count) {
    gasnete_coll_apply_zip_prepend(fn, acc, left);
    return;
  }
  if (fn->fold) {
    fn->fold(acc, 1, left, 1, acc);
    return;
  }
  gasnete_coll_apply_call(fn, fn->scratch, 1, left, 1, acc);
  memcpy(acc, fn->scratch, fn->elem_size);
}

void gasnete_coll_apply_prefix(const gasnete_coll_apply_t *fn, void *out, const void *carry,
                               const void *elems, size_t n) {
  if (fn->vec_count) {
    gasnete_coll_apply_zip_prefix(fn, out, carry, elems, n);
    return;
  }
  gasnete_coll_apply_call(fn, out, n, carry, carry ? 1 : 0, elems);
}
