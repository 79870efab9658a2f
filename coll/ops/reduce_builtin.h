/* reduce_builtin.h: the built-in reduction functions (gasnet_coll_fn_sum
 * ...) as the library applies them: the typed loop for the call's element
 * type, chosen once per call, instead of the public function, which checks
 * the type and switches on it every time it runs. */
#ifndef COLL_REDUCE_BUILTIN_H
#define COLL_REDUCE_BUILTIN_H

#include "engine/engine.h"

/* results[i] = left[0] op .. op left[nleft-1] op right[0] op .. op right[i]
 * for i < n, like a registered function; reads left[0] and right[i]
 * before it writes results[i], so results may be left or right. */
typedef void (*gasnete_coll_fold_t)(void *results, size_t n, const void *left, size_t nleft,
                                    const void *right);

/* results[i] = left[i] op right[i] for i < n: the element-wise combination
 * of the element-wise reduce and scan (blksz 0); results may be left. */
typedef void (*gasnete_coll_zip_t)(void *results, const void *left, const void *right, size_t n);

typedef enum {
  GASNETE_COLL_NOT_BUILTIN = -1,
  GASNETE_COLL_BUILTIN_SUM,
  GASNETE_COLL_BUILTIN_PROD,
  GASNETE_COLL_BUILTIN_MIN,
  GASNETE_COLL_BUILTIN_MAX,
  GASNETE_COLL_BUILTIN_BAND,
  GASNETE_COLL_BUILTIN_BOR,
  GASNETE_COLL_BUILTIN_BXOR,
  GASNETE_COLL_BUILTIN_MINLOC,
  GASNETE_COLL_BUILTIN_MAXLOC,
  GASNETE_COLL_BUILTIN_COUNT
} gasnete_coll_builtin_t;

/* Which built-in fnptr is, if any (gasnet_coll_init asks once per entry). */
extern gasnete_coll_builtin_t gasnete_coll_builtin_of(gasnet_coll_reduce_fn_t fnptr);
/* The typed loops of built-in b for func_arg type and elem_size. A type
 * the function does not take, or an elem_size that does not match it, ends
 * the job with the message the function itself gives. */
typedef struct {
  gasnete_coll_fold_t fold;
  gasnete_coll_zip_t zip;
} gasnete_coll_builtin_loops_t;
extern gasnete_coll_builtin_loops_t gasnete_coll_builtin_loops(gasnete_coll_builtin_t b, int type,
                                                               size_t elem_size);

#endif
