# tests/mpi: the mpi conduit's own tests, and the conduit-generic suites
# built against its libraries. Included by Makefile.am inside `if BUILD_MPI`.
# Cases: tests/mpi/mpi.cases (scripts in this directory run them under
# gasnetrun_mpi with Open MPI's shared-memory and TCP transports).
MPI_TESTS_SEQ_CPPFLAGS = $(PUBLIC_CPPFLAGS) -I$(top_srcdir)/conduits/mpi -I$(top_srcdir)/tests \
	-I$(top_srcdir)/tests/ext -DGASNET_SEQ
MPI_TESTS_PAR_CPPFLAGS = $(PUBLIC_CPPFLAGS) -I$(top_srcdir)/conduits/mpi -I$(top_srcdir)/tests \
	-I$(top_srcdir)/tests/ext -DGASNET_PAR
MPI_TESTS_SEQ_LIBS = libgasnet-mpi-seq.la $(MPI_LIBS) $(PTHREAD_LIBS)
MPI_TESTS_PAR_LIBS = libgasnet-mpi-par.la $(MPI_LIBS) $(PTHREAD_LIBS)
# -no-install: real binaries, not libtool wrappers, so the processes of a
# job run the program itself (the leak checks look for its path).
MPI_TESTS_LINK_FLAGS = $(AM_LDFLAGS) -no-install
EXTRA_DIST += tests/mpi/mpi.cases tests/mpi/mpi_lib.sh tests/mpi/run_mpi.sh \
	tests/mpi/run_exit_mpi.sh tests/mpi/conformance.sh tests/mpi/run_rma_nopoll.sh

# ------------------------------------------------------------ mpi-only tests
check_PROGRAMS += tests/mpi/testmpi_flood tests/mpi/testmpi_flood-par \
	tests/mpi/testmpi_interop tests/mpi/testmpi_interop-par

tests_mpi_testmpi_flood_SOURCES = tests/mpi/testmpi_flood.c
tests_mpi_testmpi_flood_CPPFLAGS = $(MPI_TESTS_SEQ_CPPFLAGS)
tests_mpi_testmpi_flood_LDADD = $(MPI_TESTS_SEQ_LIBS)
tests_mpi_testmpi_flood_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)
tests_mpi_testmpi_flood_par_SOURCES = tests/mpi/testmpi_flood.c
tests_mpi_testmpi_flood_par_CPPFLAGS = $(MPI_TESTS_PAR_CPPFLAGS)
tests_mpi_testmpi_flood_par_LDADD = $(MPI_TESTS_PAR_LIBS)
tests_mpi_testmpi_flood_par_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)
tests_mpi_testmpi_interop_SOURCES = tests/mpi/testmpi_interop.c
tests_mpi_testmpi_interop_CPPFLAGS = $(MPI_TESTS_SEQ_CPPFLAGS) $(MPI_CFLAGS)
tests_mpi_testmpi_interop_LDADD = $(MPI_TESTS_SEQ_LIBS)
tests_mpi_testmpi_interop_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)
tests_mpi_testmpi_interop_par_SOURCES = tests/mpi/testmpi_interop.c
tests_mpi_testmpi_interop_par_CPPFLAGS = $(MPI_TESTS_PAR_CPPFLAGS) $(MPI_CFLAGS)
tests_mpi_testmpi_interop_par_LDADD = $(MPI_TESTS_PAR_LIBS)
tests_mpi_testmpi_interop_par_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)

# ------------------------------------------------------------ conduit-generic suites
# The same sources as tests/local.mk, tests/ext/local.mk, tests/exit and
# tests/perf build for smp, laid out under tests/mpi/conf/ as in the build
# tree so tests/mpi/conformance.sh runs the unchanged case files on them.
# A program added to those suites needs a line here too.
check_PROGRAMS += \
	tests/mpi/conf/tests/testam \
	tests/mpi/conf/tests/testam-par \
	tests/mpi/conf/tests/testamchain \
	tests/mpi/conf/tests/testamchain-par \
	tests/mpi/conf/tests/testamorder \
	tests/mpi/conf/tests/testamorder-par \
	tests/mpi/conf/tests/testhandlers \
	tests/mpi/conf/tests/testhandlers-par \
	tests/mpi/conf/tests/testsegment \
	tests/mpi/conf/tests/testsegment-par \
	tests/mpi/conf/tests/testmisc \
	tests/mpi/conf/tests/testmisc-par \
	tests/mpi/conf/tests/testscale \
	tests/mpi/conf/tests/testscale-par \
	tests/mpi/conf/tests/testthreads \
	tests/mpi/conf/tests/ext/testputget \
	tests/mpi/conf/tests/ext/testputget-par \
	tests/mpi/conf/tests/ext/testbarrier \
	tests/mpi/conf/tests/ext/testbarrier-par \
	tests/mpi/conf/tests/ext/testexterr \
	tests/mpi/conf/tests/ext/testflagpingpong \
	tests/mpi/conf/tests/ext/testloopback \
	tests/mpi/conf/tests/ext/testnopoll \
	tests/mpi/conf/tests/exit/testexit \
	tests/mpi/conf/tests/perf/amperf \
	tests/mpi/conf/tests/perf/putgetperf \
	tests/mpi/conf/tests/perf/barrierperf

tests_mpi_conf_tests_testam_SOURCES = tests/testam.c
tests_mpi_conf_tests_testam_CPPFLAGS = $(MPI_TESTS_SEQ_CPPFLAGS)
tests_mpi_conf_tests_testam_LDADD = $(MPI_TESTS_SEQ_LIBS)
tests_mpi_conf_tests_testam_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)

tests_mpi_conf_tests_testam_par_SOURCES = tests/testam.c
tests_mpi_conf_tests_testam_par_CPPFLAGS = $(MPI_TESTS_PAR_CPPFLAGS)
tests_mpi_conf_tests_testam_par_LDADD = $(MPI_TESTS_PAR_LIBS)
tests_mpi_conf_tests_testam_par_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)

tests_mpi_conf_tests_testamchain_SOURCES = tests/testamchain.c
tests_mpi_conf_tests_testamchain_CPPFLAGS = $(MPI_TESTS_SEQ_CPPFLAGS)
tests_mpi_conf_tests_testamchain_LDADD = $(MPI_TESTS_SEQ_LIBS)
tests_mpi_conf_tests_testamchain_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)

tests_mpi_conf_tests_testamchain_par_SOURCES = tests/testamchain.c
tests_mpi_conf_tests_testamchain_par_CPPFLAGS = $(MPI_TESTS_PAR_CPPFLAGS)
tests_mpi_conf_tests_testamchain_par_LDADD = $(MPI_TESTS_PAR_LIBS)
tests_mpi_conf_tests_testamchain_par_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)

tests_mpi_conf_tests_testamorder_SOURCES = tests/testamorder.c
tests_mpi_conf_tests_testamorder_CPPFLAGS = $(MPI_TESTS_SEQ_CPPFLAGS)
tests_mpi_conf_tests_testamorder_LDADD = $(MPI_TESTS_SEQ_LIBS)
tests_mpi_conf_tests_testamorder_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)

tests_mpi_conf_tests_testamorder_par_SOURCES = tests/testamorder.c
tests_mpi_conf_tests_testamorder_par_CPPFLAGS = $(MPI_TESTS_PAR_CPPFLAGS)
tests_mpi_conf_tests_testamorder_par_LDADD = $(MPI_TESTS_PAR_LIBS)
tests_mpi_conf_tests_testamorder_par_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)

tests_mpi_conf_tests_testhandlers_SOURCES = tests/testhandlers.c
tests_mpi_conf_tests_testhandlers_CPPFLAGS = $(MPI_TESTS_SEQ_CPPFLAGS)
tests_mpi_conf_tests_testhandlers_LDADD = $(MPI_TESTS_SEQ_LIBS)
tests_mpi_conf_tests_testhandlers_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)

tests_mpi_conf_tests_testhandlers_par_SOURCES = tests/testhandlers.c
tests_mpi_conf_tests_testhandlers_par_CPPFLAGS = $(MPI_TESTS_PAR_CPPFLAGS)
tests_mpi_conf_tests_testhandlers_par_LDADD = $(MPI_TESTS_PAR_LIBS)
tests_mpi_conf_tests_testhandlers_par_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)

tests_mpi_conf_tests_testsegment_SOURCES = tests/testsegment.c
tests_mpi_conf_tests_testsegment_CPPFLAGS = $(MPI_TESTS_SEQ_CPPFLAGS)
tests_mpi_conf_tests_testsegment_LDADD = $(MPI_TESTS_SEQ_LIBS)
tests_mpi_conf_tests_testsegment_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)

tests_mpi_conf_tests_testsegment_par_SOURCES = tests/testsegment.c
tests_mpi_conf_tests_testsegment_par_CPPFLAGS = $(MPI_TESTS_PAR_CPPFLAGS)
tests_mpi_conf_tests_testsegment_par_LDADD = $(MPI_TESTS_PAR_LIBS)
tests_mpi_conf_tests_testsegment_par_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)

tests_mpi_conf_tests_testmisc_SOURCES = tests/testmisc.c
tests_mpi_conf_tests_testmisc_CPPFLAGS = $(MPI_TESTS_SEQ_CPPFLAGS)
tests_mpi_conf_tests_testmisc_LDADD = $(MPI_TESTS_SEQ_LIBS)
tests_mpi_conf_tests_testmisc_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)

tests_mpi_conf_tests_testmisc_par_SOURCES = tests/testmisc.c
tests_mpi_conf_tests_testmisc_par_CPPFLAGS = $(MPI_TESTS_PAR_CPPFLAGS)
tests_mpi_conf_tests_testmisc_par_LDADD = $(MPI_TESTS_PAR_LIBS)
tests_mpi_conf_tests_testmisc_par_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)

tests_mpi_conf_tests_testscale_SOURCES = tests/testscale.c
tests_mpi_conf_tests_testscale_CPPFLAGS = $(MPI_TESTS_SEQ_CPPFLAGS)
tests_mpi_conf_tests_testscale_LDADD = $(MPI_TESTS_SEQ_LIBS)
tests_mpi_conf_tests_testscale_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)

tests_mpi_conf_tests_testscale_par_SOURCES = tests/testscale.c
tests_mpi_conf_tests_testscale_par_CPPFLAGS = $(MPI_TESTS_PAR_CPPFLAGS)
tests_mpi_conf_tests_testscale_par_LDADD = $(MPI_TESTS_PAR_LIBS)
tests_mpi_conf_tests_testscale_par_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)

tests_mpi_conf_tests_testthreads_SOURCES = tests/testthreads.c
tests_mpi_conf_tests_testthreads_CPPFLAGS = $(MPI_TESTS_PAR_CPPFLAGS)
tests_mpi_conf_tests_testthreads_LDADD = $(MPI_TESTS_PAR_LIBS)
tests_mpi_conf_tests_testthreads_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)

tests_mpi_conf_tests_ext_testputget_SOURCES = tests/ext/testputget.c
tests_mpi_conf_tests_ext_testputget_CPPFLAGS = $(MPI_TESTS_SEQ_CPPFLAGS)
tests_mpi_conf_tests_ext_testputget_LDADD = $(MPI_TESTS_SEQ_LIBS)
tests_mpi_conf_tests_ext_testputget_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)

tests_mpi_conf_tests_ext_testputget_par_SOURCES = tests/ext/testputget.c
tests_mpi_conf_tests_ext_testputget_par_CPPFLAGS = $(MPI_TESTS_PAR_CPPFLAGS)
tests_mpi_conf_tests_ext_testputget_par_LDADD = $(MPI_TESTS_PAR_LIBS)
tests_mpi_conf_tests_ext_testputget_par_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)

tests_mpi_conf_tests_ext_testbarrier_SOURCES = tests/ext/testbarrier.c
tests_mpi_conf_tests_ext_testbarrier_CPPFLAGS = $(MPI_TESTS_SEQ_CPPFLAGS)
tests_mpi_conf_tests_ext_testbarrier_LDADD = $(MPI_TESTS_SEQ_LIBS)
tests_mpi_conf_tests_ext_testbarrier_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)

tests_mpi_conf_tests_ext_testbarrier_par_SOURCES = tests/ext/testbarrier.c
tests_mpi_conf_tests_ext_testbarrier_par_CPPFLAGS = $(MPI_TESTS_PAR_CPPFLAGS)
tests_mpi_conf_tests_ext_testbarrier_par_LDADD = $(MPI_TESTS_PAR_LIBS)
tests_mpi_conf_tests_ext_testbarrier_par_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)

tests_mpi_conf_tests_ext_testexterr_SOURCES = tests/ext/testexterr.c
tests_mpi_conf_tests_ext_testexterr_CPPFLAGS = $(MPI_TESTS_SEQ_CPPFLAGS)
tests_mpi_conf_tests_ext_testexterr_LDADD = $(MPI_TESTS_SEQ_LIBS)
tests_mpi_conf_tests_ext_testexterr_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)

tests_mpi_conf_tests_ext_testflagpingpong_SOURCES = tests/ext/testflagpingpong.c
tests_mpi_conf_tests_ext_testflagpingpong_CPPFLAGS = $(MPI_TESTS_SEQ_CPPFLAGS)
tests_mpi_conf_tests_ext_testflagpingpong_LDADD = $(MPI_TESTS_SEQ_LIBS)
tests_mpi_conf_tests_ext_testflagpingpong_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)

tests_mpi_conf_tests_ext_testloopback_SOURCES = tests/ext/testloopback.c
tests_mpi_conf_tests_ext_testloopback_CPPFLAGS = $(MPI_TESTS_SEQ_CPPFLAGS)
tests_mpi_conf_tests_ext_testloopback_LDADD = $(MPI_TESTS_SEQ_LIBS)
tests_mpi_conf_tests_ext_testloopback_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)

tests_mpi_conf_tests_ext_testnopoll_SOURCES = tests/ext/testnopoll.c
tests_mpi_conf_tests_ext_testnopoll_CPPFLAGS = $(MPI_TESTS_SEQ_CPPFLAGS)
tests_mpi_conf_tests_ext_testnopoll_LDADD = $(MPI_TESTS_SEQ_LIBS)
tests_mpi_conf_tests_ext_testnopoll_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)

tests_mpi_conf_tests_exit_testexit_SOURCES = tests/exit/testexit.c
tests_mpi_conf_tests_exit_testexit_CPPFLAGS = $(MPI_TESTS_SEQ_CPPFLAGS)
tests_mpi_conf_tests_exit_testexit_LDADD = $(MPI_TESTS_SEQ_LIBS)
tests_mpi_conf_tests_exit_testexit_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)

tests_mpi_conf_tests_perf_amperf_SOURCES = tests/perf/amperf.c
tests_mpi_conf_tests_perf_amperf_CPPFLAGS = $(MPI_TESTS_SEQ_CPPFLAGS)
tests_mpi_conf_tests_perf_amperf_LDADD = $(MPI_TESTS_SEQ_LIBS)
tests_mpi_conf_tests_perf_amperf_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)

tests_mpi_conf_tests_perf_putgetperf_SOURCES = tests/perf/putgetperf.c
tests_mpi_conf_tests_perf_putgetperf_CPPFLAGS = $(MPI_TESTS_SEQ_CPPFLAGS)
tests_mpi_conf_tests_perf_putgetperf_LDADD = $(MPI_TESTS_SEQ_LIBS)
tests_mpi_conf_tests_perf_putgetperf_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)

tests_mpi_conf_tests_perf_barrierperf_SOURCES = tests/perf/barrierperf.c
tests_mpi_conf_tests_perf_barrierperf_CPPFLAGS = $(MPI_TESTS_SEQ_CPPFLAGS)
tests_mpi_conf_tests_perf_barrierperf_LDADD = $(MPI_TESTS_SEQ_LIBS)
tests_mpi_conf_tests_perf_barrierperf_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)

# ------------------------------------------------------------ collectives
# tests/coll/local.mk's programs, linked with the collectives library and
# this conduit's.
MPI_COLL_SEQ_LIBS = libgasnet-coll-seq.la $(MPI_TESTS_SEQ_LIBS)
MPI_COLL_PAR_LIBS = libgasnet-coll-par.la $(MPI_TESTS_PAR_LIBS)
check_PROGRAMS += \
	tests/mpi/conf/tests/coll/testcoll \
	tests/mpi/conf/tests/coll/testcollnb \
	tests/mpi/conf/tests/coll/testcollnb-par \
	tests/mpi/conf/tests/coll/testcollerr \
	tests/mpi/conf/tests/coll/testreduce \
	tests/mpi/conf/tests/coll/testteam \
	tests/mpi/conf/tests/coll/testimages \
	tests/mpi/conf/tests/coll/testimages-par \
	tests/mpi/conf/tests/coll/testimageserr \
	tests/mpi/conf/tests/coll/testprogress \
	tests/mpi/conf/tests/coll/testmany \
	tests/mpi/conf/tests/coll/test_trees \
	tests/mpi/conf/tests/perf/collperf \
	tests/mpi/conf/tests/perf/collperf-par

tests_mpi_conf_tests_coll_testcoll_SOURCES = tests/coll/testcoll.c
tests_mpi_conf_tests_coll_testcoll_CPPFLAGS = $(MPI_TESTS_SEQ_CPPFLAGS)
tests_mpi_conf_tests_coll_testcoll_LDADD = $(MPI_COLL_SEQ_LIBS)
tests_mpi_conf_tests_coll_testcoll_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)

tests_mpi_conf_tests_coll_testcollnb_SOURCES = tests/coll/testcollnb.c
tests_mpi_conf_tests_coll_testcollnb_CPPFLAGS = $(MPI_TESTS_SEQ_CPPFLAGS)
tests_mpi_conf_tests_coll_testcollnb_LDADD = $(MPI_COLL_SEQ_LIBS)
tests_mpi_conf_tests_coll_testcollnb_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)

tests_mpi_conf_tests_coll_testcollnb_par_SOURCES = tests/coll/testcollnb.c
tests_mpi_conf_tests_coll_testcollnb_par_CPPFLAGS = $(MPI_TESTS_PAR_CPPFLAGS)
tests_mpi_conf_tests_coll_testcollnb_par_LDADD = $(MPI_COLL_PAR_LIBS)
tests_mpi_conf_tests_coll_testcollnb_par_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)

tests_mpi_conf_tests_coll_testcollerr_SOURCES = tests/coll/testcollerr.c
tests_mpi_conf_tests_coll_testcollerr_CPPFLAGS = $(MPI_TESTS_SEQ_CPPFLAGS)
tests_mpi_conf_tests_coll_testcollerr_LDADD = $(MPI_COLL_SEQ_LIBS)
tests_mpi_conf_tests_coll_testcollerr_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)

tests_mpi_conf_tests_coll_testreduce_SOURCES = tests/coll/testreduce.c
tests_mpi_conf_tests_coll_testreduce_CPPFLAGS = $(MPI_TESTS_SEQ_CPPFLAGS)
tests_mpi_conf_tests_coll_testreduce_LDADD = $(MPI_COLL_SEQ_LIBS) -lm
tests_mpi_conf_tests_coll_testreduce_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)

tests_mpi_conf_tests_coll_testteam_SOURCES = tests/coll/testteam.c
tests_mpi_conf_tests_coll_testteam_CPPFLAGS = $(MPI_TESTS_SEQ_CPPFLAGS)
tests_mpi_conf_tests_coll_testteam_LDADD = $(MPI_COLL_SEQ_LIBS)
tests_mpi_conf_tests_coll_testteam_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)

tests_mpi_conf_tests_coll_testimages_SOURCES = tests/coll/testimages.c
tests_mpi_conf_tests_coll_testimages_CPPFLAGS = $(MPI_TESTS_SEQ_CPPFLAGS)
tests_mpi_conf_tests_coll_testimages_LDADD = $(MPI_COLL_SEQ_LIBS)
tests_mpi_conf_tests_coll_testimages_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)

tests_mpi_conf_tests_coll_testimages_par_SOURCES = tests/coll/testimages.c
tests_mpi_conf_tests_coll_testimages_par_CPPFLAGS = $(MPI_TESTS_PAR_CPPFLAGS)
tests_mpi_conf_tests_coll_testimages_par_LDADD = $(MPI_COLL_PAR_LIBS)
tests_mpi_conf_tests_coll_testimages_par_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)

tests_mpi_conf_tests_coll_testimageserr_SOURCES = tests/coll/testimageserr.c
tests_mpi_conf_tests_coll_testimageserr_CPPFLAGS = $(MPI_TESTS_PAR_CPPFLAGS)
tests_mpi_conf_tests_coll_testimageserr_LDADD = $(MPI_COLL_PAR_LIBS)
tests_mpi_conf_tests_coll_testimageserr_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)

tests_mpi_conf_tests_coll_testmany_SOURCES = tests/coll/testmany.c
tests_mpi_conf_tests_coll_testmany_CPPFLAGS = $(MPI_TESTS_SEQ_CPPFLAGS)
tests_mpi_conf_tests_coll_testmany_LDADD = $(MPI_COLL_SEQ_LIBS)
tests_mpi_conf_tests_coll_testmany_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)

tests_mpi_conf_tests_coll_testprogress_SOURCES = tests/coll/testprogress.c
tests_mpi_conf_tests_coll_testprogress_CPPFLAGS = $(MPI_TESTS_PAR_CPPFLAGS)
tests_mpi_conf_tests_coll_testprogress_LDADD = $(MPI_COLL_PAR_LIBS)
tests_mpi_conf_tests_coll_testprogress_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)

# Conduit-free (tree arithmetic); here only so coll.cases finds it.
tests_mpi_conf_tests_coll_test_trees_SOURCES = tests/coll/test_trees.c coll/trees.c
tests_mpi_conf_tests_coll_test_trees_CPPFLAGS = -I$(top_srcdir)/coll
tests_mpi_conf_tests_coll_test_trees_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)

tests_mpi_conf_tests_perf_collperf_SOURCES = tests/perf/collperf.c
tests_mpi_conf_tests_perf_collperf_CPPFLAGS = $(MPI_TESTS_SEQ_CPPFLAGS)
tests_mpi_conf_tests_perf_collperf_LDADD = $(MPI_COLL_SEQ_LIBS)
tests_mpi_conf_tests_perf_collperf_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)

tests_mpi_conf_tests_perf_collperf_par_SOURCES = tests/perf/collperf.c
tests_mpi_conf_tests_perf_collperf_par_CPPFLAGS = $(MPI_TESTS_PAR_CPPFLAGS)
tests_mpi_conf_tests_perf_collperf_par_LDADD = $(MPI_COLL_PAR_LIBS)
tests_mpi_conf_tests_perf_collperf_par_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)
