/* gasnet_core.h for the mpi conduit: active messages over MPI point-to-point.
 * Installed as include/mpi-conduit/gasnet_core.h; included by gasnet.h.
 * The design is in docs/mpi-conduit.md. */
#ifndef GASNET_CORE_H
#define GASNET_CORE_H

#define GASNET_CONDUIT_MPI 1
#define GASNET_CONDUIT_NAME mpi
#define GASNET_CONDUIT_NAME_STR "mpi"
#define GASNET_CORE_NAME MPI
#define GASNET_CORE_NAME_STR "MPI"
#define GASNET_CORE_VERSION 1.0
#define GASNET_CORE_VERSION_STR "1.0"

/* The processes of a host share memory (PSHM): each one's segment lives
 * in its supernode's shared region (GASNET_SUPERNODE_MAXSIZE caps a
 * supernode; gasnet_getNodeInfo says who shares and at what offset). A
 * node outside this node's supernode is reached through messages only.
 * At attach the nodes agree on one address for every segment where their
 * address spaces allow (GASNET_SEGMENT_ALIGN), which clients see by
 * comparing gasnet_getSegmentInfo's addresses; as in GASNet with shared
 * memory, GASNET_ALIGNED_SEGMENTS stays 0: it is not promised. */
#define GASNET_PSHM 1
#define GASNET_ALIGNED_SEGMENTS 0
#define GASNET_MAXNODES 65536

/* AM size limits.
 *
 * Medium, 65280 bytes (64 KiB - 256): a Medium that fits in a receive
 * buffer (a "packet", GASNET_MPI_PACKET_SIZE) travels in one message; with
 * a smaller packet setting a larger one sends its header in a packet and
 * the payload as a second message received into a buffer of exactly its
 * size. The default packet holds the largest Medium, so every Medium is one
 * message. The limit leaves room under 64 KiB for the header, 16 arguments
 * and MPI's own header, so that a full Medium stays under the 64 KiB eager
 * limit of Open MPI's TCP transport: the collectives stream data that is
 * not in the segment in Mediums of this size, and a message over the
 * eager limit costs a rendezvous round trip each (a 1 MiB broadcast at 2
 * processes over TCP took 350 us in 64 KiB Mediums, 155 us in these).
 * GASNet-1's mpi conduit has a limit of 65000 bytes.
 *
 * Long, 4 MiB: a Long payload larger than a packet is received by MPI
 * straight into the destination segment (no copy, no bounce buffer), so the
 * limit costs no memory either; a large limit lets extended-ref move a big
 * put or get in few messages. The sender waits until MPI has the payload
 * (the source buffer is reusable when the call returns), which for these
 * sizes is one rendezvous with the receiver. */
#define GASNETC_MAX_MEDIUM 65280
#define GASNETC_MAX_LONG_REQUEST ((size_t)4 << 20)
#define GASNETC_MAX_LONG_REPLY ((size_t)4 << 20)
/* Packed requests (GASNET_AM_COALESCE) travel in batches of 16 KiB to
 * nodes outside the supernode: over TCP a packed frontier ran 1.2-1.4
 * times faster than with 4 KiB ones, once the poll pacer's longer rests
 * (gasnet_pace.h) no longer hid the difference (docs/performance.md). */
#define GASNETC_COALESCE_NET_BYTES 16384
/* A Long to a node outside this supernode may land anywhere in its
 * process (its payload is received into place, or copied out of the
 * packet): gasneti_long_anywhere, include/gasnet_hooks.h. */
#define GASNETC_LONG_ANYWHERE 1

#endif
