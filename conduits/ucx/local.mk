# conduits/ucx: active messages and one-sided put/get over UCX's UCP API
# (docs/ucx-conduit.md). Nodes exchange their worker addresses and keys
# through the bootstrap exchange (the launcher's socket under
# gasnetrun_ucx, PMIx under Open MPI's mpirun). Its libraries, headers,
# launcher and client files are declared by the generated conduit.mk.
ucx_CONDUIT_SOURCES = \
	conduits/ucx/ucx_boot.c \
	conduits/ucx/ucx_send.c \
	conduits/ucx/ucx_poll.c \
	conduits/ucx/ucx_fence.c \
	conduits/ucx/ucx_rma.c \
	conduits/ucx/ucx_exit.c \
	conduits/ucx/ucx_shm.c \
	$(SHM_LAYER_SOURCES) \
	$(BOOTSTRAP_SOURCES)
ucx_CONDUIT_CPPFLAGS = $(UCX_CFLAGS) $(BOOTSTRAP_CPPFLAGS) $(SHM_LAYER_CPPFLAGS)
ucx_CONDUIT_LIBS = $(UCX_LIBS) $(BOOTSTRAP_LIBS)
ucx_CONDUIT_CC = $(CC)
ucx_CONDUIT_LAUNCHER_SED =
noinst_HEADERS += conduits/ucx/ucx_internal.h conduits/ucx/ucx_shm.h
include conduits/ucx/conduit.mk
EXTRA_DIST += tests/ucx/run_launch.sh
EXTRA_DIST += tests/ucx/check_rma_choice.sh
