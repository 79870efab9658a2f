/* gasnet_core.h for the ucx conduit: active messages and one-sided put/get
 * over UCX's UCP API (UCP active messages and RMA), on one host or many.
 * Every node has a private segment registered with UCP; nodes on one host
 * reach each other through UCX's own shared-memory transports. Installed
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

#define GASNET_PSHM 0
#define GASNET_ALIGNED_SEGMENTS 0
#define GASNET_MAXNODES 65535

/* Every AM is one UCP active message sent eagerly (UCX fragments and
 * reassembles it): a Medium of up to 64 KiB, and a Long of up to 64 KiB
 * (larger transfers are put/get, which go by UCP RMA). */
#define GASNETC_MAX_MEDIUM 65536
#define GASNETC_MAX_LONG_REQUEST ((size_t)65536)
#define GASNETC_MAX_LONG_REPLY ((size_t)65536)

#endif
