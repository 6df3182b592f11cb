// mis_ecl.cu: maximal independent set with one status byte per vertex updated in place (the
// approach of ECL-MIS: Burtscher, Devale, Azimi, Jaiganesh, Gevorkyan, IA^3 2018). Compiled by
// `make ptx`: nvcc -ptx -arch=compute_70 -O3 -std=c++14 -o mis_ecl.ptx mis_ecl.cu
//
// A vertex's status byte is its priority while it is undecided (odd: 2p+1, p in 0..126, from
// engine.MISDegreeStatus: low degree first, a hash to spread ties), In (0xfe, above every
// undecided status) or Out (0, below). A vertex joins as soon as every neighbour has a lower
// (status, id); it then sets its neighbours Out and itself In. Undecided vertices are
// re-examined in place until none is left, in one launch of resident threads: no rounds, no
// worklist. The set is the greedy set in decreasing (status, id).
//
// The kernels come in two widths of offsets: 32-bit (the graph's cached narrow copy, when it
// has fewer than 2^32 arcs: half the offset bytes and fewer registers, so more resident
// threads) and 64-bit (suffix 64). The file is self-contained.
#include "platform.cuh"
#include "count.cuh"

#define BLOCK 256

typedef unsigned int u32;
typedef long long i64;
typedef unsigned long long u64;
typedef unsigned char u8;

#define IN 0xfe
#define OUT 0

// Counters (u64 words of counters, zero when the run starts).
enum { CPasses = 2 };

// MisEclArgs is every kernel's single parameter, mirrored by misEclArgs in mis_ecl.go.
struct MisEclArgs {
    // 1. Out-CSR, and the in-CSR of a directed graph (null for an undirected one); the offsets
    // are u32 or i64 as the kernel's name says.
    const void* off;
    const u32* nbr;
    const void* ioff;
    const u32* inbr;
    i64 n;
    i64 seed;
    // 2. avg16 = (arcs << 16) / n, the scaled average degree of the priority formula.
    u64 avg16;
    // 3. The status bytes and the counters.
    u8* stat;
    u64* counters;
};

static_assert(sizeof(MisEclArgs) == 72, "MisEclArgs must match misEclArgs in mis_ecl.go");

__device__ __forceinline__ i64 gtid() { return blockIdx.x * (i64)blockDim.x + threadIdx.x; }
__device__ __forceinline__ i64 gstride() { return (i64)gridDim.x * blockDim.x; }

// mix64 is engine.Mix64, the SplitMix64 finaliser.
__device__ __forceinline__ u64 mix64(u64 x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

// init: every vertex's status (engine.MISDegreeStatus): In without neighbours, else 2p+1 with
// p = round(126 avg / (avg + deg - h)), h in [0,1) from the seed's hash. The quotient takes a
// 32-bit division when both operands fit (the same result, a fraction of the instructions).
template <typename O>
__device__ __forceinline__ void d_init(const MisEclArgs& a) {
    const O* off = (const O*)a.off;
    const O* ioff = (const O*)a.ioff;
    for (i64 v = gtid(); v < a.n; v += gstride()) {
        u64 deg = (u64)(off[v + 1] - off[v]);
        if (ioff) deg += (u64)(ioff[v + 1] - ioff[v]);
        u8 s = IN;
        if (deg > 0) {
            u64 h = mix64((u64)a.seed * 0x9e3779b97f4a7c15ull ^ (u64)v) >> 48;
            u64 d = a.avg16 + (deg << 16) - h;
            u64 num = 252 * a.avg16 + d, den = 2 * d;
            u64 p = (num >> 32) == 0 && (den >> 32) == 0 ? (u64)((u32)num / (u32)den) : num / den;
            s = (u8)(2 * p + 1);
        }
        a.stat[v] = s;
    }
}

// beats: (sv, v) is ahead of neighbour u of status su (an In neighbour, 0xfe, is ahead of
// every undecided vertex; a self-loop holds nothing back).
__device__ __forceinline__ bool beats(u8 sv, u32 v, u8 su, u32 u) { return sv > su || (sv == su && v >= u); }

// wins: (sv, v) beats every undecided neighbour in nbr[e, end); false at the first group that
// has one ahead (or In). The neighbours go four at a time, and the last one to three together:
// their targets, then their statuses, so that a list waits for one load in four instead of
// every one. A missing target of the last group is v itself, which v beats.
template <typename O>
__device__ __forceinline__ bool wins(const volatile u8* st, const u32* nbr, O e, const O end, u32 v, u8 sv) {
    for (; e + 4 <= end; e += 4) {
        u32 u0 = __ldg(&nbr[e]), u1 = __ldg(&nbr[e + 1]), u2 = __ldg(&nbr[e + 2]), u3 = __ldg(&nbr[e + 3]);
        u8 s0 = st[u0], s1 = st[u1], s2 = st[u2], s3 = st[u3];
        if (!(beats(sv, v, s0, u0) && beats(sv, v, s1, u1) && beats(sv, v, s2, u2) && beats(sv, v, s3, u3))) return false;
    }
    if (e < end) {
        u32 u0 = __ldg(&nbr[e]), u1 = e + 1 < end ? __ldg(&nbr[e + 1]) : v, u2 = e + 2 < end ? __ldg(&nbr[e + 2]) : v;
        u8 s0 = st[u0], s1 = st[u1], s2 = st[u2];
        return beats(sv, v, s0, u0) && beats(sv, v, s1, u1) && beats(sv, v, s2, u2);
    }
    return true;
}

template <typename O>
__device__ __forceinline__ void knock_out(volatile u8* st, const O* off, const u32* nbr, u32 v) {
    for (O e = __ldg(&off[v]), end = __ldg(&off[v + 1]); e < end; e++) {
        u32 u = __ldg(&nbr[e]);
        if (u != v) st[u] = OUT;
    }
}

// decide: v (status sv, undecided; its out-list nbr[b, end)) joins if it beats every
// neighbour, setting them Out and itself In; returns whether it did.
template <typename O, bool D>
__device__ __forceinline__ bool decide(const MisEclArgs& a, volatile u8* st, u32 v, u8 sv, O b, O end) {
    const O* ioff = (const O*)a.ioff;
    if (!wins(st, a.nbr, b, end, v, sv) || (D && !wins(st, a.inbr, __ldg(&ioff[v]), __ldg(&ioff[v + 1]), v, sv))) return false;
    for (; b < end; b++) {
        u32 u = __ldg(&a.nbr[b]);
        if (u != v) st[u] = OUT;
    }
    if (D) knock_out(st, ioff, a.inbr, v);
    st[v] = IN;  // In only holds neighbours back: no fence needed before it
    return true;
}

// run: each thread re-examines its undecided vertices (v = its id + k * the grid's threads)
// until none is left. A vertex that beats all its neighbours sets them Out, then itself In.
// Launched with every block resident (a vertex may wait on a neighbour of another thread).
// D: a directed graph (the in-lists count too). When a thread has at most 32 vertices it keeps
// the undecided ones in a mask and never reads a decided one's status again; else it scans
// them every pass, as ECL-MIS does.
template <typename O, bool D>
__device__ __forceinline__ void d_run(const MisEclArgs& a) {
    volatile u8* st = a.stat;
    const O* off = (const O*)a.off;
    const u32 n = (u32)a.n, t = (u32)gtid(), stride = (u32)gstride();
    u32 passes = 0;
    if ((u64)n <= (u64)stride * 32) {  // the same branch for the whole grid
        const u32 k = t < n ? (n - 1 - t) / stride + 1 : 0;
        u32 todo = k >= 32 ? 0xffffffffu : (1u << k) - 1;
        while (todo) {
            passes++;
            for (u32 m = todo; m; m &= m - 1) {
                const u32 i = __ffs(m) - 1, v = t + i * stride;
                // the status and the offsets in flight together (one wait, not two)
                const u8 sv = st[v];
                const O b = __ldg(&off[v]), end = __ldg(&off[v + 1]);
                if (!(sv & 1) || decide<O, D>(a, st, v, sv, b, end)) todo &= ~(1u << i);
            }
        }
    } else {
        bool missing;
        do {
            missing = false;
            passes++;
            for (u32 v = t; v < n; v += stride) {
                const u8 sv = st[v];
                if ((sv & 1) && !decide<O, D>(a, st, v, sv, __ldg(&off[v]), __ldg(&off[v + 1]))) missing = true;
            }
        } while (missing);
    }
    // every thread of a block gets here (a thread only waits for vertices, never for a barrier)
    block_max(&a.counters[CPasses], passes);
}

// The launches: init, then run (32-bit offsets; _dir: a directed graph), or their 64-bit twins.
extern "C" __global__ void __launch_bounds__(BLOCK) mis_ecl_init(const MisEclArgs a) { d_init<u32>(a); }
extern "C" __global__ void __launch_bounds__(BLOCK, 8) mis_ecl_run(const MisEclArgs a) { d_run<u32, false>(a); }
extern "C" __global__ void __launch_bounds__(BLOCK) mis_ecl_run_dir(const MisEclArgs a) { d_run<u32, true>(a); }
extern "C" __global__ void __launch_bounds__(BLOCK) mis_ecl_init64(const MisEclArgs a) { d_init<i64>(a); }
extern "C" __global__ void __launch_bounds__(BLOCK) mis_ecl_run64(const MisEclArgs a) {
    if (a.ioff) d_run<i64, true>(a);
    else d_run<i64, false>(a);
}

// mis_ecl_fused (fuse=on): init and run in one cooperative launch, a grid-wide barrier between
// them (32-bit offsets; fused64: 64-bit).
extern "C" __global__ void __launch_bounds__(BLOCK, 8) mis_ecl_fused(const MisEclArgs a) {
    d_init<u32>(a);
    cg::this_grid().sync();
    if (a.ioff) d_run<u32, true>(a);
    else d_run<u32, false>(a);
}
extern "C" __global__ void __launch_bounds__(BLOCK) mis_ecl_fused64(const MisEclArgs a) {
    d_init<i64>(a);
    cg::this_grid().sync();
    if (a.ioff) d_run<i64, true>(a);
    else d_run<i64, false>(a);
}
