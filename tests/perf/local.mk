# tests/perf: benchmarks. They print tables and assert nothing about speed;
# perf.cases runs them briefly so they keep working. The GASNet ones are
# conduit-generic (tests/programs.list: tests/conformance.sh builds them for
# each conduit into <build>/conformance/<conduit>/tests/perf/).
EXTRA_DIST += tests/perf/perf.cases tests/perf/compare_mpi.sh tests/perf/plot_compare.sh \
	tests/perf/compare_putget_mpi.sh tests/perf/compare_am_mpi.sh tests/perf/amflood_common.h \
	tests/perf/compare_lib.sh tests/perf/ucx_floor.sh
# The collectives benchmark's twin through MPI's own collectives, and the
# script that runs both and prints the ratios (docs/performance.md,
# "The collectives against Open MPI, now"). mpicollperf needs no GASNet library.
if BUILD_MPI
noinst_PROGRAMS += tests/perf/mpicollperf
tests_perf_mpicollperf_SOURCES = tests/perf/mpicollperf.c
tests_perf_mpicollperf_CPPFLAGS = $(MPI_CFLAGS)
tests_perf_mpicollperf_LDADD = $(MPI_LIBS)
tests_perf_mpicollperf_LDFLAGS = $(AM_LDFLAGS) -no-install
# putgetperf's twin through MPI's RMA and ping-pong (docs/mpi-conduit.md,
# "One-sided transfers").
noinst_PROGRAMS += tests/perf/mpiputperf
tests_perf_mpiputperf_SOURCES = tests/perf/mpiputperf.c
tests_perf_mpiputperf_CPPFLAGS = $(MPI_CFLAGS)
tests_perf_mpiputperf_LDADD = $(MPI_LIBS)
tests_perf_mpiputperf_LDFLAGS = $(AM_LDFLAGS) -no-install
# amflood's twin through MPI point-to-point (docs/performance.md,
# "Active-message throughput").
noinst_PROGRAMS += tests/perf/mpiamflood
tests_perf_mpiamflood_SOURCES = tests/perf/mpiamflood.c tests/perf/amflood_common.h
tests_perf_mpiamflood_CPPFLAGS = $(MPI_CFLAGS)
tests_perf_mpiamflood_LDADD = $(MPI_LIBS)
tests_perf_mpiamflood_LDFLAGS = $(AM_LDFLAGS) -no-install
endif
# The cache line's round trip between two CPUs (docs/performance.md,
# "Broadcast and scatter read directly from 1 MiB"): what moves the large shared-memory
# transfers on a VM. Plain pthreads; tests/standalone.cases runs it briefly.
noinst_PROGRAMS += tests/perf/linertt
tests_perf_linertt_SOURCES = tests/perf/linertt.c
tests_perf_linertt_LDADD = $(PTHREAD_LIBS)
tests_perf_linertt_LDFLAGS = $(AM_LDFLAGS) -no-install
