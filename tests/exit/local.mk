# tests/exit: how a job ends (exit codes, crashes, signals, self-launch).
# testexit, testexit-par and the sigdfl helper are built for each conduit by
# tests/conformance.sh (tests/programs.list), which runs exit.cases with the
# conduit's launcher. install.cases runs from the top (an installed tree).
EXTRA_DIST += tests/exit/lib.sh tests/exit/run_exit.sh tests/exit/interrupt.sh \
	tests/exit/collective.sh tests/exit/exit.cases tests/exit/install.cases \
	tests/exit/testexit.c tests/exit/sigdfl.c
