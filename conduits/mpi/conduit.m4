dnl conduits/mpi/conduit.m4: configure-time checks of the mpi conduit, read by
dnl GASNET_CONDUIT([mpi], ...) (m4/gasnet_conduit.m4). Finds the MPI through
dnl its C wrapper (MPICC, a name or a path), takes its compile and link
dnl flags, names its vendor and version, and finds its launcher (MPIRUN).
dnl Sets MPI_CFLAGS, MPI_LIBS, MPI_VENDOR, MPI_VENDOR_VERSION, MPICC, MPIRUN.

AC_ARG_VAR([MPICC], [MPI C compiler wrapper for the mpi conduit, a name or a path
            (default: mpicc, mpicc.openmpi, mpicc.mpich); its MPI is used throughout])
AC_ARG_VAR([MPIRUN], [launcher of that MPI (default: the one next to MPICC)])

dnl gasnet_mpi_wrapper_flags: sets MPI_CFLAGS and MPI_LIBS from $MPICC.
dnl Open MPI answers --showme:compile / --showme:link; MPICH and its
dnl derivatives answer -compile_info / -link_info with the whole command
dnl line (first word the compiler, the rest compile and link flags mixed),
dnl from which each side keeps its own kind of flag.
gasnet_mpi_wrapper_flags() {
  if MPI_CFLAGS=`$MPICC --showme:compile 2>/dev/null` &&
     MPI_LIBS=`$MPICC --showme:link 2>/dev/null`; then
    return 0
  fi
  gasnet_info=`$MPICC -compile_info 2>/dev/null` || gasnet_info=`$MPICC -show 2>/dev/null` || return 1
  MPI_CFLAGS=
  for gasnet_w in `echo "$gasnet_info" | cut -d' ' -f2-`; do
    case $gasnet_w in -I*|-D*|-U*|-pthread) MPI_CFLAGS="$MPI_CFLAGS $gasnet_w" ;; esac
  done
  gasnet_info=`$MPICC -link_info 2>/dev/null` || gasnet_info=`$MPICC -show 2>/dev/null` || return 1
  MPI_LIBS=
  for gasnet_w in `echo "$gasnet_info" | cut -d' ' -f2-`; do
    case $gasnet_w in -L*|-l*|-Wl,*|-pthread) MPI_LIBS="$MPI_LIBS $gasnet_w" ;; esac
  done
  MPI_CFLAGS=`echo $MPI_CFLAGS`; MPI_LIBS=`echo $MPI_LIBS`
}

dnl gasnet_pin_wrapper: a wrapper reached through symbolic links named
dnl mpicc* (Debian's alternatives: /usr/bin/mpicc -> /etc/alternatives/mpi
dnl -> /usr/bin/mpicc.openmpi) becomes the last such link, so the build
dnl and the installed fragments keep their MPI when the alternative moves.
gasnet_pin_wrapper() {
  gasnet_p=$MPICC
  while test -h "$gasnet_p"; do
    gasnet_t=`readlink "$gasnet_p"`
    case $gasnet_t in /*) ;; *) gasnet_t=`dirname "$gasnet_p"`/$gasnet_t ;; esac
    gasnet_p=$gasnet_t
    case `basename "$gasnet_p"` in mpicc*) MPICC=$gasnet_p ;; esac
  done
}

dnl gasnet_launcher_vendor PROGRAM: prints the MPI a launcher belongs to
dnl ("Open MPI", "MPICH" for Hydra, "unknown").
gasnet_launcher_vendor() {
  gasnet_v=`"$1" --version 2>&1 </dev/null | head -n 5`
  case $gasnet_v in
    *"Open MPI"*|*OpenRTE*) echo "Open MPI" ;;
    *HYDRA*|*Hydra*) echo "MPICH" ;;
    *) echo unknown ;;
  esac
}

dnl gasnet_find_mpirun: sets MPIRUN to the launcher of $MPI_VENDOR: first
dnl the names that go with the wrapper's suffix (mpicc.mpich:
dnl mpirun.mpich, mpiexec.mpich), then the vendor's own names, then
dnl mpirun / mpiexec; in the wrapper's directory first, then on PATH. The
dnl first one whose --version names the same MPI wins.
gasnet_find_mpirun() {
  gasnet_dir=`dirname "$MPICC"`
  gasnet_sfx=
  case `basename "$MPICC"` in mpicc.*) gasnet_sfx=.`basename "$MPICC" | sed 's/^mpicc\.//'` ;; esac
  case $MPI_VENDOR in
    "Open MPI") gasnet_names="mpirun.openmpi mpiexec.openmpi orterun" ;;
    MPICH|"Intel MPI"|MVAPICH) gasnet_names="mpirun.mpich mpiexec.mpich mpiexec.hydra" ;;
    *) gasnet_names= ;;
  esac
  test -n "$gasnet_sfx" && gasnet_names="mpirun$gasnet_sfx mpiexec$gasnet_sfx $gasnet_names"
  for gasnet_n in $gasnet_names mpirun mpiexec; do
    for gasnet_p in "$gasnet_dir/$gasnet_n" `command -v "$gasnet_n" 2>/dev/null`; do
      test -x "$gasnet_p" || continue
      test "`gasnet_launcher_vendor "$gasnet_p"`" = "$MPI_VENDOR" || continue
      MPIRUN=$gasnet_p
      return 0
    done
  done
  return 1
}

AC_DEFUN([GASNET_CONDUIT_CHECK_mpi], [
gasnet_mpi_required=$enable_mpi
dnl MPICC as a path is taken as it is, as a name looked up on PATH.
AS_CASE([$MPICC],
  [*/*], [AS_IF([test -x "$MPICC"], [], [AC_MSG_ERROR([MPICC=$MPICC is not an executable])])],
  [?*], [AC_PATH_PROG([gasnet_mpicc_path], [$MPICC], [])
         AS_IF([test "x$gasnet_mpicc_path" = x], [AC_MSG_ERROR([MPICC=$MPICC not found on PATH])])
         MPICC=$gasnet_mpicc_path],
  [AC_PATH_PROGS([MPICC], [mpicc mpicc.openmpi mpicc.mpich], [])])
AS_IF([test "x$MPICC" = x],
  [AS_IF([test "x$gasnet_mpi_required" = xyes], [AC_MSG_ERROR([--enable-mpi given but no mpicc found])])
   enable_mpi=no],
  [enable_mpi=yes
   gasnet_pin_wrapper])
AS_IF([test "x$enable_mpi" = xyes],
  [AC_MSG_CHECKING([MPI compile and link flags of $MPICC])
   AS_IF([gasnet_mpi_wrapper_flags], [],
     [AC_MSG_ERROR([$MPICC answers neither --showme:compile nor -compile_info nor -show])])
   AC_MSG_RESULT([$MPI_CFLAGS | $MPI_LIBS])
   save_CFLAGS=$CFLAGS; save_CPPFLAGS=$CPPFLAGS; save_LIBS=$LIBS
   CFLAGS="$CFLAGS $MPI_CFLAGS"; CPPFLAGS="$CPPFLAGS $MPI_CFLAGS"; LIBS="$LIBS $MPI_LIBS"
   AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <mpi.h>]], [[MPI_Init(0, 0); MPI_Finalize();]])],
     [], [AS_IF([test "x$gasnet_mpi_required" = xyes],
            [AC_MSG_ERROR([cannot link an MPI program with $MPICC's flags])])
          AC_MSG_WARN([cannot link an MPI program with $MPICC's flags; the mpi conduit is disabled])
          enable_mpi=no])
   dnl The MPI is named by its mpi.h: vendor and version.
   AC_MSG_CHECKING([which MPI $MPICC uses])
   AC_LANG_CONFTEST([AC_LANG_SOURCE([[#include <mpi.h>
#if defined(OMPI_MAJOR_VERSION)
gasnet_mpi_is "Open MPI" OMPI_MAJOR_VERSION.OMPI_MINOR_VERSION.OMPI_RELEASE_VERSION
#elif defined(I_MPI_VERSION)
gasnet_mpi_is "Intel MPI" I_MPI_VERSION
#elif defined(MVAPICH2_VERSION)
gasnet_mpi_is "MVAPICH" MVAPICH2_VERSION
#elif defined(MPICH_VERSION)
gasnet_mpi_is "MPICH" MPICH_VERSION
#else
gasnet_mpi_is "unknown" MPI_VERSION.MPI_SUBVERSION
#endif
]])])
   gasnet_mpi_is=`$CPP $CPPFLAGS conftest.$ac_ext 2>/dev/null | sed -n 's/^gasnet_mpi_is //p'`
   MPI_VENDOR=`echo "$gasnet_mpi_is" | sed -n 's/^"\([[^"]]*\)".*/\1/p'`
   MPI_VENDOR_VERSION=`echo "$gasnet_mpi_is" | sed 's/^"[[^"]]*"//; s/[[ "]]//g'`
   AS_IF([test "x$MPI_VENDOR" = x], [MPI_VENDOR=unknown])
   AC_MSG_RESULT([$MPI_VENDOR $MPI_VENDOR_VERSION])
   CFLAGS=$save_CFLAGS; CPPFLAGS=$save_CPPFLAGS; LIBS=$save_LIBS])
AS_IF([test "x$enable_mpi" = xyes],
  [AC_MSG_CHECKING([for the $MPI_VENDOR launcher])
   AS_CASE([$MPIRUN],
     [*/*], [],
     [?*], [MPIRUN=`command -v "$MPIRUN" 2>/dev/null || echo "$MPIRUN"`],
     [gasnet_find_mpirun || MPIRUN=])
   AC_MSG_RESULT([${MPIRUN:-none}])
   AS_IF([test "x$MPIRUN" = x],
     [AC_MSG_WARN([no $MPI_VENDOR mpirun found next to $MPICC or on PATH; set MPIRUN= (gasnetrun_mpi needs it)])],
     [test "x`gasnet_launcher_vendor "$MPIRUN"`" != "x$MPI_VENDOR"],
     [AC_MSG_WARN([MPIRUN=$MPIRUN does not say it is $MPI_VENDOR's launcher (MPICC=$MPICC)])])
   gasnet_conduit_config_mpi=",MPI=`echo "$MPI_VENDOR" | tr -d ' '`-$MPI_VENDOR_VERSION"
   gasnet_conduit_summary_mpi="$MPI_VENDOR $MPI_VENDOR_VERSION (MPICC=$MPICC, MPIRUN=$MPIRUN)"])
AC_SUBST([MPI_CFLAGS])
AC_SUBST([MPI_LIBS])
AC_SUBST([MPI_VENDOR])
AC_SUBST([MPI_VENDOR_VERSION])
])
