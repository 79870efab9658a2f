/* coll_dump.c: the two diagnostics GASNet-1 clients call,
 * gasnet_coll_dumpTuningState (what the selector would choose) and
 * gasnet_coll_dumpProfile (what a team has done). Neither is collective:
 * what they report is the same on every member of the team (collectives
 * are called alike everywhere and the selector's inputs are single-valued),
 * so only the team's rank 0 writes, and a shared file is written once. */
#include "api/api.h"
#include "ops/ops.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>

/* Sizes the tuning table shows: 1 B to 4 MiB in steps of x2, so that
 * thresholds between powers of 4 (32 KiB, 128 KiB, 512 KiB) show too (the
 * selector's largest rules start at 1 MiB; the rows past it show that
 * nothing changes above). */
#define GASNETE_COLL_DUMP_MIN_BYTES 1u
#define GASNETE_COLL_DUMP_MAX_BYTES (1u << 22)

static const char *gasnete_coll_dump_kind_name(gasnete_coll_kind_t kind) {
  return gasnete_coll_select_table(kind).op_name;
}

/* NULL for stdout; ends the job naming the call and the file when the file
 * cannot be opened. */
static FILE *gasnete_coll_dump_open(const char *filename, const char *call) {
  if (!filename) return stdout;
  FILE *f = fopen(filename, "w");
  if (!f)
    gasneti_fatalerror("%s: failed to open filename \"%s\": %s", call, filename, strerror(errno));
  return f;
}

static void gasnete_coll_dump_close(FILE *f) {
  if (f == stdout)
    fflush(f);
  else
    fclose(f);
}

/* The team to report on, or NULL when this node is not the one to write. */
static gasnete_coll_team_t *gasnete_coll_dump_team(gasnet_team_handle_t handle, const char *call) {
  if (!gasnete_coll_initialized) gasnete_coll_fatal_misuse(call, "called before gasnet_coll_init");
  gasnete_coll_team_t *team = gasnete_coll_team_lookup(handle, call);
  return team->myrank == 0 ? team : NULL;
}

/* ------------------------------------------------------------ tuning */
static void gasnete_coll_dump_algs(FILE *f, gasnete_coll_kind_t kind) {
  gasnete_coll_alg_table_view_t t = gasnete_coll_select_table(kind);
  fprintf(f, "%s: %s=%s\n", t.op_name, t.env_name, t.forced ? t.forced->name : "(unset)");
  for (unsigned i = 0; i < t.nalgs; i++)
    fprintf(f, "  %-13s %s\n", t.algs[i].name, t.algs[i].description);
}

/* The arguments the selector sees for a call of nbytes with these flags
 * (reduce and scan: one element of nbytes). */
static gasnete_coll_args_t gasnete_coll_dump_args(gasnete_coll_kind_t kind, size_t nbytes,
                                                  int flags) {
  gasnete_coll_args_t a;
  memset(&a, 0, sizeof(a));
  a.kind = kind;
  a.nbytes = nbytes;
  a.flags = flags;
  a.red.elem_size = nbytes;
  a.red.elem_count = 1;
  return a;
}

static void gasnete_coll_dump_choices(FILE *f, gasnete_coll_kind_t kind,
                                      const gasnete_coll_team_t *team) {
  const int am_flags = GASNET_COLL_SINGLE | GASNET_COLL_IN_MYSYNC | GASNET_COLL_OUT_MYSYNC;
  const int seg_flags = am_flags | GASNET_COLL_DST_IN_SEGMENT | GASNET_COLL_SRC_IN_SEGMENT;
  fprintf(f, "  %10s  %-17s %s\n", "bytes", "chosen", "chosen with SRC/DST_IN_SEGMENT");
  for (size_t n = GASNETE_COLL_DUMP_MIN_BYTES; n <= GASNETE_COLL_DUMP_MAX_BYTES; n *= 2) {
    gasnete_coll_args_t plain = gasnete_coll_dump_args(kind, n, am_flags);
    gasnete_coll_args_t seg = gasnete_coll_dump_args(kind, n, seg_flags);
    fprintf(f, "  %10zu  %-17s %s\n", n, gasnete_coll_select(&plain, team)->name,
            gasnete_coll_select(&seg, team)->name);
  }
}

void gasnete_coll_dumpTuningState(char *filename, gasnet_team_handle_t handle) {
  static const char call[] = "gasnet_coll_dumpTuningState";
  gasnete_coll_team_t *team = gasnete_coll_dump_team(handle, call);
  if (!team) return;
  FILE *f = gasnete_coll_dump_open(filename, call);
  fprintf(f,
          "# gasnet_coll tuning state: team id %u, %u ranks; GASNET_COLL_PUT_THRESHOLD=%zu "
          "(%zu outside the segment); GASNET_COLL_FLOW_THRESHOLD=%zu; "
          "GASNET_COLL_DIRECT_THRESHOLD=%zu (this team's broadcast %zu, gather_all and exchange "
          "%zu)\n",
          (unsigned)team->id, (unsigned)team->size, gasnete_coll_select_put_threshold(team, 1),
          gasnete_coll_select_put_threshold(team, 0), gasnete_coll_select_flow_threshold(),
          gasnete_coll_select_direct_threshold(GASNETE_COLL_SCATTER, team),
          gasnete_coll_select_direct_threshold(GASNETE_COLL_BROADCAST, team),
          gasnete_coll_select_direct_threshold(GASNETE_COLL_EXCHANGE, team));
  for (int k = 0; k < GASNETE_COLL_KIND_COUNT; k++) {
    gasnete_coll_dump_algs(f, (gasnete_coll_kind_t)k);
    gasnete_coll_dump_choices(f, (gasnete_coll_kind_t)k, team);
  }
  gasnete_coll_dump_close(f);
}

/* ------------------------------------------------------------ profile */
void gasnete_coll_dumpProfile(char *filename, gasnet_team_handle_t handle) {
  static const char call[] = "gasnet_coll_dumpProfile";
  gasnete_coll_team_t *team = gasnete_coll_dump_team(handle, call);
  if (!team) return;
  FILE *f = gasnete_coll_dump_open(filename, call);
  fprintf(f, "# gasnet_coll profile: team id %u, %u ranks\n", (unsigned)team->id,
          (unsigned)team->size);
  fprintf(f, "%-12s %12s %16s\n", "op", "calls", "bytes");
  for (int k = 0; k < GASNETE_COLL_KIND_COUNT; k++)
    fprintf(f, "%-12s %12llu %16llu\n", gasnete_coll_dump_kind_name((gasnete_coll_kind_t)k),
            (unsigned long long)team->calls[k], (unsigned long long)team->bytes[k]);
  gasnete_coll_dump_close(f);
}
