/* gasnet_core.h for the template conduit: its public definitions
 * (PORTER: fill in each spot so marked). Installed as
 * include/template-conduit/gasnet_core.h. */
#ifndef GASNET_CORE_H
#define GASNET_CORE_H

#define GASNET_CONDUIT_TEMPLATE 1
#define GASNET_CONDUIT_NAME template
#define GASNET_CONDUIT_NAME_STR "template"
#define GASNET_CORE_NAME TEMPLATE
#define GASNET_CORE_NAME_STR "TEMPLATE"
#define GASNET_CORE_VERSION 0.1
#define GASNET_CORE_VERSION_STR "0.1"

/* PORTER: 1 if every process can load and store into every other node's
 * segment (then extended-ref can be given direct copies), else 0. */
#define GASNET_PSHM 0
/* PORTER: 1 only if every node's segment starts at the same address. */
#define GASNET_ALIGNED_SEGMENTS 0
#define GASNET_MAXNODES 65535

/* PORTER: the largest payloads. A Medium must fit one receive buffer; a
 * Long may be split by the conduit but is delivered whole into the
 * destination segment. Each limit must be at least 512 bytes (the build
 * stops otherwise); the Long limits may be equal to or below the Medium
 * one (docs/porting.md, "Messages"). */
#define GASNETC_MAX_MEDIUM 4096
#define GASNETC_MAX_LONG_REQUEST ((size_t)65536)
#define GASNETC_MAX_LONG_REPLY ((size_t)65536)
/* PORTER (optional): GASNETC_COALESCE_NET_BYTES, the batches of packed
 * requests (GASNET_AM_COALESCE) to nodes outside the supernode, from 4096
 * (the default) up to the Medium limit: larger where each message pays a
 * network's fixed cost (docs/porting.md, "Messages"). */
/* PORTER (optional): GASNETC_LONG_ANYWHERE 1 if a Long to a node outside
 * the sender's supernode may land anywhere in its memory, not only in its
 * segment (your receiver copies or receives the payload into place); the
 * collectives then send large blocks to any buffer as one Long
 * (docs/porting.md, "Optional"). */
/* PORTER (optional): GASNETC_LONG_DETACHES 1 if your Long to such a node
 * can return before the payload is read when asked to (gasneti_am_t's
 * detach flag: a rendezvous the receiver completes); the collectives then
 * copy a root's own block while the payload travels (docs/porting.md,
 * "Optional"). */

#endif
