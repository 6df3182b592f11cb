// sssp.cu: single-source shortest paths with non-negative integer weights. dist[v] is the
// distance from the source, INF_DIST when unreached.
// Compiled by `make ptx`: nvcc -ptx -arch=compute_70 -O3 -std=c++14 -o sssp.ptx sssp.cu
//
// Data-driven steps relax the out-edges of the worklist (push) or the in-edges of every
// vertex from frontier members (pull). Near-far (Davidson et al., Gunrock, IrGL): a relaxed
// vertex whose new distance is below `bound` joins the near worklist, others the far pile,
// which the host splits when the near worklist empties (util_far_split). A topology-driven
// step (in_kind=KAll) is a Bellman-Ford sweep over every reached vertex.
#include "common.cuh"

__device__ __forceinline__ int relax(const Args& a, u32 v, int nd) {
    if (a.update == URMW) {
        if (nd >= atomicMin(&a.val[v], nd)) return 0;
    } else {
        if (nd >= a.val[v]) return 0;
        a.val[v] = nd;
    }
    return (i64)nd < a.bound ? 1 : 2;
}

struct SsspPush {
    const Args& a;
    __device__ bool row_ok(u32 u) const { return a.val_in[u] != INF_DIST; }
    __device__ bool done(u32) const { return false; }
    __device__ int edge(u32 u, u32 v, i64, int w, u32* out) const {
        int du = a.val_in[u];
        *out = v;
        return relax(a, v, du + w);
    }
};

struct SsspPull {
    const Args& a;
    __device__ bool row_ok(u32) const { return true; }
    __device__ bool done(u32) const { return false; }
    __device__ int edge(u32 v, u32 u, i64, int w, u32* out) const {
        if (a.mem_kind != KAll && !in_member(a, u)) return 0;
        int du = a.val_in[u];
        if (du == INF_DIST) return 0;
        *out = v;
        return relax(a, v, du + w);
    }
};

// sssp_push_<lb>: relax the out-edges of the frontier.
ENTRIES(sssp_push, SsspPush)
ENTRY(sssp_push_etwc, SsspPush, LETWC)
// sssp_pull_<lb>: every vertex relaxes its in-edges from frontier members.
ENTRIES(sssp_pull, SsspPull)
ENTRY(sssp_pull_etwc, SsspPull, LETWC)
// sssp_fused_<lb>: the whole near-far loop in one cooperative launch (fuse=on).
FUSED_ENTRIES(sssp_fused, SsspPush)
FUSED(sssp_fused_np, SsspPush, LNP)
FUSED(sssp_fused_etwc, SsspPush, LETWC)

