# tests/exit: how a job ends (exit codes, crashes, signals, self-launch).
# The scripts drive testexit through the smp launcher; see tests/exit/*.cases.
if BUILD_SMP
check_PROGRAMS += tests/exit/testexit tests/exit/sigdfl
tests_exit_testexit_SOURCES = tests/exit/testexit.c
tests_exit_testexit_CPPFLAGS = $(PUBLIC_CPPFLAGS) -I$(top_srcdir)/conduits/smp -DGASNET_SEQ
tests_exit_testexit_LDADD = libgasnet-smp-seq.la $(PTHREAD_LIBS)
# -no-install: a real binary rather than a libtool wrapper script, so the
# processes the scripts look for after a job are the program itself.
tests_exit_testexit_LDFLAGS = $(AM_LDFLAGS) -no-install
tests_exit_sigdfl_SOURCES = tests/exit/sigdfl.c
endif
EXTRA_DIST += tests/job_lib.sh tests/exit/lib.sh tests/exit/run_exit.sh tests/exit/interrupt.sh \
	tests/exit/exit.cases tests/exit/install.cases
