/* gasnet_core.h for the dgram conduit: active messages over Unix-domain
 * datagram sockets between the processes of one host, each with a private
 * segment. Installed as include/dgram-conduit/gasnet_core.h. */
#ifndef GASNET_CORE_H
#define GASNET_CORE_H

#define GASNET_CONDUIT_DGRAM 1
#define GASNET_CONDUIT_NAME dgram
#define GASNET_CONDUIT_NAME_STR "dgram"
#define GASNET_CORE_NAME DGRAM
#define GASNET_CORE_NAME_STR "DGRAM"
#define GASNET_CORE_VERSION 0.1
#define GASNET_CORE_VERSION_STR "0.1"

#define GASNET_PSHM 0
#define GASNET_ALIGNED_SEGMENTS 0
#define GASNET_MAXNODES 1024

/* A Medium is one datagram; a Long larger than that travels as several
 * (dgram_send.c) and is delivered once, whole. */
#define GASNETC_MAX_MEDIUM 65536
#define GASNETC_MAX_LONG_REQUEST ((size_t)1 << 20)
#define GASNETC_MAX_LONG_REPLY ((size_t)1 << 20)

#endif
