// count.cuh: counters and list appends that take one atomic per warp instead of one per thread
// (a counter every thread of a large grid adds to is one contended address). Every thread of a
// warp that reaches a call at once takes part; the helpers need no full warp.
#pragma once
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

// warp_add adds v of every thread that calls it together into *p, one atomic per warp.
__device__ __forceinline__ void warp_add(unsigned long long* p, unsigned long long v) {
    namespace cg = cooperative_groups;
    cg::coalesced_group g = cg::coalesced_threads();
    unsigned long long s = cg::reduce(g, v, cg::plus<unsigned long long>());
    if (g.thread_rank() == 0 && s) atomicAdd(p, s);
}

// warp_max raises *p to the largest v of the threads that call it together, one atomic per warp.
__device__ __forceinline__ void warp_max(unsigned long long* p, unsigned long long v) {
    namespace cg = cooperative_groups;
    cg::coalesced_group g = cg::coalesced_threads();
    unsigned long long s = cg::reduce(g, v, cg::greater<unsigned long long>());
    if (g.thread_rank() == 0) atomicMax(p, s);
}

// warp_slot reserves one entry of the list whose length is *len for each thread that calls it
// together, one atomic per warp, and returns the caller's entry.
__device__ __forceinline__ unsigned long long warp_slot(unsigned long long* len) {
    namespace cg = cooperative_groups;
    cg::coalesced_group g = cg::coalesced_threads();
    unsigned long long base = 0;
    if (g.thread_rank() == 0) base = atomicAdd(len, (unsigned long long)g.size());
    return g.shfl(base, 0) + g.thread_rank();
}

// block_add adds v of every thread of the block into *p, one atomic per block. Every thread of
// the block must call it (it holds two barriers); unlike warp_add it needs no threads that
// arrive together, so it suits a loop whose threads leave it at different times.
__device__ __forceinline__ void block_add(unsigned long long* p, unsigned long long v) {
    __shared__ unsigned long long sum;
    if (threadIdx.x == 0) sum = 0;
    __syncthreads();
    if (v) atomicAdd(&sum, v);
    __syncthreads();
    if (threadIdx.x == 0 && sum) atomicAdd(p, sum);
}

// block_max raises *p to the largest v of the block's threads, one atomic per block (every
// thread of the block must call it).
__device__ __forceinline__ void block_max(unsigned long long* p, unsigned long long v) {
    __shared__ unsigned long long top;
    if (threadIdx.x == 0) top = 0;
    __syncthreads();
    atomicMax(&top, v);
    __syncthreads();
    if (threadIdx.x == 0) atomicMax(p, top);
}

// block_slot reserves one entry of the list whose length is *len for each thread of the block
// that passes want, one atomic per block (a list every warp of a large grid appends to is one
// contended address: at about one atomic a nanosecond, per-warp appends of a sparse filter
// cost more than reading the data), and returns the caller's entry (meaningless without want).
// Every thread of the block must call it, at the same step of a block-uniform loop.
__device__ __forceinline__ unsigned long long block_slot(unsigned long long* len, bool want) {
    __shared__ unsigned int wbase[32];
    __shared__ unsigned long long base;
    const unsigned int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const unsigned int mask = __ballot_sync(0xffffffffu, want);
    if (lane == 0) wbase[warp] = __popc(mask);
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned int s = 0;
        for (unsigned int w = 0; w < (blockDim.x + 31) >> 5; w++) {
            unsigned int c = wbase[w];
            wbase[w] = s;
            s += c;
        }
        base = s ? atomicAdd(len, (unsigned long long)s) : 0;
    }
    __syncthreads();
    unsigned long long slot = base + wbase[warp] + __popc(mask & ((1u << lane) - 1));
    __syncthreads();  // wbase and base are free for the next call
    return slot;
}
