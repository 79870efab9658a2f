# conduits/template/local.mk: PORTER: say in a line what the conduit is.
# Its libraries, headers, launcher and client files are declared by the
# generated conduits/template/conduit.mk (docs/porting.md).
# src/gasnet_bootstrap.c: the allgather over the launcher that gasnetc_init
# and gasnetc_attach_segment may use (drop it if the network has its own;
# for its PMIx backend, under Open MPI's mpirun across hosts, list
# $(BOOTSTRAP_SOURCES) instead and add $(BOOTSTRAP_CPPFLAGS) and
# $(BOOTSTRAP_LIBS) below: docs/porting.md, "The bootstrap exchange").
template_CONDUIT_SOURCES = \
	conduits/template/template_conduit.c \
	src/gasnet_bootstrap.c \
	src/gasnet_xmem_none.c
# Extra preprocessor flags, libraries and the compiler clients use (a
# network library's -I, -L and -l; an MPI wrapper instead of $(CC)).
template_CONDUIT_CPPFLAGS =
template_CONDUIT_LIBS =
template_CONDUIT_CC = $(CC)
# sed options applied to gasnetrun_template.in (e.g. -e 's|@X[@]|$(X)|g').
template_CONDUIT_LAUNCHER_SED =
include conduits/template/conduit.mk
