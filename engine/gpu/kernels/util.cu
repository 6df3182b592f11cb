// util.cu: frontier conversions, compaction, counting, the degree scan for lb=edge, the
// near-far split, and setup kernels. Each kernel reads its lengths from device memory, so any
// grid is correct.
// Compiled by `make ptx`: nvcc -ptx -arch=compute_70 -O3 -std=c++14 -o util.ptx util.cu
#include "common.cuh"

#define GRID_STRIDE(i, n) for (i64 i = blockIdx.x * (i64)blockDim.x + threadIdx.x; i < (n); i += (i64)gridDim.x * blockDim.x)

// util_iota: val[v] = v.
extern "C" __global__ void __launch_bounds__(BLOCK) util_iota(const Args a) {
    GRID_STRIDE(v, a.n) a.val[v] = (int)v;
}

// util_coo_rows: row[e] = the row of edge e, by a search of the offsets.
extern "C" __global__ void __launch_bounds__(BLOCK) util_coo_rows(const Args a) {
    GRID_STRIDE(e, a.m) {
        ((u32*)a.row)[e] = (u32)(upper_bound(a.off, 0, a.n + 1, e) - 1);
    }
}

// util_queue_to_mem: set the membership bit (mem_kind=KBitmap) or byte of every queued vertex.
extern "C" __global__ void __launch_bounds__(BLOCK) util_queue_to_mem(const Args a) {
    u32 cnt = *a.in_len;
    GRID_STRIDE(i, cnt) {
        u32 v = a.in_q[i];
        if (a.mem_kind == KBitmap) atomicOr((u32*)&a.mem_bits[v >> 5], 1u << (v & 31));
        else ((unsigned char*)a.mem_bools)[v] = 1;
    }
}

// append adds v to the output queue with one atomic per warp.
__device__ __forceinline__ void append(const Args& a, u32 v) {
    cg::coalesced_group g = cg::coalesced_threads();
    u32 base = 0;
    if (g.thread_rank() == 0) base = atomicAdd(a.out_len, (u32)g.size());
    base = g.shfl(base, 0);
    u32 idx = base + g.thread_rank();
    if ((i64)idx < a.out_cap) a.out_q[idx] = v;
    else a.counters[COverflow] = 1;
}

// util_compact: append the members of the input bitmap/boolmap (in_kind) to the output queue.
// With spill set it folds the spill boolmap into the queue and clears it.
extern "C" __global__ void __launch_bounds__(BLOCK) util_compact(const Args a) {
    GRID_STRIDE(v, a.n) {
        bool in;
        if (a.spill) {
            in = a.spill[v] != 0;
            if (in) a.spill[v] = 0;
        } else if (a.in_kind == KBitmap) {
            in = bit_test(a.in_bits, (u32)v);
        } else {
            in = a.in_bools[v] != 0;
        }
        if (in) append(a, (u32)v);
    }
}

// util_fold_marks: append the vertices marked in in_bools (a big SSSP step's near output,
// marked by plain byte stores instead of deduplicated queue pushes) to the output queue,
// clearing the marks, and add their out-degrees to CScout. Past the queue's capacity a vertex
// goes to the spill boolmap (COverflow), which the host folds in after growing the queue.
extern "C" __global__ void __launch_bounds__(BLOCK) util_fold_marks(const Args a) {
    u64 d = 0;
    GRID_STRIDE(v, a.n) {
        if (!a.in_bools[v]) continue;
        ((unsigned char*)a.in_bools)[v] = 0;
        d += a.out_off[v + 1] - a.out_off[v];
        cg::coalesced_group g = cg::coalesced_threads();
        u32 base = 0;
        if (g.thread_rank() == 0) base = atomicAdd(a.out_len, (u32)g.size());
        u32 idx = g.shfl(base, 0) + g.thread_rank();
        if ((i64)idx < a.out_cap) {
            a.out_q[idx] = (u32)v;
        } else {
            a.spill[v] = 1;
            a.counters[COverflow] = 1;
        }
    }
    for (int o = 16; o > 0; o >>= 1) d += __shfl_down_sync(0xffffffffu, d, o);
    if ((threadIdx.x & 31) == 0 && d) atomicAdd(&a.counters[CScout], d);
}

// util_count: count the members of the input bitmap/boolmap and the sum of their out-degrees.
extern "C" __global__ void __launch_bounds__(BLOCK) util_count(const Args a) {
    u64 c = 0, d = 0;
    GRID_STRIDE(v, a.n) {
        bool in = a.in_kind == KBitmap ? bit_test(a.in_bits, (u32)v) : a.in_bools[v] != 0;
        if (in) {
            c++;
            d += a.out_off[v + 1] - a.out_off[v];
        }
    }
    for (int o = 16; o > 0; o >>= 1) {
        c += __shfl_down_sync(0xffffffffu, c, o);
        d += __shfl_down_sync(0xffffffffu, d, o);
    }
    if ((threadIdx.x & 31) == 0 && c) {
        atomicAdd(&a.counters[CCount], c);
        atomicAdd(&a.counters[CCountEdges], d);
    }
}

// util_queue_degrees: the count and degree sum of the input queue.
extern "C" __global__ void __launch_bounds__(BLOCK) util_queue_degrees(const Args a) {
    u64 d = 0;
    u32 cnt = *a.in_len;
    GRID_STRIDE(i, cnt) {
        u32 v = a.in_q[i];
        d += a.out_off[v + 1] - a.out_off[v];
    }
    for (int o = 16; o > 0; o >>= 1) d += __shfl_down_sync(0xffffffffu, d, o);
    if ((threadIdx.x & 31) == 0 && d) atomicAdd(&a.counters[CCountEdges], d);
}

/// The degree scan for lb=edge: in_scan[i] = sum of degrees of in_q[0..i), in three kernels.
#define SCAN_ITEMS (BLOCK * 4)

// util_scan_blocks: 1. each block scans SCAN_ITEMS degrees and records its total in the
// scratch array passed in err (as i64).
extern "C" __global__ void __launch_bounds__(BLOCK) util_scan_blocks(const Args a) {
    u32 cnt = *a.in_len;
    i64* scan = (i64*)a.in_scan;
    i64* sums = (i64*)a.err;
    for (i64 b0 = blockIdx.x * (i64)SCAN_ITEMS; b0 < cnt; b0 += (i64)gridDim.x * SCAN_ITEMS) {
        i64 d[4], x = 0;
        for (int j = 0; j < 4; j++) {
            i64 i = b0 + threadIdx.x * 4 + j;
            d[j] = 0;
            if (i < cnt) {
                u32 v = a.in_q[i];
                d[j] = a.off[v + 1] - a.off[v];
            }
            x += d[j];
        }
        i64 tot;
        i64 ex = block_exclusive_scan(x, &tot);
        for (int j = 0; j < 4; j++) {
            i64 i = b0 + threadIdx.x * 4 + j;
            if (i < cnt) scan[i] = ex;
            ex += d[j];
        }
        if (threadIdx.x == 0) sums[b0 / SCAN_ITEMS] = tot;
    }
}

// util_scan_sums: 2. one block scans the block totals in place (exclusive) and writes the grand
// total to in_scan[cnt].
extern "C" __global__ void __launch_bounds__(BLOCK) util_scan_sums(const Args a) {
    u32 cnt = *a.in_len;
    i64 nb = ((i64)cnt + SCAN_ITEMS - 1) / SCAN_ITEMS;
    i64* sums = (i64*)a.err;
    __shared__ i64 carry;
    if (threadIdx.x == 0) carry = 0;
    __syncthreads();
    for (i64 b0 = 0; b0 < nb; b0 += blockDim.x) {
        i64 i = b0 + threadIdx.x;
        i64 x = i < nb ? sums[i] : 0, tot;
        i64 ex = block_exclusive_scan(x, &tot);
        if (i < nb) sums[i] = carry + ex;
        __syncthreads();
        if (threadIdx.x == 0) carry += tot;
        __syncthreads();
    }
    if (threadIdx.x == 0) ((i64*)a.in_scan)[cnt] = carry;
}

// util_scan_add: 3. add each block's offset.
extern "C" __global__ void __launch_bounds__(BLOCK) util_scan_add(const Args a) {
    u32 cnt = *a.in_len;
    i64* scan = (i64*)a.in_scan;
    const i64* sums = (const i64*)a.err;
    GRID_STRIDE(i, cnt) scan[i] += sums[i / SCAN_ITEMS];
}

// util_far_split: near-far. Far-pile entries (in_q, in_len) whose distance is now below bound
// go to the near worklist (out_q); the others stay, compacted into far_q. Entries below
// bound - delta (a.eps holds delta) were settled by an earlier near phase and are dropped.
extern "C" __global__ void __launch_bounds__(BLOCK) util_far_split(const Args a) {
    u32 cnt = *a.in_len;
    i64 lo = a.bound - (i64)a.eps;
    GRID_STRIDE(i, cnt) {
        u32 v = a.in_q[i];
        i64 d = a.val[v];
        if (d < lo) continue;
        if (d < a.bound) {
            if (a.dedup == DAtomic && atomicExch(&a.stamp[v], (u32)a.tag) == (u32)a.tag) continue;
            append(a, v);
        } else {
            atomicMax(&a.counters[CMinFar], (u64)(INF_DIST - d));
            u32 idx = atomicAdd(a.far_len, 1u);
            if ((i64)idx < a.far_cap) a.far_q[idx] = v;
            else a.counters[COverflow] = 2;
        }
    }
}

// util_spin keeps its threads busy for a.n nanoseconds of the device clock (globaltimer): the
// wake-up before a run's clock starts (device.wake in device.go).
extern "C" __global__ void __launch_bounds__(BLOCK) util_spin(const Args a) {
    const u64 t0 = globaltimer();
    while (globaltimer() - t0 < (u64)a.n) {
    }
}
