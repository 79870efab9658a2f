# tests/exit: how a job ends (exit codes, crashes, signals, self-launch).
# The scripts drive testexit through the smp launcher; see tests/exit/*.cases.
# testexit-par (the same source in the PAR mode) adds a polling thread to
# every node for the collective-exit cases.
if BUILD_SMP
check_PROGRAMS += tests/exit/testexit tests/exit/testexit-par tests/exit/sigdfl
tests_exit_testexit_SOURCES = tests/exit/testexit.c
tests_exit_testexit_CPPFLAGS = $(PUBLIC_CPPFLAGS) -I$(top_srcdir)/conduits/smp -DGASNET_SEQ
tests_exit_testexit_LDADD = libgasnet-smp-seq.la $(PTHREAD_LIBS)
# -no-install: a real binary rather than a libtool wrapper script, so the
# processes the scripts look for after a job are the program itself.
tests_exit_testexit_LDFLAGS = $(AM_LDFLAGS) -no-install
tests_exit_testexit_par_SOURCES = tests/exit/testexit.c
tests_exit_testexit_par_CPPFLAGS = $(PUBLIC_CPPFLAGS) -I$(top_srcdir)/conduits/smp -DGASNET_PAR
tests_exit_testexit_par_LDADD = libgasnet-smp-par.la $(PTHREAD_LIBS)
tests_exit_testexit_par_LDFLAGS = $(AM_LDFLAGS) -no-install
tests_exit_sigdfl_SOURCES = tests/exit/sigdfl.c
endif
# The PAR testexit against the mpi library, beside the SEQ one that
# tests/mpi/local.mk builds (tests/mpi/run_exit_mpi.sh runs both).
if BUILD_MPI
check_PROGRAMS += tests/mpi/conf/tests/exit/testexit-par
tests_mpi_conf_tests_exit_testexit_par_SOURCES = tests/exit/testexit.c
tests_mpi_conf_tests_exit_testexit_par_CPPFLAGS = $(MPI_TESTS_PAR_CPPFLAGS)
tests_mpi_conf_tests_exit_testexit_par_LDADD = $(MPI_TESTS_PAR_LIBS)
tests_mpi_conf_tests_exit_testexit_par_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)
endif
EXTRA_DIST += tests/job_lib.sh tests/exit/lib.sh tests/exit/run_exit.sh tests/exit/interrupt.sh \
	tests/exit/collective.sh tests/exit/exit.cases tests/exit/install.cases
