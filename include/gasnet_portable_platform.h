/* gasnet_portable_platform.h: the PLATFORM_* identification macros GASNet-1
 * clients test: which compiler, operating system and CPU architecture the
 * client is being compiled for.
 *
 *   PLATFORM_COMPILER_<FAMILY>        1 for the compiler in use (GNU, CLANG, INTEL)
 *   PLATFORM_COMPILER_FAMILYNAME      that family as a bare token (GNU), for _STRINGIFY
 *   PLATFORM_COMPILER_VERSION         (major << 16) | (minor << 8) | patch
 *   PLATFORM_COMPILER_VERSION_STR     "major.minor.patch"
 *   PLATFORM_COMPILER_IDSTR           "family-version"
 *   PLATFORM_OS_<OS>, PLATFORM_OS_FAMILYNAME         (LINUX, DARWIN, FREEBSD, ...)
 *   PLATFORM_ARCH_<ARCH>, PLATFORM_ARCH_FAMILYNAME   (X86_64, AARCH64, ...)
 *   PLATFORM_ARCH_32 / PLATFORM_ARCH_64              pointer width
 *   PLATFORM_ARCH_LITTLE_ENDIAN / PLATFORM_ARCH_BIG_ENDIAN
 *
 * Every macro describes the compiler that compiles the client, so a C++
 * client built with clang against a library built with gcc sees CLANG.
 * A name that is false is left undefined, so `#if` and `#ifdef` agree.
 *
 * Some clients carry their own copy of GASNet's portable_platform.h; when
 * that copy was included first it owns these names and this file stays out
 * of its way. */
#ifndef GASNET_PORTABLE_PLATFORM_H
#define GASNET_PORTABLE_PLATFORM_H
#ifndef _PORTABLE_PLATFORM_H

#define GASNETI_PP_STR_(x) #x
#define GASNETI_PP_STR(x) GASNETI_PP_STR_(x)

/* ------------------------------------------------------------ compiler */
#define PLATFORM_COMPILER_VERSION_INT(maj, min, pat) (((maj) << 16) | ((min) << 8) | (pat))

#if defined(__INTEL_COMPILER) || defined(__INTEL_LLVM_COMPILER)
#define PLATFORM_COMPILER_INTEL 1
#define PLATFORM_COMPILER_FAMILYNAME INTEL
#define PLATFORM_COMPILER_FAMILYID 2
#if defined(__INTEL_LLVM_COMPILER)
#define PLATFORM_COMPILER_VERSION \
  PLATFORM_COMPILER_VERSION_INT(__INTEL_LLVM_COMPILER / 10000, (__INTEL_LLVM_COMPILER / 100) % 100, 0)
#define PLATFORM_COMPILER_VERSION_STR GASNETI_PP_STR(__INTEL_LLVM_COMPILER)
#else
#define PLATFORM_COMPILER_VERSION \
  PLATFORM_COMPILER_VERSION_INT(__INTEL_COMPILER / 100, (__INTEL_COMPILER / 10) % 10, 0)
#define PLATFORM_COMPILER_VERSION_STR GASNETI_PP_STR(__INTEL_COMPILER)
#endif
#elif defined(__clang__)
#define PLATFORM_COMPILER_CLANG 1
#define PLATFORM_COMPILER_FAMILYNAME CLANG
#define PLATFORM_COMPILER_FAMILYID 3
#define PLATFORM_COMPILER_VERSION \
  PLATFORM_COMPILER_VERSION_INT(__clang_major__, __clang_minor__, __clang_patchlevel__)
#define PLATFORM_COMPILER_VERSION_STR                                              \
  GASNETI_PP_STR(__clang_major__) "." GASNETI_PP_STR(__clang_minor__) "." GASNETI_PP_STR( \
      __clang_patchlevel__)
#elif defined(__GNUC__)
#define PLATFORM_COMPILER_GNU 1
#define PLATFORM_COMPILER_FAMILYNAME GNU
#define PLATFORM_COMPILER_FAMILYID 1
#define PLATFORM_COMPILER_VERSION \
  PLATFORM_COMPILER_VERSION_INT(__GNUC__, __GNUC_MINOR__, __GNUC_PATCHLEVEL__)
#define PLATFORM_COMPILER_VERSION_STR \
  GASNETI_PP_STR(__GNUC__) "." GASNETI_PP_STR(__GNUC_MINOR__) "." GASNETI_PP_STR(__GNUC_PATCHLEVEL__)
#else
#define PLATFORM_COMPILER_UNKNOWN 1
#define PLATFORM_COMPILER_FAMILYNAME UNKNOWN
#define PLATFORM_COMPILER_FAMILYID 0
#define PLATFORM_COMPILER_VERSION 0
#define PLATFORM_COMPILER_VERSION_STR "unknown"
#endif
#define PLATFORM_COMPILER_IDSTR \
  GASNETI_PP_STR(PLATFORM_COMPILER_FAMILYNAME) "-" PLATFORM_COMPILER_VERSION_STR

#if defined(__cplusplus)
#define PLATFORM_COMPILER_CXX 1
#else
#define PLATFORM_COMPILER_C 1
#endif

/* ------------------------------------------------------------ operating system */
#if defined(__linux__)
#define PLATFORM_OS_LINUX 1
#define PLATFORM_OS_FAMILYNAME LINUX
#elif defined(__APPLE__) && defined(__MACH__)
#define PLATFORM_OS_DARWIN 1
#define PLATFORM_OS_FAMILYNAME DARWIN
#elif defined(__FreeBSD__)
#define PLATFORM_OS_FREEBSD 1
#define PLATFORM_OS_FAMILYNAME FREEBSD
#elif defined(__NetBSD__)
#define PLATFORM_OS_NETBSD 1
#define PLATFORM_OS_FAMILYNAME NETBSD
#elif defined(__OpenBSD__)
#define PLATFORM_OS_OPENBSD 1
#define PLATFORM_OS_FAMILYNAME OPENBSD
#elif defined(__CYGWIN__)
#define PLATFORM_OS_CYGWIN 1
#define PLATFORM_OS_FAMILYNAME CYGWIN
#else
#define PLATFORM_OS_UNKNOWN 1
#define PLATFORM_OS_FAMILYNAME UNKNOWN
#endif

/* ------------------------------------------------------------ architecture */
#if defined(__x86_64__) || defined(__amd64__)
#define PLATFORM_ARCH_X86_64 1
#define PLATFORM_ARCH_FAMILYNAME X86_64
#elif defined(__i386__)
#define PLATFORM_ARCH_X86 1
#define PLATFORM_ARCH_FAMILYNAME X86
#elif defined(__aarch64__)
#define PLATFORM_ARCH_AARCH64 1
#define PLATFORM_ARCH_FAMILYNAME AARCH64
#elif defined(__arm__)
#define PLATFORM_ARCH_ARM 1
#define PLATFORM_ARCH_FAMILYNAME ARM
#elif defined(__powerpc64__) || defined(__powerpc__)
#define PLATFORM_ARCH_POWERPC 1
#define PLATFORM_ARCH_FAMILYNAME POWERPC
#elif defined(__riscv)
#define PLATFORM_ARCH_RISCV 1
#define PLATFORM_ARCH_FAMILYNAME RISCV
#elif defined(__s390x__) || defined(__s390__)
#define PLATFORM_ARCH_S390 1
#define PLATFORM_ARCH_FAMILYNAME S390
#else
#define PLATFORM_ARCH_UNKNOWN 1
#define PLATFORM_ARCH_FAMILYNAME UNKNOWN
#endif

#if defined(__SIZEOF_POINTER__)
#if __SIZEOF_POINTER__ == 8
#define PLATFORM_ARCH_64 1
#elif __SIZEOF_POINTER__ == 4
#define PLATFORM_ARCH_32 1
#endif
#elif defined(__LP64__) || defined(_LP64)
#define PLATFORM_ARCH_64 1
#else
#define PLATFORM_ARCH_32 1
#endif

#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define PLATFORM_ARCH_BIG_ENDIAN 1
#else
#define PLATFORM_ARCH_LITTLE_ENDIAN 1
#endif

#endif /* !_PORTABLE_PLATFORM_H */
#endif /* GASNET_PORTABLE_PLATFORM_H */
