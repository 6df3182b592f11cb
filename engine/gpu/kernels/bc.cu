// bc.cu: betweenness centrality, Brandes's two phases per source (Gunrock's BC, GAPBS bc.cc).
// Compiled by `make ptx`: nvcc -ptx -arch=compute_70 -O3 -std=c++14 -o bc.ptx bc.cu
//
// Forward: one BFS level per launch that counts shortest paths (sigma, double): push from the
// level's vertices (claim unvisited out-neighbours with a CAS on depth, add sigma atomically),
// or pull into each unvisited vertex (sum sigma over in-neighbours at the level; writes only
// itself). Backward: from the deepest level up, each vertex of level d gathers
// delta = sigma[v] * sum over out-neighbours w at level d+1 of coef[w], coef[v] = (1+delta)/sigma[v],
// and adds delta to its centrality. Every kernel comes in _thread (a vertex per thread) and
// _warp (a vertex per warp, lanes over its edges) forms. The file is self-contained.
#define BLOCK 256

typedef unsigned int u32;
typedef long long i64;
typedef unsigned long long u64;

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
};

static_assert(sizeof(BcArgs) == 136, "BcArgs must match bcArgs in bc.go");

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
        if (v != (u32)a.src) a.cent[v] += delta;
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
