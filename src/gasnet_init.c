/* gasnet_init.c: job start-up, attach, exit and the node/segment queries,
 * the conduit-independent half of each (the conduit does the rest). */
#include "gasnet_internal.h"

#include <stdlib.h>
#include <unistd.h>

/* The thread mode this library was built for; gasnet.h makes clients refer
 * to the symbol of their own mode, so a mismatch fails at link time. */
#if defined(GASNETI_THREADS)
int gasneti_linkcheck_threadmode_PAR;
int gasneti_linkcheck_threadmode_PARSYNC;
#else
int gasneti_linkcheck_threadmode_SEQ;
#endif

/* The conduit this library is (gasnet.h names it after GASNET_CONDUIT_NAME). */
int GASNETI_CONDUIT_LINKCHECK_SYM;

gasnet_node_t gasneti_mynode;
gasnet_node_t gasneti_nodes = 1;
int gasneti_init_done;
int gasneti_attach_done;
gasnet_seginfo_t *gasneti_seginfo;
gasnet_node_t *gasneti_supernodes;

static int gasneti_learn_supernodes(const char *call) {
  gasnet_nodeinfo_t *all = malloc(gasneti_nodes * sizeof *all);
  gasneti_supernodes = malloc(gasneti_nodes * sizeof *gasneti_supernodes);
  if (!all || !gasneti_supernodes) {
    free(all);
    return gasneti_error(GASNET_ERR_RESOURCE, call, "out of memory for the node table");
  }
  gasnetc_nodeinfo(all);
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++) gasneti_supernodes[i] = all[i].supernode;
  free(all);
  return GASNET_OK;
}

int gasneti_init(int *argc, char ***argv, int *linkcheck, int *conduit_linkcheck) {
  (void)linkcheck;
  (void)conduit_linkcheck;
  if (gasneti_init_done)
    return gasneti_error(GASNET_ERR_RESOURCE, "gasnet_init", "called more than once");
  gasneti_signals_save();
  gasneti_env_hooks_install();
  int rc = gasnetc_init(argc, argv);
  if (rc != GASNET_OK) return rc;
  gasneti_init_done = 1;
  gasneti_env_node_known();
  gasneti_signals_install();
  gasneti_events_init();
  gasneti_debug_init();
  gasneti_wait_init(gasnetc_local_processes(), gasnetc_local_cpus());
  gasneti_am_coalesce_init();
  if (gasneti_trace_on('I'))
    gasneti_trace_printf('I', "INIT nodes=%u pid=%d", (unsigned)gasneti_nodes, (int)getpid());
  return GASNET_OK;
}

static uintptr_t gasneti_round_to_page(uintptr_t size) {
  return (size + GASNET_PAGESIZE - 1) & ~(uintptr_t)(GASNET_PAGESIZE - 1);
}

int gasnet_attach(gasnet_handlerentry_t *table, int numentries, uintptr_t segsize,
                  uintptr_t minheapoffset) {
  static const char call[] = "gasnet_attach";
  (void)minheapoffset; /* segments live in their own mapping, never near the heap */
  if (!gasneti_init_done)
    return gasneti_error(GASNET_ERR_NOT_INIT, call, "gasnet_init has not been called");
  if (gasneti_attach_done) return gasneti_error(GASNET_ERR_RESOURCE, call, "called more than once");
  int rc = gasneti_handler_register_client(table, numentries);
  if (rc != GASNET_OK) return rc;
  /* GASNet asks for a page multiple; rounding up serves clients that pass
   * a plain byte count. */
  uintptr_t rounded = gasneti_round_to_page(segsize);
  if (rounded < segsize || rounded > gasnetc_max_local_segsize())
    return gasneti_error(GASNET_ERR_BAD_ARG, call,
                         "segsize %" PRIuPTR " exceeds gasnet_getMaxLocalSegmentSize() %" PRIuPTR,
                         segsize, gasnetc_max_local_segsize());
  gasneti_seginfo = calloc(gasneti_nodes, sizeof(gasnet_seginfo_t));
  if (!gasneti_seginfo) return gasneti_error(GASNET_ERR_RESOURCE, call, "out of memory");
  rc = gasnetc_attach_segment(rounded);
  if (rc != GASNET_OK) return rc;
  rc = gasneti_learn_supernodes(call);
  if (rc != GASNET_OK) return rc;
  gasneti_attach_done = 1;
  gasneti_attach_hooks_run();
  if (gasneti_trace_on('I'))
    gasneti_trace_printf('I', "ATTACH segaddr=%p segsize=%" PRIuPTR,
                         gasneti_seginfo[gasneti_mynode].addr,
                         gasneti_seginfo[gasneti_mynode].size);
  return GASNET_OK;
}

void gasnet_exit(int exitcode) {
  if (gasneti_trace_on('I')) gasneti_trace_printf('I', "EXIT code=%d", exitcode);
  fflush(NULL);
  if (!gasneti_init_done) _Exit(exitcode);
  gasnetc_exit(exitcode);
}

gasnet_node_t gasnet_mynode(void) { return gasneti_mynode; }
gasnet_node_t gasnet_nodes(void) { return gasneti_nodes; }

uintptr_t gasnet_getMaxLocalSegmentSize(void) {
  if (!gasneti_init_done) gasneti_fatalerror("gasnet_getMaxLocalSegmentSize: called before gasnet_init");
  return gasnetc_max_local_segsize();
}

uintptr_t gasnet_getMaxGlobalSegmentSize(void) {
  if (!gasneti_init_done) gasneti_fatalerror("gasnet_getMaxGlobalSegmentSize: called before gasnet_init");
  return gasnetc_max_global_segsize();
}

int gasnet_getSegmentInfo(gasnet_seginfo_t *seginfo_table, int numentries) {
  static const char call[] = "gasnet_getSegmentInfo";
  if (!gasneti_attach_done) return gasneti_error(GASNET_ERR_NOT_INIT, call, "called before gasnet_attach");
  if (numentries < 0 || (numentries > 0 && !seginfo_table))
    return gasneti_error(GASNET_ERR_BAD_ARG, call, "table %p numentries %d",
                         (void *)seginfo_table, numentries);
  for (int i = 0; i < numentries && (gasnet_node_t)i < gasneti_nodes; i++)
    seginfo_table[i] = gasneti_seginfo[i];
  return GASNET_OK;
}

int gasnet_getNodeInfo(gasnet_nodeinfo_t *nodeinfo_table, int numentries) {
  static const char call[] = "gasnet_getNodeInfo";
  if (!gasneti_init_done) return gasneti_error(GASNET_ERR_NOT_INIT, call, "called before gasnet_init");
  if (numentries < 0 || (numentries > 0 && !nodeinfo_table))
    return gasneti_error(GASNET_ERR_BAD_ARG, call, "table %p numentries %d",
                         (void *)nodeinfo_table, numentries);
  gasnet_nodeinfo_t *all = calloc(gasneti_nodes, sizeof(*all));
  if (!all) return gasneti_error(GASNET_ERR_RESOURCE, call, "out of memory");
  gasnetc_nodeinfo(all);
  for (int i = 0; i < numentries && (gasnet_node_t)i < gasneti_nodes; i++) nodeinfo_table[i] = all[i];
  free(all);
  return GASNET_OK;
}
