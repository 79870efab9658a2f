/* smp_xmem.c: one-copy reads of any memory of another node (the
 * gasneti_xmem_read hook of gasnet_hooks.h) with Linux cross-memory attach,
 * process_vm_readv on the peer's pid (each node stores its pid in its
 * control line at start-up).
 *
 * GASNET_SMP_XMEM=auto (default) probes at attach: every node reads a word
 * from the next node (itself when alone); the feature is on only when every
 * node's probe worked, so gasneti_xmem_available gives the same answer on
 * every node (the collectives choose algorithms by it). =off never reads.
 * =fail (for tests) probes as auto, but then refuses every read, as a
 * run-time refusal would: the callers' fallback paths run.
 * A refusal later (EPERM, e.g. a ptrace policy changed) turns reads off on
 * this node only: gasneti_xmem_read then returns -1 and callers fall back,
 * while gasneti_xmem_available keeps its job-wide answer. */
#define _GNU_SOURCE
#include "smp_internal.h"

#include <errno.h>
#include <string.h>
#include <strings.h>
#include <sys/uio.h>
#include <unistd.h>
#ifdef HAVE_SYS_PRCTL_H
#include <sys/prctl.h>
#endif

#define GASNETC_XMEM_PROBE_VALUE 0x786d656d70726f62ull /* "xmemprob" */

/* At the same address in every node: they are forks of one process. */
static volatile uint64_t gasnetc_xmem_probe_word = GASNETC_XMEM_PROBE_VALUE;
static int gasnetc_xmem_job;     /* every node's probe worked (same on every node) */
static int gasnetc_xmem_refused; /* atomic: a read was refused here at run time */

/* Yama's ptrace_scope=1 lets a process read only its descendants unless it
 * names a reader; naming the supervisor admits its descendants: exactly the
 * job's nodes. Without Yama this fails harmlessly. */
static void gasnetc_xmem_admit_job(void) {
#if defined(HAVE_SYS_PRCTL_H) && defined(PR_SET_PTRACER)
  if (gasneti_nodes > 1) (void)prctl(PR_SET_PTRACER, (unsigned long)getppid(), 0, 0, 0);
#endif
}

/* Copy with process_vm_readv, looping over short reads. */
static int gasnetc_xmem_copy(pid_t pid, void *dst, const void *src, size_t nbytes) {
  size_t done = 0;
  while (done < nbytes) {
    struct iovec local = {(char *)dst + done, nbytes - done};
    struct iovec remote = {(char *)(uintptr_t)src + done, nbytes - done};
    ssize_t got = process_vm_readv(pid, &local, 1, &remote, 1, 0);
    if (got > 0) {
      done += (size_t)got;
    } else if (got < 0 && errno == EINTR) {
      continue;
    } else {
      if (got < 0 && (errno == EPERM || errno == ENOSYS || errno == EACCES))
        __atomic_store_n(&gasnetc_xmem_refused, 1, __ATOMIC_RELAXED);
      return -1;
    }
  }
  return 0;
}

static int gasnetc_xmem_probe(void) {
  gasnet_node_t peer = (gasnet_node_t)((gasneti_mynode + 1) % gasneti_nodes);
  uint64_t word = 0;
  pid_t pid = (pid_t)gasnetc_smp_control->node[peer].pid;
  if (gasnetc_xmem_copy(pid, &word, (const void *)&gasnetc_xmem_probe_word, sizeof(word)))
    return 0;
  return word == GASNETC_XMEM_PROBE_VALUE;
}

/* Collective, at attach, after every node's pid is in the control lines. */
void gasnetc_smp_xmem_attach(void) {
  const char *mode = gasneti_getenv_verbose("GASNET_SMP_XMEM", "auto");
  int want = 1, fail = mode && !strcasecmp(mode, "fail");
  if (mode && !strcasecmp(mode, "off"))
    want = 0;
  else if (mode && *mode && !fail && strcasecmp(mode, "auto"))
    gasneti_fatalerror("GASNET_SMP_XMEM=\"%s\" is not one of auto, off, fail", mode);
  if (want) gasnetc_xmem_admit_job();
  gasnetc_smp_boot_barrier(); /* every node has admitted its readers */
  gasnetc_smp_control->node[gasneti_mynode].xmem_ok = want && gasnetc_xmem_probe();
  gasnetc_smp_boot_barrier();
  int all = 1;
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++)
    all &= gasnetc_smp_control->node[i].xmem_ok != 0;
  gasnetc_xmem_job = all;
  if (fail) gasnetc_xmem_refused = 1;
}

int gasneti_xmem_available(gasnet_node_t node) {
  return gasnetc_xmem_job && node < gasneti_nodes;
}

int gasneti_xmem_read(gasnet_node_t node, void *local_dst, const void *remote_src,
                      size_t nbytes) {
  if (!gasneti_xmem_available(node) || __atomic_load_n(&gasnetc_xmem_refused, __ATOMIC_RELAXED))
    return -1;
  if (node == gasneti_mynode) {
    memmove(local_dst, remote_src, nbytes);
    return 0;
  }
  return gasnetc_xmem_copy((pid_t)gasnetc_smp_control->node[node].pid, local_dst, remote_src,
                           nbytes);
}
