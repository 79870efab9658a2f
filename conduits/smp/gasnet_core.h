/* gasnet_core.h for the smp conduit: processes on one host over shared memory.
 * Installed as include/smp-conduit/gasnet_core.h; included by gasnet.h. */
#ifndef GASNET_CORE_H
#define GASNET_CORE_H

#define GASNET_CONDUIT_SMP 1
#define GASNET_CONDUIT_NAME smp
#define GASNET_CONDUIT_NAME_STR "smp"
#define GASNET_CORE_NAME SMP
#define GASNET_CORE_NAME_STR "SMP"
#define GASNET_CORE_VERSION 1.0
#define GASNET_CORE_VERSION_STR "1.0"

/* Every node's segment lives in one shared region that every process maps
 * at the same address, so a peer's segment is reachable by plain loads and
 * stores (PSHM). Each node also maps its own segment at an address that is
 * the same in every node (GASNET_SEGMENT_ALIGN), so segments are aligned
 * as in GASNet 1.x's smp conduit: clients see it by comparing
 * gasnet_getSegmentInfo's addresses. As in GASNet with shared memory,
 * GASNET_ALIGNED_SEGMENTS stays 0: alignment is not promised (it falls
 * back to unaligned segments when the address space has no room). */
#define GASNET_PSHM 1
#define GASNET_ALIGNED_SEGMENTS 0
#define GASNET_MAXNODES 1024

/* AM size limits. A Medium payload is copied into a slot of the receiver's
 * queue and handed to the handler in place, so the limit sets the slot size:
 * 64 KiB keeps a queue of 32 slots at 2 MiB while a Medium of that size
 * already runs at copy bandwidth. A Long payload is copied by the sender
 * straight into the destination segment, so its limit costs no memory; 4 MiB
 * lets extended-ref move large puts in few messages. */
#define GASNETC_MAX_MEDIUM 65536
#define GASNETC_MAX_LONG_REQUEST ((size_t)4 << 20)
#define GASNETC_MAX_LONG_REPLY ((size_t)4 << 20)

#endif
