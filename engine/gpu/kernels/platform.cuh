// platform.cuh: the one place for toolkit- and platform-specific includes and macros, so that
// the algorithm files stay free of #if branches.
#pragma once
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define INF_DIST 0x7fffffff

// globaltimer reads the GPU's nanosecond clock (fused loops time their steps with it).
__device__ __forceinline__ unsigned long long globaltimer() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}
