// cc.cu: connected components (weakly connected on a directed graph). label[v] is the
// smallest vertex id of v's component after label propagation, or v's root after
// Shiloach-Vishkin hooking and pointer jumping (Soman et al., Gunrock's hardwired CC).
// Compiled by `make ptx`: nvcc -ptx -arch=compute_70 -O3 -std=c++14 -o cc.ptx cc.cu
//
// Label propagation pushes a frontier vertex's label to its neighbours (push) or lets every
// vertex take the smallest label among frontier neighbours (pull). On a directed graph the
// host runs each step over the out-CSR and the in-CSR.
#include "common.cuh"

__device__ __forceinline__ int lower(const Args& a, u32 v, int l) {
    if (a.update == URMW) {
        if (l >= atomicMin(&a.val[v], l)) return 0;
    } else {
        if (l >= a.val[v]) return 0;
        a.val[v] = l;
    }
    return 1;
}

struct CcPush {
    const Args& a;
    __device__ bool row_ok(u32) const { return true; }
    __device__ bool done(u32) const { return false; }
    __device__ int edge(u32 u, u32 v, i64, int, u32* out) const {
        *out = v;
        return lower(a, v, a.val_in[u]);
    }
};

struct CcPull {
    const Args& a;
    __device__ bool row_ok(u32) const { return true; }
    __device__ bool done(u32) const { return false; }
    __device__ int edge(u32 v, u32 u, i64, int, u32* out) const {
        if (a.mem_kind != KAll && !in_member(a, u)) return 0;
        *out = v;
        return lower(a, v, a.val_in[u]);
    }
};

// CcHook hooks the larger of two roots under the smaller (parent[v] <= v always, so no cycle).
struct CcHook {
    const Args& a;
    __device__ bool row_ok(u32) const { return true; }
    __device__ bool done(u32) const { return false; }
    __device__ int edge(u32 u, u32 v, i64, int, u32*) const {
        int pu = a.val[u], pv = a.val[v];
        if (pu == pv) return 0;
        int hi = max(pu, pv), lo = min(pu, pv);
        if (a.val[hi] == hi) {
            atomicMin(&a.val[hi], lo);
            a.counters[CChanged] = 1;
        }
        return 0;
    }
};

// link joins the trees of u and v (Afforest's Link, Sutton et al.; GAPBS cc.cc): hook the
// larger root under the smaller with a CAS, chasing parents until they meet.
__device__ __forceinline__ void link(int* comp, int u, int v) {
    int p1 = comp[u], p2 = comp[v];
    while (p1 != p2) {
        int high = max(p1, p2), low = min(p1, p2);
        int ph = comp[high];
        if (ph == low) break;
        if (ph == high && atomicCAS(&comp[high], high, low) == high) break;
        p1 = comp[comp[high]];
        p2 = comp[low];
    }
}

// CcAfforest links every edge of the vertices outside the sampled largest component (bound
// holds its label), skipping the first `iter` edges of each row, which the sampling rounds
// linked already (iter = 0 for the in-edges of a directed graph).
struct CcAfforest {
    const Args& a;
    __device__ bool row_ok(u32 v) const { return a.val[v] != (int)a.bound; }
    __device__ bool done(u32) const { return false; }
    __device__ int edge(u32 u, u32 v, i64 e, int, u32*) const {
        if (e - a.off[u] < a.iter) return 0;
        link(a.val, (int)u, (int)v);
        return 0;
    }
};

// cc_afforest_<lb>: Afforest's final linking pass.
ENTRIES(cc_afforest, CcAfforest)

// cc_sample_link: Afforest's sampling round `iter`: link every vertex to its iter-th neighbour.
extern "C" __global__ void __launch_bounds__(BLOCK) cc_sample_link(const Args a) {
    for (i64 v = blockIdx.x * (i64)blockDim.x + threadIdx.x; v < a.n; v += (i64)gridDim.x * blockDim.x) {
        i64 e = a.off[v] + a.iter;
        if (e < a.off[v + 1]) link(a.val, (int)v, (int)a.nbr[e]);
    }
}

// cc_sample: out_q[i] = comp[(i * 2654435761) mod n] for i < out_cap, the host's sample of labels.
extern "C" __global__ void __launch_bounds__(BLOCK) cc_sample(const Args a) {
    for (i64 i = blockIdx.x * (i64)blockDim.x + threadIdx.x; i < a.out_cap; i += (i64)gridDim.x * blockDim.x) {
        a.out_q[i] = (u32)a.val[(u64)(i * 2654435761ull) % (u64)a.n];
    }
}

// cc_push_<lb>, cc_pull_<lb>: one label-propagation step.
ENTRIES(cc_push, CcPush)
ENTRIES(cc_pull, CcPull)
// cc_hook_<lb>: one Shiloach-Vishkin hooking sweep over every edge.
ENTRIES(cc_hook, CcHook)

// jump: pointer jumping until every vertex points at its root.
__device__ void jump(const Args& a) {
    for (i64 v = blockIdx.x * (i64)blockDim.x + threadIdx.x; v < a.n; v += (i64)gridDim.x * blockDim.x) {
        int p = a.val[v], pp = a.val[p];
        while (p != pp) {
            p = pp;
            pp = a.val[p];
        }
        a.val[v] = p;
    }
}

// cc_jump: pointer jumping until every vertex points at its root.
extern "C" __global__ void __launch_bounds__(BLOCK) cc_jump(const Args a) { jump(a); }

/// cc_sv_fused_<lb> (fuse=on, method=sv): Shiloach-Vishkin's rounds in one cooperative launch:
/// hook over every edge, grid-wide barrier, pointer jumping, barrier, and stop when the round
/// hooked nothing (or after `iters` rounds). Round k's counters go to trace[k*NCounters ...],
/// its end time (globaltimer) to CTime; the launch's start time to trace[iters*NCounters +
/// CStop]. The host zeroes the trace before the launch.
template <int LB>
__device__ void cc_sv_fused(const Args& a0) {
    __shared__ Shared sh;
    cg::grid_group grid = cg::this_grid();
    if (blockIdx.x == 0 && threadIdx.x == 0) a0.trace[a0.iters * NCounters + CStop] = globaltimer();
    for (i64 k = 0; k < a0.iters; k++) {
        Args s = a0;
        s.counters = a0.trace + k * NCounters;
        CcHook f{s};
        advance<LB>(s, sh, f);
        grid.sync();
        jump(s);
        grid.sync();
        if (blockIdx.x == 0 && threadIdx.x == 0) s.counters[CTime] = globaltimer();
        if (*((volatile u64*)&s.counters[CChanged]) == 0) break;
    }
}

extern "C" __global__ void __launch_bounds__(BLOCK) cc_sv_fused_thread(const Args a) { cc_sv_fused<LThread>(a); }
extern "C" __global__ void __launch_bounds__(BLOCK) cc_sv_fused_warp(const Args a) { cc_sv_fused<LWarp>(a); }
extern "C" __global__ void __launch_bounds__(BLOCK) cc_sv_fused_cta(const Args a) { cc_sv_fused<LCTA>(a); }
extern "C" __global__ void __launch_bounds__(BLOCK) cc_sv_fused_twc(const Args a) { cc_sv_fused<LTWC>(a); }
