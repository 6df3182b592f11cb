// bfs.cu: breadth-first search. depth[v] is the level of v from the source, -1 when unreached.
// Compiled by `make ptx`: nvcc -ptx -arch=compute_70 -O3 -std=c++14 -o bfs.ptx bfs.cu
//
// Push (top-down) expands the frontier over out-edges and claims each unvisited neighbour;
// pull (bottom-up, Beamer et al.) lets every unvisited vertex look for a parent in the
// frontier among its in-edges and stop at the first. A topology-driven step (in_kind=KAll)
// visits every vertex and treats those at depth == iter as the frontier (Nasre et al.).
// update=rmw claims with atomicCAS (exactly one push); update=rw reads then writes (the same
// depth from every writer, so a lost write is harmless, but duplicates reach the worklist).
#include "common.cuh"

struct BfsPush {
    const Args& a;
    __device__ bool row_ok(u32 u) const { return a.in_kind != KAll || a.val_in[u] == (int)a.iter; }
    __device__ bool done(u32) const { return false; }
    __device__ int edge(u32, u32 v, i64, int, u32* out) const {
        int d = (int)a.iter + 1;
        if (a.val_in[v] >= 0) return 0;
        if (a.update == URMW) {
            if (atomicCAS(&a.val[v], -1, d) != -1) return 0;
        } else {
            a.val[v] = d;
        }
        *out = v;
        return 1;
    }
};

struct BfsPull {
    const Args& a;
    __device__ bool row_ok(u32 v) const { return a.val_in[v] < 0; }
    __device__ bool done(u32 v) const { return a.val[v] >= 0; }
    __device__ int edge(u32 v, u32 u, i64, int, u32* out) const {
        bool in = a.mem_kind == KAll ? a.val_in[u] == (int)a.iter : in_member(a, u);
        if (!in) return 0;
        int d = (int)a.iter + 1;
        if (a.update == URMW) {
            if (atomicCAS(&a.val[v], -1, d) != -1) return 0;
        } else {
            a.val[v] = d;
        }
        *out = v;
        return 1;
    }
};

template <>
struct TwcLimits<BfsPull> {
    static constexpr int warp = 256, cta = 4096;
};

// bfs_push_<lb>: one top-down step.
ENTRIES(bfs_push, BfsPush)
// bfs_pull_<lb>: one bottom-up step.
ENTRIES(bfs_pull, BfsPull)
// bfs_fused_<lb>: the whole top-down loop in one cooperative launch (fuse=on).
FUSED_ENTRIES(bfs_fused, BfsPush)
