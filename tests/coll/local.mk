# tests/coll: the collectives tests (cases: tests/coll/coll.cases) and the
# collectives benchmark tests/perf/collperf (and collperf-par, its PAR
# build). The top Makefile.am includes this fragment after
# tests/perf/local.mk.
EXTRA_DIST += tests/coll/coll.cases tests/coll/collperf_all.sh \
	tests/coll/expect_fail_or_skip.sh
noinst_HEADERS += tests/coll/coll_test.h

if BUILD_SMP
COLL_TESTS_SEQ_CPPFLAGS = $(PUBLIC_CPPFLAGS) -I$(top_srcdir)/conduits/smp \
	-I$(top_srcdir)/tests -DGASNET_SEQ
COLL_TESTS_PAR_CPPFLAGS = $(PUBLIC_CPPFLAGS) -I$(top_srcdir)/conduits/smp \
	-I$(top_srcdir)/tests -DGASNET_PAR
COLL_TESTS_SEQ_LIBS = libgasnet-coll-seq.la libgasnet-smp-seq.la $(PTHREAD_LIBS)
COLL_TESTS_PAR_LIBS = libgasnet-coll-par.la libgasnet-smp-par.la $(PTHREAD_LIBS)
# -no-install: real binaries, not libtool wrappers, so the processes of a
# job run the program itself.
COLL_TESTS_LINK_FLAGS = $(AM_LDFLAGS) -no-install

check_PROGRAMS += \
	tests/coll/testcoll \
	tests/coll/testcollnb tests/coll/testcollnb-par \
	tests/coll/testsoak \
	tests/coll/testcollerr \
	tests/coll/testreduce \
	tests/coll/testteam \
	tests/coll/testprogress \
	tests/coll/testmany \
	tests/coll/testimageserr \
	tests/coll/test_trees \
	tests/coll/testimages tests/coll/testimages-par

tests_coll_testcoll_SOURCES = tests/coll/testcoll.c
tests_coll_testcoll_CPPFLAGS = $(COLL_TESTS_SEQ_CPPFLAGS)
tests_coll_testcoll_LDADD = $(COLL_TESTS_SEQ_LIBS)
tests_coll_testcoll_LDFLAGS = $(COLL_TESTS_LINK_FLAGS)

tests_coll_testsoak_SOURCES = tests/coll/testsoak.c
tests_coll_testsoak_CPPFLAGS = $(COLL_TESTS_SEQ_CPPFLAGS)
tests_coll_testsoak_LDADD = $(COLL_TESTS_SEQ_LIBS)
tests_coll_testsoak_LDFLAGS = $(COLL_TESTS_LINK_FLAGS)

tests_coll_testcollnb_SOURCES = tests/coll/testcollnb.c
tests_coll_testcollnb_CPPFLAGS = $(COLL_TESTS_SEQ_CPPFLAGS)
tests_coll_testcollnb_LDADD = $(COLL_TESTS_SEQ_LIBS)
tests_coll_testcollnb_LDFLAGS = $(COLL_TESTS_LINK_FLAGS)
tests_coll_testcollnb_par_SOURCES = tests/coll/testcollnb.c
tests_coll_testcollnb_par_CPPFLAGS = $(COLL_TESTS_PAR_CPPFLAGS)
tests_coll_testcollnb_par_LDADD = $(COLL_TESTS_PAR_LIBS)
tests_coll_testcollnb_par_LDFLAGS = $(COLL_TESTS_LINK_FLAGS)

tests_coll_testcollerr_SOURCES = tests/coll/testcollerr.c
tests_coll_testcollerr_CPPFLAGS = $(COLL_TESTS_SEQ_CPPFLAGS)
tests_coll_testcollerr_LDADD = $(COLL_TESTS_SEQ_LIBS)
tests_coll_testcollerr_LDFLAGS = $(COLL_TESTS_LINK_FLAGS)

tests_coll_testreduce_SOURCES = tests/coll/testreduce.c
tests_coll_testreduce_CPPFLAGS = $(COLL_TESTS_SEQ_CPPFLAGS)
tests_coll_testreduce_LDADD = $(COLL_TESTS_SEQ_LIBS) -lm
tests_coll_testreduce_LDFLAGS = $(COLL_TESTS_LINK_FLAGS)

tests_coll_testteam_SOURCES = tests/coll/testteam.c
tests_coll_testteam_CPPFLAGS = $(COLL_TESTS_SEQ_CPPFLAGS)
tests_coll_testteam_LDADD = $(COLL_TESTS_SEQ_LIBS)
tests_coll_testteam_LDFLAGS = $(COLL_TESTS_LINK_FLAGS)

tests_coll_testprogress_SOURCES = tests/coll/testprogress.c
tests_coll_testprogress_CPPFLAGS = $(COLL_TESTS_PAR_CPPFLAGS)
tests_coll_testprogress_LDADD = $(COLL_TESTS_PAR_LIBS)
tests_coll_testprogress_LDFLAGS = $(COLL_TESTS_LINK_FLAGS)

tests_coll_testmany_SOURCES = tests/coll/testmany.c
tests_coll_testmany_CPPFLAGS = $(COLL_TESTS_SEQ_CPPFLAGS)
tests_coll_testmany_LDADD = $(COLL_TESTS_SEQ_LIBS)
tests_coll_testmany_LDFLAGS = $(COLL_TESTS_LINK_FLAGS)

tests_coll_testimageserr_SOURCES = tests/coll/testimageserr.c
tests_coll_testimageserr_CPPFLAGS = $(COLL_TESTS_PAR_CPPFLAGS)
tests_coll_testimageserr_LDADD = $(COLL_TESTS_PAR_LIBS)
tests_coll_testimageserr_LDFLAGS = $(COLL_TESTS_LINK_FLAGS)

# Several images per node and the M forms: the SEQ build with images NULL,
# the PAR build with one thread per image.
tests_coll_testimages_SOURCES = tests/coll/testimages.c
tests_coll_testimages_CPPFLAGS = $(COLL_TESTS_SEQ_CPPFLAGS)
tests_coll_testimages_LDADD = $(COLL_TESTS_SEQ_LIBS)
tests_coll_testimages_LDFLAGS = $(COLL_TESTS_LINK_FLAGS)
tests_coll_testimages_par_SOURCES = tests/coll/testimages.c
tests_coll_testimages_par_CPPFLAGS = $(COLL_TESTS_PAR_CPPFLAGS)
tests_coll_testimages_par_LDADD = $(COLL_TESTS_PAR_LIBS)
tests_coll_testimages_par_LDFLAGS = $(COLL_TESTS_LINK_FLAGS)

# The tree math is pure: coll/trees.c is compiled into the test itself.
tests_coll_test_trees_SOURCES = tests/coll/test_trees.c coll/trees.c
tests_coll_test_trees_CPPFLAGS = -I$(top_srcdir)/coll
tests_coll_test_trees_LDFLAGS = $(COLL_TESTS_LINK_FLAGS)

noinst_PROGRAMS += tests/perf/collperf
tests_perf_collperf_SOURCES = tests/perf/collperf.c
tests_perf_collperf_CPPFLAGS = $(PUBLIC_CPPFLAGS) -I$(top_srcdir)/conduits/smp -DGASNET_SEQ
tests_perf_collperf_LDADD = $(COLL_TESTS_SEQ_LIBS)
tests_perf_collperf_LDFLAGS = $(COLL_TESTS_LINK_FLAGS)
# The same benchmark with several images (threads) per node (-I).
noinst_PROGRAMS += tests/perf/collperf-par
tests_perf_collperf_par_SOURCES = tests/perf/collperf.c
tests_perf_collperf_par_CPPFLAGS = $(PUBLIC_CPPFLAGS) -I$(top_srcdir)/conduits/smp -DGASNET_PAR
tests_perf_collperf_par_LDADD = $(COLL_TESTS_PAR_LIBS)
tests_perf_collperf_par_LDFLAGS = $(COLL_TESTS_LINK_FLAGS)
endif
