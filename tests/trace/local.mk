# tests/trace: tracing, statistics and the debugging aids. The programs are
# conduit-generic (tests/programs.list builds them for each conduit); the
# cases are tests/trace/trace.cases and, for a build without tracing,
# trace_off in tests/standalone.cases.
EXTRA_DIST += tests/trace/trace.cases tests/trace/check_trace.sh tests/trace/check_debug.sh \
	tests/trace/check_verboseenv.sh tests/trace/check_trace_off.sh \
	tests/trace/testtrace.c tests/trace/testfault.c
