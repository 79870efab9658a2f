/* gasnet_coll.h: the GASNet collectives (design notes rev. 1.37, "current
 * proposal"). gasnet.h includes it, as GASNet-1's does; link
 * libgasnet-coll-<seq|par> before a conduit library of the same thread mode
 * (the installed makefile fragments and pkg-config files do). */
#ifndef GASNET_COLL_H
#define GASNET_COLL_H

#include <gasnet.h>
#include <stddef.h>

GASNETI_BEGIN_EXTERNC

/* ------------------------------------------------------------ flags
 * Every collective takes exactly one IN_* and one OUT_* sync mode and
 * exactly one of SINGLE / LOCAL. */
#define GASNET_COLL_IN_NOSYNC (1 << 0)
#define GASNET_COLL_IN_MYSYNC (1 << 1)
#define GASNET_COLL_IN_ALLSYNC (1 << 2)
#define GASNET_COLL_OUT_NOSYNC (1 << 3)
#define GASNET_COLL_OUT_MYSYNC (1 << 4)
#define GASNET_COLL_OUT_ALLSYNC (1 << 5)
#define GASNET_COLL_SINGLE (1 << 6)
#define GASNET_COLL_LOCAL (1 << 7)
#define GASNET_COLL_AGGREGATE (1 << 8)
#define GASNET_COLL_DST_IN_SEGMENT (1 << 9)
#define GASNET_COLL_SRC_IN_SEGMENT (1 << 10)
/* Scan kinds. */
#define GASNET_COLL_INCLUSIVE_SCAN (1 << 11)
#define GASNET_COLL_EXCLUSIVE_SCAN (1 << 12)
/* Reduce and scan (an extension): read blksz 0 as the "indefinite layout"
 * of the design notes (every element on image `offset`) instead of the
 * element-wise reduction across images GASNet 1.x clients mean by it. */
#define GASNET_COLL_INDEFINITE_LAYOUT (1 << 13)
/* Flags of a registered reduction function (gasnet_coll_fn_entry_t). */
#define GASNET_COLL_AMSAFE (1 << 0)
#define GASNET_COLL_NONCOMM (1 << 1)

/* Collectives that may be outstanding at once without any sync by the
 * client; the implementation has no fixed limit below this. */
#define GASNET_COLL_MAX_OUTSTANDING 65535

/* ------------------------------------------------------------ types */
/* A team handle is the team's id in bits a pointer can hold (id * 2 + 1),
 * not an address, so it has the same bits on every member of the team and
 * can be compared for equality or sent to a peer. Team ids are unique
 * among the live teams of a node; teams with disjoint members may share
 * one. GASNET_TEAM_ALL is id 0. */
struct gasnete_coll_team_s;
typedef struct gasnete_coll_team_s *gasnet_team_handle_t;
#define GASNET_TEAM_ALL ((gasnet_team_handle_t)(uintptr_t)1)

struct gasnete_coll_handle_s;
typedef struct gasnete_coll_handle_s *gasnet_coll_handle_t;
/* All zero bits: the operation is already complete. */
#define GASNET_COLL_INVALID_HANDLE ((gasnet_coll_handle_t)0)

/* Reduction functions are named by their index in the table given to
 * gasnet_coll_init. */
typedef uint32_t gasnet_coll_fn_handle_t;
typedef void (*gasnet_coll_fn_t)();
typedef void (*gasnet_coll_reduce_fn_t)(void *results, size_t result_count,
                                        const void *left_operands, size_t left_count,
                                        const void *right_operands, size_t elem_size, int flags,
                                        int arg);
/* fnptr has the reduction type, as in GASNet-1, so C++ clients store their
 * functions without a cast. */
typedef struct {
  gasnet_coll_reduce_fn_t fnptr;
  unsigned int flags;
} gasnet_coll_fn_entry_t;

/* ------------------------------------------------------------ start-up */
/* Collective over every node (and every image), after gasnet_attach and
 * before any other gasnet_coll_ call. images == NULL: one image per node. */
extern void gasnet_coll_init(const gasnet_image_t images[], gasnet_image_t my_image,
                             const gasnet_coll_fn_entry_t fn_tbl[], size_t fn_count,
                             int init_flags);

/* ------------------------------------------------------------ data movement */
extern gasnet_coll_handle_t gasnet_coll_broadcast_nb(gasnet_team_handle_t team, void *dst,
                                                     gasnet_image_t srcimage, void *src,
                                                     size_t nbytes, int flags);
extern void gasnet_coll_broadcast(gasnet_team_handle_t team, void *dst, gasnet_image_t srcimage,
                                  void *src, size_t nbytes, int flags);

extern gasnet_coll_handle_t gasnet_coll_scatter_nb(gasnet_team_handle_t team, void *dst,
                                                   gasnet_image_t srcimage, void *src,
                                                   size_t nbytes, int flags);
extern void gasnet_coll_scatter(gasnet_team_handle_t team, void *dst, gasnet_image_t srcimage,
                                void *src, size_t nbytes, int flags);

extern gasnet_coll_handle_t gasnet_coll_gather_nb(gasnet_team_handle_t team,
                                                  gasnet_image_t dstimage, void *dst, void *src,
                                                  size_t nbytes, int flags);
extern void gasnet_coll_gather(gasnet_team_handle_t team, gasnet_image_t dstimage, void *dst,
                               void *src, size_t nbytes, int flags);

extern gasnet_coll_handle_t gasnet_coll_gather_all_nb(gasnet_team_handle_t team, void *dst,
                                                      void *src, size_t nbytes, int flags);
extern void gasnet_coll_gather_all(gasnet_team_handle_t team, void *dst, void *src,
                                   size_t nbytes, int flags);

extern gasnet_coll_handle_t gasnet_coll_exchange_nb(gasnet_team_handle_t team, void *dst,
                                                    void *src, size_t nbytes, int flags);
extern void gasnet_coll_exchange(gasnet_team_handle_t team, void *dst, void *src, size_t nbytes,
                                 int flags);

/* ------------------------------------------------------------ computation
 * Reduce and prefix reduction (scan) with a function of the table given to
 * gasnet_coll_init (docs/collectives.md, "Reduce and scan").
 * blksz 0 (offsets 0; for a scan both blksz 0), as GASNet 1.x clients call
 * them: element-wise across images. Every image gives elem_count elements
 * at src; element i of the result is every image's element i combined in
 * image order: at dstimage for reduce, and for scan at every image, over
 * the images up to it (inclusive) or before it (exclusive: image 0's dst
 * is left untouched). The function is called as GASNet 1.x calls it, in
 * place: fn(acc, n, acc, n, next, elem_size, flags, arg).
 * blksz > 0: src (and a scan's dst) is a distributed array of elem_count
 * elements, block-cyclic with blocks of blksz elements starting offset
 * elements in; with GASNET_COLL_INDEFINITE_LAYOUT, blksz 0 puts every
 * element on image `offset`. A scan takes exactly one of
 * GASNET_COLL_INCLUSIVE_SCAN / GASNET_COLL_EXCLUSIVE_SCAN. */
extern gasnet_coll_handle_t gasnet_coll_reduce_nb(gasnet_team_handle_t team,
                                                  gasnet_image_t dstimage, void *dst, void *src,
                                                  size_t src_blksz, size_t src_offset,
                                                  size_t elem_size, size_t elem_count,
                                                  gasnet_coll_fn_handle_t func, int func_arg,
                                                  int flags);
extern void gasnet_coll_reduce(gasnet_team_handle_t team, gasnet_image_t dstimage, void *dst,
                               void *src, size_t src_blksz, size_t src_offset, size_t elem_size,
                               size_t elem_count, gasnet_coll_fn_handle_t func, int func_arg,
                               int flags);
extern gasnet_coll_handle_t gasnet_coll_scan_nb(gasnet_team_handle_t team, void *dst,
                                                size_t dst_blksz, size_t dst_offset, void *src,
                                                size_t src_blksz, size_t src_offset,
                                                size_t elem_size, size_t elem_count,
                                                gasnet_coll_fn_handle_t func, int func_arg,
                                                int flags);
extern void gasnet_coll_scan(gasnet_team_handle_t team, void *dst, size_t dst_blksz,
                             size_t dst_offset, void *src, size_t src_blksz, size_t src_offset,
                             size_t elem_size, size_t elem_count, gasnet_coll_fn_handle_t func,
                             int func_arg, int flags);

/* Built-in reduction functions (an extension: the spec has none). Put them
 * in the table given to gasnet_coll_init, e.g. {gasnet_coll_fn_sum, 0}, and
 * pass the element type as func_arg. All are commutative; floating-point
 * results are still the same from run to run (the order of evaluation is
 * fixed). Bitwise functions take integer types only. minloc / maxloc take
 * GASNET_COLL_TYPE_DOUBLE (elements gasnet_coll_loc_double_t) or
 * GASNET_COLL_TYPE_INT64 (gasnet_coll_loc_int64_t); ties go to the smaller
 * loc. */
typedef enum {
  GASNET_COLL_TYPE_INT8,
  GASNET_COLL_TYPE_UINT8,
  GASNET_COLL_TYPE_INT16,
  GASNET_COLL_TYPE_UINT16,
  GASNET_COLL_TYPE_INT32,
  GASNET_COLL_TYPE_UINT32,
  GASNET_COLL_TYPE_INT64,
  GASNET_COLL_TYPE_UINT64,
  GASNET_COLL_TYPE_FLOAT,
  GASNET_COLL_TYPE_DOUBLE
} gasnet_coll_type_t;

typedef struct {
  double value;
  int64_t loc;
} gasnet_coll_loc_double_t;
typedef struct {
  int64_t value;
  int64_t loc;
} gasnet_coll_loc_int64_t;

extern void gasnet_coll_fn_sum(void *, size_t, const void *, size_t, const void *, size_t, int, int);
extern void gasnet_coll_fn_prod(void *, size_t, const void *, size_t, const void *, size_t, int, int);
extern void gasnet_coll_fn_min(void *, size_t, const void *, size_t, const void *, size_t, int, int);
extern void gasnet_coll_fn_max(void *, size_t, const void *, size_t, const void *, size_t, int, int);
extern void gasnet_coll_fn_band(void *, size_t, const void *, size_t, const void *, size_t, int, int);
extern void gasnet_coll_fn_bor(void *, size_t, const void *, size_t, const void *, size_t, int, int);
extern void gasnet_coll_fn_bxor(void *, size_t, const void *, size_t, const void *, size_t, int, int);
extern void gasnet_coll_fn_minloc(void *, size_t, const void *, size_t, const void *, size_t, int,
                                  int);
extern void gasnet_coll_fn_maxloc(void *, size_t, const void *, size_t, const void *, size_t, int,
                                  int);

/* ------------------------------------------------------------ multiple addresses
 * The M forms name one address per image: with GASNET_COLL_SINGLE a list of
 * NImages addresses (the same contents on every image; entry i is image
 * i's), with GASNET_COLL_LOCAL a list of the calling node's images[node]
 * addresses (entry j is the node's j-th image). Every image calls them, as
 * any collective; each takes its own entry. seed 002 spells them with a
 * lowercase m; both spellings are the same functions. */
extern gasnet_coll_handle_t gasnet_coll_broadcastM_nb(gasnet_team_handle_t team,
                                                      void *const dstlist[],
                                                      gasnet_image_t srcimage, void *src,
                                                      size_t nbytes, int flags);
extern void gasnet_coll_broadcastM(gasnet_team_handle_t team, void *const dstlist[],
                                   gasnet_image_t srcimage, void *src, size_t nbytes, int flags);
extern gasnet_coll_handle_t gasnet_coll_scatterM_nb(gasnet_team_handle_t team,
                                                    void *const dstlist[], gasnet_image_t srcimage,
                                                    void *src, size_t nbytes, int flags);
extern void gasnet_coll_scatterM(gasnet_team_handle_t team, void *const dstlist[],
                                 gasnet_image_t srcimage, void *src, size_t nbytes, int flags);
extern gasnet_coll_handle_t gasnet_coll_gatherM_nb(gasnet_team_handle_t team,
                                                   gasnet_image_t dstimage, void *dst,
                                                   void *const srclist[], size_t nbytes,
                                                   int flags);
extern void gasnet_coll_gatherM(gasnet_team_handle_t team, gasnet_image_t dstimage, void *dst,
                                void *const srclist[], size_t nbytes, int flags);
extern gasnet_coll_handle_t gasnet_coll_gather_allM_nb(gasnet_team_handle_t team,
                                                       void *const dstlist[],
                                                       void *const srclist[], size_t nbytes,
                                                       int flags);
extern void gasnet_coll_gather_allM(gasnet_team_handle_t team, void *const dstlist[],
                                    void *const srclist[], size_t nbytes, int flags);
extern gasnet_coll_handle_t gasnet_coll_exchangeM_nb(gasnet_team_handle_t team,
                                                     void *const dstlist[], void *const srclist[],
                                                     size_t nbytes, int flags);
extern void gasnet_coll_exchangeM(gasnet_team_handle_t team, void *const dstlist[],
                                  void *const srclist[], size_t nbytes, int flags);
extern gasnet_coll_handle_t gasnet_coll_reduceM_nb(gasnet_team_handle_t team,
                                                   gasnet_image_t dstimage, void *dst,
                                                   void *const srclist[], size_t src_blksz,
                                                   size_t src_offset, size_t elem_size,
                                                   size_t elem_count, gasnet_coll_fn_handle_t func,
                                                   int func_arg, int flags);
extern void gasnet_coll_reduceM(gasnet_team_handle_t team, gasnet_image_t dstimage, void *dst,
                                void *const srclist[], size_t src_blksz, size_t src_offset,
                                size_t elem_size, size_t elem_count, gasnet_coll_fn_handle_t func,
                                int func_arg, int flags);
extern gasnet_coll_handle_t gasnet_coll_scanM_nb(gasnet_team_handle_t team, void *const dstlist[],
                                                 size_t dst_blksz, size_t dst_offset,
                                                 void *const srclist[], size_t src_blksz,
                                                 size_t src_offset, size_t elem_size,
                                                 size_t elem_count, gasnet_coll_fn_handle_t func,
                                                 int func_arg, int flags);
extern void gasnet_coll_scanM(gasnet_team_handle_t team, void *const dstlist[], size_t dst_blksz,
                              size_t dst_offset, void *const srclist[], size_t src_blksz,
                              size_t src_offset, size_t elem_size, size_t elem_count,
                              gasnet_coll_fn_handle_t func, int func_arg, int flags);
#define gasnet_coll_broadcastm_nb gasnet_coll_broadcastM_nb
#define gasnet_coll_broadcastm gasnet_coll_broadcastM
#define gasnet_coll_scatterm_nb gasnet_coll_scatterM_nb
#define gasnet_coll_scatterm gasnet_coll_scatterM
#define gasnet_coll_gatherm_nb gasnet_coll_gatherM_nb
#define gasnet_coll_gatherm gasnet_coll_gatherM
#define gasnet_coll_gather_allm_nb gasnet_coll_gather_allM_nb
#define gasnet_coll_gather_allm gasnet_coll_gather_allM
#define gasnet_coll_exchangem_nb gasnet_coll_exchangeM_nb
#define gasnet_coll_exchangem gasnet_coll_exchangeM
#define gasnet_coll_reducem_nb gasnet_coll_reduceM_nb
#define gasnet_coll_reducem gasnet_coll_reduceM
#define gasnet_coll_scanm_nb gasnet_coll_scanM_nb
#define gasnet_coll_scanm gasnet_coll_scanM

/* ------------------------------------------------------------ teams
 * Size, rank <-> node translation and the split-phase team barrier, under
 * both spellings GASNet-1 clients use. The team barrier has the semantics
 * of gasnet_barrier_notify / _wait / _try / _result over the team's nodes,
 * called by one thread per node; with GASNET_BARRIERFLAG_IMAGES it is the
 * barrier over the team's images, called by every image. */
extern uint32_t gasnete_coll_team_size(gasnet_team_handle_t team);
extern gasnet_node_t gasnete_coll_team_rank2node(gasnet_team_handle_t team, int rank);
extern uint32_t gasnete_coll_team_node2rank(gasnet_team_handle_t team, gasnet_node_t node);
static inline uint32_t gasnet_coll_team_size(gasnet_team_handle_t team) {
  return gasnete_coll_team_size(team);
}
static inline gasnet_node_t gasnet_coll_team_rank2node(gasnet_team_handle_t team, int rank) {
  return gasnete_coll_team_rank2node(team, rank);
}
static inline uint32_t gasnet_coll_team_node2rank(gasnet_team_handle_t team, gasnet_node_t node) {
  return gasnete_coll_team_node2rank(team, node);
}

/* Making and ending teams (docs/collectives.md, "Teams").
 * gasnet_coll_team_split: collective over every member of parent; the
 * members that pass the same color form one team, ranked by relrank (ties:
 * by parent rank). Every caller gets the team it is in. clientdata is kept
 * and returned by gasnet_coll_team_clientdata.
 * gasnet_coll_team_create (an extension): collective over every member of
 * parent, each passing the same list of nmembers distinct job node numbers,
 * all members of parent; node members[i] becomes rank i. Callers not in the
 * list get NULL.
 * gasnet_coll_team_free (an extension; GASNet-1 has none): local; frees
 * what the team holds on this node. The team must be quiescent here: no
 * collective or team barrier of it in flight, no aggregate open. Never
 * GASNET_TEAM_ALL.
 * With several images per node a team is made of whole nodes: every image
 * makes these calls, a node's images with the same arguments, and gets the
 * same handle; the team's images are numbered node-major in rank order. */
extern gasnet_team_handle_t gasnete_coll_team_split_with(gasnet_team_handle_t parent,
                                                         gasnet_node_t color,
                                                         gasnet_node_t relrank, void *clientdata);
extern gasnet_team_handle_t gasnete_coll_team_create(gasnet_team_handle_t parent,
                                                     gasnet_node_t nmembers,
                                                     const gasnet_node_t *members);
extern void gasnete_coll_team_free(gasnet_team_handle_t team);
extern uint32_t gasnete_coll_team_id(gasnet_team_handle_t team);
extern void *gasnete_coll_team_clientdata(gasnet_team_handle_t team);
static inline gasnet_team_handle_t gasnet_coll_team_split(gasnet_team_handle_t parent,
                                                          gasnet_node_t color,
                                                          gasnet_node_t relrank,
                                                          void *clientdata) {
  return gasnete_coll_team_split_with(parent, color, relrank, clientdata);
}
/* GASNet-1's internal spelling, which some clients call directly:
 * gasnete_coll_team_split(parent, color, relrank, &scratch GASNETE_THREAD_GET).
 * scratch_seg is the team's scratch segment in GASNet-1; the collectives
 * here need no scratch space from the client, so it is accepted and not
 * used (NULL is fine), and the team's clientdata is NULL. */
#if defined(GASNET_PAR) || defined(GASNET_PARSYNC)
static inline gasnet_team_handle_t gasnete_coll_team_split(gasnet_team_handle_t parent,
                                                           gasnet_node_t color,
                                                           gasnet_node_t relrank,
                                                           gasnet_seginfo_t *scratch_seg,
                                                           gasnet_threadinfo_t threadinfo) {
  (void)threadinfo;
  (void)scratch_seg;
  return gasnete_coll_team_split_with(parent, color, relrank, NULL);
}
#else
static inline gasnet_team_handle_t gasnete_coll_team_split(gasnet_team_handle_t parent,
                                                           gasnet_node_t color,
                                                           gasnet_node_t relrank,
                                                           gasnet_seginfo_t *scratch_seg) {
  (void)scratch_seg;
  return gasnete_coll_team_split_with(parent, color, relrank, NULL);
}
#endif
static inline gasnet_team_handle_t gasnet_coll_team_create(gasnet_team_handle_t parent,
                                                           gasnet_node_t nmembers,
                                                           const gasnet_node_t *members) {
  return gasnete_coll_team_create(parent, nmembers, members);
}
static inline void gasnet_coll_team_free(gasnet_team_handle_t team) {
  gasnete_coll_team_free(team);
}
/* The team's id: the same value on every member (GASNET_TEAM_ALL: 0). */
static inline uint32_t gasnet_coll_team_id(gasnet_team_handle_t team) {
  return gasnete_coll_team_id(team);
}
static inline void *gasnet_coll_team_clientdata(gasnet_team_handle_t team) {
  return gasnete_coll_team_clientdata(team);
}

extern void gasnete_coll_barrier_notify(gasnet_team_handle_t team, int id, int flags);
extern int gasnete_coll_barrier_wait(gasnet_team_handle_t team, int id, int flags);
extern int gasnete_coll_barrier_try(gasnet_team_handle_t team, int id, int flags);
extern int gasnete_coll_barrier_result(gasnet_team_handle_t team, int *id);
extern int gasnete_coll_barrier(gasnet_team_handle_t team, int id, int flags);
static inline void gasnet_coll_barrier_notify(gasnet_team_handle_t team, int id, int flags) {
  gasnete_coll_barrier_notify(team, id, flags);
}
static inline int gasnet_coll_barrier_wait(gasnet_team_handle_t team, int id, int flags) {
  return gasnete_coll_barrier_wait(team, id, flags);
}
static inline int gasnet_coll_barrier_try(gasnet_team_handle_t team, int id, int flags) {
  return gasnete_coll_barrier_try(team, id, flags);
}
static inline int gasnet_coll_barrier_result(gasnet_team_handle_t team, int *id) {
  return gasnete_coll_barrier_result(team, id);
}
static inline int gasnet_coll_barrier(gasnet_team_handle_t team, int id, int flags) {
  return gasnete_coll_barrier(team, id, flags);
}

/* ------------------------------------------------------------ diagnostics
 * Not collective; only the team's rank 0 writes (what they report is the
 * same on every member). filename NULL: stdout; otherwise the file is
 * replaced. dumpTuningState: the algorithm table of every operation, the
 * environment overrides, and the algorithm chosen for this team's size at
 * each power-of-two size. dumpProfile: per operation, the calls made on
 * this team so far and the bytes they named (nbytes; reduce and scan:
 * elem_size * elem_count). */
extern void gasnete_coll_dumpTuningState(char *filename, gasnet_team_handle_t team);
extern void gasnete_coll_dumpProfile(char *filename, gasnet_team_handle_t team);
static inline void gasnet_coll_dumpTuningState(char *filename, gasnet_team_handle_t team) {
  gasnete_coll_dumpTuningState(filename, team);
}
static inline void gasnet_coll_dumpProfile(char *filename, gasnet_team_handle_t team) {
  gasnete_coll_dumpProfile(filename, team);
}

/* ------------------------------------------------------------ synchronisation
 * Not collective: each node syncs its own handles, in any order. try_*
 * return GASNET_OK or GASNET_ERR_NOT_READY. The _all and _some forms
 * overwrite each completed handle with GASNET_COLL_INVALID_HANDLE. */
extern int gasnet_coll_try_sync(gasnet_coll_handle_t handle);
extern void gasnet_coll_wait_sync(gasnet_coll_handle_t handle);
extern int gasnet_coll_try_sync_all(gasnet_coll_handle_t *handles, size_t numhandles);
extern void gasnet_coll_wait_sync_all(gasnet_coll_handle_t *handles, size_t numhandles);
extern int gasnet_coll_try_sync_some(gasnet_coll_handle_t *handles, size_t numhandles);
extern void gasnet_coll_wait_sync_some(gasnet_coll_handle_t *handles, size_t numhandles);

GASNETI_END_EXTERNC

#endif
