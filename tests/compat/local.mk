# tests/compat: GASNet-1 clients built from an installed tree only
# (tests/compat/run_compat.sh, run by the harness from compat.cases).
EXTRA_DIST += tests/compat/compat.cases tests/compat/run_compat.sh \
	tests/compat/compat_client.c tests/compat/compat_cxx.cc \
	tests/compat/compat_sigquit.c tests/compat/compat_exit.c tests/compat/compat_reduce.c \
	tests/compat/compat_barrier.c tests/compat/compat_aligned.c tests/compat/compat_amfence.c
