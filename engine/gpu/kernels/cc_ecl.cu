// cc_ecl.cu: connected components by hooking with intermediate pointer jumping and degree
// buckets (the approach of ECL-CC: Jaiganesh and Burtscher, HPDC'18). Compiled by `make ptx`:
// nvcc -ptx -arch=compute_70 -O3 -std=c++14 -o cc_ecl.ptx cc_ecl.cu
//
// val[v] points at a vertex of v's component with a lower id, or at v itself (a root). Every
// edge is processed once (an undirected graph's arc u->v with u > v; every arc of a directed
// one): it finds both endpoints' roots, shortening the paths it walks as it goes
// (intermediate pointer jumping), and hooks the higher root under the lower with a
// compare-and-swap. Steps:
//
//  1. cc_ecl_init: val[v] = v's first neighbour of lower id, or v (ECL-CC's init).
//  2. cc_ecl_low: vertices of degree <= 16 hook their edges, a thread each; the others go to the
//     worklist, medium ones (<= 352) from its front, high ones from its back.
//  3. cc_ecl_mid: a warp per medium vertex; 4. cc_ecl_high: a block per high vertex.
//  5. cc_ecl_flat: every vertex points straight at its root.
//
// The host skips cc_ecl_mid and cc_ecl_high when the graph has no vertex that needs them. The
// kernels read 32-bit offsets (the graph's cached narrow copy, when it has fewer than 2^32
// arcs) or 64-bit ones (suffix 64). The file is self-contained.
#include "platform.cuh"

#define BLOCK 256
#define LOW 16
#define MID 352

typedef unsigned int u32;
typedef long long i64;
typedef unsigned long long u64;

// CceArgs is every kernel's single parameter, mirrored by cceArgs in cc_ecl.go.
struct CceArgs {
    // 1. Out-CSR (u32 or i64 offsets, as the kernel's name says); directed: hook over every arc
    // (else only u > v).
    const void* off;
    const u32* nbr;
    i64 n;
    i64 directed;
    // 2. Labels, the worklist of medium and high vertices, and its four cursors
    // (medium top and position, high top and position).
    int* val;
    u32* wl;
    int* pos;
    // 3. Fused: whether some vertex has more than LOW (mid) or MID (high) arcs.
    i64 mid;
    i64 high;
};

static_assert(sizeof(CceArgs) == 72, "CceArgs must match cceArgs in cc_ecl.go");

enum { TopL = 0, PosL = 1, TopH = 2, PosH = 3 };

__device__ __forceinline__ i64 gtid() { return blockIdx.x * (i64)blockDim.x + threadIdx.x; }
__device__ __forceinline__ i64 gstride() { return (i64)gridDim.x * blockDim.x; }

// root returns x's root and points every vertex it passes at its grandparent's successor
// (intermediate pointer jumping: each step writes the next vertex over the current one).
__device__ __forceinline__ int root(int* val, int x) {
    int cur = val[x];
    if (cur != x) {
        int next, prev = x;
        while (cur > (next = val[cur])) {
            val[prev] = next;
            prev = cur;
            cur = next;
        }
    }
    return cur;
}

// hook joins the components of roots rv and ru: the higher root goes under the lower; a lost
// compare-and-swap retries from the root that moved (rv, the caller's vertex's root, stays
// current for its next edge).
__device__ __forceinline__ void hook(int* val, int& rv, int ru) {
    while (rv != ru) {
        if (rv < ru) {
            int old = atomicCAS(&val[ru], ru, rv);
            if (old == ru) return;
            ru = old;
        } else {
            int old = atomicCAS(&val[rv], rv, ru);
            if (old == rv) return;
            rv = old;
        }
    }
}

// edge processes arc v -> u given v's root rv.
__device__ __forceinline__ void edge(const CceArgs& a, int v, int& rv, int u) {
    if (a.directed || v > u) hook(a.val, rv, root(a.val, u));
}

// init (1): the first neighbour of lower id, or v; the worklist cursors reset.
template <typename O>
__device__ __forceinline__ void d_init(const CceArgs& a) {
    const O* off = (const O*)a.off;
    const u32* nbr = a.nbr;
    int* val = a.val;
    for (i64 v = gtid(); v < a.n; v += gstride()) {
        O e = __ldg(&off[v]), end = __ldg(&off[v + 1]);
        int m = (int)v;
        while (m == (int)v && e < end) {
            m = min(m, (int)__ldg(&nbr[e]));
            e++;
        }
        val[v] = m;
    }
    if (gtid() == 0) {
        a.pos[TopL] = 0;
        a.pos[PosL] = 0;
        a.pos[TopH] = (int)a.n - 1;
        a.pos[PosH] = (int)a.n - 1;
    }
}

// low (2): low-degree vertices hook at once; medium and high ones are listed.
template <typename O>
__device__ __forceinline__ void d_low(const CceArgs& a) {
    const O* off = (const O*)a.off;
    for (i64 v = gtid(); v < a.n; v += gstride()) {
        // no lower neighbour: nothing to hook (on a directed graph every arc counts)
        if (!a.directed && a.val[v] == (int)v) continue;
        O beg = __ldg(&off[v]), end = __ldg(&off[v + 1]), deg = end - beg;
        if (deg > LOW) {
            int k = deg <= MID ? atomicAdd(&a.pos[TopL], 1) : atomicSub(&a.pos[TopH], 1);
            a.wl[k] = (u32)v;
            continue;
        }
        int rv = root(a.val, (int)v);
        for (O e = beg; e < end; e++) edge(a, (int)v, rv, (int)__ldg(&a.nbr[e]));
    }
}

// mid (3): a warp per medium vertex, taken from the worklist's front.
template <typename O>
__device__ __forceinline__ void d_mid(const CceArgs& a) {
    const O* off = (const O*)a.off;
    const int lane = threadIdx.x & 31;
    for (;;) {
        int k = 0;
        if (lane == 0) k = atomicAdd(&a.pos[PosL], 1);
        k = __shfl_sync(0xffffffffu, k, 0);
        if (k >= *(volatile int*)&a.pos[TopL]) return;
        int v = (int)a.wl[k];
        int rv = root(a.val, v);
        for (O e = off[v] + lane, end = off[v + 1]; e < end; e += 32) edge(a, v, rv, (int)a.nbr[e]);
    }
}

// high (4): a block per high vertex, taken from the worklist's back.
template <typename O>
__device__ __forceinline__ void d_high(const CceArgs& a) {
    const O* off = (const O*)a.off;
    __shared__ int vb;
    for (;;) {
        if (threadIdx.x == 0) {
            int k = atomicSub(&a.pos[PosH], 1);
            vb = k > *(volatile int*)&a.pos[TopH] ? (int)a.wl[k] : -1;
        }
        __syncthreads();
        int v = vb;
        __syncthreads();
        if (v < 0) return;
        int rv = root(a.val, v);
        for (O e = off[v] + threadIdx.x, end = off[v + 1]; e < end; e += BLOCK) edge(a, v, rv, (int)a.nbr[e]);
    }
}

// flat (5): every vertex points at its root. A launch of its own reads the labels through L1
// (the roots many vertices share stay there); the fused launch reads them from L2 (L2: its
// earlier steps wrote them from other SMs, and an SM's L1 may hold stale copies).
template <bool L2>
__device__ __forceinline__ void d_flat(const CceArgs& a) {
    const int* val = a.val;
    for (i64 v = gtid(); v < a.n; v += gstride()) {
        int cur = L2 ? __ldcg(&val[v]) : val[v], old = cur, next;
        while (cur > (next = L2 ? __ldcg(&val[cur]) : val[cur])) cur = next;
        if (cur != old) a.val[v] = cur;
    }
}

// The steps, a launch each (the host skips mid and high when no vertex needs them), with
// 32-bit offsets or 64-bit ones (suffix 64); flat reads no offsets.
extern "C" __global__ void __launch_bounds__(BLOCK) cc_ecl_init(const CceArgs a) { d_init<u32>(a); }
extern "C" __global__ void __launch_bounds__(BLOCK) cc_ecl_low(const CceArgs a) { d_low<u32>(a); }
extern "C" __global__ void __launch_bounds__(BLOCK) cc_ecl_mid(const CceArgs a) { d_mid<u32>(a); }
extern "C" __global__ void __launch_bounds__(BLOCK) cc_ecl_high(const CceArgs a) { d_high<u32>(a); }
extern "C" __global__ void __launch_bounds__(BLOCK) cc_ecl_init64(const CceArgs a) { d_init<i64>(a); }
extern "C" __global__ void __launch_bounds__(BLOCK) cc_ecl_low64(const CceArgs a) { d_low<i64>(a); }
extern "C" __global__ void __launch_bounds__(BLOCK) cc_ecl_mid64(const CceArgs a) { d_mid<i64>(a); }
extern "C" __global__ void __launch_bounds__(BLOCK) cc_ecl_high64(const CceArgs a) { d_high<i64>(a); }
extern "C" __global__ void __launch_bounds__(BLOCK) cc_ecl_flat(const CceArgs a) { d_flat<false>(a); }

// cc_ecl_fused (fuse=on): the steps in one cooperative launch, grid-wide barriers between them;
// the medium and high vertices' passes run together (they take from the two ends of the list).
// 32-bit offsets (fused64: 64-bit).
template <typename O>
__device__ __forceinline__ void d_fused(const CceArgs& a) {
    cg::grid_group grid = cg::this_grid();
    d_init<O>(a);
    grid.sync();
    d_low<O>(a);
    grid.sync();
    if (a.mid) d_mid<O>(a);
    if (a.high) d_high<O>(a);
    if (a.mid || a.high) grid.sync();
    d_flat<true>(a);
}
extern "C" __global__ void __launch_bounds__(BLOCK, 8) cc_ecl_fused(const CceArgs a) { d_fused<u32>(a); }
extern "C" __global__ void __launch_bounds__(BLOCK, 8) cc_ecl_fused64(const CceArgs a) { d_fused<i64>(a); }
