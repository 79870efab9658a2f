/* ops.h: the ops floor of the collectives (coll/ops/): one file per
 * operation and algorithm family, each with its table of algorithms
 * (gasnete_coll_alg_t rows), which select_default.c registers with the
 * engine's selector together with the default rule; and the reduction
 * functions reduce and scan apply (reduce_apply.h). */
#ifndef COLL_OPS_H
#define COLL_OPS_H

#include "engine/engine.h"

/* select_default.c: register every operation's table and default rule,
 * and read the thresholds (GASNET_COLL_PUT_THRESHOLD, _FLOW_, _DIRECT_). */
extern void gasnete_coll_ops_init(void);
/* The thresholds the default rule uses (gasnet_coll_dumpTuningState). */
extern size_t gasnete_coll_select_put_threshold(const gasnete_coll_team_t *team, int in_segment);
/* The direct threshold of an op on this team. */
extern size_t gasnete_coll_select_direct_threshold(gasnete_coll_kind_t kind,
                                                   const gasnete_coll_team_t *team);
extern size_t gasnete_coll_select_flow_threshold(void);

/* reduce_apply.c: the table of reduction functions gasnet_coll_init was
 * given (copied), which reduce and scan index. */
extern void gasnete_coll_fn_register(const gasnet_coll_fn_entry_t fn_tbl[], size_t fn_count);

/* bcast_direct.c: the setup of the direct broadcast (its row is in bcast.c). */
extern void gasnete_coll_direct_bcast_setup(gasnete_coll_op_t *op);

#endif
