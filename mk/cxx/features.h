/*
 * mk/cxx/features.h: on the C++ include path when the compiler is
 * Debian's Linux cross compiler, whose libstdc++ headers were configured
 * for glibc and include <features.h> (bits/os_defines.h). newlib keeps
 * its feature macros in <sys/features.h>; no glibc version is present.
 */
#ifndef BT_CXX_FEATURES_H
#define BT_CXX_FEATURES_H
#include <sys/features.h>
#define __GLIBC_PREREQ(maj, min) 0
#endif
