// mst_ecl.cu: minimum spanning forest, edge-centric Boruvka on a shrinking worklist of edges
// (the approach of ECL-MST: Fallin, Gonzalez, Seo, Burtscher, SC'23). Compiled by `make ptx`:
// nvcc -ptx -arch=compute_70 -O3 -std=c++14 -o mst_ecl.ptx mst_ecl.cu
//
// Undirected graphs only: an edge {u,v} is its arc u->v with u < v, and its key is
// (weight, arc index) packed in 64 bits, which orders edges as engine.MSTKey does (the arcs of
// a sorted CSR with u < v run in (u, v) order). Components are a union-find forest (parent),
// joined by hooking the higher representative under the lower with a compare-and-swap.
// A round r over the worklist (representatives and key of each edge still between two
// components) is two steps:
//
//  1. mst_ecl_min: each edge finds its endpoints' representatives; an edge inside one component
//     is dropped, the others go to the other list and lower both representatives' minimum key
//     in the round's minima (minv on even rounds, minv2 on odd ones). The same pass clears the
//     minima of round r-1, which the edges it reads set.
//  2. mst_ecl_join: an edge that is the minimum of either representative joins the two and the
//     forest; the list the round read is emptied for the next round's output.
//
// With a threshold the worklist starts with the light edges only (weight <= threshold); once
// they are done, the heavy edges between still different components make a second worklist
// (ECL-MST's filter). Every round writes its counters to a slot of the trace (light phase from
// slot 0, heavy from HeavySlot), so the host reads back only the lists' lengths, and only when
// it must decide. mst_ecl_tail runs the rest of a phase's rounds in one cooperative launch
// (grid-wide barriers instead of host round trips, for the many small last rounds);
// mst_ecl_fused runs the whole forest in one. The file is self-contained.
#include "platform.cuh"
#include "count.cuh"

#define BLOCK 256
#define NONE 0xffffffffffffffffull

typedef unsigned int u32;
typedef long long i64;
typedef unsigned long long u64;

// MstEclArgs is every kernel's single parameter, mirrored by mstEclArgs in mst_ecl.go.
struct MstEclArgs {
    // 1. The arcs: targets, weights (null: every edge weighs 1), sources (the COO rows, built
    // once per graph), their count; the vertex count.
    const u32* nbr;
    const int* wt;
    const u32* row;
    i64 m;
    i64 n;
    // 2. Union-find parents and each representative's minimum key, for even and odd rounds.
    u32* parent;
    u64* minv;
    u64* minv2;
    // 3. The two worklists and their lengths len[0..1]; cur is the list the launch's first
    // round reads.
    uint4* list0;
    uint4* list1;
    u64* len;
    i64 cur;
    // 4. Build: light (weights <= threshold, every vertex still its own root) or heavy (the rest).
    i64 heavy;
    i64 threshold;
    // 5. Outputs: the forest (arc indices) and its length.
    i64* forest;
    u64* flen;
    // 6. The trace: TWords u64 per step, steps of them; the slot the launch's first round
    // writes; that round's number in its phase (its parity picks the minima).
    u64* trace;
    i64 steps;
    i64 slot;
    i64 round;
};

static_assert(sizeof(MstEclArgs) == 160, "MstEclArgs must match mstEclArgs in mst_ecl.go");

// Trace words of a step: its kind (TBuildLight, TBuildHeavy, TRound), the edges in, the edges
// left between components, the joins, its start and end times (globaltimer; cooperative
// launches only). Heavy steps start at slot HeavySlot.
enum { TKind = 0, TIn = 1, TLeft = 2, TJoined = 3, TStart = 4, TEnd = 5, TWords = 6 };
enum { TBuildLight = 1, TBuildHeavy = 2, TRound = 3 };
enum { HeavySlot = 64 };

__device__ __forceinline__ i64 gtid() { return blockIdx.x * (i64)blockDim.x + threadIdx.x; }
__device__ __forceinline__ i64 gstride() { return (i64)gridDim.x * blockDim.x; }

// enc maps a weight to an unsigned key of the same order.
__device__ __forceinline__ u32 enc(int w) { return (u32)w ^ 0x80000000u; }

// find returns x's representative. Only mst_ecl_join writes parents, so the other kernels walk
// them through the read-only cache; no compression (mst_ecl_flatten shortens them once).
// In the cooperative kernels joins run in the same launch: they read them from L2 (C, coherent).
template <bool C>
__device__ __forceinline__ u32 find(const MstEclArgs& a, u32 x) {
    u32 nx;
    while (x != (nx = C ? __ldcg(&a.parent[x]) : __ldg(&a.parent[x]))) x = nx;
    return x;
}

// join hooks the higher of two representatives under the lower, retrying from where another
// join moved it.
__device__ __forceinline__ void join(const MstEclArgs& a, u32 x, u32 y) {
    for (;;) {
        u32 hi = max(x, y), lo = min(x, y);
        u32 old = atomicCAS(&a.parent[hi], hi, lo);
        if (old == hi) return;
        x = old;
        y = lo;
        if (x == y) return;
    }
}

// init: every vertex its own component, no minimum in either set; both list lengths and the
// forest's zero; the trace cleared.
__device__ __forceinline__ void d_init(const MstEclArgs& a) {
    for (i64 v = gtid(); v < a.n; v += gstride()) {
        a.parent[v] = (u32)v;
        a.minv[v] = NONE;
        a.minv2[v] = NONE;
    }
    for (i64 i = gtid(); i < (a.steps + 1) * TWords; i += gstride()) a.trace[i] = 0;
    if (gtid() == 0) {
        a.len[0] = a.len[1] = 0;
        *a.flen = 0;
    }
}

// build: list 0 from the arcs u -> v with u < v, a thread per arc: light (weight <= threshold,
// every vertex still its own representative) or heavy (the rest, between different
// representatives). The appends take one atomic per block. Block-uniform loop (block_slot).
template <bool C>
__device__ __forceinline__ void d_build(const MstEclArgs& a) {
    for (i64 b = blockIdx.x * (i64)BLOCK; b < a.m; b += gstride()) {
        const i64 e = b + threadIdx.x;
        bool keep = false;
        uint4 el;
        if (e < a.m) {
            u32 u = __ldg(&a.row[e]), v = __ldg(&a.nbr[e]);
            if (v > u) {
                int w = a.wt ? __ldg(&a.wt[e]) : 1;
                if (a.heavy) {
                    if (w > a.threshold) {
                        u32 ru = find<C>(a, u), rv = find<C>(a, v);
                        keep = ru != rv;
                        el = make_uint4(ru, rv, enc(w), (u32)e);
                    }
                } else if (w <= a.threshold) {
                    keep = true;
                    el = make_uint4(u, v, enc(w), (u32)e);
                }
            }
        }
        u64 k = block_slot(&a.len[0], keep);
        if (keep) a.list0[k] = el;
    }
}

// flatten: every vertex points at its representative (before the heavy edges' build, which
// looks up both endpoints of every arc).
template <bool C>
__device__ __forceinline__ void d_flatten(const MstEclArgs& a) {
    for (i64 v = gtid(); v < a.n; v += gstride()) {
        u32 r = find<C>(a, (u32)v);
        if (r != (u32)v) a.parent[v] = r;
    }
}

// The minima of round r, and those of round r-1 (null in a phase's first round).
__device__ __forceinline__ u64* mins(const MstEclArgs& a, i64 r) { return (r & 1) ? a.minv2 : a.minv; }
__device__ __forceinline__ u64* prev_mins(const MstEclArgs& a, i64 r) { return r > 0 ? mins(a, r - 1) : 0; }

// min (1): drop the edges of list cur inside one component; the rest go to list 1-cur with
// their current representatives and lower both representatives' minimum key of round r. Each
// edge read first clears the minima of round r-1 that it set (its entry holds the
// representatives it had then). Block-uniform loop (block_slot).
template <bool C>
__device__ __forceinline__ void d_min(const MstEclArgs& a, int cur, i64 r) {
    const uint4* wl = cur ? a.list1 : a.list0;
    uint4* next = cur ? a.list0 : a.list1;
    u64* mv = mins(a, r);
    u64* pv = prev_mins(a, r);
    const i64 len = (i64) * (volatile u64*)&a.len[cur];
    for (i64 b = blockIdx.x * (i64)BLOCK; b < len; b += gstride()) {
        const i64 i = b + threadIdx.x;
        bool keep = false;
        uint4 el;
        if (i < len) {
            el = __ldcg(&wl[i]);  // from L2: a cooperative launch wrote the list in this launch
            if (pv) {
                pv[el.x] = NONE;
                pv[el.y] = NONE;
            }
            u32 ru = find<C>(a, el.x), rv = find<C>(a, el.y);
            keep = ru != rv;
            el.x = ru;
            el.y = rv;
        }
        u64 k = block_slot(&a.len[1 - cur], keep);
        if (keep) {
            next[k] = el;
            u64 key = (u64)el.z << 32 | el.w;
            volatile u64* v = mv;
            if (v[el.x] > key) atomicMin(&mv[el.x], key);
            if (v[el.y] > key) atomicMin(&mv[el.y], key);
        }
    }
}

// join (2): an edge of list 1-cur (what min kept) that is either representative's minimum of
// round r joins them and the forest. Returns the caller's joins. Block-uniform loop.
__device__ __forceinline__ u64 d_join(const MstEclArgs& a, int cur, i64 r) {
    const uint4* wl = cur ? a.list0 : a.list1;
    const u64* mv = mins(a, r);
    const i64 len = (i64) * (volatile u64*)&a.len[1 - cur];
    u64 joined = 0;
    for (i64 b = blockIdx.x * (i64)BLOCK; b < len; b += gstride()) {
        const i64 i = b + threadIdx.x;
        bool hook = false;
        uint4 el;
        if (i < len) {
            el = __ldcg(&wl[i]);  // from L2: written in this launch (cooperative) or the last
            u64 key = (u64)el.z << 32 | el.w;
            hook = key == __ldcg(&mv[el.x]) || key == __ldcg(&mv[el.y]);
            if (hook) join(a, el.x, el.y);
        }
        u64 k = block_slot(a.flen, hook);
        if (hook) {
            a.forest[k] = (i64)el.w;
            joined++;
        }
    }
    return joined;
}

// close_round (after join, one thread): the round's edges in and left into its trace slot t
// (null past the trace's end); list cur is emptied for the next round's output.
__device__ __forceinline__ void close_round(const MstEclArgs& a, int cur, u64* t) {
    volatile u64* len = a.len;
    if (t) {
        t[TKind] = TRound;
        t[TIn] = len[cur];
        t[TLeft] = len[1 - cur];
    }
    len[cur] = 0;
}

__device__ __forceinline__ u64* slot(const MstEclArgs& a, i64 k) { return k < a.steps ? a.trace + k * TWords : 0; }

// mst_ecl_init, mst_ecl_build, mst_ecl_flatten: the steps above, a launch each.
extern "C" __global__ void __launch_bounds__(BLOCK) mst_ecl_init(const MstEclArgs a) { d_init(a); }
extern "C" __global__ void __launch_bounds__(BLOCK) mst_ecl_build(const MstEclArgs a) { d_build<false>(a); }
extern "C" __global__ void __launch_bounds__(BLOCK) mst_ecl_flatten(const MstEclArgs a) { d_flatten<false>(a); }

// mst_ecl_min (1): round a.round over list a.cur.
extern "C" __global__ void __launch_bounds__(BLOCK) mst_ecl_min(const MstEclArgs a) { d_min<false>(a, (int)a.cur, a.round); }

// mst_ecl_join (2): the same round's joins, counted into trace slot a.slot with its edges in
// and left.
extern "C" __global__ void __launch_bounds__(BLOCK) mst_ecl_join(const MstEclArgs a) {
    u64* t = slot(a, a.slot);
    u64 joined = d_join(a, (int)a.cur, a.round);
    if (t) block_add(&t[TJoined], joined);
    if (gtid() == 0) close_round(a, (int)a.cur, t);
}

// rounds runs a phase's rounds from list cur, round r, slot k, until a round has no edge in:
// the two steps a round, with grid-wide barriers between them. Returns the next slot.
__device__ __forceinline__ i64 rounds(const MstEclArgs& a, cg::grid_group& grid, int cur, i64 r, i64 k) {
    const bool lead = gtid() == 0;
    for (;; r++, cur = 1 - cur, k++) {
        if (*(volatile u64*)&a.len[cur] == 0) return k;
        u64* t = slot(a, k);
        if (lead && t) t[TStart] = globaltimer();
        d_min<true>(a, cur, r);
        grid.sync();
        u64 joined = d_join(a, cur, r);
        if (t) block_add(&t[TJoined], joined);
        if (lead) close_round(a, cur, t);
        grid.sync();
        if (lead && t) t[TEnd] = globaltimer();
    }
}

// mst_ecl_tail: the rest of a phase's rounds in one cooperative launch, from list a.cur, round
// a.round, slot a.slot (the host's rounds before it left the state a round leaves).
extern "C" __global__ void __launch_bounds__(BLOCK) mst_ecl_tail(const MstEclArgs a) {
    cg::grid_group grid = cg::this_grid();
    rounds(a, grid, (int)a.cur, a.round, a.slot);
}

/// mst_ecl_fused (fuse=on): the whole forest in one cooperative launch: init, then each phase's
/// build (the heavy one after a flatten) and its rounds, with grid-wide barriers between the
/// steps and no host round trip.
extern "C" __global__ void __launch_bounds__(BLOCK) mst_ecl_fused(const MstEclArgs a0) {
    cg::grid_group grid = cg::this_grid();
    const bool lead = gtid() == 0;
    MstEclArgs a = a0;
    u64 start = globaltimer();
    d_init(a);
    grid.sync();
    for (int heavy = 0; heavy <= (a0.threshold < 0x7fffffff ? 1 : 0); heavy++) {
        a.heavy = heavy;
        i64 k = heavy ? HeavySlot : 0;
        if (heavy) {
            start = globaltimer();
            d_flatten<true>(a);
            grid.sync();
        }
        d_build<true>(a);
        grid.sync();
        if (lead && k < a.steps) {
            u64* t = a.trace + k * TWords;
            t[TKind] = heavy ? TBuildHeavy : TBuildLight;
            t[TLeft] = *(volatile u64*)&a.len[0];
            t[TStart] = start;
            t[TEnd] = globaltimer();
        }
        rounds(a, grid, 0, 0, k + 1);
    }
}
