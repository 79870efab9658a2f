# tests/perf: benchmarks. Built by `make` (not installed); they print tables
# and assert nothing about speed. perf.cases runs them briefly so they keep
# working.
if BUILD_SMP
noinst_PROGRAMS += tests/perf/amperf
tests_perf_amperf_SOURCES = tests/perf/amperf.c
tests_perf_amperf_CPPFLAGS = $(PUBLIC_CPPFLAGS) -I$(top_srcdir)/conduits/smp -DGASNET_SEQ
tests_perf_amperf_LDADD = libgasnet-smp-seq.la $(PTHREAD_LIBS)
endif
EXTRA_DIST += tests/perf/perf.cases
