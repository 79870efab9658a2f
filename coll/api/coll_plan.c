/* coll_plan.c: a team's plan, what its last call's single-valued arguments
 * (kind, nbytes, root, flags, the layouts and function of reduce and scan:
 * the same on every rank) decided on this node: that they passed their
 * checks, the algorithm the selector chose, and how much of this rank's
 * buffers such a call uses. A client usually repeats one collective many
 * times; every call after the first then compares its arguments with the
 * plan's and goes on, where it used to check every argument and consult
 * the selector again. The buffers differ from call to call and are
 * checked every time (coll_args.c). */
#include "api/api.h"

/* Member by member: the argument records are not zeroed as blocks
 * (engine.h, gasnete_coll_args), so their padding is not comparable. */
static int gasnete_coll_reduce_args_equal(const gasnete_coll_reduce_args_t *x,
                                          const gasnete_coll_reduce_args_t *y) {
  return x->src_blksz == y->src_blksz && x->src_offset == y->src_offset &&
         x->dst_blksz == y->dst_blksz && x->dst_offset == y->dst_offset &&
         x->elem_size == y->elem_size && x->elem_count == y->elem_count && x->func == y->func &&
         x->func_arg == y->func_arg && x->vec_count == y->vec_count;
}

/* The reduction's layout matters only to reduce and scan; the other kinds
 * skip its nine compares. */
static int gasnete_coll_plan_fits(const gasnete_coll_plan_t *p, const gasnete_coll_args_t *a) {
  if (!(p->valid && p->kind == a->kind && p->nbytes == a->nbytes && p->root == a->root &&
        p->flags == a->flags))
    return 0;
  int reduction = a->kind == GASNETE_COLL_REDUCE || a->kind == GASNETE_COLL_SCAN;
  return !reduction || gasnete_coll_reduce_args_equal(&p->red, &a->red);
}

/* blocking is not part of the plan (a client may alternate the blocking
 * and _nb forms of one call); only AGGREGATE depends on it. */
const gasnete_coll_plan_t *gasnete_coll_plan_for(gasnete_coll_team_t *team,
                                                 const gasnete_coll_args_t *args, int blocking,
                                                 const char *call) {
  gasnete_coll_plan_t *p = &team->plan;
  if (gasnete_coll_plan_fits(p, args)) {
    gasnete_coll_check_blocking(args->flags, blocking, call);
    return p;
  }
  p->valid = 0; /* until the new arguments have passed */
  p->extents = gasnete_coll_check_single(team, args, blocking, call);
  p->alg = gasnete_coll_select(args, team);
  memset(p->prep, 0, sizeof(p->prep));
  if (p->alg->prepare) {
    gasnete_coll_op_t bare;
    gasnete_coll_op_bare(&bare, team, args, p->alg, call);
    p->alg->prepare(&bare, p->prep);
  }
  p->kind = args->kind;
  p->nbytes = args->nbytes;
  p->root = args->root;
  p->flags = args->flags;
  p->red = args->red;
  p->valid = 1;
  return p;
}
