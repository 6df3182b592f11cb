// bc.cu: betweenness centrality, Brandes's two phases per source (Gunrock's BC, GAPBS bc.cc).
// Compiled by `make ptx`: nvcc -ptx -arch=compute_70 -O3 -std=c++14 -o bc.ptx bc.cu
//
// Forward: one BFS level per launch that counts shortest paths (sigma, double): push from the
// level's vertices (claim unvisited out-neighbours with a CAS on depth, add sigma atomically),
// or pull into each unvisited vertex (sum sigma over in-neighbours at the level; writes only
// itself). Backward: from the deepest level up, each vertex of level d gathers
// delta = sigma[v] * sum over out-neighbours w at level d+1 of coef[w], coef[v] = (1+delta)/sigma[v],
// and adds delta to its centrality. Every kernel comes in _thread (a vertex per thread) and
// _warp (a vertex per warp, lanes over its edges) forms: the host-driven levels of fuse=off.
// bc_fused_<lb> (fuse=on) runs both phases of a source in one cooperative launch with the
// load-balancing strategies of common.cuh, and bc_batch_* (batch>1) run up to 32 sources at
// once, a bit per source.
#include "common.cuh"

// Counters (u64 words of counters), cleared by the host before every level.
enum { CFound = 0, COutEdges = 1, CScanned = 2, CNext = 3, CRest = 4 };

// BcArgs is every BC kernel's single parameter, mirrored by bcArgs in bc.go (all 8 bytes).
struct BcArgs {
    // 1. Out-CSR (push, backward) and in-CSR (pull).
    const i64* off;
    const u32* nbr;
    const i64* ioff;
    const u32* inbr;
    i64 n;
    // 2. Per-vertex state.
    int* depth;
    double* sigma;
    double* coef;
    double* cent;
    // 3. Input: the items are q[0..qlen) (a stored level, or the unvisited worklist), or every
    // vertex when topo is set (selected by depth).
    const u32* q;
    i64 qlen;
    i64 topo;
    // 4. Output: the next level is appended at next[counters[CNext]]; a data-driven pull appends
    // the vertices that stay unvisited at rest[counters[CRest]].
    u32* next;
    u32* rest;
    // 5. Scalars.
    i64 d;
    i64 src;
    u64* counters;
    // half: add half of each dependency (an undirected graph, whose every path is found from
    // both ends, when no batch of the run adds whole ones)
    i64 half;
};

static_assert(sizeof(BcArgs) == 144, "BcArgs must match bcArgs in bc.go");

__device__ __forceinline__ i64 gtid() { return blockIdx.x * (i64)blockDim.x + threadIdx.x; }
__device__ __forceinline__ i64 gstride() { return (i64)gridDim.x * blockDim.x; }

// items returns how many work items the launch has.
__device__ __forceinline__ i64 items(const BcArgs& a) { return a.topo ? a.n : a.qlen; }
__device__ __forceinline__ u32 item(const BcArgs& a, i64 i) { return a.topo ? (u32)i : a.q[i]; }

// Sum over the W lanes of a group (W = 1 or 32; every lane of the warp calls).
template <int W, typename T>
__device__ __forceinline__ T group_sum(T x) {
    if (W > 1) {
        for (int o = W / 2; o > 0; o >>= 1) x += __shfl_xor_sync(0xffffffffu, x, o);
    }
    return x;
}

// Per-thread counters, summed per warp into counters at the end (every lane calls).
__device__ __forceinline__ void flush(const BcArgs& a, u64 found, u64 outEdges, u64 scanned) {
    for (int o = 16; o > 0; o >>= 1) {
        found += __shfl_down_sync(0xffffffffu, found, o);
        outEdges += __shfl_down_sync(0xffffffffu, outEdges, o);
        scanned += __shfl_down_sync(0xffffffffu, scanned, o);
    }
    if ((threadIdx.x & 31) == 0) {
        if (found) atomicAdd(&a.counters[CFound], found);
        if (outEdges) atomicAdd(&a.counters[COutEdges], outEdges);
        if (scanned) atomicAdd(&a.counters[CScanned], scanned);
    }
}

// push: every vertex u of level d claims its unvisited out-neighbours for level d+1 and adds
// sigma[u] to the sigma of every out-neighbour at level d+1.
template <int W>
__device__ void push(const BcArgs& a) {
    u64 found = 0, outEdges = 0, scanned = 0;
    int lane = threadIdx.x & (W - 1);
    i64 groups = gstride() / W, cnt = items(a);
    int d = (int)a.d;
    // Whole warps stay in the loop for the group sums.
    i64 rounds = (cnt + groups - 1) / groups;
    for (i64 r = 0, i = gtid() / W; r < rounds; r++, i += groups) {
        if (i >= cnt) continue;
        u32 u = item(a, i);
        if (a.topo && a.depth[u] != d) continue;
        double su = a.sigma[u];
        i64 beg = a.off[u], end = a.off[u + 1];
        if (lane == 0) scanned += end - beg;
        for (i64 e = beg + lane; e < end; e += W) {
            u32 v = a.nbr[e];
            int dv = ((volatile int*)a.depth)[v];
            if (dv < 0) {
                if (atomicCAS(&a.depth[v], -1, d + 1) == -1) {
                    found++;
                    outEdges += a.off[v + 1] - a.off[v];
                    if (!a.topo) a.next[atomicAdd(&a.counters[CNext], 1ull)] = v;
                }
                dv = d + 1;
            }
            if (dv == d + 1) atomicAdd(&a.sigma[v], su);
        }
    }
    flush(a, found, outEdges, scanned);
}

// pull: every unvisited vertex sums sigma over its in-neighbours at level d; a non-zero sum
// puts it at level d+1. Data-driven (not topo) it keeps the still unvisited in rest.
template <int W>
__device__ void pull(const BcArgs& a) {
    u64 found = 0, outEdges = 0, scanned = 0;
    int lane = threadIdx.x & (W - 1);
    i64 groups = gstride() / W, cnt = items(a);
    int d = (int)a.d;
    i64 rounds = (cnt + groups - 1) / groups;
    for (i64 r = 0, i = gtid() / W; r < rounds; r++, i += groups) {
        bool active = i < cnt;
        u32 v = active ? item(a, i) : 0;
        if (active && a.depth[v] >= 0) active = false;  // visited (topology sweep)
        double s = 0;
        if (active) {
            i64 beg = a.ioff[v], end = a.ioff[v + 1];
            if (lane == 0) scanned += end - beg;
            for (i64 e = beg + lane; e < end; e += W) {
                u32 u = a.inbr[e];
                if (a.depth[u] == d) s += a.sigma[u];
            }
        }
        s = group_sum<W>(s);  // every lane of the warp takes part
        if (!active || lane != 0) continue;
        if (s > 0) {
            a.sigma[v] = s;
            a.depth[v] = d + 1;
            found++;
            outEdges += a.off[v + 1] - a.off[v];
            if (a.next) a.next[atomicAdd(&a.counters[CNext], 1ull)] = v;
        } else if (!a.topo) {
            a.rest[atomicAdd(&a.counters[CRest], 1ull)] = v;
        }
    }
    flush(a, found, outEdges, scanned);
}

// back: every vertex v of level d takes its dependency from its successors at level d+1.
template <int W>
__device__ void back(const BcArgs& a) {
    u64 verts = 0, scanned = 0;
    int lane = threadIdx.x & (W - 1);
    i64 groups = gstride() / W, cnt = items(a);
    int d = (int)a.d;
    i64 rounds = (cnt + groups - 1) / groups;
    for (i64 r = 0, i = gtid() / W; r < rounds; r++, i += groups) {
        bool active = i < cnt;
        u32 v = active ? item(a, i) : 0;
        if (active && a.topo && a.depth[v] != d) active = false;
        double s = 0;
        if (active) {
            i64 beg = a.off[v], end = a.off[v + 1];
            if (lane == 0) scanned += end - beg;
            for (i64 e = beg + lane; e < end; e += W) {
                u32 w = a.nbr[e];
                if (a.depth[w] == d + 1) s += a.coef[w];
            }
        }
        s = group_sum<W>(s);
        if (!active || lane != 0) continue;
        double sv = a.sigma[v], delta = sv * s;
        a.coef[v] = (1 + delta) / sv;
        if (v != (u32)a.src) a.cent[v] += a.half ? 0.5 * delta : delta;
        verts++;
    }
    flush(a, verts, 0, scanned);
}

// bc_push_<lb>, bc_pull_<lb>: one forward level. bc_back_<lb>: one backward level.
extern "C" __global__ void __launch_bounds__(BLOCK) bc_push_thread(const BcArgs a) { push<1>(a); }
extern "C" __global__ void __launch_bounds__(BLOCK) bc_push_warp(const BcArgs a) { push<32>(a); }
extern "C" __global__ void __launch_bounds__(BLOCK) bc_pull_thread(const BcArgs a) { pull<1>(a); }
extern "C" __global__ void __launch_bounds__(BLOCK) bc_pull_warp(const BcArgs a) { pull<32>(a); }
extern "C" __global__ void __launch_bounds__(BLOCK) bc_back_thread(const BcArgs a) { back<1>(a); }
extern "C" __global__ void __launch_bounds__(BLOCK) bc_back_warp(const BcArgs a) { back<32>(a); }

// bc_source starts a source: depth 0, one path, the first stored level (next[0]).
extern "C" __global__ void bc_source(const BcArgs a) {
    if (gtid() == 0) {
        a.depth[a.src] = 0;
        a.sigma[a.src] = 1;
        if (a.next) a.next[0] = (u32)a.src;
    }
}

// bc_reset clears depth and sigma of the items (the stored levels, or every vertex).
extern "C" __global__ void __launch_bounds__(BLOCK) bc_reset(const BcArgs a) {
    for (i64 i = gtid(); i < items(a); i += gstride()) {
        u32 v = item(a, i);
        a.depth[v] = -1;
        a.sigma[v] = 0;
    }
}

// bc_unvisited lists every vertex but the source (the data-driven pull's first worklist).
extern "C" __global__ void __launch_bounds__(BLOCK) bc_unvisited(const BcArgs a) {
    for (i64 v = gtid(); v < a.n; v += gstride()) {
        if (v != a.src) a.rest[v < a.src ? v : v - 1] = (u32)v;
    }
}

// bc_halve halves every centrality (an undirected graph finds each path from both ends).
extern "C" __global__ void __launch_bounds__(BLOCK) bc_halve(const BcArgs a) {
    for (i64 v = gtid(); v < a.n; v += gstride()) a.cent[v] *= 0.5;
}

/// Fused single-source BC (fuse=on): the forward and backward phases of one source in one
/// cooperative launch, a grid barrier between levels, each push level expanded by common.cuh's
/// load-balancing strategies as the fused BFS expands its levels (a hub's few rows over the whole
/// grid, twc's degree classes elsewhere). Pulled forward levels and big backward levels test
/// the other level's membership in a bitmap (bc_lists).

// BcFused is bc_fused_<lb>'s parameter, mirrored by bcFused in bc_fused.go (all 8 bytes).
struct BcFused {
    // 1. Out-CSR (push levels) and in-CSR (pull levels, backward).
    const i64* off;
    const u32* nbr;
    const i64* ioff;
    const u32* inbr;
    i64 n;
    i64 m;
    // 2. Per-vertex state, all -1 / 0 between sources (the epilogue resets what it touched):
    // depth, sigma (shortest paths), acc (sum over successors w of (1 + delta[w]) / sigma[w])
    // and the centralities.
    int* depth;
    double* sigma;
    double* acc;
    double* cent;
    // 3. The levels: lq holds every level's vertices in visiting order, lens[k] level k's size;
    // rows: BcRow words per forward level k at k, per backward level k at levels + k; ctl: the
    // state row (BcCtl).
    u32* lq;
    u32* lens;
    u64* rows;
    u64* ctl;
    i64 levels;  // capacity of lens (levels + 2 entries) and of each half of rows
    // bits: one level's members, a bit a vertex, for the bitmap levels (bc_lists)
    u32* bits;
    // rank: a level's members as two words per 32 vertices, their bits and the members before
    // them, so that a member's rank (its index among the members) is one load away; a backward
    // level adds into cacc (ccap entries) at its predecessors' ranks (BcRank; ccap 0: never);
    // bsum: a word per block for the running count's scan
    u32* rank;
    double* cacc;
    u32* bsum;
    i64 ccap;
    // arank: a word per in-arc (nullptr: none), written by a counted level 1 pulled through the
    // rank words: the rank of the arc's tail among level 1's members, ~0 for an arc from
    // elsewhere, so that backward level 2 adds along the marked arcs without testing them
    u32* arank;
    // 4. The source and the knobs: dir 0 push, 1 pull, 2 direction-optimizing (alpha, beta);
    // init: bit 0, clear every vertex first; bit 1, the run's last source, whose epilogue leaves
    // depth, sigma and acc as they are (the next run's first launch clears them).
    i64 src;
    i64 dir;
    double alpha;
    double beta;
    i64 init;
    i64 half;  // add half of each dependency (BcArgs.half)
};

static_assert(sizeof(BcFused) == 216, "BcFused must match bcFused in bc_fused.go");

// A level's row: edges scanned, vertices found (forward), their out-edges, the time at its
// end (globaltimer), its vertices, its shape (RDir: bit 0 pull or bitmap, bit 1 BcOnes or
// BcRank).
enum { BcRow = 8, REdges = CEdges, RPushes = CPushes, RScout = CScout, RTime = 5, RCount = 6, RDir = 7 };
static_assert(CEdges < 5 && CPushes < 5 && CScout < 5 && CCulled < 5, "finish() writes the first words of a row");
// The state row: forward levels, vertices reached, levels overflow, start and end times, and
// BcMulti: set when a vertex of level 1 has more than one shortest path (parallel arcs from
// the source), so that level 1's sigma are not all 1.
enum { BcLevels = 0, BcReached = 1, BcDeep = 2, BcStart = 3, BcFwdEnd = 4, BcEnd = 5, BcMulti = 6, BcCtlWords = 16 };

// BcPushF: a forward push level d; the level's vertices claim unvisited out-neighbours for
// level d+1 (CAS on depth) and add their sigma into every out-neighbour at d+1.
struct BcPushF {
    const BcFused& b;
    int d;
    __device__ bool row_ok(u32) const { return true; }
    __device__ bool done(u32) const { return false; }
    __device__ int edge(u32 u, u32 v, i64, int, u32* out) const {
        const double su = b.sigma[u];  // loaded beside the depth, not after the claim
        int dv = ((volatile int*)b.depth)[v];
        int pushed = 0;
        if (dv < 0) {
            int old = atomicCAS(&b.depth[v], -1, d + 1);
            if (old == -1) {
                pushed = 1;
                *out = v;
                dv = d + 1;
            } else {
                dv = old;
            }
        }
        if (dv == d + 1) {
            const double before = atomicAdd(&b.sigma[v], su);
            if (d == 0 && before != 0.0) b.ctl[BcMulti] = 1;  // a parallel arc from the source
        }
        return pushed;
    }
};

// bc_bitmap makes b.bits the members of one stored level, lq[base, base+cnt): cleared, a
// grid barrier, a bit set a member, a grid barrier.
__device__ void bc_bitmap(const BcFused& b, cg::grid_group& grid, i64 t, i64 nt, i64 base, u32 cnt) {
    for (i64 i = t; i < (b.n + 31) / 32; i += nt) b.bits[i] = 0;
    grid.sync();
    for (i64 i = t; i < cnt; i += nt) {
        const u32 v = b.lq[base + i];
        atomicOr(&b.bits[v >> 5], 1u << (v & 31));
    }
    grid.sync();
}

// The bitmap levels (bc_lists): a forward pull; the same where every member's sigma is 1
// (level 0, and level 1 without parallel arcs from the source), which counts its members
// instead of loading their sigma; a backward push into the members' acc; the same into cacc at
// the members' ranks.
// BcMark is BcOnes through the rank words that also marks each in-arc (arank); BcMarked is
// BcRank along those marks. (Marking only the rows a warp or the block walks, whose stores
// are coalesced, and adding the others by BcRank was slower: docs/gpu-notes.md.)
enum { BcFwd = 0, BcBack = 1, BcOnes = 2, BcRank = 3, BcMark = 4, BcMarked = 5 };

template <int M>
struct BcForward {
    enum { value = M == BcFwd || M == BcOnes || M == BcMark };
};

// rank_of: the rank of member c of a level whose rank words are w = rank[c / 32].
__device__ __forceinline__ u32 rank_of(uint2 w, u32 c) { return w.y + __popc(w.x & ((1u << (c & 31)) - 1)); }

// bc_rank makes b.rank the members of one stored level, lq[base, base+cnt), with their running
// count, and zeroes cacc[0, cnt): the words and cacc cleared, a barrier, a bit set a member, a
// barrier, then a scan of the words' counts (a thread a run of words, the block's sum of its
// threads, the blocks' totals after a barrier), a barrier.
__device__ void bc_rank(const BcFused& b, cg::grid_group& grid, i64 t, i64 nt, i64 base, u32 cnt) {
    __shared__ u32 sbefore;
    uint2* rk = (uint2*)b.rank;
    const i64 words = (b.n + 31) / 32;
    for (i64 i = t; i < words; i += nt) rk[i] = make_uint2(0, 0);
    for (i64 i = t; i < cnt; i += nt) b.cacc[i] = 0;
    grid.sync();
    for (i64 i = t; i < cnt; i += nt) {
        const u32 v = b.lq[base + i];
        atomicOr(&b.rank[2 * (v >> 5)], 1u << (v & 31));
    }
    grid.sync();
    const i64 per = (words + nt - 1) / nt, w0 = min(words, t * per), w1 = min(words, w0 + per);
    u32 c = 0;
    for (i64 i = w0; i < w1; i++) c += __popc(rk[i].x);
    i64 total;
    const u32 excl = (u32)block_exclusive_scan((i64)c, &total);
    if (threadIdx.x == 0) b.bsum[blockIdx.x] = (u32)total;
    grid.sync();
    if (threadIdx.x < 32) {
        u32 x = 0;
        for (u32 j = threadIdx.x; j < blockIdx.x; j += 32) x += ((volatile u32*)b.bsum)[j];
        for (int o = 16; o > 0; o >>= 1) x += __shfl_xor_sync(0xffffffffu, x, o);
        if (threadIdx.x == 0) sbefore = x;
    }
    __syncthreads();
    u32 run = sbefore + excl;
    for (i64 i = w0; i < w1; i++) {
        const u32 bits = rk[i].x;
        rk[i].y = run;
        run += __popc(bits);
    }
    grid.sync();
}

// Rows of a bitmap level of at least BcWarpRow edges take a warp, of at least BcBlockRow the
// whole block; shorter ones their own thread.
enum { BcWarpRow = 32, BcBlockRow = 2048 };

// bc_walk walks one row's list nbr[e, end) with stride step (1: its thread; 32: a warp's lane;
// BLOCK: the block's thread): for the neighbours in the level it sums their sigma (BcFwd) or
// counts them (BcOnes), or adds cw into their acc (BcBack) or into cacc at their rank
// (BcRank). Four neighbours go at once: their ids, then their bitmap words, then their terms,
// each group of loads in flight together.
template <int M>
__device__ __forceinline__ double bc_walk(const BcFused& b, const u32* nbr, i64 e, const i64 end, const int step, const double cw) {
    const uint2* rk = (const uint2*)b.rank;
    double x = 0;
    int ones = 0;
    for (; e + 3 * step < end; e += 4 * step) {
        if (M == BcMarked) {
            const u32 q0 = b.arank[e], q1 = b.arank[e + step], q2 = b.arank[e + 2 * step], q3 = b.arank[e + 3 * step];
            if (q0 != ~0u) atomicAdd(&b.cacc[q0], cw);
            if (q1 != ~0u) atomicAdd(&b.cacc[q1], cw);
            if (q2 != ~0u) atomicAdd(&b.cacc[q2], cw);
            if (q3 != ~0u) atomicAdd(&b.cacc[q3], cw);
            continue;
        }
        const u32 c0 = __ldg(&nbr[e]), c1 = __ldg(&nbr[e + step]), c2 = __ldg(&nbr[e + 2 * step]), c3 = __ldg(&nbr[e + 3 * step]);
        if (M == BcMark) {
            const uint2 w0 = rk[c0 >> 5], w1 = rk[c1 >> 5], w2 = rk[c2 >> 5], w3 = rk[c3 >> 5];
            const bool h0 = (w0.x >> (c0 & 31)) & 1, h1 = (w1.x >> (c1 & 31)) & 1, h2 = (w2.x >> (c2 & 31)) & 1, h3 = (w3.x >> (c3 & 31)) & 1;
            b.arank[e] = h0 ? rank_of(w0, c0) : ~0u;
            b.arank[e + step] = h1 ? rank_of(w1, c1) : ~0u;
            b.arank[e + 2 * step] = h2 ? rank_of(w2, c2) : ~0u;
            b.arank[e + 3 * step] = h3 ? rank_of(w3, c3) : ~0u;
            ones += (int)h0 + (int)h1 + (int)h2 + (int)h3;
            continue;
        }
        if (M == BcRank) {
            const uint2 w0 = rk[c0 >> 5], w1 = rk[c1 >> 5], w2 = rk[c2 >> 5], w3 = rk[c3 >> 5];
            if ((w0.x >> (c0 & 31)) & 1) atomicAdd(&b.cacc[rank_of(w0, c0)], cw);
            if ((w1.x >> (c1 & 31)) & 1) atomicAdd(&b.cacc[rank_of(w1, c1)], cw);
            if ((w2.x >> (c2 & 31)) & 1) atomicAdd(&b.cacc[rank_of(w2, c2)], cw);
            if ((w3.x >> (c3 & 31)) & 1) atomicAdd(&b.cacc[rank_of(w3, c3)], cw);
            continue;
        }
        const bool h0 = bit_test(b.bits, c0), h1 = bit_test(b.bits, c1), h2 = bit_test(b.bits, c2), h3 = bit_test(b.bits, c3);
        if (M == BcBack) {
            if (h0) atomicAdd(&b.acc[c0], cw);
            if (h1) atomicAdd(&b.acc[c1], cw);
            if (h2) atomicAdd(&b.acc[c2], cw);
            if (h3) atomicAdd(&b.acc[c3], cw);
        } else if (M == BcOnes) {
            ones += (int)h0 + (int)h1 + (int)h2 + (int)h3;
        } else {
            const double t0 = h0 ? b.sigma[c0] : 0.0, t1 = h1 ? b.sigma[c1] : 0.0, t2 = h2 ? b.sigma[c2] : 0.0, t3 = h3 ? b.sigma[c3] : 0.0;
            x += (t0 + t1) + (t2 + t3);
        }
    }
    for (; e < end; e += step) {
        if (M == BcMarked) {
            const u32 q = b.arank[e];
            if (q != ~0u) atomicAdd(&b.cacc[q], cw);
            continue;
        }
        const u32 c = __ldg(&nbr[e]);
        if (M == BcMark) {
            const uint2 w = rk[c >> 5];
            const bool h = (w.x >> (c & 31)) & 1;
            b.arank[e] = h ? rank_of(w, c) : ~0u;
            ones += (int)h;
            continue;
        }
        if (M == BcRank) {
            const uint2 w = rk[c >> 5];
            if ((w.x >> (c & 31)) & 1) atomicAdd(&b.cacc[rank_of(w, c)], cw);
        } else if (bit_test(b.bits, c)) {
            if (M == BcBack) atomicAdd(&b.acc[c], cw);
            else if (M == BcOnes) ones++;
            else x += b.sigma[c];
        }
    }
    return M == BcOnes || M == BcMark ? (double)ones : x;
}

// bc_lists runs a level whose other side is in b.bits over the rows' lists, a thread, a warp
// or the block a row by its degree (Merrill's TWC). The membership test reads a bitmap that
// stays in L2 where a depth would be a DRAM sector.
//  - BcFwd (forward level d, pulled): the rows are the unvisited vertices, the lists their
//    in-lists, the members level d. Each row sums its members' sigma in registers and writes
//    only itself: with a non-zero sum it joins level d+1 with the sum as its sigma (appended
//    to out at *out_len, one atomic a block). No atomics on sigma, no early exit: every path
//    counts (Gunrock's and GAPBS's pull, Beamer's direction switch).
//    BcOnes is the same where every member's sigma is 1: it counts them.
//  - BcBack (backward level d+1, pushed): the rows are level d+1, lq[rbase, rbase+rcnt), the
//    lists their in-lists, the members level d (their predecessors): each row adds its term
//    acc + 1 / sigma = (1 + delta) / sigma into its members' acc. BcRank adds it into cacc at
//    the members' ranks instead: a few hundred thousand members' acc are as many DRAM sectors
//    spread over n, where cacc is a dense array that stays in L2.
// Every thread of the grid calls it. Counters: edges scanned, vertices found and (BcFwd) their
// out-edges (Beamer's scout), one atomic each a block.
template <int M>
__device__ void bc_lists(const BcFused& b, int d, i64 rbase, i64 rcnt, u64* counters, u32* out, u32* out_len) {
    __shared__ double ssum[BLOCK], swsum[BLOCK / 32];
    __shared__ u32 sbig[BLOCK], snbig, swarp[BLOCK / 32];
    __shared__ u64 sedges, sfound, sscout;
    __shared__ u32 sbase;
    const i64* off = b.ioff;
    const u32* nbr = b.inbr;
    const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
    const bool fwd = BcForward<M>::value;
    // a backward level of a quarter of the vertices or more takes its rows in vertex order, by
    // depth, streaming what the stored level's order would load a sector a row
    const bool byIndex = fwd || rcnt * 4 >= b.n;
    const i64 items = byIndex ? b.n : rcnt;
    if (threadIdx.x == 0) sedges = 0, sfound = 0, sscout = 0;
    __syncthreads();
    u64 edges = 0, scout = 0;
    for (i64 chunk = (i64)blockIdx.x * BLOCK; chunk < items; chunk += (i64)gridDim.x * BLOCK) {
        // 1. The thread's row; a short list is walked by its own thread.
        const i64 i = chunk + threadIdx.x;
        u32 r = 0;
        bool row = false;
        i64 beg = 0, end = 0;
        double cw = 0;
        if (i < items) {
            if (byIndex) {
                // the row's depth and offsets are loaded together, not one after the other
                r = (u32)i;
                const int dr = b.depth[r];
                beg = __ldg(&off[r]), end = __ldg(&off[r + 1]);
                row = fwd ? dr < 0 : dr == d + 1;
                if (!row) end = beg;
            } else {
                r = b.lq[rbase + i];
                row = true;
                beg = __ldg(&off[r]), end = __ldg(&off[r + 1]);
            }
            if (!fwd && row) cw = b.acc[r] + 1.0 / b.sigma[r];
        }
        const i64 deg = end - beg;
        edges += deg;
        if (threadIdx.x == 0) snbig = 0;
        ssum[threadIdx.x] = deg < BcWarpRow ? bc_walk<M>(b, nbr, beg, end, 1, cw) : 0.0;
        __syncthreads();
        // 2. Lists of a warp's size: the warp walks them one after another.
        for (u32 m = __ballot_sync(0xffffffffu, deg >= BcWarpRow && deg < BcBlockRow); m; m &= m - 1) {
            const int l = __ffs(m) - 1;
            const i64 wb = __shfl_sync(0xffffffffu, beg, l), we = __shfl_sync(0xffffffffu, end, l);
            double x = bc_walk<M>(b, nbr, wb + lane, we, 32, __shfl_sync(0xffffffffu, cw, l));
            if (fwd) {
                for (int o = 16; o > 0; o >>= 1) x += __shfl_xor_sync(0xffffffffu, x, o);
                if (lane == l) ssum[threadIdx.x] = x;
            }
        }
        // 3. Long lists: the whole block walks them one after another.
        if (deg >= BcBlockRow) sbig[atomicAdd(&snbig, 1u)] = threadIdx.x;
        __syncthreads();
        for (u32 k = 0; k < snbig; k++) {
            const u32 owner = sbig[k];
            const u32 rr = byIndex ? (u32)(chunk + owner) : b.lq[rbase + chunk + owner];
            const double rcw = fwd ? 0.0 : b.acc[rr] + 1.0 / b.sigma[rr];
            double x = bc_walk<M>(b, nbr, __ldg(&off[rr]) + threadIdx.x, __ldg(&off[rr + 1]), BLOCK, rcw);
            if (fwd) {
                for (int o = 16; o > 0; o >>= 1) x += __shfl_xor_sync(0xffffffffu, x, o);
                if (lane == 0) swsum[wid] = x;
                __syncthreads();
                if (threadIdx.x == 0) {
                    double t = 0;
                    for (int w = 0; w < BLOCK / 32; w++) t += swsum[w];
                    ssum[owner] = t;
                }
                __syncthreads();
            }
        }
        const double sum = ssum[threadIdx.x];
        // 4. The row's result (forward).
        if (fwd) {
            const bool found = row && sum > 0;
            if (found) b.sigma[r] = sum, b.depth[r] = d + 1;
            if (found && d == 0 && sum != 1.0) b.ctl[BcMulti] = 1;  // parallel arcs from the source
            const u32 fm = __ballot_sync(0xffffffffu, found);
            if (lane == 0) swarp[wid] = __popc(fm);
            __syncthreads();
            if (threadIdx.x == 0) {
                u32 tot = 0;
                for (int w = 0; w < BLOCK / 32; w++) {
                    const u32 c = swarp[w];
                    swarp[w] = tot;
                    tot += c;
                }
                sbase = tot ? atomicAdd(out_len, tot) : 0;
                sfound += tot;
            }
            __syncthreads();
            if (found) {
                out[sbase + swarp[wid] + __popc(fm & ((1u << lane) - 1))] = r;
                scout += b.off == off ? (u64)deg : (u64)(b.off[r + 1] - b.off[r]);  // undirected: the in-list is the out-list
            }
        }
        __syncthreads();
    }
    if (edges) atomicAdd(&sedges, edges);
    if (scout) atomicAdd(&sscout, scout);
    __syncthreads();
    if (threadIdx.x == 0) {
        if (sedges) atomicAdd(&counters[REdges], sedges);
        if (sfound) atomicAdd(&counters[RPushes], sfound);
        if (sscout) atomicAdd(&counters[RScout], sscout);
    }
}

// BcBackF: a backward level d over the in-CSR; every vertex w of level d, whose acc is final,
// adds 1/sigma[w] + acc[w] = (1 + delta[w]) / sigma[w] to the acc of its predecessors (its
// in-neighbours at level d-1). Nothing is pushed.
struct BcBackF {
    const BcFused& b;
    int d;
    __device__ bool row_ok(u32) const { return true; }
    __device__ bool done(u32) const { return false; }
    __device__ int edge(u32 w, u32 u, i64, int, u32*) const {
        const double aw = b.acc[w], sw = b.sigma[w];  // loaded beside the depth, not after it
        if (b.depth[u] != d - 1) return 0;
        atomicAdd(&b.acc[u], aw + 1.0 / sw);
        return 0;
    }
};

// bc_level expands one level of cnt rows holding sc edges as the fused BFS does: a hub's few
// rows over the whole grid, under twc a small frontier of rich rows a warp per row and rich
// rows 32 a block with a warp from 8 edges, else the kernel's strategy.
template <int LB, class F>
__device__ __forceinline__ void bc_level(Args& s, Shared& sh, F& f, u32 cnt, i64 sc) {
    if (cnt <= 64 && sc >= 16384) {
        advance<LGrid>(s, sh, f);
    } else if (LB == LTWC && cnt <= 4096 && sc >= 8 * (i64)cnt) {
        advance<LWarp>(s, sh, f);
    } else {
        if (LB == LTWC && sc >= 16 * (i64)cnt) s.rows_per_block = 32, s.twc_warp = 8;
        advance<LB>(s, sh, f);
        s.rows_per_block = 0, s.twc_warp = 0;
    }
}

// BcState is the traversal state every thread keeps alike: the level, where it starts in lq,
// the edges of its vertices, Beamer's unexplored edges and last frontier, the direction.
struct BcState {
    i64 k, base, scout, to_check, awake, dir;
};

// bc_clear_rows zeroes the rows of forward and backward level k (thread 0, a level ahead).
__device__ __forceinline__ void bc_clear_rows(const BcFused& b, i64 k) {
    for (int c = 0; c < BcRow; c++) b.rows[k * BcRow + c] = 0, b.rows[(b.levels + k) * BcRow + c] = 0;
}

// bc_fused_loop is one source's Brandes in one cooperative launch:
//  1. prologue: clear every vertex (init), start the source;
//  2. forward: level k reads lq[base, base+cnt) and appends level k+1 after it; before each
//     level every thread takes Beamer's push/pull decision from the last level's counters
//     (dir 2), alike; a pull level sums over a bitmap of level k (bc_lists BcFwd);
//  3. backward: from the deepest level up to level 2, each level pushes its coefficients into
//     its predecessors' acc (level 1's go to the source, whose dependency is not counted),
//     through a bitmap of the predecessors' level when it has n/16 edges or more, and into a
//     dense array at the predecessors' ranks when they are at most ccap;
//  4. epilogue: every reached vertex but the source adds delta = sigma x acc to its
//     centrality and is reset for the next source.
template <int LB>
__device__ void bc_fused_loop(const BcFused& b) {
    __shared__ Shared sh;
    cg::grid_group grid = cg::this_grid();
    i64 t = blockIdx.x * (i64)blockDim.x + threadIdx.x, nt = (i64)gridDim.x * blockDim.x;
    u32 src = (u32)b.src;
    /// 1. Prologue.
    if (b.init & 1) {
        for (i64 v = t; v < b.n; v += nt) b.depth[v] = -1, b.sigma[v] = 0, b.acc[v] = 0;
        grid.sync();
    }
    if (t == 0) {
        b.depth[src] = 0;
        b.sigma[src] = 1;
        b.lq[0] = src;
        b.lens[0] = 1, b.lens[1] = 0;
        bc_clear_rows(b, 0);
        for (int c = 0; c < BcCtlWords; c++) b.ctl[c] = 0;
        b.ctl[BcStart] = globaltimer();
    }
    grid.sync();
    Args s = {};
    s.n = b.n, s.m = b.m, s.out_off = b.off;
    s.out_kind = KQueue, s.agg = AggBlock, s.dedup = DNone, s.update = URMW, s.mem_kind = KAll;
    /// 2. Forward.
    BcState st = {0, 0, b.off[src + 1] - b.off[src], b.m, 0, b.dir == 1 ? 1 : 0};
    u32 cnt = 1;  // the level's size: the source alone, then loaded beside the scout after each barrier
    bool marked = false;  // level 1 marked its arcs (BcMark)
    while (true) {
        if (cnt == 0) break;
        if (st.k >= b.levels - 1) {
            if (t == 0) b.ctl[BcDeep] = 1;
            return;
        }
        if (b.dir == 2) {
            if (st.dir == 0 && (double)st.scout > (double)st.to_check / b.alpha) st.dir = 1;
            else if (st.dir == 1 && (double)cnt < (double)b.n / b.beta && (i64)cnt <= st.awake) st.dir = 0;
        }
        st.awake = cnt;
        if (t == 0) {
            bc_clear_rows(b, st.k + 1);
            b.lens[st.k + 2] = 0;
        }
        s.counters = b.rows + st.k * BcRow;
        s.out_q = b.lq + st.base + cnt;
        s.out_len = b.lens + st.k + 1;
        s.out_cap = b.n - st.base - cnt;
        // a pulled level whose members' sigma are all 1 counts them: level 0, and level 1 unless
        // level 0 found a parallel arc (BcMulti, written before the last barrier)
        const bool ones = st.dir == 1 && (st.k == 0 || (st.k == 1 && ((volatile u64*)b.ctl)[BcMulti] == 0));
        // a counted level 1 few enough for cacc marks its arcs for backward level 2 (BcMark)
        const bool mark = ones && st.k == 1 && b.arank != nullptr && b.ccap > 0 && (i64)cnt <= b.ccap;
        marked |= mark;
        if (mark) {
            bc_rank(b, grid, t, nt, st.base, cnt);
            bc_lists<BcMark>(b, (int)st.k, 0, 0, s.counters, s.out_q, s.out_len);
        } else if (st.dir == 1) {
            bc_bitmap(b, grid, t, nt, st.base, cnt);
            if (ones) bc_lists<BcOnes>(b, (int)st.k, 0, 0, s.counters, s.out_q, s.out_len);
            else bc_lists<BcFwd>(b, (int)st.k, 0, 0, s.counters, s.out_q, s.out_len);
        } else {
            // the level's size is read through s.in_len from a register copy, not from L2
            // again after the barrier
            u32 in_cnt = cnt;
            s.off = b.off, s.nbr = b.nbr, s.in_kind = KQueue;
            s.in_q = b.lq + st.base, s.in_len = &in_cnt;
            BcPushF f{b, (int)st.k};
            bc_level<LB>(s, sh, f, cnt, st.scout);
        }
        grid.sync();
        // the next level's size and this level's scout, two loads in flight at once
        const u32 next = ((volatile u32*)b.lens)[st.k + 1];
        st.scout = (i64)((volatile u64*)s.counters)[RScout];
        st.to_check -= st.scout;
        if (t == 0) s.counters[RTime] = globaltimer(), s.counters[RCount] = cnt, s.counters[RDir] = st.dir | (ones ? 2 : 0) | (mark ? 4 : 0);
        st.base += cnt;
        st.k++;
        cnt = next;
    }
    i64 levels = st.k, total = st.base;
    if (t == 0) b.ctl[BcFwdEnd] = globaltimer();
    /// 3. Backward.
    i64 k = levels - 1, base = total;
    while (k >= 2) {
        u32 cnt = ((volatile u32*)b.lens)[k];
        i64 sc = (i64)((volatile u64*)b.rows)[(k - 1) * BcRow + RScout];
        base -= cnt;
        s.counters = b.rows + (b.levels + k) * BcRow;
        // a big level pushes into a bitmap of its predecessors (bc_lists), not through their
        // depths; the bitmap's clearing and two barriers pay from n/16 edges
        // and into a dense array at their ranks when they are few enough (ccap) for it to stay
        // in L2, then each predecessor takes its sum
        // level 2 after a marked level 1 adds along the marks (the rank words rebuilt alike:
        // a deeper ranked level may have used them)
        const bool big = sc >= (b.n >> 4), along = k == 2 && marked;
        const u32 pcnt = big || along ? ((volatile u32*)b.lens)[k - 1] : 0;
        const bool ranked = big && b.ccap > 0 && (i64)pcnt <= b.ccap;
        if (ranked || along) {
            const i64 pbase = base - pcnt;
            bc_rank(b, grid, t, nt, pbase, pcnt);
            if (along) bc_lists<BcMarked>(b, (int)k - 1, base, cnt, s.counters, nullptr, nullptr);
            else bc_lists<BcRank>(b, (int)k - 1, base, cnt, s.counters, nullptr, nullptr);
            grid.sync();
            const uint2* rk = (const uint2*)b.rank;
            for (i64 i = t; i < pcnt; i += nt) {
                const u32 v = b.lq[pbase + i];
                b.acc[v] = b.cacc[rank_of(rk[v >> 5], v)];  // its only successors are at level k
            }
        } else if (big) {
            bc_bitmap(b, grid, t, nt, base - pcnt, pcnt);
            bc_lists<BcBack>(b, (int)k - 1, base, cnt, s.counters, nullptr, nullptr);
        } else {
            u32 in_cnt = cnt;  // read through s.in_len from a register copy
            s.off = b.ioff, s.nbr = b.inbr, s.in_kind = KQueue;
            s.in_q = b.lq + base, s.in_len = &in_cnt;
            s.out_q = nullptr, s.out_len = nullptr, s.out_cap = 0;
            BcBackF f{b, (int)k};
            bc_level<LB>(s, sh, f, cnt, sc);
        }
        grid.sync();
        if (t == 0) s.counters[RTime] = globaltimer(), s.counters[RCount] = cnt, s.counters[RDir] = (big ? 1 : 0) | (ranked || along ? 2 : 0) | (along ? 4 : 0);
        k--;
    }
    /// 4. Epilogue: over the stored levels, or over every vertex in order when the search
    /// reached a quarter of them or more (streams the arrays instead of a sector a vertex).
    const double scale = b.half ? 0.5 : 1.0;
    const bool reset = !(b.init & 2);
    if (total * 4 >= b.n) {
        for (i64 v = t; v < b.n; v += nt) {
            if (b.depth[v] < 0) continue;
            if (v != src) b.cent[v] += scale * b.sigma[v] * b.acc[v];
            if (reset) b.depth[v] = -1, b.sigma[v] = 0, b.acc[v] = 0;
        }
    } else {
        for (i64 i = t; i < total; i += nt) {
            u32 v = b.lq[i];
            if (v != src) b.cent[v] += scale * b.sigma[v] * b.acc[v];
            if (reset) b.depth[v] = -1, b.sigma[v] = 0, b.acc[v] = 0;
        }
    }
    if (t == 0) b.ctl[BcLevels] = levels, b.ctl[BcReached] = total, b.ctl[BcEnd] = globaltimer();
}

// bc_fused_<lb>: one source, both phases, one cooperative launch (fuse=on).
#define BC_FUSED(LBNAME, LB) \
    extern "C" __global__ void __launch_bounds__(BLOCK, 4) bc_fused_##LBNAME(const BcFused b) { bc_fused_loop<LB>(b); }
BC_FUSED(thread, LThread)
BC_FUSED(warp, LWarp)
BC_FUSED(cta, LCTA)
BC_FUSED(twc, LTWC)

/// Batched BC (batch=k): up to 32 sources per pass, a bit per source, as multi-source BFS
/// (Then et al., VLDB 2014) shares each edge's scan among the searches that cross it. Lane l of
/// a warp works for source l: sig and acc hold 32 doubles a vertex. lvl[d] is the mask of the
/// sources that reach each vertex at depth d, seen the mask of those that reached it earlier.
/// A warp takes a vertex of at most BcChunk edges, or a BcChunk-edge piece of a richer vertex
/// (the host lists those pieces: hin for the in-CSR, hout for the out-CSR), whose partial sums
/// it adds atomically. In a warp the lanes read 32 edges at once; every edge that matters to a
/// source (ballot) is then taken by all lanes, each adding its source's term.
#define BcChunk 256

// BcBatch is the bc_batch_* kernels' parameter, mirrored by bcBatch in bc_batch.go (all 8 bytes).
struct BcBatch {
    const i64* off;
    const u32* nbr;
    const i64* ioff;
    const u32* inbr;
    i64 n;
    const u64* hin;  // pieces of in-rows over BcChunk edges: vertex << 32 | piece
    i64 nhin;
    const u64* hout;  // the same for out-rows
    i64 nhout;
    const u32* hv;  // the vertices of over BcChunk out-edges (bc_batch_finish)
    i64 nhv;
    u32* lvl;  // lvl + d*n: the level masks of depth d
    u32* seen;
    double* sig;
    double* acc;
    double* cent;
    const u32* srcs;
    i64 nsrc;
    i64 d;
    u64* counters;  // BFront, BFound, BEdges, BFirst
};

static_assert(sizeof(BcBatch) == 160, "BcBatch must match bcBatch in bc_batch.go");

enum { BFront = 0, BFound = 1, BEdges = 2, BFirst = 3 };

// bc_item gives work item it (a vertex, or a piece of a rich vertex's row in CSR off) its
// vertex and edge range; false for a vertex whose row is split into pieces.
__device__ __forceinline__ bool bc_item(const i64* off, i64 n, const u64* h, i64 it, u32* v, i64* e0, i64* e1, bool* heavy,
                                        bool* first) {
    if (it < n) {
        *v = (u32)it;
        *e0 = off[it], *e1 = off[it + 1];
        *heavy = false, *first = true;
        return *e1 - *e0 <= BcChunk;
    }
    u64 x = h[it - n];
    *v = (u32)(x >> 32);
    i64 c = (i64)(u32)x;
    i64 end = off[*v + 1];
    *e0 = off[*v] + c * BcChunk, *e1 = min(*e0 + BcChunk, end);
    *heavy = true, *first = c == 0;
    return true;
}

__device__ __forceinline__ void bc_count(u64* counters, int c, u64 x) {
    for (int o = 16; o > 0; o >>= 1) x += __shfl_down_sync(0xffffffffu, x, o);
    if ((threadIdx.x & 31) == 0 && x) atomicAdd(&counters[c], x);
}

// bc_batch_init starts the sources: source l at depth 0 with one path, in lane l.
extern "C" __global__ void bc_batch_init(const BcBatch b) {
    i64 l = blockIdx.x * (i64)blockDim.x + threadIdx.x;
    if (l < b.nsrc) {
        u32 v = b.srcs[l];
        atomicOr(&b.lvl[v], 1u << l);
        b.sig[(i64)v * 32 + l] = 1;
    }
}

// bc_batch_fwd: forward level d, a pull over the in-CSR. Each vertex with sources it has not
// seen sums, per such source, sigma over its in-neighbours at depth d; the sources that found
// one go to its mask of depth d+1 with that sum as sigma. It also folds depth d into seen.
extern "C" __global__ void __launch_bounds__(BLOCK) bc_batch_fwd(const BcBatch b) {
    int lane = threadIdx.x & 31;
    i64 w = (blockIdx.x * (i64)blockDim.x + threadIdx.x) >> 5, nw = ((i64)gridDim.x * blockDim.x) >> 5;
    const u32* cur = b.lvl + b.d * b.n;
    u32* next = b.lvl + (b.d + 1) * b.n;
    u32 lanes = b.nsrc >= 32 ? 0xffffffffu : (1u << b.nsrc) - 1;
    u64 front = 0, found = 0, edges = 0, first0 = 0;
    for (i64 it = w; it < b.n + b.nhin; it += nw) {
        u32 v;
        i64 e0, e1;
        bool heavy, first;
        if (!bc_item(b.ioff, b.n, b.hin, it, &v, &e0, &e1, &heavy, &first)) continue;
        u32 fr = cur[v], sn = b.seen[v] | fr;
        if (first && fr) {
            if (lane == 0) front += __popc(fr), first0 += fr & 1, b.seen[v] = sn;
        }
        u32 unseen = ~sn & lanes;
        if (!unseen) continue;
        double s = 0;
        u32 nb = 0;
        for (i64 e = e0; e < e1; e += 32) {
            u32 u = 0, f = 0;
            if (e + lane < e1) {
                u = b.inbr[e + lane];
                f = cur[u] & unseen;
            }
            u32 bal = __ballot_sync(0xffffffffu, f != 0);
            while (bal) {
                int j = __ffs(bal) - 1;
                bal &= bal - 1;
                u32 uj = __shfl_sync(0xffffffffu, u, j), fj = __shfl_sync(0xffffffffu, f, j);
                nb |= fj;
                if ((fj >> lane) & 1) s += b.sig[(i64)uj * 32 + lane];
            }
        }
        if (lane == 0) edges += e1 - e0;
        if (!nb) continue;
        if ((nb >> lane) & 1) {
            if (heavy) atomicAdd(&b.sig[(i64)v * 32 + lane], s);
            else b.sig[(i64)v * 32 + lane] = s;
        }
        if (lane == 0) {
            found += __popc(nb);
            if (heavy) atomicOr(&next[v], nb);
            else next[v] = nb;
        }
    }
    bc_count(b.counters, BFront, front);
    bc_count(b.counters, BFound, found);
    bc_count(b.counters, BEdges, edges);
    bc_count(b.counters, BFirst, first0);
}

// bc_batch_back: backward level d >= 1, a pull over the out-CSR. Each vertex v at depth d for
// source l sums acc over its successors (out-neighbours at depth d+1 for l), whose acc holds
// (1 + delta) / sigma; a vertex of one piece then turns its own sum into delta (added to its
// centrality) and its coefficient, a rich vertex's pieces add their sums for bc_batch_finish.
extern "C" __global__ void __launch_bounds__(BLOCK) bc_batch_back(const BcBatch b) {
    int lane = threadIdx.x & 31;
    i64 w = (blockIdx.x * (i64)blockDim.x + threadIdx.x) >> 5, nw = ((i64)gridDim.x * blockDim.x) >> 5;
    const u32* cur = b.lvl + b.d * b.n;
    const u32* next = b.lvl + (b.d + 1) * b.n;
    u64 front = 0, edges = 0;
    for (i64 it = w; it < b.n + b.nhout; it += nw) {
        u32 v;
        i64 e0, e1;
        bool heavy, first;
        if (!bc_item(b.off, b.n, b.hout, it, &v, &e0, &e1, &heavy, &first)) continue;
        u32 m = cur[v];
        if (!m) continue;
        double s = 0;
        for (i64 e = e0; e < e1; e += 32) {
            u32 x = 0, f = 0;
            if (e + lane < e1) {
                x = b.nbr[e + lane];
                f = next[x] & m;
            }
            u32 bal = __ballot_sync(0xffffffffu, f != 0);
            while (bal) {
                int j = __ffs(bal) - 1;
                bal &= bal - 1;
                u32 xj = __shfl_sync(0xffffffffu, x, j), fj = __shfl_sync(0xffffffffu, f, j);
                if ((fj >> lane) & 1) s += b.acc[(i64)xj * 32 + lane];
            }
        }
        if (lane == 0) edges += e1 - e0, front += first ? __popc(m) : 0;
        bool mine = (m >> lane) & 1;
        if (heavy) {
            if (mine && s != 0) atomicAdd(&b.acc[(i64)v * 32 + lane], s);
            continue;
        }
        double delta = 0;
        if (mine) {
            double sg = b.sig[(i64)v * 32 + lane];
            delta = sg * s;
            b.acc[(i64)v * 32 + lane] = s + 1.0 / sg;
        }
        delta = group_sum<32>(delta);
        if (lane == 0) b.cent[v] += delta;
    }
    bc_count(b.counters, BFront, front);
    bc_count(b.counters, BEdges, edges);
}

// bc_batch_finish: backward level d for the rich vertices, once all their pieces have added
// their sums: delta into the centrality, the coefficient into acc.
extern "C" __global__ void __launch_bounds__(BLOCK) bc_batch_finish(const BcBatch b) {
    int lane = threadIdx.x & 31;
    i64 w = (blockIdx.x * (i64)blockDim.x + threadIdx.x) >> 5, nw = ((i64)gridDim.x * blockDim.x) >> 5;
    const u32* cur = b.lvl + b.d * b.n;
    for (i64 i = w; i < b.nhv; i += nw) {
        u32 v = b.hv[i];
        u32 m = cur[v];
        if (!m) continue;
        double delta = 0;
        if ((m >> lane) & 1) {
            i64 x = (i64)v * 32 + lane;
            double sg = b.sig[x], s = b.acc[x];
            delta = sg * s;
            b.acc[x] = s + 1.0 / sg;
        }
        delta = group_sum<32>(delta);
        if (lane == 0) b.cent[v] += delta;
    }
}
