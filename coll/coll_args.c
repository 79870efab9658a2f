/* coll_args.c: checking the arguments of every initiation call. Each
 * failure names the call, the argument and its value, and ends the job. */
#include "coll_internal.h"

extern gasnet_seginfo_t gasnete_coll_myseg;
extern void gasnete_coll_check_reduce_args(gasnete_coll_team_t *team, const gasnete_coll_args_t *a,
                                           const char *call);
void gasnete_coll_check_in_segment(const char *call, const char *what, const void *addr,
                                   size_t nbytes);

#define GASNETE_COLL_IN_MASK (GASNET_COLL_IN_NOSYNC | GASNET_COLL_IN_MYSYNC | GASNET_COLL_IN_ALLSYNC)
#define GASNETE_COLL_OUT_MASK \
  (GASNET_COLL_OUT_NOSYNC | GASNET_COLL_OUT_MYSYNC | GASNET_COLL_OUT_ALLSYNC)
#define GASNETE_COLL_ADDR_MASK (GASNET_COLL_SINGLE | GASNET_COLL_LOCAL)
#define GASNETE_COLL_DATA_FLAGS                                                            \
  (GASNETE_COLL_IN_MASK | GASNETE_COLL_OUT_MASK | GASNETE_COLL_ADDR_MASK |                  \
   GASNET_COLL_AGGREGATE | GASNET_COLL_DST_IN_SEGMENT | GASNET_COLL_SRC_IN_SEGMENT)

static int gasnete_coll_one_bit(int bits) { return bits && !(bits & (bits - 1)); }

/* extra: the flags this kind of call adds (a scan's kind). */
static void gasnete_coll_check_flags(int flags, int extra, int blocking, const char *call) {
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
  if (!(flags & GASNETE_COLL_ADDR_MASK))
    gasneti_fatalerror("%s: flags 0x%x give neither GASNET_COLL_SINGLE nor GASNET_COLL_LOCAL",
                       call, (unsigned)flags);
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

/* Which buffers this node touches, and how big they are. */
typedef struct {
  int uses_src, uses_dst;
  size_t src_bytes, dst_bytes;
} gasnete_coll_local_buffers_t;

static gasnete_coll_local_buffers_t gasnete_coll_local_buffers(const gasnete_coll_args_t *a,
                                                               gasnet_node_t size,
                                                               gasnet_node_t myrank) {
  gasnete_coll_local_buffers_t b = {1, 1, a->nbytes, a->nbytes};
  size_t all = a->nbytes * size;
  switch (a->kind) {
    case GASNETE_COLL_BROADCAST: b.uses_src = myrank == a->root; break;
    case GASNETE_COLL_SCATTER: b.uses_src = myrank == a->root; b.src_bytes = all; break;
    case GASNETE_COLL_GATHER: b.uses_dst = myrank == a->root; b.dst_bytes = all; break;
    case GASNETE_COLL_GATHER_ALL: b.dst_bytes = all; break;
    case GASNETE_COLL_EXCHANGE: b.src_bytes = all; b.dst_bytes = all; break;
    default: break;
  }
  return b;
}

void gasnete_coll_check_args(gasnete_coll_team_t *team, const gasnete_coll_args_t *a, int blocking,
                             const char *call) {
  if (!gasnete_coll_initialized) gasnete_coll_fatal_misuse(call, "called before gasnet_coll_init");
  if (gasneti_in_handler()) gasnete_coll_fatal_misuse(call, "called from inside an AM handler");
  if (gasneti_barrier_pending())
    gasnete_coll_fatal_misuse(call, "called between gasnet_barrier_notify and gasnet_barrier_wait");
  int scan_kinds = GASNET_COLL_INCLUSIVE_SCAN | GASNET_COLL_EXCLUSIVE_SCAN;
  gasnete_coll_check_flags(a->flags, a->kind == GASNETE_COLL_SCAN ? scan_kinds : 0, blocking, call);
  if (a->kind == GASNETE_COLL_REDUCE || a->kind == GASNETE_COLL_SCAN) {
    gasnete_coll_check_reduce_args(team, a, call);
    return;
  }
  if (a->nbytes == 0) gasneti_fatalerror("%s: nbytes is 0; it must be at least 1", call);
  int rooted = a->kind == GASNETE_COLL_BROADCAST || a->kind == GASNETE_COLL_SCATTER ||
               a->kind == GASNETE_COLL_GATHER;
  if (rooted && a->root >= team->size)
    gasneti_fatalerror("%s: root image %u is out of range (there are %u images)", call,
                       (unsigned)a->root, (unsigned)team->size);
  gasnete_coll_local_buffers_t b = gasnete_coll_local_buffers(a, team->size, team->myrank);
  if (b.uses_src && !a->src) gasneti_fatalerror("%s: src is NULL", call);
  if (b.uses_dst && !a->dst) gasneti_fatalerror("%s: dst is NULL", call);
  if (b.uses_src && (a->flags & GASNET_COLL_SRC_IN_SEGMENT))
    gasnete_coll_check_in_segment(call, "src", a->src, b.src_bytes);
  if (b.uses_dst && (a->flags & GASNET_COLL_DST_IN_SEGMENT))
    gasnete_coll_check_in_segment(call, "dst", a->dst, b.dst_bytes);
}
