/* select_default.c: the default algorithm of every operation, by
 * (bytes, team size and supernodes, flags), and the thresholds it uses;
 * the engine's selector (engine/select.c) asks it whenever no algorithm is
 * forced (or the forced one cannot serve the call). How the rules were
 * measured: docs/performance.md. */
#include "ops/ops.h"
#include "ops/scan_chain.h"
#include "patterns/coll_hier.h"
#include "patterns/coll_readfan.h"

#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Above this many bytes per block, moving data with puts straight into the
 * destination beats AM chunks (which copy twice); GASNET_COLL_PUT_THRESHOLD
 * sets them all. On a team over several supernodes puts pay only for large
 * blocks: a peer must first announce its buffer (a round trip across the
 * network), and a put's AM Long larger than the conduit's packet costs the
 * transport a rendezvous, where Mediums stream. Over TCP the eager and
 * flow-controlled algorithms took a half to a third of put's time from 8
 * KiB to 256 KiB, level at 512 KiB, behind from 1 MiB for gather_all and
 * exchange (docs/performance.md, "How the selector's rules were measured").
 * Where the conduit lands Longs anywhere (team->puts_anywhere: ucx and
 * mpi, every rank on a supernode of its own) the same threshold sends
 * blocks outside the segment by put too: a 1 MiB block is then one Long,
 * which UCX moves by rendezvous straight into the receiver's buffer, where
 * the flow-controlled algorithms send 16 Mediums, each copied out of the
 * transport's buffers; over UCX's TCP at 2 ranks gather_all and exchange
 * took a third of their time, broadcast three quarters; at 256 KiB put
 * lost for broadcast and scatter at 4 ranks (docs/ucx-conduit.md, "Blocks
 * outside the segment by put").
 * A team on one host whose ranks are each on a supernode of their own,
 * where the conduit moves payloads through the host's memory
 * (team->one_host_apart: ucx over UCX's shared memory), is no network
 * for a destination in the segment: a Long there is a copy through UCX's
 * mapping of it, so the puts' READY costs little. There put took 0.41-0.69
 * of the AM algorithms' time at 2 ranks at 32 and 64 KiB, and 0.35-0.91
 * at 4 but for the broadcast (1.6 and 1.04) and the 32 KiB scatter
 * (1.04); below 32 KiB it lost the rooted ops at 4 ranks by up to 3.5
 * times. Outside the segment such a Long is a rendezvous, which UCX's
 * shared memory serves by one cross-memory read into place (the ucx
 * conduit sends Longs there by rendezvous from 64 KiB, Mediums eagerly);
 * from 64 KiB put took 0.3-0.6 of the flow-controlled algorithms' time at
 * 2 ranks and 0.5-0.9 at 3 and 4, but for the broadcast at 4 ranks, whose
 * tree took 15-30 us at 64 KiB against flat's 15 and was level with pipe
 * at 128 KiB (docs/ucx-conduit.md, "Longs outside the segment by
 * rendezvous inside a host"). */
static size_t gasnete_coll_put_threshold = 8192;
static size_t gasnete_coll_put_threshold_host = 32768;
static size_t gasnete_coll_put_threshold_host_anywhere = 65536;
static size_t gasnete_coll_put_threshold_net = 524288;

/* A broadcast over several supernodes of one host, at 4 ranks or more,
 * takes its put tree from this many bytes a block outside the segment
 * (above). */
#define GASNETE_COLL_HOST_BCAST_TREE_MIN 131072u

/* At and above this many bytes per block, the flow-controlled algorithms
 * (coll_flow.h: broadcast pipe, scatter and gather flow, gather_all ring,
 * exchange pairwise) replace the eager AM ones, whose receivers would
 * otherwise take large data through the early-arrival store;
 * GASNET_COLL_FLOW_THRESHOLD. */
static size_t gasnete_coll_flow_threshold = 131072;

/* Above 4 ranks (up to 8), the chain scan only for fewer bytes a rank
 * than this. A chain rank does one pass over its elements per scan, a
 * dissemination rank log2(P), and chain ranks never wait for higher
 * ones, so scans issued back to back flow down the chain. Its P-1 hops
 * bring it level with the dissemination at 8 ranks from 512 KiB a rank
 * inside a supernode, and behind it over a network (docs/performance.md,
 * "How the selector's rules were measured"). */
#define GASNETE_COLL_CHAIN_SCAN_MAX 524288u

/* Up to this many ranks the flat trees and the pipe; trees above. */
#define GASNETE_COLL_FEW_RANKS 4u

/* From this many bytes per block, broadcast, scatter, gather, gather_all
 * and exchange out of the segment read their peers' buffers directly
 * (one cross-memory copy per block) where the conduit reads every node;
 * GASNET_COLL_DIRECT_THRESHOLD, when set, is all three thresholds below. On an Intel host
 * direct won from 64 KiB (0.32-0.86 of the time of the rings' algorithms
 * at 2, 3, 4 and 8 ranks), the default once. On the AMD EPYC host of
 * these measurements now, with the rings since made cheaper, the
 * algorithms that hand the data through the rings took 0.28-0.97 of
 * direct's time from 64 KiB to 2 MiB at 2, 3, 4 and 8 ranks on the faster
 * placement of its CPUs, and 0.31-1.16 on the slower (above 1 only for
 * broadcast and scatter at 2 ranks and 1-2 MiB, 1.10-1.14, and two single
 * cells), while at 4 MiB direct's gather_all and exchange took 0.45-0.93
 * of their time at 2 and 4 ranks (1.08-1.41 at 3), the rooted ops
 * 0.86-1.52 (docs/performance.md, "Direct reads only from 4 MiB"). On a
 * second Intel Xeon host direct again took 0.33-0.95 of the rules' time
 * from 64 KiB to 1 MiB at 2 and 4 ranks ("Direct reads from 64 KiB on
 * Intel hosts"), and from 32 KiB it took 0.61-0.78 of their time at 2
 * ranks, for gather, gather_all and exchange at 3 to 8 ranks 0.47-0.95,
 * for the scatter at 5 and 8 ranks 0.67-0.96 (at 3 and 4 it lost by up
 * to a quarter), while a broadcast on more than 2 ranks lost by up to a
 * third at 32 and 40 KiB and from 48 KiB was level or ahead (0.82 at 3
 * ranks, 0.95-1.02 at 4, 5 and 8: "Direct reads from 32 KiB on Intel
 * hosts"). On a team of 2 direct's gather_all and exchange took
 * 0.77-0.78 of the rings' time already at 16 KiB (0.83 at 12 KiB,
 * 0.89-0.97 at 8 KiB; at 3 and 4 ranks 0.99-1.24 at 16 KiB). The AMD
 * EPYC host took direct from 4 MiB for a while; measured again there, its
 * rings fell on the slower placement of the CPUs to 2-4 times direct's
 * time from 64 KiB to 1 MiB (a 1 MiB broadcast at 2 ranks 256-411 us
 * against 91-103), for whole runs at a time, while direct stayed within
 * 1.2-2.0 of its fastest run in either placement and about level with or
 * below Open MPI's median: the slow mode of large transfers ("Direct
 * reads from 32 KiB on AMD hosts too"). So every host takes the rule
 * measured on Intel: 32 KiB, but 48 KiB for a broadcast on more than 2
 * ranks and 16 KiB for gather_all and exchange on 2. Every rank that may
 * read another shares its host, so all agree. On a team of 2 the rank
 * that would wait writes a share of each block itself (coll_readfan.c). */
static size_t gasnete_coll_direct_threshold;
static size_t gasnete_coll_direct_threshold_wide_bcast; /* a broadcast on more than 2 ranks */
static size_t gasnete_coll_direct_threshold_pair_all;   /* gather_all, exchange on 1 or 2 ranks */

static void gasnete_coll_direct_defaults(void) {
  gasnete_coll_direct_threshold = 32768;
  gasnete_coll_direct_threshold_wide_bcast = 49152;
  gasnete_coll_direct_threshold_pair_all = 16384;
}

static size_t gasnete_coll_direct_from(gasnete_coll_kind_t kind, gasnet_node_t team_size) {
  if (kind == GASNETE_COLL_BROADCAST && team_size > 2)
    return gasnete_coll_direct_threshold_wide_bcast;
  if ((kind == GASNETE_COLL_GATHER_ALL || kind == GASNETE_COLL_EXCHANGE) && team_size <= 2)
    return gasnete_coll_direct_threshold_pair_all;
  return gasnete_coll_direct_threshold;
}

/* A byte count from the environment: decimal digits only, so a typo (a
 * suffix, a sign) ends the job instead of silently becoming 0. */
static size_t gasnete_coll_env_bytes(const char *name, size_t dflt, const char *dflt_desc) {
  const char *text = gasneti_getenv_verbose(name, dflt_desc);
  if (!text) return dflt;
  char *end = NULL;
  errno = 0;
  unsigned long long v = strtoull(text, &end, 10);
  if (!*text || *end || errno || text[strspn(text, "0123456789")])
    gasneti_fatalerror("gasnet_coll_init: %s=\"%s\" is not a number of bytes (decimal digits)",
                       name, text);
  return (size_t)v;
}

/* Up to this many bytes, a broadcast over several supernodes takes the
 * binomial tree even at 3 or 4 ranks: when each send crosses the network
 * the root's P - 1 sends of flat cost more than the tree's extra hop (over
 * TCP at 4 ranks, 8 B to 16 KiB, about a quarter less time; at 64 KiB
 * flat was ahead again: docs/performance.md, "How the selector's rules were measured"). */
#define GASNETE_COLL_NET_BCAST_TREE_MAX 16384u

/* Below this many bytes per block a scatter or gather out of the segment
 * takes hier where it may (gasnete_coll_hier_wins). */
#define GASNETE_COLL_HIER_BLOCK_MAX 16384u

/* The average supernode size (ranks per run) from which gather_all takes
 * hier. */
#define GASNETE_COLL_HIER_GATHER_ALL_RUN 4u

/* On a team where hier has work to save (gasnete_coll_hier_pays), it
 * beat the choice below at every size measured, 8 B to 64 KiB, under
 * IN/OUT_MYSYNC and NOSYNC, with the mpi conduit over TCP and pretend
 * hosts of 2 ranks at 4 (docs/performance.md, "Hierarchical
 * algorithms"): a third less time in the median, up to two thirds
 * against put; except scatter and gather out of the segment from 16 KiB,
 * whose leaders take a run of blocks in before passing it on (at 6 ranks
 * in hosts of 3 both lost there). Not measured past the flow threshold,
 * so the flow-controlled algorithms keep large data. */
static int gasnete_coll_hier_wins(const gasnete_coll_args_t *a, const gasnete_coll_team_t *team,
                                  int large) {
  switch (a->kind) {
    case GASNETE_COLL_BROADCAST: return !large;
    /* Its gather and broadcast put four hops on the critical path where
     * flat has one, so it pays only when it saves many messages: with
     * supernodes of 4 ranks on average (8 ranks in hosts of 4 over TCP,
     * 8 B to 64 KiB: a fifth to two fifths less time than dissem, the
     * default there), not with supernodes of 2 (4 ranks: flat ahead by a
     * fifth; 8 ranks: level with dissem). */
    case GASNETE_COLL_GATHER_ALL:
      return !large && team->size >= GASNETE_COLL_HIER_GATHER_ALL_RUN * team->hier->nruns;
    case GASNETE_COLL_SCATTER:
    case GASNETE_COLL_GATHER:
      return a->nbytes < GASNETE_COLL_HIER_BLOCK_MAX ||
             ((a->flags & GASNET_COLL_DST_IN_SEGMENT) && !large);
    case GASNETE_COLL_REDUCE: return 1;
    default: return 0;
  }
}

/* The default policy, from measurements on the smp conduit at 2 and 4
 * processes on 2 cores (docs/performance.md, "How the selector's rules
 * were measured"): eager AM algorithms below the flow threshold (flat up to 4
 * ranks, where every receiver hears from the root at once; trees above),
 * flow-controlled ones from it, put when the destination is in the
 * segment, direct reads for the largest blocks where the conduit reads
 * every node (above). A team over several supernodes takes hier first where it
 * wins (above). */
static const char *gasnete_coll_default_name(const gasnete_coll_args_t *a,
                                             const gasnete_coll_team_t *team) {
  gasnet_node_t size = team->size;
  int hier = gasnete_coll_hier_pays(team);
  int networked = gasnete_coll_team_networked(team);
  int in_segment = (a->flags & GASNET_COLL_DST_IN_SEGMENT) != 0;
  int put_ok = (in_segment || team->puts_anywhere) &&
               a->nbytes >= gasnete_coll_select_put_threshold(team, in_segment);
  int direct_ok = gasnete_coll_readfan_available() &&
                  a->nbytes >= gasnete_coll_direct_from(a->kind, size);
  int large = a->nbytes >= gasnete_coll_flow_threshold;
  int few = size <= GASNETE_COLL_FEW_RANKS;
  if (hier && gasnete_coll_hier_wins(a, team, large)) return "hier";
  /* Across supernodes a root's puts are sends that queue one after the
   * other; from 4 ranks the tree lets a child forward while the root still
   * sends (mpi and ucx over TCP at 4 ranks:
   * 0.86-0.90 of put's time at 1 MiB, 0.66-0.72 at 4 MiB). */
  if (put_ok && a->kind == GASNETE_COLL_BROADCAST && networked && size >= 4) {
    int host_small = team->one_host_apart && !in_segment &&
                     a->nbytes < GASNETE_COLL_HOST_BCAST_TREE_MIN;
    if (!host_small) return "put_tree";
    put_ok = 0;
  }
  if (put_ok && a->kind <= GASNETE_COLL_EXCHANGE) return "put";
  switch (a->kind) {
    /* Past 4 ranks on 2 cores the eager trees stayed ahead of the
     * handshakes, so only the pipe, whose chain spreads the copies, and
     * only up to 4 ranks. */
    case GASNETE_COLL_BROADCAST:
      if (direct_ok) return "direct";
      if (large && few) return "pipe";
      if (networked && a->nbytes <= GASNETE_COLL_NET_BCAST_TREE_MAX) return "binomial";
      return few ? "flat" : "binomial";
    case GASNETE_COLL_SCATTER:
    case GASNETE_COLL_GATHER:
      if (direct_ok) return "direct";
      if (large) return "flow";
      /* Over the network the root's sends are what limits back-to-back
       * scatters, and the tree leaves it 2 at 4 ranks where flat has 3
       * (over TCP at 4 ranks, 8 B to 64 KiB, a tenth to a quarter less
       * time). A gather's root receives instead; there the two were
       * level, so gather keeps flat up to 4 ranks. */
      if (networked && a->kind == GASNETE_COLL_SCATTER) return "binomial";
      return few ? "flat" : "binomial";
    /* Every rank sends P-1 blocks: flat while they are small, the ring's
     * one neighbour each way for large ones. */
    case GASNETE_COLL_GATHER_ALL:
      if (direct_ok) return "direct";
      if (large) return "ring";
      return few ? "flat" : "dissem";
    case GASNETE_COLL_EXCHANGE:
      if (direct_ok) return "direct";
      if (large) return "pairwise";
      return (a->nbytes <= 64 && size > 4) ? "bruck" : "staggered";
    /* Reduce sends one small partial per subtree (per row when
     * non-commutative): a flat tree's root does the fewest hops while it
     * has few children. */
    case GASNETE_COLL_REDUCE: return few ? "flat" : "binomial";
    /* The chain where it applies (arrays of one row): nobody waits for a
     * higher rank, so back-to-back scans flow. Its P-1 hops cost more than
     * the dissemination's log2(P) rounds for larger teams and, at 5 to 8
     * ranks, for large blocks. */
    case GASNETE_COLL_SCAN: {
      size_t per_rank = a->red.elem_size * (a->red.elem_count / size);
      int chain = size <= 4 || (size <= 8 && per_rank < GASNETE_COLL_CHAIN_SCAN_MAX);
      return chain && gasnete_coll_scan_chain_eligible(a, team) ? "chain" : "dissem";
    }
    default: break;
  }
  return NULL;
}


/* ------------------------------------------------------------ the tables */
extern const gasnete_coll_alg_t gasnete_coll_bcast_algs[], gasnete_coll_scatter_algs[],
    gasnete_coll_gather_algs[], gasnete_coll_gather_all_algs[], gasnete_coll_exchange_algs[],
    gasnete_coll_reduce_algs[], gasnete_coll_scan_algs[];
extern const unsigned gasnete_coll_bcast_nalgs, gasnete_coll_scatter_nalgs,
    gasnete_coll_gather_nalgs, gasnete_coll_gather_all_nalgs, gasnete_coll_exchange_nalgs,
    gasnete_coll_reduce_nalgs, gasnete_coll_scan_nalgs;

static void gasnete_coll_register(gasnete_coll_kind_t kind, const char *op, const char *env,
                                  const gasnete_coll_alg_t *algs, unsigned nalgs) {
  gasnete_coll_select_register(kind, op, env, algs, nalgs, gasnete_coll_default_name);
}

void gasnete_coll_ops_init(void) {
  gasnete_coll_register(GASNETE_COLL_BROADCAST, "broadcast", "GASNET_COLL_BROADCAST_ALG",
                        gasnete_coll_bcast_algs, gasnete_coll_bcast_nalgs);
  gasnete_coll_register(GASNETE_COLL_SCATTER, "scatter", "GASNET_COLL_SCATTER_ALG",
                        gasnete_coll_scatter_algs, gasnete_coll_scatter_nalgs);
  gasnete_coll_register(GASNETE_COLL_GATHER, "gather", "GASNET_COLL_GATHER_ALG",
                        gasnete_coll_gather_algs, gasnete_coll_gather_nalgs);
  gasnete_coll_register(GASNETE_COLL_GATHER_ALL, "gather_all", "GASNET_COLL_GATHER_ALL_ALG",
                        gasnete_coll_gather_all_algs, gasnete_coll_gather_all_nalgs);
  gasnete_coll_register(GASNETE_COLL_EXCHANGE, "exchange", "GASNET_COLL_EXCHANGE_ALG",
                        gasnete_coll_exchange_algs, gasnete_coll_exchange_nalgs);
  gasnete_coll_register(GASNETE_COLL_REDUCE, "reduce", "GASNET_COLL_REDUCE_ALG",
                        gasnete_coll_reduce_algs, gasnete_coll_reduce_nalgs);
  gasnete_coll_register(GASNETE_COLL_SCAN, "scan", "GASNET_COLL_SCAN_ALG", gasnete_coll_scan_algs,
                        gasnete_coll_scan_nalgs);
  char put_desc[192], flow_desc[32];
  snprintf(put_desc, sizeof(put_desc),
           "%zu (%zu on teams over several supernodes; on one host through its memory %zu into "
           "the segment, %zu outside it)",
           gasnete_coll_put_threshold, gasnete_coll_put_threshold_net,
           gasnete_coll_put_threshold_host, gasnete_coll_put_threshold_host_anywhere);
  snprintf(flow_desc, sizeof(flow_desc), "%zu", gasnete_coll_flow_threshold);
  if (gasneti_getenv_verbose("GASNET_COLL_PUT_THRESHOLD", put_desc))
    gasnete_coll_put_threshold = gasnete_coll_put_threshold_net = gasnete_coll_put_threshold_host =
        gasnete_coll_put_threshold_host_anywhere =
            gasnete_coll_env_bytes("GASNET_COLL_PUT_THRESHOLD", gasnete_coll_put_threshold, put_desc);
  gasnete_coll_flow_threshold =
      gasnete_coll_env_bytes("GASNET_COLL_FLOW_THRESHOLD", gasnete_coll_flow_threshold, flow_desc);
  char direct_desc[160];
  gasnete_coll_direct_defaults();
  snprintf(direct_desc, sizeof(direct_desc),
           "%zu (%zu for a broadcast on more than 2 ranks, %zu for gather_all and exchange on 2)",
           gasnete_coll_direct_threshold, gasnete_coll_direct_threshold_wide_bcast,
           gasnete_coll_direct_threshold_pair_all);
  if (gasneti_getenv_verbose("GASNET_COLL_DIRECT_THRESHOLD", direct_desc))
    gasnete_coll_direct_threshold = gasnete_coll_direct_threshold_wide_bcast =
        gasnete_coll_direct_threshold_pair_all = gasnete_coll_env_bytes(
            "GASNET_COLL_DIRECT_THRESHOLD", gasnete_coll_direct_threshold, direct_desc);
}

size_t gasnete_coll_select_put_threshold(const gasnete_coll_team_t *team, int in_segment) {
  if (!gasnete_coll_team_networked(team)) return gasnete_coll_put_threshold;
  if (team->one_host_apart)
    return in_segment ? gasnete_coll_put_threshold_host : gasnete_coll_put_threshold_host_anywhere;
  return gasnete_coll_put_threshold_net;
}
size_t gasnete_coll_select_direct_threshold(gasnete_coll_kind_t kind,
                                            const gasnete_coll_team_t *team) {
  return gasnete_coll_direct_from(kind, team->size);
}
size_t gasnete_coll_select_flow_threshold(void) { return gasnete_coll_flow_threshold; }
