// mst_ecl.cu: minimum spanning forest, edge-centric Boruvka on a shrinking worklist of edges
// (the approach of ECL-MST: Fallin, Gonzalez, Seo, Burtscher, SC'23). Compiled by `make ptx`:
// nvcc -ptx -arch=compute_70 -O3 -std=c++14 -o mst_ecl.ptx mst_ecl.cu
//
// Undirected graphs only: an edge {u,v} is its arc u->v with u < v, and its key is
// (weight, arc index) packed in 64 bits, which orders edges as engine.MSTKey does (the arcs of
// a sorted CSR with u < v run in (u, v) order). Components are a union-find forest (parent),
// joined by hooking the higher representative under the lower with a compare-and-swap.
// A round over the worklist wl (representatives and key of each edge still between two
// components):
//
//  1. mst_ecl_min: each edge finds its endpoints' representatives; an edge inside one component
//     is dropped, the others go to the next list and lower both representatives' minimum key.
//  2. mst_ecl_join: an edge that is the minimum of either representative joins the two and the
//     forest.
//  3. mst_ecl_reset: the representatives' minima are cleared for the next round.
//
// With a threshold the worklist starts with the light edges only (weight <= threshold); once
// they are done, the heavy edges between still different components make a second worklist
// (ECL-MST's filter). The file is self-contained.
#include "platform.cuh"
#include "count.cuh"

#define BLOCK 256
#define NONE 0xffffffffffffffffull

typedef unsigned int u32;
typedef long long i64;
typedef unsigned long long u64;

// Counters (u64 words of counters), cleared by the host every round.
enum { CJoined = 0, CLeft = 1, CSteps = 2 };

// MstEclArgs is every kernel's single parameter, mirrored by mstEclArgs in mst_ecl.go.
struct MstEclArgs {
    // 1. Out-CSR (wt null: every edge weighs 1).
    const i64* off;
    const u32* nbr;
    const int* wt;
    i64 n;
    // 2. Union-find parents and each representative's minimum key.
    u32* parent;
    u64* minv;
    // 3. The round's worklist (its length at *wlen) and the next one (length at *nlen).
    const uint4* wl;
    const u64* wlen;
    uint4* next;
    u64* nlen;
    // 4. Build: light (weights <= threshold, every vertex its own root) or heavy (the rest).
    i64 heavy;
    i64 threshold;
    // 5. Outputs: the forest (arc indices) and its length; counters.
    i64* forest;
    u64* flen;
    u64* counters;
    // 6. Fused (mst_ecl_fused): a second minimum per vertex (rounds alternate), and the trace:
    // TWords u64 per step (a build or a round), at most steps of them, then the start time.
    u64* minv2;
    u64* trace;
    i64 steps;
    // 7. Every arc's source (the COO row array, built once per graph) and the arc count: the
    // builds run a thread per arc, so a hub's list is spread over the grid.
    const u32* row;
    i64 m;
};

static_assert(sizeof(MstEclArgs) == 160, "MstEclArgs must match mstEclArgs in mst_ecl.go");

// Trace words of a fused step: its kind (TBuildLight, TBuildHeavy, TRound), the edges in, the
// edges left between components, the joins, its end time (globaltimer).
enum { TKind = 0, TIn = 1, TLeft = 2, TJoined = 3, TEnd = 4, TWords = 5 };
enum { TBuildLight = 1, TBuildHeavy = 2, TRound = 3 };

__device__ __forceinline__ i64 gtid() { return blockIdx.x * (i64)blockDim.x + threadIdx.x; }
__device__ __forceinline__ i64 gstride() { return (i64)gridDim.x * blockDim.x; }

// enc maps a weight to an unsigned key of the same order.
__device__ __forceinline__ u32 enc(int w) { return (u32)w ^ 0x80000000u; }

// find returns x's representative. Only mst_ecl_join writes parents, so the other kernels walk
// them through the read-only cache; no compression (mst_ecl_flatten shortens them once).
// In the fused kernel joins run in the same launch: it reads them from L2 (C, coherent).
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

// init: every vertex its own component, no minimum; both list lengths (nlen[0..1]) zero.
__device__ __forceinline__ void d_init(const MstEclArgs& a) {
    for (i64 v = gtid(); v < a.n; v += gstride()) {
        a.parent[v] = (u32)v;
        a.minv[v] = NONE;
        if (a.minv2) a.minv2[v] = NONE;
    }
    if (gtid() == 0) a.nlen[0] = a.nlen[1] = 0;
}

// push appends edge (ru, rv, arc e) to the next list.
__device__ __forceinline__ void push(const MstEclArgs& a, u32 ru, u32 rv, int w, i64 e) {
    a.next[warp_slot(a.nlen)] = make_uint4(ru, rv, enc(w), (u32)e);
}

// build: the worklist from the arcs u -> v with u < v, a thread per arc: light (weight <= threshold,
// every vertex still its own representative) or heavy (the rest, between different
// representatives).
template <bool C>
__device__ __forceinline__ void d_build(const MstEclArgs& a) {
    for (i64 e = gtid(); e < a.m; e += gstride()) {
        u32 u = __ldg(&a.row[e]), v = __ldg(&a.nbr[e]);
        if (v <= u) continue;
        int w = a.wt ? __ldg(&a.wt[e]) : 1;
        if (a.heavy) {
            if (w <= a.threshold) continue;
            u32 ru = find<C>(a, u), rv = find<C>(a, v);
            if (ru != rv) push(a, ru, rv, w, e);
        } else if (w <= a.threshold) {
            push(a, u, v, w, e);
        }
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

// min (1): drop the edges of wl[0..len) inside one component; the rest go to next with their
// current representatives and lower both representatives' minimum key in minv. Returns the
// edges kept.
template <bool C>
__device__ __forceinline__ u64 d_min(const MstEclArgs& a, i64 len, u64* minv) {
    u64 left = 0;
    for (i64 i = gtid(); i < len; i += gstride()) {
        uint4 el = __ldcg(&a.wl[i]);  // from L2: the list was written in this launch (fused)
        u32 ru = find<C>(a, el.x), rv = find<C>(a, el.y);
        if (ru == rv) continue;
        el.x = ru;
        el.y = rv;
        a.next[warp_slot(a.nlen)] = el;
        left++;
        u64 key = (u64)el.z << 32 | el.w;
        volatile u64* mv = minv;
        if (mv[ru] > key) atomicMin(&minv[ru], key);
        if (mv[rv] > key) atomicMin(&minv[rv], key);
    }
    return left;
}

// join (2): an edge of wl[0..len) that is either representative's minimum joins them and the
// forest. Returns the joins.
__device__ __forceinline__ u64 d_join(const MstEclArgs& a, i64 len, const u64* minv) {
    u64 joined = 0;
    for (i64 i = gtid(); i < len; i += gstride()) {
        uint4 el = __ldcg(&a.wl[i]);  // from L2: the list was written in this launch (fused)
        u64 key = (u64)el.z << 32 | el.w;
        if (key == __ldcg(&minv[el.x]) || key == __ldcg(&minv[el.y])) {
            join(a, el.x, el.y);
            a.forest[warp_slot(a.flen)] = (i64)el.w;
            joined++;
        }
    }
    return joined;
}

// reset (3): clear the minima that the edges of wl[0..len) set.
__device__ __forceinline__ void d_reset(const MstEclArgs& a, i64 len, u64* minv) {
    for (i64 i = gtid(); i < len; i += gstride()) {
        uint4 el = __ldcg(&a.wl[i]);  // from L2: the list was written in this launch (fused)
        minv[el.x] = NONE;
        minv[el.y] = NONE;
    }
}

// mst_ecl_init, mst_ecl_build, mst_ecl_flatten: the steps above, a launch each.
extern "C" __global__ void __launch_bounds__(BLOCK) mst_ecl_init(const MstEclArgs a) { d_init(a); }
extern "C" __global__ void __launch_bounds__(BLOCK) mst_ecl_build(const MstEclArgs a) { d_build<false>(a); }
extern "C" __global__ void __launch_bounds__(BLOCK) mst_ecl_flatten(const MstEclArgs a) { d_flatten<false>(a); }

// mst_ecl_min (1): the round's list wl (length *wlen) into next (length *nlen).
extern "C" __global__ void __launch_bounds__(BLOCK) mst_ecl_min(const MstEclArgs a) {
    warp_add(&a.counters[CLeft], d_min<false>(a, (i64)*a.wlen, a.minv));
}

// mst_ecl_join (2): over the list min kept (wl, *wlen).
extern "C" __global__ void __launch_bounds__(BLOCK) mst_ecl_join(const MstEclArgs a) {
    warp_add(&a.counters[CJoined], d_join(a, (i64)*a.wlen, a.minv));
}

// mst_ecl_reset (3): over the same list; the next list (*nlen, the round's input) starts empty.
extern "C" __global__ void __launch_bounds__(BLOCK) mst_ecl_reset(const MstEclArgs a) {
    d_reset(a, (i64)*a.wlen, a.minv);
    if (gtid() == 0) *a.nlen = 0;
}

/// mst_ecl_fused (fuse=on): the whole forest in one cooperative launch, with grid-wide barriers
/// between the steps and no host round trip. a.wl and a.next are the two lists, a.nlen their
/// two lengths. A round is two barrier-separated phases:
///   1. min over list cur into list 1-cur with the round's minima (minv, minv2 alternate), and
///      the clearing of the previous round's minima (its kept edges are list cur);
///   2. join over list 1-cur; the length of list cur is zeroed for the next round's output.
/// The light and heavy phases each start with a build into list 0 (the heavy one after a
/// flatten). Step k's counters go to trace[k*TWords ...]; the start time after the last step.
extern "C" __global__ void __launch_bounds__(BLOCK) mst_ecl_fused(const MstEclArgs a0) {
    cg::grid_group grid = cg::this_grid();
    const bool lead = gtid() == 0;
    MstEclArgs a = a0;
    uint4* lists[2] = {(uint4*)a0.wl, a0.next};
    u64* mins[2] = {a0.minv, a0.minv2};
    volatile u64* len = a0.nlen;
    if (lead) a0.trace[a0.steps * TWords] = globaltimer();
    d_init(a);
    grid.sync();
    i64 k = 0;
    for (int heavy = 0; heavy <= (a0.threshold < 0x7fffffff ? 1 : 0); heavy++) {
        a.heavy = heavy;
        if (heavy) {
            d_flatten<true>(a);
            grid.sync();
        }
        a.next = lists[0];
        a.nlen = (u64*)len;
        d_build<true>(a);
        grid.sync();
        if (lead && k < a0.steps) {
            u64* t = a0.trace + k * TWords;
            t[TKind] = heavy ? TBuildHeavy : TBuildLight;
            t[TLeft] = len[0];
            t[TEnd] = globaltimer();
        }
        k++;
        int cur = 0, r = 0;
        for (;; r++, cur = 1 - cur) {
            i64 in = (i64)len[cur];
            if (in == 0) break;
            u64* t = k < a0.steps ? a0.trace + k * TWords : 0;
            // 1. min, and the previous round's minima cleared
            a.wl = lists[cur];
            a.next = lists[1 - cur];
            a.nlen = (u64*)&len[1 - cur];
            d_min<true>(a, in, mins[r & 1]);
            if (r > 0) d_reset(a, in, mins[(r - 1) & 1]);
            grid.sync();
            // 2. join over the kept edges
            i64 left = (i64)len[1 - cur];
            a.wl = lists[1 - cur];
            u64 joined = d_join(a, left, mins[r & 1]);
            if (t) warp_add(&t[TJoined], joined);
            if (lead) {
                len[cur] = 0;
                if (t) {
                    t[TKind] = TRound;
                    t[TIn] = in;
                    t[TLeft] = left;
                }
            }
            grid.sync();
            if (lead && t) t[TEnd] = globaltimer();
            k++;
        }
    }
    if (lead) a0.counters[CSteps] = k;
}
