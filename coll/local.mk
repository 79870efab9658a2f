# coll/: the collectives library, built once per thread mode and linked
# with any conduit. It sees only the public API and the named hooks.
# Its floors, each calling only downward (tests/layers_check.sh checks it;
# docs/design.md draws them): engine, patterns, ops, teams, images, api.
COLL_SOURCES = \
	coll/api/api_init.c \
	coll/api/api_team.c \
	coll/api/coll_api.c \
	coll/api/coll_args.c \
	coll/api/coll_dump.c \
	coll/api/coll_mforms.c \
	coll/api/coll_plan.c \
	coll/api/reduce_args.c \
	coll/engine/coll_early.c \
	coll/engine/coll_engine.c \
	coll/engine/coll_events.c \
	coll/engine/coll_handle.c \
	coll/engine/coll_msg.c \
	coll/engine/coll_progress.c \
	coll/engine/coll_sync.c \
	coll/engine/engine_init.c \
	coll/engine/engine_team.c \
	coll/engine/select.c \
	coll/engine/seq_table.c \
	coll/images/coll_images.c \
	coll/images/images_alg.c \
	coll/images/images_barrier.c \
	coll/images/images_reduce.c \
	coll/images/images_team.c \
	coll/ops/bcast.c \
	coll/ops/bcast_direct.c \
	coll/ops/bcast_pipe.c \
	coll/ops/bcast_sag.c \
	coll/ops/exchange.c \
	coll/ops/exchange_pairwise.c \
	coll/ops/gather.c \
	coll/ops/gather_all.c \
	coll/ops/gather_all_ring.c \
	coll/ops/reduce.c \
	coll/ops/reduce_apply.c \
	coll/ops/reduce_builtin.c \
	coll/ops/reduce_layout.c \
	coll/ops/rooted_flow.c \
	coll/ops/scan.c \
	coll/ops/scan_chain.c \
	coll/ops/scatter.c \
	coll/ops/select_default.c \
	coll/patterns/coll_composite.c \
	coll/patterns/coll_flow.c \
	coll/patterns/coll_hier.c \
	coll/patterns/coll_putfan.c \
	coll/patterns/coll_readfan.c \
	coll/patterns/coll_tree.c \
	coll/patterns/trees.c \
	coll/patterns/trees_hier.c \
	coll/teams/team_barrier.c \
	coll/teams/team_split.c
COLL_CPPFLAGS = $(PUBLIC_CPPFLAGS) -I$(top_srcdir)/coll -DGASNETI_CONDUIT_NEUTRAL
noinst_HEADERS += \
	coll/api/api.h \
	coll/engine/coll_early.h \
	coll/engine/engine.h \
	coll/engine/rank_math.h \
	coll/engine/seq_table.h \
	coll/images/images.h \
	coll/images/images_reduce.h \
	coll/ops/coll_segmented.h \
	coll/ops/ops.h \
	coll/ops/reduce_apply.h \
	coll/ops/reduce_builtin.h \
	coll/ops/reduce_layout.h \
	coll/ops/reduce_prefix.h \
	coll/ops/scan_chain.h \
	coll/patterns/coll_composite.h \
	coll/patterns/coll_flow.h \
	coll/patterns/coll_hier.h \
	coll/patterns/coll_putfan.h \
	coll/patterns/coll_readfan.h \
	coll/patterns/coll_tree.h \
	coll/patterns/trees.h \
	coll/patterns/trees_hier.h \
	coll/teams/teams.h
include_HEADERS += include/gasnet_coll.h

lib_LTLIBRARIES += libgasnet-coll-seq.la libgasnet-coll-par.la
libgasnet_coll_seq_la_SOURCES = $(COLL_SOURCES)
libgasnet_coll_seq_la_CPPFLAGS = $(COLL_CPPFLAGS) -DGASNET_SEQ
libgasnet_coll_par_la_SOURCES = $(COLL_SOURCES)
libgasnet_coll_par_la_CPPFLAGS = $(COLL_CPPFLAGS) -DGASNET_PAR
libgasnet_coll_par_la_LIBADD = $(PTHREAD_LIBS)
