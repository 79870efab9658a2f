/* shm_xmem.c: one-copy reads and writes of any memory of another member
 * (the gasneti_xmem_read and gasneti_xmem_write hooks of gasnet_hooks.h)
 * with Linux cross-memory attach, process_vm_readv and process_vm_writev on
 * the member's pid (each member stores its pid in its control line when it
 * joins).
 *
 * GASNET_SMP_XMEM (read wherever the layer is used, the name is smp's
 * history) sets the mode. auto (default) probes at attach: every member
 * reads a word from the next member (itself when alone), at the address
 * that member published in its line; the feature is on only when the
 * supernode is the whole job and every member's probe worked, so
 * gasneti_xmem_available gives the same answer on every node (the
 * collectives choose algorithms by it). off never reads. fail (for tests)
 * probes as auto, but then refuses every transfer, as a run-time refusal
 * would: the callers' fallback paths run. A refusal later (EPERM, e.g. a
 * ptrace policy changed) turns transfers off on this node only:
 * gasneti_xmem_read and gasneti_xmem_write then return -1 and callers fall
 * back, while gasneti_xmem_available keeps its job-wide answer. */
#define _GNU_SOURCE
#include "shm_internal.h"

#include <errno.h>
#include <string.h>
#include <strings.h>
#include <sys/uio.h>
#include <unistd.h>
#ifdef HAVE_SYS_PRCTL_H
#include <sys/prctl.h>
#endif

#define GASNETC_XMEM_PROBE_VALUE 0x786d656d70726f62ull /* "xmemprob" */

/* Read by the other members at the address this member publishes. */
static volatile uint64_t gasnetc_xmem_probe_word = GASNETC_XMEM_PROBE_VALUE;
static int gasnetc_xmem_job;     /* every member's probe worked, and they are the job */
static int gasnetc_xmem_refused; /* atomic: a read was refused here at run time */

/* Yama's ptrace_scope=1 lets a process read only its descendants unless it
 * names a reader; naming the parent admits the parent's descendants: the
 * job's nodes (smp: the supervisor's children; mpi: the processes the
 * launcher's daemon started on this host). Without Yama this fails
 * harmlessly. */
static void gasnetc_xmem_admit_job(void) {
#if defined(HAVE_SYS_PRCTL_H) && defined(PR_SET_PTRACER)
  if (gasnetc_shm.members > 1) (void)prctl(PR_SET_PTRACER, (unsigned long)getppid(), 0, 0, 0);
#endif
}

/* Copy between local and remote (an address in pid) with process_vm_readv
 * (to_remote 0: remote is the source) or process_vm_writev, looping over
 * short transfers. */
static int gasnetc_xmem_copy(pid_t pid, void *local, const void *remote, size_t nbytes,
                             int to_remote) {
  size_t done = 0;
  while (done < nbytes) {
    struct iovec here = {(char *)local + done, nbytes - done};
    struct iovec there = {(char *)(uintptr_t)remote + done, nbytes - done};
    ssize_t got = to_remote ? process_vm_writev(pid, &here, 1, &there, 1, 0)
                            : process_vm_readv(pid, &here, 1, &there, 1, 0);
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
  const gasnetc_shm_line_t *peer = gasnetc_shm_line((gasnetc_shm.my_member + 1) % gasnetc_shm.members);
  uint64_t word = 0;
  if (gasnetc_xmem_copy((pid_t)peer->pid, &word, (const void *)(uintptr_t)peer->probe_addr,
                        sizeof(word), 0))
    return 0;
  return word == GASNETC_XMEM_PROBE_VALUE;
}

void gasnetc_shm_xmem_attach(void (*idle)(void)) {
  static const char env[] = "GASNET_SMP_XMEM";
  const char *mode = gasneti_getenv_verbose(env, "auto");
  int want = 1, fail = mode && !strcasecmp(mode, "fail");
  if (mode && !strcasecmp(mode, "off"))
    want = 0;
  else if (mode && *mode && !fail && strcasecmp(mode, "auto"))
    gasneti_fatalerror("%s=\"%s\" is not one of auto, off, fail", env, mode);
  if (!gasnetc_shm_whole_job()) return; /* off on every node */
  if (want) {
    gasnetc_xmem_admit_job();
    gasnetc_shm_my_line()->probe_addr = (uint64_t)(uintptr_t)&gasnetc_xmem_probe_word;
  }
  gasnetc_shm_barrier(idle); /* every member has admitted its readers */
  gasnetc_shm_my_line()->xmem_ok = want && gasnetc_xmem_probe();
  gasnetc_shm_barrier(idle);
  int all = 1;
  for (unsigned m = 0; m < gasnetc_shm.members; m++) all &= gasnetc_shm_line(m)->xmem_ok != 0;
  gasnetc_xmem_job = all;
  if (fail) gasnetc_xmem_refused = 1;
}

int gasneti_xmem_available(gasnet_node_t node) {
  return gasnetc_xmem_job && node < gasneti_nodes;
}

/* One transfer with node's process (to_remote: local to remote), or -1
 * when this node must not (not available, or refused here); with itself a
 * plain move. */
static int gasnetc_xmem_transfer(gasnet_node_t node, void *local, const void *remote,
                                 size_t nbytes, int to_remote) {
  if (!gasneti_xmem_available(node) || __atomic_load_n(&gasnetc_xmem_refused, __ATOMIC_RELAXED))
    return -1;
  if (node == gasneti_mynode) {
    if (to_remote)
      memmove((void *)(uintptr_t)remote, local, nbytes);
    else
      memmove(local, remote, nbytes);
    return 0;
  }
  pid_t pid = (pid_t)gasnetc_shm_line((unsigned)gasnetc_shm.node_member[node])->pid;
  return gasnetc_xmem_copy(pid, local, remote, nbytes, to_remote);
}

int gasneti_xmem_read(gasnet_node_t node, void *local_dst, const void *remote_src,
                      size_t nbytes) {
  return gasnetc_xmem_transfer(node, local_dst, remote_src, nbytes, 0);
}

int gasneti_xmem_write(gasnet_node_t node, void *remote_dst, const void *local_src,
                       size_t nbytes) {
  return gasnetc_xmem_transfer(node, (void *)(uintptr_t)local_src, remote_dst, nbytes, 1);
}
