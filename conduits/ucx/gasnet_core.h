/* gasnet_core.h for the ucx conduit: active messages and one-sided put/get
 * over UCX's UCP API (UCP active messages and RMA), on one host or many.
 * The processes of a host share memory (PSHM): each one's segment lives in
 * its supernode's shared region (GASNET_SUPERNODE_MAXSIZE caps a
 * supernode), and AMs and put/get between them never enter UCX; every
 * segment is registered with UCP for the nodes of other hosts. Installed
 * as include/ucx-conduit/gasnet_core.h. */
#ifndef GASNET_CORE_H
#define GASNET_CORE_H

#define GASNET_CONDUIT_UCX 1
#define GASNET_CONDUIT_NAME ucx
#define GASNET_CONDUIT_NAME_STR "ucx"
#define GASNET_CORE_NAME UCX
#define GASNET_CORE_NAME_STR "UCX"
#define GASNET_CORE_VERSION 0.9
#define GASNET_CORE_VERSION_STR "0.9"

#define GASNET_PSHM 1
#define GASNET_ALIGNED_SEGMENTS 0
#define GASNET_MAXNODES 65535

/* Every AM is one UCP active message (ucx_send.c): a Medium of up to 64
 * KiB, a Long of up to 4 MiB. Large Longs go by rendezvous, which UCX
 * streams over TCP faster than eager fragments (docs/ucx-conduit.md,
 * "Messages"), so a big put over TCP is a few large Longs. */
#define GASNETC_MAX_MEDIUM 65536
#define GASNETC_MAX_LONG_REQUEST ((size_t)4 << 20)
#define GASNETC_MAX_LONG_REPLY ((size_t)4 << 20)
/* Packed requests (GASNET_AM_COALESCE) travel in batches of 16 KiB to
 * nodes outside the supernode: over TCP a packed frontier ran 1.1-1.4
 * times faster than with 4 KiB ones (docs/performance.md). */
#define GASNETC_COALESCE_NET_BYTES 16384
/* A Long to a node outside this supernode may land anywhere in its
 * process (the receiver copies it, or UCX fetches it, into place):
 * gasneti_long_anywhere, include/gasnet_hooks.h. */
#define GASNETC_LONG_ANYWHERE 1
/* A Long to such a node may return while UCX still carries its payload
 * (the receiver fetches a rendezvous): gasneti_long_detaches. */
#define GASNETC_LONG_DETACHES 1

#endif
