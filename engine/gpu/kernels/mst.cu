// mst.cu: minimum spanning forest, Boruvka (IrGL's and Gunrock's MST): find-min, hook,
// compress, one round per host iteration. Compiled by `make ptx`:
// nvcc -ptx -arch=compute_70 -O3 -std=c++14 -o mst.ptx mst.cu
//
// Edges are ordered strictly by engine.MSTKey (weight, lower endpoint, higher endpoint), then
// arc index. A component's lightest edge is found in three atomic-min passes over the
// vertices' own lightest edges: the weight, then the endpoints among that weight, then the arc
// among those. A vertex per thread. The file is self-contained.
#define BLOCK 256
#define NONE 0xffffffffffffffffull

typedef unsigned int u32;
typedef long long i64;
typedef unsigned long long u64;

// Counters (u64 words of counters), cleared by the host every round.
enum { CHooked = 0, CScanned = 1, CVerts = 2, CRoots = 3 };

// MstArgs is every MST kernel's single parameter, mirrored by mstArgs in mst.go (all 8 bytes).
struct MstArgs {
    // 1. Out-CSR (wt null: every edge weighs 1), and for a directed graph every vertex's
    // in-arcs: their sources and arc indices (null for an undirected graph).
    const i64* off;
    const u32* nbr;
    const int* wt;
    const i64* roff;
    const u32* rsrc;
    const i64* rarc;
    i64 n;
    // 2. Components: comp[v] is v's root at the start of the round; parent[root] the root it
    // hooked to.
    u32* comp;
    u32* parent;
    // 3. Each vertex's lightest arc leaving its component (-1: none), its weight and endpoints.
    i64* varc;
    int* vw;
    u64* vlh;
    // 4. Each root's lightest edge: encoded weight, endpoints (lo << 32 | hi), arc.
    u32* cw;
    u64* clh;
    u64* carc;
    // 5. Items: q[0..qlen) (or [0..*qlenp) when qlenp is set), or every vertex (topo).
    const u32* q;
    i64 qlen;
    const u64* qlenp;
    i64 topo;
    // 6. Outputs: the next list, counted in counters[nextctr]; the forest and its length.
    u32* next;
    i64 nextctr;
    i64* forest;
    u64* flen;
    u64* counters;
};

static_assert(sizeof(MstArgs) == 192, "MstArgs must match mstArgs in mst.go");

__device__ __forceinline__ i64 gtid() { return blockIdx.x * (i64)blockDim.x + threadIdx.x; }
__device__ __forceinline__ i64 gstride() { return (i64)gridDim.x * blockDim.x; }
__device__ __forceinline__ i64 items(const MstArgs& a) {
    if (a.topo) return a.n;
    return a.qlenp ? (i64)*a.qlenp : a.qlen;
}
__device__ __forceinline__ u32 item(const MstArgs& a, i64 i) { return a.topo ? (u32)i : a.q[i]; }

// enc maps a weight to an unsigned key of the same order.
__device__ __forceinline__ u32 enc(int w) { return (u32)w ^ 0x80000000u; }

__device__ __forceinline__ void push_next(const MstArgs& a, u32 v) {
    u64 k = atomicAdd(&a.counters[a.nextctr], 1ull);
    if (a.next) a.next[k] = v;
}

// mst_init: every vertex its own component with no edge found; next lists every vertex.
extern "C" __global__ void __launch_bounds__(BLOCK) mst_init(const MstArgs a) {
    for (i64 v = gtid(); v < a.n; v += gstride()) {
        a.comp[v] = a.parent[v] = (u32)v;
        a.varc[v] = -1;
        a.cw[v] = 0xffffffffu;
        a.clh[v] = NONE;
        a.carc[v] = NONE;
        if (a.next) a.next[v] = (u32)v;
    }
}

// consider makes arc e (endpoints v and u, u in another component) the best so far if lighter.
__device__ __forceinline__ void consider(const MstArgs& a, u32 v, u32 u, i64 e, i64* ba, int* bw, u64* blh) {
    int w = a.wt ? a.wt[e] : 1;
    u64 lh = v < u ? ((u64)v << 32 | u) : ((u64)u << 32 | v);
    if (*ba < 0 || w < *bw || (w == *bw && (lh < *blh || (lh == *blh && e < *ba)))) {
        *ba = e;
        *bw = w;
        *blh = lh;
    }
}

// mst_local (find-min, 1): every item vertex finds its lightest arc leaving its component
// (out- and, directed, in-arcs) and lowers its root's weight to it; vertices with such an arc
// go to next (they may have one next round; the others never will).
extern "C" __global__ void __launch_bounds__(BLOCK) mst_local(const MstArgs a) {
    u64 scanned = 0;
    for (i64 i = gtid(); i < items(a); i += gstride()) {
        u32 v = item(a, i), cv = a.comp[v];
        i64 ba = -1;
        int bw = 0;
        u64 blh = 0;
        i64 beg = a.off[v], end = a.off[v + 1];
        scanned += end - beg;
        for (i64 e = beg; e < end; e++) {
            u32 u = a.nbr[e];
            if (a.comp[u] != cv) consider(a, v, u, e, &ba, &bw, &blh);
        }
        if (a.roff) {
            beg = a.roff[v], end = a.roff[v + 1];
            scanned += end - beg;
            for (i64 j = beg; j < end; j++) {
                u32 u = a.rsrc[j];
                if (a.comp[u] != cv) consider(a, v, u, a.rarc[j], &ba, &bw, &blh);
            }
        }
        a.varc[v] = ba;
        if (ba < 0) continue;
        a.vw[v] = bw;
        a.vlh[v] = blh;
        atomicMin(&a.cw[cv], enc(bw));
        push_next(a, v);
    }
    if (scanned) atomicAdd(&a.counters[CScanned], scanned);
}

// mst_lh (find-min, 2): among the vertices whose arc has its root's weight, the lowest endpoints.
extern "C" __global__ void __launch_bounds__(BLOCK) mst_lh(const MstArgs a) {
    for (i64 i = gtid(); i < items(a); i += gstride()) {
        u32 v = item(a, i);
        if (a.varc[v] < 0) continue;
        u32 c = a.comp[v];
        if (enc(a.vw[v]) == a.cw[c]) atomicMin(&a.clh[c], a.vlh[v]);
    }
}

// mst_arc (find-min, 3): among those, the lowest arc index (the arcs of one edge tie).
extern "C" __global__ void __launch_bounds__(BLOCK) mst_arc(const MstArgs a) {
    for (i64 i = gtid(); i < items(a); i += gstride()) {
        u32 v = item(a, i);
        if (a.varc[v] < 0) continue;
        u32 c = a.comp[v];
        if (enc(a.vw[v]) == a.cw[c] && a.vlh[v] == a.clh[c]) atomicMin(&a.carc[c], (u64)a.varc[v]);
    }
}

// mst_hook: every root with an edge points at the component across it and the edge joins the
// forest, except the lower root of two that chose the same edge (it stays a root).
extern "C" __global__ void __launch_bounds__(BLOCK) mst_hook(const MstArgs a) {
    u64 hooked = 0;
    for (i64 i = gtid(); i < items(a); i += gstride()) {
        u32 c = item(a, i);
        u64 e = a.carc[c];
        if (e == NONE) continue;
        u64 lh = a.clh[c];
        u32 other = a.comp[(u32)(lh >> 32)];
        if (other == c) other = a.comp[(u32)lh];
        if (c < other && a.carc[other] != NONE && a.cw[other] == a.cw[c] && a.clh[other] == lh) continue;
        a.parent[c] = other;
        a.forest[atomicAdd(a.flen, 1ull)] = (i64)e;
        hooked++;
    }
    if (hooked) atomicAdd(&a.counters[CHooked], hooked);
}

// mst_jump (compress, 1): every item follows its parents to the root of its new tree.
extern "C" __global__ void __launch_bounds__(BLOCK) mst_jump(const MstArgs a) {
    volatile u32* parent = a.parent;
    for (i64 i = gtid(); i < items(a); i += gstride()) {
        u32 c = item(a, i), p = parent[c];
        for (u32 pp = parent[p]; pp != p; pp = parent[p]) p = pp;
        parent[c] = p;
    }
}

// mst_relabel (compress, 2): every vertex takes its old root's new root as its component.
extern "C" __global__ void __launch_bounds__(BLOCK) mst_relabel(const MstArgs a) {
    for (i64 v = gtid(); v < a.n; v += gstride()) a.comp[v] = a.parent[a.comp[v]];
}

// mst_next: the roots of the round that are still roots and found an edge go to next; every
// item's lightest edge is cleared for the next round.
extern "C" __global__ void __launch_bounds__(BLOCK) mst_next(const MstArgs a) {
    for (i64 i = gtid(); i < items(a); i += gstride()) {
        u32 c = item(a, i);
        if (a.carc[c] != NONE && a.parent[c] == c) push_next(a, c);
        a.cw[c] = 0xffffffffu;
        a.clh[c] = NONE;
        a.carc[c] = NONE;
    }
}
