/* scan_chain.h: the chain scan (scan_chain.c), a row of scan.c's table. */
#ifndef COLL_SCAN_CHAIN_H
#define COLL_SCAN_CHAIN_H

#include "engine/engine.h"

extern int gasnete_coll_scan_chain_eligible(const gasnete_coll_args_t *args,
                                            const gasnete_coll_team_t *team);
extern void gasnete_coll_scan_chain_setup(gasnete_coll_op_t *op);
extern gasnete_coll_progress_t gasnete_coll_scan_chain_progress(gasnete_coll_op_t *op);
extern void gasnete_coll_scan_chain_deliver(gasnete_coll_op_t *op, const gasnete_coll_msg_t *msg);
extern void gasnete_coll_scan_chain_cleanup(gasnete_coll_op_t *op);
extern gasnete_coll_quick_t gasnete_coll_scan_chain_quick(gasnete_coll_op_t *op, const void *prep);
extern void gasnete_coll_scan_chain_prepare(const gasnete_coll_op_t *op, void *prep);

#endif
