dnl conduits/ucx/conduit.m4: configure-time checks of the ucx conduit, read
dnl by GASNET_CONDUIT([ucx], ...) (m4/gasnet_conduit.m4). Finds UCX's UCP
dnl library with pkg-config (Debian: libucx-dev) and checks that a UCP
dnl program links; sets UCX_CFLAGS and UCX_LIBS. An `auto` conduit turns
dnl itself off without UCX, or with GASNET_SEGMENT_EVERYTHING (UCP reaches
dnl only the memory it mapped: the segments).
AC_DEFUN([GASNET_CONDUIT_CHECK_ucx], [
gasnet_ucx_required=$enable_ucx
AS_IF([test "x$segment" = xeverything],
  [AS_IF([test "x$gasnet_ucx_required" = xyes],
     [AC_MSG_ERROR([the ucx conduit cannot provide GASNET_SEGMENT_EVERYTHING: UCP RMA reaches only the mapped segments])])
   enable_ucx=no])
AS_IF([test "x$enable_ucx" != xno],
  [PKG_CHECK_MODULES([UCX], [ucx], [enable_ucx=yes],
     [AS_IF([test "x$gasnet_ucx_required" = xyes],
        [AC_MSG_ERROR([--enable-ucx: pkg-config finds no ucx (Debian: libucx-dev)])])
      enable_ucx=no])])
AS_IF([test "x$enable_ucx" = xyes],
  [save_CPPFLAGS=$CPPFLAGS; save_LIBS=$LIBS
   CPPFLAGS="$CPPFLAGS $UCX_CFLAGS"; LIBS="$LIBS $UCX_LIBS"
   AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <ucp/api/ucp.h>]],
       [[ucp_am_handler_param_t p; (void)p; return (int)ucp_am_send_nbx(0, 0, 0, 0, 0, 0, 0) == 0;]])],
     [gasnet_ucx_version=`$PKG_CONFIG --modversion ucx 2>/dev/null`
      gasnet_conduit_config_ucx=",UCX-$gasnet_ucx_version"
      gasnet_conduit_summary_ucx="UCX $gasnet_ucx_version ($UCX_LIBS)"],
     [AS_IF([test "x$gasnet_ucx_required" = xyes],
        [AC_MSG_ERROR([cannot link a UCP program with UCX's flags ($UCX_LIBS); UCX 1.11 or later is needed])])
      AC_MSG_WARN([cannot link a UCP program (UCX 1.11 or later); the ucx conduit is disabled])
      enable_ucx=no])
   CPPFLAGS=$save_CPPFLAGS; LIBS=$save_LIBS])
AC_SUBST([UCX_CFLAGS])
AC_SUBST([UCX_LIBS])
])
