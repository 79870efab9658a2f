# tests/ext: the extended API (put/get, sync, access regions, barriers),
# and the put/get and barrier benchmarks of tests/perf. Conduit-generic
# sources (public names only); built here against the smp libraries.
# Cases: tests/ext/ext.cases.
EXTRA_DIST += tests/ext/ext.cases tests/ext/errors.sh tests/ext/perf_tables.sh
noinst_HEADERS += tests/ext/ext_test.h

if BUILD_SMP
EXT_TESTS_SEQ_CPPFLAGS = $(PUBLIC_CPPFLAGS) -I$(top_srcdir)/conduits/smp -DGASNET_SEQ
EXT_TESTS_PAR_CPPFLAGS = $(PUBLIC_CPPFLAGS) -I$(top_srcdir)/conduits/smp -DGASNET_PAR
EXT_TESTS_SEQ_LIBS = libgasnet-smp-seq.la $(PTHREAD_LIBS)
EXT_TESTS_PAR_LIBS = libgasnet-smp-par.la $(PTHREAD_LIBS)
# -no-install: real binaries, not libtool wrappers, so the processes of a
# job run the program itself.
EXT_TESTS_LINK_FLAGS = $(AM_LDFLAGS) -no-install

check_PROGRAMS += \
	tests/ext/testputget tests/ext/testputget-par \
	tests/ext/testbarrier tests/ext/testbarrier-par \
	tests/ext/testexterr \
	tests/ext/testflagpingpong \
	tests/ext/testloopback \
	tests/ext/testnopoll

tests_ext_testputget_SOURCES = tests/ext/testputget.c
tests_ext_testputget_CPPFLAGS = $(EXT_TESTS_SEQ_CPPFLAGS)
tests_ext_testputget_LDADD = $(EXT_TESTS_SEQ_LIBS)
tests_ext_testputget_LDFLAGS = $(EXT_TESTS_LINK_FLAGS)
tests_ext_testputget_par_SOURCES = tests/ext/testputget.c
tests_ext_testputget_par_CPPFLAGS = $(EXT_TESTS_PAR_CPPFLAGS)
tests_ext_testputget_par_LDADD = $(EXT_TESTS_PAR_LIBS)
tests_ext_testputget_par_LDFLAGS = $(EXT_TESTS_LINK_FLAGS)

tests_ext_testnopoll_SOURCES = tests/ext/testnopoll.c
tests_ext_testnopoll_CPPFLAGS = $(EXT_TESTS_SEQ_CPPFLAGS)
tests_ext_testnopoll_LDADD = $(EXT_TESTS_SEQ_LIBS)
tests_ext_testnopoll_LDFLAGS = $(EXT_TESTS_LINK_FLAGS)

tests_ext_testbarrier_SOURCES = tests/ext/testbarrier.c
tests_ext_testbarrier_CPPFLAGS = $(EXT_TESTS_SEQ_CPPFLAGS)
tests_ext_testbarrier_LDADD = $(EXT_TESTS_SEQ_LIBS)
tests_ext_testbarrier_LDFLAGS = $(EXT_TESTS_LINK_FLAGS)
tests_ext_testbarrier_par_SOURCES = tests/ext/testbarrier.c
tests_ext_testbarrier_par_CPPFLAGS = $(EXT_TESTS_PAR_CPPFLAGS)
tests_ext_testbarrier_par_LDADD = $(EXT_TESTS_PAR_LIBS)
tests_ext_testbarrier_par_LDFLAGS = $(EXT_TESTS_LINK_FLAGS)

tests_ext_testexterr_SOURCES = tests/ext/testexterr.c
tests_ext_testexterr_CPPFLAGS = $(EXT_TESTS_SEQ_CPPFLAGS)
tests_ext_testexterr_LDADD = $(EXT_TESTS_SEQ_LIBS)
tests_ext_testexterr_LDFLAGS = $(EXT_TESTS_LINK_FLAGS)

tests_ext_testflagpingpong_SOURCES = tests/ext/testflagpingpong.c
tests_ext_testflagpingpong_CPPFLAGS = $(EXT_TESTS_SEQ_CPPFLAGS)
tests_ext_testflagpingpong_LDADD = $(EXT_TESTS_SEQ_LIBS)
tests_ext_testflagpingpong_LDFLAGS = $(EXT_TESTS_LINK_FLAGS)

tests_ext_testloopback_SOURCES = tests/ext/testloopback.c
tests_ext_testloopback_CPPFLAGS = $(EXT_TESTS_SEQ_CPPFLAGS)
tests_ext_testloopback_LDADD = $(EXT_TESTS_SEQ_LIBS)
tests_ext_testloopback_LDFLAGS = $(EXT_TESTS_LINK_FLAGS)

# Benchmarks (tests/perf/local.mk belongs to the core benchmarks).
noinst_PROGRAMS += tests/perf/putgetperf tests/perf/barrierperf
tests_perf_putgetperf_SOURCES = tests/perf/putgetperf.c
tests_perf_putgetperf_CPPFLAGS = $(EXT_TESTS_SEQ_CPPFLAGS) -I$(top_srcdir)/tests/ext
tests_perf_putgetperf_LDADD = $(EXT_TESTS_SEQ_LIBS)
tests_perf_putgetperf_LDFLAGS = $(EXT_TESTS_LINK_FLAGS)
tests_perf_barrierperf_SOURCES = tests/perf/barrierperf.c
tests_perf_barrierperf_CPPFLAGS = $(EXT_TESTS_SEQ_CPPFLAGS) -I$(top_srcdir)/tests/ext
tests_perf_barrierperf_LDADD = $(EXT_TESTS_SEQ_LIBS)
tests_perf_barrierperf_LDFLAGS = $(EXT_TESTS_LINK_FLAGS)
endif
