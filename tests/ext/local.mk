# tests/ext: the extended API tests (put/get, sync, access regions,
# barriers) and the put/get and barrier benchmarks of tests/perf. Every
# program is conduit-generic: tests/conformance.sh builds them for each
# conduit (tests/programs.list). Cases: tests/ext/ext.cases.
EXTRA_DIST += tests/ext/ext.cases tests/ext/errors.sh tests/ext/perf_tables.sh
noinst_HEADERS += tests/ext/ext_test.h
