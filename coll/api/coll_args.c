/* coll_args.c: checking the arguments of every initiation call. Each
 * failure names the call, the argument and its value, and ends the job.
 * The checks come in three parts (api/api.h): the calling context,
 * the single-valued arguments (which a team's plan checks once for a
 * stream of like calls, coll_plan.c), and the buffers (every call). */
#include "api/api.h"

extern gasnet_seginfo_t gasnete_coll_myseg;
void gasnete_coll_check_in_segment(const char *call, const char *what, const void *addr,
                                   size_t nbytes);

#define GASNETE_COLL_IN_MASK (GASNET_COLL_IN_NOSYNC | GASNET_COLL_IN_MYSYNC | GASNET_COLL_IN_ALLSYNC)
#define GASNETE_COLL_OUT_MASK \
  (GASNET_COLL_OUT_NOSYNC | GASNET_COLL_OUT_MYSYNC | GASNET_COLL_OUT_ALLSYNC)
#define GASNETE_COLL_ADDR_MASK (GASNET_COLL_SINGLE | GASNET_COLL_LOCAL)
#define GASNETE_COLL_DATA_FLAGS                                                            \
  (GASNETE_COLL_IN_MASK | GASNETE_COLL_OUT_MASK | GASNETE_COLL_ADDR_MASK |                  \
   GASNET_COLL_AGGREGATE | GASNET_COLL_DST_IN_SEGMENT | GASNET_COLL_SRC_IN_SEGMENT)

static inline int gasnete_coll_one_bit(int bits) { return bits && !(bits & (bits - 1)); }

/* What a valid flags word satisfies: exactly one IN, one OUT and one
 * addressing mode, nothing unknown. A few masks; the checks below name
 * what is wrong when this fails. */
static inline int gasnete_coll_flags_ok(int flags, int extra) {
  int in = flags & GASNETE_COLL_IN_MASK, out = flags & GASNETE_COLL_OUT_MASK;
  int addr = flags & GASNETE_COLL_ADDR_MASK;
  return !(flags & ~(GASNETE_COLL_DATA_FLAGS | extra)) && gasnete_coll_one_bit(in) &&
         gasnete_coll_one_bit(out) && gasnete_coll_one_bit(addr);
}

/* extra: the flags this kind of call adds (a scan's kind). */
static void gasnete_coll_check_flags(int flags, int extra, int blocking, const char *call) {
  if (gasnete_coll_flags_ok(flags, extra)) {
    gasnete_coll_check_blocking(flags, blocking, call);
    return;
  }
  int known = GASNETE_COLL_DATA_FLAGS | extra;
  if (flags & ~known)
    gasneti_fatalerror("%s: flags 0x%x contain unknown bits 0x%x", call, (unsigned)flags,
                       (unsigned)(flags & ~known));
  if (!(flags & GASNETE_COLL_IN_MASK))
    gasneti_fatalerror("%s: flags 0x%x lack an IN_*SYNC mode", call, (unsigned)flags);
  if (!gasnete_coll_one_bit(flags & GASNETE_COLL_IN_MASK))
    gasneti_fatalerror("%s: flags 0x%x name more than one IN_*SYNC mode", call, (unsigned)flags);
  if (!(flags & GASNETE_COLL_OUT_MASK))
    gasneti_fatalerror("%s: flags 0x%x lack an OUT_*SYNC mode", call, (unsigned)flags);
  if (!gasnete_coll_one_bit(flags & GASNETE_COLL_OUT_MASK))
    gasneti_fatalerror("%s: flags 0x%x name more than one OUT_*SYNC mode", call, (unsigned)flags);
  if ((flags & GASNETE_COLL_ADDR_MASK) == GASNETE_COLL_ADDR_MASK)
    gasneti_fatalerror("%s: flags 0x%x give both GASNET_COLL_SINGLE and GASNET_COLL_LOCAL", call,
                       (unsigned)flags);
  gasneti_fatalerror("%s: flags 0x%x give neither GASNET_COLL_SINGLE nor GASNET_COLL_LOCAL", call,
                     (unsigned)flags);
}

void gasnete_coll_check_blocking(int flags, int blocking, const char *call) {
  if (blocking && (flags & GASNET_COLL_AGGREGATE))
    gasneti_fatalerror("%s: flags 0x%x: GASNET_COLL_AGGREGATE is not allowed on a blocking call",
                       call, (unsigned)flags);
}

void gasnete_coll_check_in_segment(const char *call, const char *what, const void *addr,
                                   size_t nbytes) {
  uintptr_t lo = (uintptr_t)gasnete_coll_myseg.addr;
  uintptr_t hi = lo + gasnete_coll_myseg.size;
  uintptr_t a = (uintptr_t)addr;
  if (a < lo || a > hi || nbytes > hi - a)
    gasneti_fatalerror("%s: %s %p + %zu bytes is not inside this node's segment [%p, %p) "
                       "although the flags say it is",
                       call, what, addr, nbytes, (void *)lo, (void *)hi);
}

/* How much of this rank's buffers a data-movement call uses (0: none). */
static gasnete_coll_extents_t gasnete_coll_data_extents(const gasnete_coll_args_t *a,
                                                        gasnet_node_t size, gasnet_node_t myrank) {
  gasnete_coll_extents_t x = {a->nbytes, a->nbytes};
  size_t all = a->nbytes * size;
  switch (a->kind) {
    case GASNETE_COLL_BROADCAST: x.src_bytes = myrank == a->root ? a->nbytes : 0; break;
    case GASNETE_COLL_SCATTER: x.src_bytes = myrank == a->root ? all : 0; break;
    case GASNETE_COLL_GATHER: x.dst_bytes = myrank == a->root ? all : 0; break;
    case GASNETE_COLL_GATHER_ALL: x.dst_bytes = all; break;
    case GASNETE_COLL_EXCHANGE: x.src_bytes = all; x.dst_bytes = all; break;
    default: break;
  }
  return x;
}

void gasnete_coll_check_context(const char *call) {
  if (!gasnete_coll_initialized) gasnete_coll_fatal_misuse(call, "called before gasnet_coll_init");
  if (gasneti_in_handler()) gasnete_coll_fatal_misuse(call, "called from inside an AM handler");
  if (gasneti_barrier_pending())
    gasnete_coll_fatal_misuse(call, "called between gasnet_barrier_notify and gasnet_barrier_wait");
}

gasnete_coll_extents_t gasnete_coll_check_single(const gasnete_coll_team_t *team,
                                                 const gasnete_coll_args_t *a, int blocking,
                                                 const char *call) {
  int scan_kinds = GASNET_COLL_INCLUSIVE_SCAN | GASNET_COLL_EXCLUSIVE_SCAN;
  gasnete_coll_check_flags(a->flags, a->kind == GASNETE_COLL_SCAN ? scan_kinds : 0, blocking, call);
  if (a->kind == GASNETE_COLL_REDUCE || a->kind == GASNETE_COLL_SCAN)
    return gasnete_coll_check_reduce_single(team, a, call);
  if (a->nbytes == 0) gasneti_fatalerror("%s: nbytes is 0; it must be at least 1", call);
  int rooted = a->kind == GASNETE_COLL_BROADCAST || a->kind == GASNETE_COLL_SCATTER ||
               a->kind == GASNETE_COLL_GATHER;
  if (rooted && a->root >= team->size)
    gasneti_fatalerror("%s: root image %u is out of range (there are %u images)", call,
                       (unsigned)a->root, (unsigned)team->size);
  return gasnete_coll_data_extents(a, team->size, team->myrank);
}

void gasnete_coll_check_buffers(const gasnete_coll_extents_t *x, const gasnete_coll_args_t *a,
                                const char *call) {
  if (a->kind == GASNETE_COLL_REDUCE || a->kind == GASNETE_COLL_SCAN) {
    gasnete_coll_check_reduce_buffers(x, a, call);
    return;
  }
  if (x->src_bytes && !a->src) gasneti_fatalerror("%s: src is NULL", call);
  if (x->dst_bytes && !a->dst) gasneti_fatalerror("%s: dst is NULL", call);
  if (x->src_bytes && (a->flags & GASNET_COLL_SRC_IN_SEGMENT))
    gasnete_coll_check_in_segment(call, "src", a->src, x->src_bytes);
  if (x->dst_bytes && (a->flags & GASNET_COLL_DST_IN_SEGMENT))
    gasnete_coll_check_in_segment(call, "dst", a->dst, x->dst_bytes);
}

/* Every check at once (the image layer's calls). */
void gasnete_coll_check_args(const gasnete_coll_team_t *team, const gasnete_coll_args_t *a,
                             int blocking, const char *call) {
  gasnete_coll_check_context(call);
  gasnete_coll_extents_t x = gasnete_coll_check_single(team, a, blocking, call);
  gasnete_coll_check_buffers(&x, a, call);
}
