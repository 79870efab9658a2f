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
 * sets both. On a team over several supernodes puts pay only for large
 * blocks: a peer must first announce its buffer (a round trip across the
 * network), and a put's AM Long larger than the conduit's packet costs the
 * transport a rendezvous, where Mediums stream. Over TCP the eager and
 * flow-controlled algorithms took a half to a third of put's time from 8
 * KiB to 256 KiB, level at 512 KiB, behind from 1 MiB for gather_all and
 * exchange (docs/performance.md, "How the selector's rules were measured"). */
static size_t gasnete_coll_put_threshold = 8192;
static size_t gasnete_coll_put_threshold_net = 524288;

/* At and above this many bytes per block, the flow-controlled algorithms
 * (coll_flow.h: broadcast pipe, scatter and gather flow, gather_all ring,
 * exchange pairwise) replace the eager AM ones, whose receivers would
 * otherwise take large data through the early-arrival store;
 * GASNET_COLL_FLOW_THRESHOLD. */
static size_t gasnete_coll_flow_threshold = 131072;

/* Above 3 ranks, the chain scan only for fewer bytes a rank than this
 * within one supernode, and than the _NET one on a team over several:
 * there every dissemination round waits for messages across the network
 * from ranks that are themselves waiting, while the chain's ranks only
 * wait for lower ones, so scans issued back to back flow
 * (docs/performance.md, "How the selector's rules were measured"). */
#define GASNETE_COLL_CHAIN_SCAN_MAX 32768u
#define GASNETE_COLL_CHAIN_SCAN_MAX_NET 524288u

/* When GASNET_COLL_DIRECT_THRESHOLD is set: the bytes per block from which
 * a broadcast, scatter or gather out of the segment reads peers' buffers
 * directly where the conduit allows (gather_all and exchange from 8 times
 * it, below). Unset, the rules below apply. */
#define GASNETE_COLL_DIRECT_OFF SIZE_MAX
static size_t gasnete_coll_direct_threshold = GASNETE_COLL_DIRECT_OFF;

/* Up to this many ranks the flat trees and the pipe; trees above. */
#define GASNETE_COLL_FEW_RANKS 4u

/* Unset, broadcast and scatter read directly from 1 MiB a block; gather
 * only on 2 ranks (below). The pipe and flow hand
 * the data through a shared ring, so every cache line passes from the
 * writer's core to the reader's; on a VM whose two virtual CPUs the host
 * places now on cores sharing a cache (a cache line's round trip about
 * 110 ns) and now on cores that do not (about 500 ns), the same 1 MiB
 * took 2 to 5 times as long in the second placement, where one
 * cross-memory copy did not change. At 2 ranks direct matched pipe and
 * flow in the good placement, at 3 it was ahead. A broadcast's root is
 * read by every rank, and at 4 ranks that cost 1.27x the pipe's time at 1
 * MiB, 0.91x at 2 MiB, until the root took a share of each copy
 * (below): then level in the good placement and 0.5x in the other. Above
 * 4 ranks, where the binomial tree replaces the pipe, direct took
 * 0.7-0.8x its time at 1 MiB. A gather's root reads every block after
 * copying its own where flow overlaps the two, so flow stayed twice as
 * fast in the good placement, before the shares below
 * (docs/performance.md, "Broadcast and scatter read directly from 1
 * MiB"). */
#define GASNETE_COLL_DIRECT_ROOTED_MIN 1048576u

/* On a team of 2 ranks broadcast, scatter and gather read directly from
 * 256 KiB: there the rank that would wait writes part of the block itself
 * (gasnete_coll_readfan_root_share, _leaf_share), which took the direct
 * broadcast and scatter to 0.74-0.80x the pipe's and flow's median time
 * at 256 KiB, 0.67-0.71x at 512 KiB and 0.82-0.91x at 128 KiB (at 64 KiB
 * they lost, 1.12-1.22x), and the direct gather to 0.49-0.55x flow's from
 * 128 KiB to 1 MiB, flat where flow's copies through the ring followed
 * the CPUs' placement (max / min 1.2-1.7 against 3.7-4.5). At 3 ranks direct
 * still lost to the tree at 256 and 512 KiB, and at 3 and 4 the gather's
 * flow stayed ahead (docs/performance.md, "The idle side takes a share of
 * the copy"). */
#define GASNETE_COLL_DIRECT_PAIR_MIN 262144u

/* gather_all and exchange, where every rank takes P-1 blocks, read them
 * directly from this many bytes per block: the ring and pairwise hand
 * 64 KiB chunks over one announcement and one acknowledgement at a time
 * (besides the cache lines' trips above), and when processes share cores each
 * hand-over waits for the scheduler. At 1 MiB (smp, 2 cores) direct took
 * 0.70x pairwise's median time at 4 processes, and at 2 it ended the
 * exchange's slow runs (max/min 1.13 against 3.5); at 4 MiB it took
 * 0.47-0.77x of ring's and pairwise's (docs/performance.md, "Large
 * transfers: the slow mode"). GASNET_COLL_DIRECT_THRESHOLD, when set,
 * replaces this with 8 times its value. */
#define GASNETE_COLL_DIRECT_ALL_MIN 1048576u
static size_t gasnete_coll_direct_all_min = GASNETE_COLL_DIRECT_ALL_MIN;
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

/* Does a broadcast, scatter or gather take direct (the rules above)? */
static int gasnete_coll_direct_rooted(const gasnete_coll_args_t *a, gasnet_node_t size) {
  if (!gasnete_coll_readfan_available()) return 0;
  if (gasnete_coll_direct_threshold != GASNETE_COLL_DIRECT_OFF)
    return a->nbytes >= gasnete_coll_direct_threshold;
  if (a->kind > GASNETE_COLL_GATHER) return 0;
  if (size == 2) return a->nbytes >= GASNETE_COLL_DIRECT_PAIR_MIN;
  if (a->kind == GASNETE_COLL_GATHER) return 0;
  return a->nbytes >= GASNETE_COLL_DIRECT_ROOTED_MIN;
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
  int put_ok = (a->flags & GASNET_COLL_DST_IN_SEGMENT) &&
               a->nbytes >= gasnete_coll_select_put_threshold(team);
  int direct_ok = gasnete_coll_direct_rooted(a, size);
  int direct_all_ok = gasnete_coll_readfan_available() && a->nbytes >= gasnete_coll_direct_all_min;
  int large = a->nbytes >= gasnete_coll_flow_threshold;
  int few = size <= GASNETE_COLL_FEW_RANKS;
  if (hier && gasnete_coll_hier_wins(a, team, large)) return "hier";
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
      if (direct_all_ok) return "direct";
      if (large) return "ring";
      return few ? "flat" : "dissem";
    case GASNETE_COLL_EXCHANGE:
      if (direct_all_ok) return "direct";
      if (large) return "pairwise";
      return (a->nbytes <= 64 && size > 4) ? "bruck" : "staggered";
    /* Reduce sends one small partial per subtree (per row when
     * non-commutative): a flat tree's root does the fewest hops while it
     * has few children. */
    case GASNETE_COLL_REDUCE: return few ? "flat" : "binomial";
    /* The chain where it applies (arrays of one row): nobody waits for a
     * higher rank, so back-to-back scans flow. Its P-1 hops cost more than
     * the dissemination's log2(P) rounds for larger teams, and at 4 ranks
     * from 32 KiB a rank (its carry waits for every lower rank's pass over
     * its elements). */
    case GASNETE_COLL_SCAN: {
      size_t per_rank = a->red.elem_size * (a->red.elem_count / size);
      size_t chain_max = networked ? GASNETE_COLL_CHAIN_SCAN_MAX_NET : GASNETE_COLL_CHAIN_SCAN_MAX;
      int chain = size <= 3 || (size <= 8 && per_rank < chain_max);
      return chain && gasnete_coll_scan_chain_eligible(a, size) ? "chain" : "dissem";
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
  char put_desc[96], flow_desc[32];
  snprintf(put_desc, sizeof(put_desc), "%zu (%zu on teams over several supernodes)",
           gasnete_coll_put_threshold, gasnete_coll_put_threshold_net);
  snprintf(flow_desc, sizeof(flow_desc), "%zu", gasnete_coll_flow_threshold);
  if (gasneti_getenv_verbose("GASNET_COLL_PUT_THRESHOLD", put_desc))
    gasnete_coll_put_threshold = gasnete_coll_put_threshold_net =
        gasnete_coll_env_bytes("GASNET_COLL_PUT_THRESHOLD", gasnete_coll_put_threshold, put_desc);
  gasnete_coll_flow_threshold =
      gasnete_coll_env_bytes("GASNET_COLL_FLOW_THRESHOLD", gasnete_coll_flow_threshold, flow_desc);
  gasnete_coll_direct_threshold = gasnete_coll_env_bytes(
      "GASNET_COLL_DIRECT_THRESHOLD", gasnete_coll_direct_threshold,
      "off (broadcast and scatter direct from 1 MiB; gather never; on 2 ranks all three from 256 KiB; gather_all and exchange from 1 MiB)");
  if (gasnete_coll_direct_threshold != GASNETE_COLL_DIRECT_OFF)
    gasnete_coll_direct_all_min = gasnete_coll_direct_threshold > SIZE_MAX / 8
                                      ? SIZE_MAX
                                      : gasnete_coll_direct_threshold * 8;
}

size_t gasnete_coll_select_put_threshold(const gasnete_coll_team_t *team) {
  return gasnete_coll_team_networked(team) ? gasnete_coll_put_threshold_net
                                           : gasnete_coll_put_threshold;
}
size_t gasnete_coll_select_direct_threshold(void) { return gasnete_coll_direct_threshold; }
size_t gasnete_coll_select_flow_threshold(void) { return gasnete_coll_flow_threshold; }
