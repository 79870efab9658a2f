/* mpi_boot.c: start-up of the mpi conduit. gasnetc_init initialises MPI
 * (unless the client already did), duplicates MPI_COMM_WORLD, learns the
 * hosts, agrees on the protocol's sizes and posts the receive pools;
 * gasnetc_attach_segment maps this node's segment and exchanges every
 * node's address and size with MPI_Iallgather, watching for exit notices
 * meanwhile. */
#define _GNU_SOURCE
#include "mpi_shm.h"
#include "mpi_internal.h"
#include "mpi_rma.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

gasnetc_mpi_t gasnetc_mpi;
GASNETI_THREAD_LOCAL volatile int gasnetc_lock_depth;
#ifdef GASNETI_THREADS
pthread_mutex_t gasnetc_mpi_lock = PTHREAD_MUTEX_INITIALIZER;
int gasnetc_lock_waiters;
#endif

static uintptr_t gasnetc_max_local, gasnetc_max_global;

/* ------------------------------------------------------------ start-up waits */
/* A blocking MPI collective waits by spinning in MPICH (its ch4 device
 * never yields), and the start-up's collectives wait for the slowest
 * process to arrive: with more processes than cores the early ones would
 * spin on the cores the late ones need. So gasnetc_init starts each
 * exchange non-blocking and waits here, yielding the processor when
 * processes outnumber the CPUs they may use: first judged by the whole job
 * against this process's own CPUs (the hosts are not known yet), then by
 * this host's processes against their CPUs together. The core's wait
 * policy takes over once gasnetc_init returns. */
static int gasnetc_init_yields;

static void gasnetc_init_wait_policy(unsigned processes, long cpus) {
  gasnetc_init_yields = cpus > 0 && (long)processes > cpus;
}

static void gasnetc_init_wait(int count, MPI_Request *reqs, const char *what) {
  for (;;) {
    int done = 0;
    gasnetc_mpi_check(MPI_Testall(count, reqs, &done, MPI_STATUSES_IGNORE), what);
    if (done) return;
    if (gasnetc_init_yields) sched_yield();
  }
}

/* MPI_Allreduce of one value, waited on as above. */
static void gasnetc_init_allreduce(void *value, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                                   const char *what) {
  MPI_Request req;
  gasnetc_mpi_check(MPI_Iallreduce(MPI_IN_PLACE, value, 1, type, op, comm, &req), what);
  gasnetc_init_wait(1, &req, what);
}

/* Default sizes of the protocol (see docs/performance.md for the numbers
 * behind them). */
/* A packet holds a Long of 64 KiB (the size extended-ref's put/get and the
 * put-based collectives often move) with its header and 16 arguments, and
 * so every Medium (gasnet_core.h), each as one message: over TCP a second
 * message costs a rendezvous round trip. A full packet is a little over
 * Open MPI's 64 KiB TCP eager limit, but no Medium is. */
#define GASNETC_DEFAULT_PACKET (65536 + 128)
/* Credits per peer and channel. A receiver returns them in a control
 * message once it owes half of them, one message per depth / 2 packets:
 * at 16, a stream of small AMs over TCP spent a tenth of its time on
 * them (docs/performance.md, "How the defaults were chosen"). */
#define GASNETC_DEFAULT_DEPTH 64
#define GASNETC_DEFAULT_BOUNCE_MAX 8192
#define GASNETC_DEFAULT_RECVS 16
#define GASNETC_MAX_RECVS 4096
/* What a node aims to keep under, when it picks the default depth for a
 * large job, for the packets every peer may have in flight to it at once
 * (2 channels x nodes x depth packets, which MPI holds as unexpected
 * messages beyond the posted pools). */
#define GASNETC_RECV_BUDGET ((uint64_t)64 << 20)

void gasnetc_mpi_fail(int rc, const char *what) {
  char reason[MPI_MAX_ERROR_STRING + 1];
  int len = 0;
  if (MPI_Error_string(rc, reason, &len) != MPI_SUCCESS) len = 0;
  reason[len] = '\0';
  gasnetc_mpi_broken = 1;
  gasneti_fatalerror("failed to %s: %s (MPI error %d)", what, len ? reason : "unknown", rc);
}

/* ------------------------------------------------------------ thread level */
#ifdef GASNETI_THREADS
static const char *gasnetc_level_name(int level) {
  switch (level) {
    case MPI_THREAD_SINGLE: return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
    case MPI_THREAD_MULTIPLE: return "MPI_THREAD_MULTIPLE";
    default: return "an unknown thread level";
  }
}
#endif

/* SEQ: one client thread makes every call, the one that called gasnet_init
 * (FUNNELED). PAR: any thread may call; the conduit lock serialises our own
 * MPI calls, and MULTIPLE also lets client threads call MPI meanwhile.
 * GASNET_MPI_THREAD overrides the request. */
#ifdef GASNETI_THREADS
static const char gasnetc_default_level_name[] = "MULTIPLE";
#else
static const char gasnetc_default_level_name[] = "FUNNELED";
#endif

static int gasnetc_wanted_level(void) {
#ifdef GASNETI_THREADS
  int level = MPI_THREAD_MULTIPLE;
#else
  int level = MPI_THREAD_FUNNELED;
#endif
  /* Read before MPI, and so this node's number, is known; gasnetc_init
   * reports it (GASNET_VERBOSEENV) once it is. */
  const char *text = getenv("GASNET_MPI_THREAD");
  if (!text) return level;
  static const struct { const char *name; int level; } names[] = {
      {"SINGLE", MPI_THREAD_SINGLE}, {"FUNNELED", MPI_THREAD_FUNNELED},
      {"SERIALIZED", MPI_THREAD_SERIALIZED}, {"MULTIPLE", MPI_THREAD_MULTIPLE}};
  for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
    if (!strcasecmp(text, names[i].name)) return names[i].level;
  gasneti_fatalerror("gasnet_init: GASNET_MPI_THREAD=\"%s\" is not one of SINGLE, FUNNELED, "
                     "SERIALIZED, MULTIPLE", text);
}

static void gasnetc_start_mpi(int *argc, char ***argv) {
  int inited = 0, finalized = 0;
  MPI_Initialized(&inited);
  MPI_Finalized(&finalized);
  if (finalized) gasneti_fatalerror("gasnet_init: MPI has already been finalized");
  int want = gasnetc_wanted_level();
  if (inited) {
    gasnetc_mpi.client_init = 1;
    gasnetc_mpi_check(MPI_Query_thread(&gasnetc_mpi.thread_level), "query MPI's thread level");
  } else {
    /* The threads MPI starts here inherit this mask: keep the job-ending
     * signals (gasnet_error.c) away from them, so they reach a thread that
     * may call MPI (and, outside an MPI call, re-enter it). */
    sigset_t quiet, saved;
    sigemptyset(&quiet);
    sigaddset(&quiet, SIGINT);
    sigaddset(&quiet, SIGTERM);
    sigaddset(&quiet, SIGHUP);
    sigaddset(&quiet, SIGQUIT);
    pthread_sigmask(SIG_BLOCK, &quiet, &saved);
    int rc = MPI_Init_thread(argc, argv, want, &gasnetc_mpi.thread_level);
    pthread_sigmask(SIG_SETMASK, &saved, NULL);
    gasnetc_mpi_check(rc, "initialise MPI (MPI_Init_thread)");
  }
#ifdef GASNETI_THREADS
  /* Our calls come from any client thread, one at a time (the lock). */
  if (gasnetc_mpi.thread_level < MPI_THREAD_SERIALIZED)
    gasneti_fatalerror("gasnet_init: the PAR library needs MPI_THREAD_SERIALIZED or better, "
                       "but MPI provides %s%s", gasnetc_level_name(gasnetc_mpi.thread_level),
                       inited ? " (the client initialised MPI)" : "");
#endif
  (void)want;
}

/* ------------------------------------------------------------ hosts */
/* The CPUs this host's processes may run on together: the union of their
 * affinity masks. Open MPI's mpirun binds each of two processes to a core
 * of its own (each mask one CPU, two together); taskset or a cpuset may
 * confine them all to fewer CPUs than there are processes. */
static unsigned gasnetc_host_cpus(MPI_Comm local) {
  gasneti_cpuset_t set;
  gasneti_cpuset_mine(&set);
  MPI_Request req;
  gasnetc_mpi_check(MPI_Iallreduce(MPI_IN_PLACE, set.bits, GASNETI_CPUSET_WORDS, MPI_UINT64_T,
                                   MPI_BOR, local, &req),
                    "merge the host's CPU sets (MPI_Iallreduce)");
  gasnetc_init_wait(1, &req, "merge the host's CPU sets (MPI_Iallreduce)");
  return gasneti_cpuset_count(&set);
}

/* The processes sharing this host (for the wait policy and the default
 * segment size) and, for gasnet_getNodeInfo, each node's host named by its
 * lowest node number. */
static void gasnetc_learn_hosts(void) {
  MPI_Comm local;
  gasnetc_mpi_check(MPI_Comm_split_type(gasnetc_mpi.comm, MPI_COMM_TYPE_SHARED, 0,
                                        MPI_INFO_NULL, &local),
                    "split the communicator by host (MPI_Comm_split_type)");
  int local_size = 1;
  MPI_Comm_size(local, &local_size);
  gasnetc_mpi.local_procs = (unsigned)local_size;
  gasnetc_mpi.local_cpus = gasnetc_host_cpus(local);
  gasnetc_init_wait_policy(gasnetc_mpi.local_procs, (long)gasnetc_mpi.local_cpus);
  gasnetc_mpi_pretend_hosts(&local); /* tests: hosts within this one */
  int leader = (int)gasneti_mynode;
  gasnetc_init_allreduce(&leader, MPI_INT, MPI_MIN, local,
                         "find the host's first node (MPI_Iallreduce)");
  MPI_Comm_free(&local);
  int *hosts = malloc(gasneti_nodes * sizeof(int));
  gasnetc_mpi.host = malloc(gasneti_nodes * sizeof(gasnet_node_t));
  if (!hosts || !gasnetc_mpi.host) gasneti_fatalerror("gasnet_init: out of memory");
  MPI_Request req;
  gasnetc_mpi_check(MPI_Iallgather(&leader, 1, MPI_INT, hosts, 1, MPI_INT, gasnetc_mpi.comm, &req),
                    "exchange host numbers (MPI_Iallgather)");
  gasnetc_init_wait(1, &req, "exchange host numbers (MPI_Iallgather)");
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++) gasnetc_mpi.host[i] = (gasnet_node_t)hosts[i];
  free(hosts);
}

/* Default: a quarter of physical memory shared by the processes of this
 * host. Segments are mapped without reserving swap, so this bounds address
 * space, not memory in use. The global maximum is the smallest local one. */
static void gasnetc_read_max_segsize(void) {
  uint64_t phys = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
  uint64_t dflt = phys / 4 / gasnetc_mpi.local_procs;
  uint64_t max = gasneti_getenv_size("GASNET_MAX_SEGSIZE", dflt);
  max &= ~(uint64_t)(GASNET_PAGESIZE - 1);
  if (max < GASNET_PAGESIZE)
    gasneti_fatalerror("gasnet_init: GASNET_MAX_SEGSIZE is below one page (%d bytes)",
                       GASNET_PAGESIZE);
#if defined(GASNET_SEGMENT_EVERYTHING)
  max = (uint64_t)(UINTPTR_MAX & ~(uintptr_t)(GASNET_PAGESIZE - 1));
#endif
  unsigned long long mine = max, global = max;
  gasnetc_init_allreduce(&global, MPI_UNSIGNED_LONG_LONG, MPI_MIN, gasnetc_mpi.comm,
                         "agree on the global segment size (MPI_Iallreduce)");
  gasnetc_max_local = (uintptr_t)mine;
  gasnetc_max_global = (uintptr_t)global;
}

/* ------------------------------------------------------------ protocol sizes */
/* Every node must use the same packet size and depth, so a setting that
 * differs between nodes is settled by taking the largest packet and the
 * smallest depth. */
static void gasnetc_choose_sizes(void) {
  uint64_t packet = gasneti_getenv_size("GASNET_MPI_PACKET_SIZE", GASNETC_DEFAULT_PACKET);
  size_t min_packet = sizeof(gasnetc_hdr_t) + gasnetc_args_bytes(16);
  if (packet < min_packet || packet > ((uint64_t)1 << 30))
    gasneti_fatalerror("gasnet_init: GASNET_MPI_PACKET_SIZE=%llu is outside %zu..1G",
                       (unsigned long long)packet, min_packet);
  packet = (packet + 63) & ~(uint64_t)63;
  /* Default depth: GASNETC_DEFAULT_DEPTH, less in a job so large that the
   * packets all peers may have in flight to one node (2 channels x nodes x
   * depth) would exceed the budget, but never below 2. */
  uint64_t per_credit = 2 * (uint64_t)gasneti_nodes * packet;
  uint64_t dflt = GASNETC_RECV_BUDGET / per_credit;
  if (dflt > GASNETC_DEFAULT_DEPTH) dflt = GASNETC_DEFAULT_DEPTH;
  if (dflt < 2) dflt = 2;
  int64_t depth = gasneti_getenv_int("GASNET_NETWORKDEPTH", (int64_t)dflt);
  if (depth < 1 || depth > 4096)
    gasneti_fatalerror("gasnet_init: GASNET_NETWORKDEPTH=%lld is outside 1..4096",
                       (long long)depth);
  unsigned long long agreed_packet = packet;
  int agreed_depth = (int)depth;
  gasnetc_init_allreduce(&agreed_packet, MPI_UNSIGNED_LONG_LONG, MPI_MAX, gasnetc_mpi.comm,
                         "agree on the packet size (MPI_Iallreduce)");
  gasnetc_init_allreduce(&agreed_depth, MPI_INT, MPI_MIN, gasnetc_mpi.comm,
                         "agree on the network depth (MPI_Iallreduce)");
  gasnetc_mpi.packet_size = (size_t)agreed_packet;
  /* A sender's choice alone: the receiver cannot tell the difference. */
  gasnetc_mpi.bounce_max = (size_t)gasneti_getenv_size("GASNET_MPI_BOUNCE_MAX",
                                                        GASNETC_DEFAULT_BOUNCE_MAX);
  gasnetc_mpi.depth = (unsigned)agreed_depth;
  gasnetc_mpi.threshold = (gasnetc_mpi.depth + 1) / 2;
}

/* Receives posted per channel and for control messages: this node's
 * choice alone (senders are bounded by credits, not by what we post). A
 * pool larger than what can be in flight to us could never fill. */
static void gasnetc_choose_pools(void) {
  int64_t recvs = gasneti_getenv_int("GASNET_MPI_RECVS", GASNETC_DEFAULT_RECVS);
  if (recvs < 1 || recvs > GASNETC_MAX_RECVS)
    gasneti_fatalerror("gasnet_init: GASNET_MPI_RECVS=%lld is outside 1..%d", (long long)recvs,
                       GASNETC_MAX_RECVS);
  uint64_t packets = (uint64_t)gasneti_nodes * gasnetc_mpi.depth;
  uint64_t ctrls = (uint64_t)gasneti_nodes * GASNETC_CTRL_PER_PEER;
  gasnetc_mpi.npool = (unsigned)((uint64_t)recvs < packets ? (uint64_t)recvs : packets);
  gasnetc_mpi.nctrl = (unsigned)((uint64_t)recvs < ctrls ? (uint64_t)recvs : ctrls);
}

/* ------------------------------------------------------------ buffers */
static void *gasnetc_calloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size);
  if (!p) gasneti_fatalerror("gasnet_init: out of memory (%zu x %zu bytes)", n, size);
  return p;
}

static void gasnetc_alloc_state(void) {
  gasnetc_mpi_t *m = &gasnetc_mpi;
  unsigned nodes = gasneti_nodes;
  m->credits = gasnetc_calloc(nodes, sizeof(*m->credits));
  m->owed = gasnetc_calloc(nodes, sizeof(*m->owed));
  m->payload_seq = gasnetc_calloc(nodes, sizeof(*m->payload_seq));
  m->payload_next = gasnetc_calloc(nodes, sizeof(*m->payload_next));
  m->deferred_head = gasnetc_calloc(nodes, sizeof(*m->deferred_head));
  for (unsigned i = 0; i < nodes; i++)
    m->deferred_head[i][GASNETC_CH_REQ] = m->deferred_head[i][GASNETC_CH_REP] = -1;
  gasnetc_fence_init();
  m->owed_queue = gasnetc_calloc(nodes, sizeof(gasnet_node_t));
  m->owed_queued = gasnetc_calloc(nodes, 1);
  for (unsigned i = 0; i < nodes; i++)
    m->credits[i][GASNETC_CH_REQ] = m->credits[i][GASNETC_CH_REP] = (uint16_t)m->depth;

  unsigned slots = 2 * m->npool;
  m->rreq = gasnetc_calloc(gasnetc_nrreq(), sizeof(MPI_Request));
  for (unsigned i = 0; i < gasnetc_nrreq(); i++) m->rreq[i] = MPI_REQUEST_NULL;
  m->preq = gasnetc_calloc(slots, sizeof(MPI_Request));
  for (unsigned s = 0; s < slots; s++) m->preq[s] = MPI_REQUEST_NULL;
  size_t bytes = (size_t)slots * m->packet_size;
  if (posix_memalign((void **)&m->rbuf, 64, bytes))
    gasneti_fatalerror("gasnet_init: out of memory for %zu bytes of receive buffers", bytes);
  m->ctrl = gasnetc_calloc(m->nctrl, sizeof(gasnetc_ctrl_t));
  m->bounce = gasnetc_calloc(slots, sizeof(void *));
  m->deferred_next = gasnetc_calloc(slots, sizeof(int));

  /* Sends in flight are bounded by the credits (a packet and perhaps its
   * bounced payload per credit) plus credit returns; a sender finding no
   * free slot polls until one completes. */
  m->nsend = 4 * nodes * m->depth + nodes * GASNETC_CTRL_PER_PEER;
  m->send = gasnetc_calloc(m->nsend, sizeof(gasnetc_sendslot_t));
  m->send_free = gasnetc_calloc(m->nsend, sizeof(unsigned));
  m->active_req = gasnetc_calloc(m->nsend, sizeof(MPI_Request));
  m->active_slot = gasnetc_calloc(m->nsend, sizeof(unsigned));
  m->send_idx = gasnetc_calloc(m->nsend, sizeof(int));
  for (unsigned i = 0; i < m->nsend; i++) {
    m->send[i].req = MPI_REQUEST_NULL;
    m->send_free[i] = m->nsend - 1 - i;
  }
  m->nfree = m->nsend;
}

/* Persistent receives: each is started once here and again each time its
 * buffer is free, which costs less than a fresh MPI_Irecv. */
void gasnetc_mpi_post_receives(void) {
  gasnetc_mpi_t *m = &gasnetc_mpi;
  for (unsigned s = 0; s < 2 * m->npool; s++) {
    int tag = gasnetc_slot_channel(s) == GASNETC_CH_REP ? GASNETC_TAG_REP : GASNETC_TAG_REQ;
    MPI_Request *r = &m->rreq[gasnetc_slot_rindex(s)];
    gasnetc_mpi_check(MPI_Recv_init(gasnetc_slot_buf(s), (int)m->packet_size, MPI_BYTE,
                                    MPI_ANY_SOURCE, tag, m->comm, r),
                      "create a packet receive (MPI_Recv_init)");
  }
  for (unsigned i = 0; i < m->nctrl; i++)
    gasnetc_mpi_check(MPI_Recv_init(&m->ctrl[i], (int)sizeof(gasnetc_ctrl_t), MPI_BYTE,
                                    MPI_ANY_SOURCE, GASNETC_TAG_CTRL, m->comm,
                                    &m->rreq[gasnetc_ctrl_index(i)]),
                      "create a control receive (MPI_Recv_init)");
  for (unsigned i = 0; i < gasnetc_nrreq(); i++)
    gasnetc_mpi_check(MPI_Start(&m->rreq[i]), "post a receive (MPI_Start)");
}

/* Receives still posted would keep MPI_Finalize waiting in some MPIs:
 * cancel them (persistent ones stay allocated until freed). */
static void gasnetc_cancel(MPI_Request *r) {
  if (*r == MPI_REQUEST_NULL) return;
  MPI_Cancel(r);
  MPI_Wait(r, MPI_STATUS_IGNORE);
  if (*r != MPI_REQUEST_NULL) MPI_Request_free(r);
}

void gasnetc_mpi_cancel_receives(void) {
  gasnetc_mpi_t *m = &gasnetc_mpi;
  for (unsigned i = 0; i < gasnetc_nrreq(); i++) gasnetc_cancel(&m->rreq[i]);
  for (unsigned s = 0; s < 2 * m->npool; s++) gasnetc_cancel(&m->preq[s]);
  m->npayload[GASNETC_CH_REQ] = m->npayload[GASNETC_CH_REP] = 0;
}

/* ------------------------------------------------------------ connections */
/* Some transports (Open MPI's TCP BTL) connect a pair of processes on its
 * first message, a handshake that needs both sides inside MPI. A node that
 * sends its first AM to a peer and then computes without polling would
 * leave that AM undelivered until it polled again. Exchanging one message
 * with every peer here makes every connection up front (O(nodes) messages
 * per node; GASNET_MPI_PRECONNECT=0 skips it in very large jobs). */
static void gasnetc_preconnect(void) {
  if (gasneti_nodes == 1 || !gasneti_getenv_int("GASNET_MPI_PRECONNECT", 1)) return;
  unsigned n = gasneti_nodes;
  MPI_Request *reqs = gasnetc_calloc(2 * (size_t)n, sizeof(MPI_Request));
  char *in = gasnetc_calloc(n, 1), out = 0;
  unsigned k = 0;
  for (unsigned step = 1; step < n; step++) {
    int to = (int)((gasneti_mynode + step) % n), from = (int)((gasneti_mynode + n - step) % n);
    gasnetc_mpi_check(MPI_Irecv(&in[from], 1, MPI_CHAR, from, GASNETC_TAG_CTRL, gasnetc_mpi.comm,
                                &reqs[k++]),
                      "connect to every node (MPI_Irecv)");
    gasnetc_mpi_check(MPI_Isend(&out, 1, MPI_CHAR, to, GASNETC_TAG_CTRL, gasnetc_mpi.comm,
                                &reqs[k++]),
                      "connect to every node (MPI_Isend)");
  }
  gasnetc_init_wait((int)k, reqs, "connect to every node (MPI_Testall)");
  free(reqs);
  free(in);
}

/* ------------------------------------------------------------ the contract */
int gasnetc_init(int *argc, char ***argv) {
  gasnetc_start_mpi(argc, argv);
  gasnetc_mpi_check(MPI_Comm_dup(MPI_COMM_WORLD, &gasnetc_mpi.comm),
                    "duplicate MPI_COMM_WORLD (MPI_Comm_dup)");
  /* Errors on our communicator come back to us, so they are reported as
   * GASNet fatal errors naming the operation. */
  MPI_Comm_set_errhandler(gasnetc_mpi.comm, MPI_ERRORS_RETURN);
  int rank = 0, size = 1;
  MPI_Comm_rank(gasnetc_mpi.comm, &rank);
  MPI_Comm_size(gasnetc_mpi.comm, &size);
  if (size > GASNET_MAXNODES)
    gasneti_fatalerror("gasnet_init: %d MPI processes exceed GASNET_MAXNODES (%d)", size,
                       GASNET_MAXNODES);
  gasneti_mynode = (gasnet_node_t)rank;
  gasneti_nodes = (gasnet_node_t)size;
  gasneti_getenv_verbose("GASNET_MPI_THREAD", gasnetc_default_level_name);
  gasnetc_init_wait_policy(gasneti_nodes, (long)gasneti_cpuset_count_mine());
  gasnetc_learn_hosts();
  gasnetc_read_max_segsize();
  gasnetc_mpi_shm_init();
  gasnetc_choose_sizes();
  gasnetc_choose_pools();
  gasnetc_rma_init();
  gasnetc_preconnect();
  gasnetc_alloc_state();
  gasnetc_mpi_post_receives();
  gasnetc_exit_register();
  return GASNET_OK;
}

uintptr_t gasnetc_max_local_segsize(void) { return gasnetc_mpi_shm_max_local(gasnetc_max_local); }
uintptr_t gasnetc_max_global_segsize(void) { return gasnetc_max_global; }
unsigned gasnetc_local_processes(void) { return gasnetc_mpi.local_procs; }
unsigned gasnetc_local_cpus(void) { return gasnetc_mpi.local_cpus; }

void gasnetc_nodeinfo(gasnet_nodeinfo_t *table) {
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++) table[i].host = gasnetc_mpi.host[i];
  gasnetc_mpi_shm_nodeinfo(table);
}
