// mis_ecl.cu: maximal independent set with one status byte per vertex updated in place (the
// approach of ECL-MIS: Burtscher, Devale, Azimi, Jaiganesh, Gevorkyan, IA^3 2018). Compiled by
// `make ptx`: nvcc -ptx -arch=compute_70 -O3 -std=c++14 -o mis_ecl.ptx mis_ecl.cu
//
// A vertex's status byte is its priority while it is undecided (odd: 2p+1, p in 0..126, from
// engine.MISDegreeStatus: low degree first, a hash to spread ties), In (0xfe, above every
// undecided status) or Out (0, below). A vertex joins as soon as every neighbour has a lower
// (status, id); it then sets its neighbours Out and itself In. Undecided vertices are
// re-examined in place until none is left, in one launch of resident threads: no rounds, no
// worklist. The set is the greedy set in decreasing (status, id). The file is self-contained.
#include "platform.cuh"
#include "count.cuh"

#define BLOCK 256

typedef unsigned int u32;
typedef long long i64;
typedef unsigned long long u64;
typedef unsigned char u8;

#define IN 0xfe
#define OUT 0

// Counters (u64 words of counters).
enum { CJoined = 0, CPasses = 2 };

// MisEclArgs is every kernel's single parameter, mirrored by misEclArgs in mis_ecl.go.
struct MisEclArgs {
    // 1. Out-CSR, and the in-CSR of a directed graph (null for an undirected one).
    const i64* off;
    const u32* nbr;
    const i64* ioff;
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

// init: every vertex's status (engine.MISDegreeStatus): In without neighbours (counted
// as joined), else
// 2p+1 with p = round(126 avg / (avg + deg - h)), h in [0,1) from the seed's hash.
__device__ __forceinline__ void d_init(const MisEclArgs& a) {
    u64 alone = 0;
    for (i64 v = gtid(); v < a.n; v += gstride()) {
        u64 deg = a.off[v + 1] - a.off[v];
        if (a.ioff) deg += a.ioff[v + 1] - a.ioff[v];
        u8 s = IN;
        if (deg > 0) {
            u64 h = mix64((u64)a.seed * 0x9e3779b97f4a7c15ull ^ (u64)v) >> 48;
            u64 x16 = (deg << 16) - h;
            u64 d = a.avg16 + x16;
            u64 p = (252 * a.avg16 + d) / (2 * d);
            s = (u8)(2 * p + 1);
        } else {
            alone++;
        }
        a.stat[v] = s;
    }
    block_add(&a.counters[CJoined], alone);
}

// wins: (sv, v) beats every undecided neighbour in one list; false at the first one that is
// ahead (or In).
__device__ __forceinline__ bool wins(const volatile u8* st, const i64* off, const u32* nbr, u32 v, u8 sv) {
    for (i64 e = __ldg(&off[v]), end = __ldg(&off[v + 1]); e < end; e++) {
        u32 u = __ldg(&nbr[e]);
        u8 su = st[u];
        if (!(sv > su || (sv == su && v >= u))) return false;
    }
    return true;
}

__device__ __forceinline__ void knock_out(volatile u8* st, const i64* off, const u32* nbr, u32 v) {
    for (i64 e = __ldg(&off[v]), end = __ldg(&off[v + 1]); e < end; e++) {
        u32 u = __ldg(&nbr[e]);
        if (u != v) st[u] = OUT;
    }
}

// run: each thread re-examines its undecided vertices until none is left. A vertex that
// beats all its neighbours sets them Out, then itself In. Launched with every block resident
// (a vertex may wait on a neighbour of another thread).
__device__ __forceinline__ void d_run(const MisEclArgs& a) {
    volatile u8* st = a.stat;
    u64 joined = 0, passes = 0;
    bool missing;
    do {
        missing = false;
        passes++;
        for (i64 v = gtid(); v < a.n; v += gstride()) {
            u8 sv = st[v];
            if (!(sv & 1)) continue;
            if (wins(st, a.off, a.nbr, (u32)v, sv) && (!a.ioff || wins(st, a.ioff, a.inbr, (u32)v, sv))) {
                knock_out(st, a.off, a.nbr, (u32)v);
                if (a.ioff) knock_out(st, a.ioff, a.inbr, (u32)v);
                st[v] = IN;  // In only holds neighbours back: no fence needed before it
                joined++;
            } else {
                missing = true;
            }
        }
    } while (missing);
    // every thread of a block gets here (a thread only waits for vertices, never for a barrier)
    block_add(&a.counters[CJoined], joined);
    block_max(&a.counters[CPasses], passes);
}

extern "C" __global__ void __launch_bounds__(BLOCK) mis_ecl_init(const MisEclArgs a) { d_init(a); }
extern "C" __global__ void __launch_bounds__(BLOCK) mis_ecl_run(const MisEclArgs a) { d_run(a); }

// mis_ecl_fused (fuse=on): both in one cooperative launch, a grid-wide barrier between them.
extern "C" __global__ void __launch_bounds__(BLOCK, 8) mis_ecl_fused(const MisEclArgs a) {
    d_init(a);
    cg::this_grid().sync();
    d_run(a);
}
