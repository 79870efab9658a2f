# coll/: the collectives library, built once per thread mode and linked
# with any conduit. It sees only the public API and the named hooks.
COLL_SOURCES = \
	coll/bcast.c \
	coll/bcast_direct.c \
	coll/bcast_pipe.c \
	coll/bcast_sag.c \
	coll/coll_api.c \
	coll/coll_args.c \
	coll/coll_composite.c \
	coll/coll_dump.c \
	coll/coll_early.c \
	coll/coll_flow.c \
	coll/coll_engine.c \
	coll/coll_handle.c \
	coll/coll_hier.c \
	coll/coll_images.c \
	coll/coll_init.c \
	coll/coll_mforms.c \
	coll/coll_msg.c \
	coll/coll_plan.c \
	coll/coll_progress.c \
	coll/coll_putfan.c \
	coll/coll_readfan.c \
	coll/coll_sync.c \
	coll/coll_team.c \
	coll/coll_tree.c \
	coll/exchange.c \
	coll/exchange_pairwise.c \
	coll/gather.c \
	coll/gather_all.c \
	coll/gather_all_ring.c \
	coll/images_alg.c \
	coll/images_barrier.c \
	coll/images_reduce.c \
	coll/reduce.c \
	coll/reduce_apply.c \
	coll/reduce_args.c \
	coll/reduce_builtin.c \
	coll/reduce_layout.c \
	coll/rooted_flow.c \
	coll/scan.c \
	coll/scan_chain.c \
	coll/scatter.c \
	coll/select.c \
	coll/team_barrier.c \
	coll/team_split.c \
	coll/trees.c \
	coll/trees_hier.c
COLL_CPPFLAGS = $(PUBLIC_CPPFLAGS) -DGASNETI_CONDUIT_NEUTRAL
noinst_HEADERS += coll/coll_internal.h coll/coll_composite.h coll/coll_early.h coll/coll_flow.h coll/coll_segmented.h coll/scan_chain.h coll/coll_putfan.h coll/coll_readfan.h \
	coll/coll_tree.h coll/trees.h coll/trees_hier.h coll/reduce_apply.h coll/reduce_builtin.h coll/reduce_layout.h \
	coll/coll_images.h coll/images_reduce.h
include_HEADERS += include/gasnet_coll.h

lib_LTLIBRARIES += libgasnet-coll-seq.la libgasnet-coll-par.la
libgasnet_coll_seq_la_SOURCES = $(COLL_SOURCES)
libgasnet_coll_seq_la_CPPFLAGS = $(COLL_CPPFLAGS) -DGASNET_SEQ
libgasnet_coll_par_la_SOURCES = $(COLL_SOURCES)
libgasnet_coll_par_la_CPPFLAGS = $(COLL_CPPFLAGS) -DGASNET_PAR
libgasnet_coll_par_la_LIBADD = $(PTHREAD_LIBS)
