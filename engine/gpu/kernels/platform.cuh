// platform.cuh: the one place for toolkit- and platform-specific includes and macros, so that
// the algorithm files stay free of #if branches.
#pragma once
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define INF_DIST 0x7fffffff
