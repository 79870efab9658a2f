/* coll_events.c: the collectives' trace and statistics points (category
 * W), at the two ends of every op's life on this node: initiation (the
 * op, its team, sequence number, root, bytes, flags, algorithm and the
 * call that started it) and completion (with the time between). Both
 * cost one load each when tracing and statistics are off or not built. */
#include "engine/engine.h"

/* Bytes of the op's data as the profile counts them: a reduction's
 * elements, else the block. */
static uint64_t gasnete_coll_event_bytes(const gasnete_coll_args_t *args) {
  int reduction = args->kind == GASNETE_COLL_REDUCE || args->kind == GASNETE_COLL_SCAN;
  return reduction ? (uint64_t)args->red.elem_size * args->red.elem_count : (uint64_t)args->nbytes;
}

int64_t gasnete_coll_event_begin(const gasnete_coll_team_t *team, uint32_t seq,
                                 const gasnete_coll_args_t *args, const gasnete_coll_alg_t *alg,
                                 const char *call) {
  const char *op = gasnete_coll_kind_name(args->kind);
  uint64_t bytes = gasnete_coll_event_bytes(args);
  if (gasneti_stats_on('W')) gasneti_stats_add('W', op, alg->name, GASNETI_STATS_BYTES, bytes);
  if (gasneti_trace_on('W'))
    gasneti_trace_printf('W',
                         "COLL_INIT op=%s team=%u seq=%u root=%u bytes=%llu flags=0x%x alg=%s "
                         "call=%s",
                         op, (unsigned)team->id, (unsigned)seq, (unsigned)args->root,
                         (unsigned long long)bytes, (unsigned)args->flags, alg->name,
                         call ? call : "-");
  return gasneti_now_ns();
}

void gasnete_coll_event_done(const gasnete_coll_team_t *team, uint32_t seq,
                             const gasnete_coll_args_t *args, const gasnete_coll_alg_t *alg,
                             int64_t begin_ns) {
  const char *op = gasnete_coll_kind_name(args->kind);
  int64_t ns = gasneti_now_ns() - begin_ns;
  if (gasneti_stats_on('W')) gasneti_stats_add('W', op, alg->name, GASNETI_STATS_TIME, (uint64_t)ns);
  if (gasneti_trace_on('W'))
    gasneti_trace_printf('W', "COLL_DONE op=%s team=%u seq=%u alg=%s time_us=%.3f", op,
                         (unsigned)team->id, (unsigned)seq, alg->name, (double)ns / 1e3);
}
