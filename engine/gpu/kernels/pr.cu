// pr.cu: PageRank. The kernels solve x = (1-d)/n + d * sum over in-edges u->v of x[u]/deg(u)
// (dangling vertices leak), and the host normalises x to sum 1 at the end, which equals
// redistributing dangling rank uniformly.
// Compiled by `make ptx`: nvcc -ptx -arch=compute_70 -O3 -std=c++14 -o pr.ptx pr.cu
//
// Topology-driven pull (Gunrock, GAPBS): every vertex sums contrib[u] = rank[u]/deg(u) over its
// in-edges; sync=sync (Jacobi) writes rank_out and contrib_out (ping-pong), sync=async (Gauss-Seidel) updates rank and
// contrib in place. Topology-driven push atomically adds contributions into rank_next, then
// pr_apply. Data-driven push (residual PageRank, PageRank-Delta): pr_take moves a frontier
// vertex's residual into its rank, then pr_push_<lb> adds d*r/deg to each out-neighbour's
// residual and pushes those that cross eps.
#include "common.cuh"

__device__ __forceinline__ float out_deg(const Args& a, u32 v) { return (float)(a.out_off[v + 1] - a.out_off[v]); }


// Row reduction helpers for the pull sweep.
__device__ __forceinline__ double warp_sum(double x) {
    for (int o = 16; o > 0; o >>= 1) x += __shfl_down_sync(0xffffffffu, x, o);
    return x;
}

// pr_set writes the new rank of v and accumulates |change|.
__device__ __forceinline__ void pr_set(const Args& a, u32 v, double sum, double* err) {
    float nr = (float)(a.base + a.damping * sum);
    float old = a.rank[v];
    *err += fabs((double)nr - (double)old);
    float d = out_deg(a, v);
    if (a.update == 1) {  // update=1 here means Gauss-Seidel (sync=async): in place
        a.rank[v] = nr;
        a.contrib[v] = d > 0 ? nr / d : 0.f;
    } else {  // Jacobi: into the other buffers, swapped by the host
        a.rank_out[v] = nr;
        a.contrib_out[v] = d > 0 ? nr / d : 0.f;
    }
}

__device__ __forceinline__ void err_flush(const Args& a, double e) {
    __shared__ double s;
    if (threadIdx.x == 0) s = 0;
    __syncthreads();
    if (e != 0) atomicAdd(&s, e);
    __syncthreads();
    if (threadIdx.x == 0 && s != 0) atomicAdd(a.err, s);
}

__device__ __forceinline__ double row_sum_thread(const Args& a, u32 v) {
    double s = 0;
    for (i64 e = a.off[v]; e < a.off[v + 1]; e++) s += a.contrib[a.nbr[e]];
    return s;
}

// pr_pull_thread: one vertex per thread.
extern "C" __global__ void __launch_bounds__(BLOCK) pr_pull_thread(const Args a) {
    double err = 0;
    for (i64 v = blockIdx.x * (i64)blockDim.x + threadIdx.x; v < a.n; v += (i64)gridDim.x * blockDim.x) {
        pr_set(a, (u32)v, row_sum_thread(a, (u32)v), &err);
    }
    err_flush(a, err);
}

// pr_pull_warp: one vertex per warp, lanes stride its in-edges and reduce by shuffles.
extern "C" __global__ void __launch_bounds__(BLOCK) pr_pull_warp(const Args a) {
    double err = 0;
    int lane = threadIdx.x & 31;
    i64 w = (blockIdx.x * (i64)blockDim.x + threadIdx.x) >> 5, nw = ((i64)gridDim.x * blockDim.x) >> 5;
    for (i64 v = w; v < a.n; v += nw) {
        i64 b = a.off[v], end = a.off[v + 1];
        double s = 0;
        for (i64 e = b + lane; e < end; e += 32) s += a.contrib[a.nbr[e]];
        s = warp_sum(s);
        if (lane == 0) pr_set(a, (u32)v, s, &err);
    }
    err_flush(a, err);
}

__device__ __forceinline__ double block_sum(double x, double* tmp) {
    x = warp_sum(x);
    int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
    __syncthreads();
    if (lane == 0) tmp[wid] = x;
    __syncthreads();
    double s = 0;
    if (threadIdx.x < 32) {
        s = threadIdx.x < WARPS_PER_BLOCK ? tmp[threadIdx.x] : 0.f;
        s = warp_sum(s);
    }
    return s;  // valid in thread 0
}

// pr_pull_cta: one vertex per thread block.
extern "C" __global__ void __launch_bounds__(BLOCK) pr_pull_cta(const Args a) {
    __shared__ double tmp[WARPS_PER_BLOCK];
    double err = 0;
    for (i64 v = blockIdx.x; v < a.n; v += gridDim.x) {
        double s = 0;
        for (i64 e = a.off[v] + threadIdx.x; e < a.off[v + 1]; e += blockDim.x) s += a.contrib[a.nbr[e]];
        s = block_sum(s, tmp);
        if (threadIdx.x == 0) pr_set(a, (u32)v, s, &err);
    }
    err_flush(a, err);
}

// pr_pull_twc: vertices of in-degree >= BLOCK summed by the block, >= 32 by a warp, the rest
// by their own thread.
extern "C" __global__ void __launch_bounds__(BLOCK) pr_pull_twc(const Args a) {
    __shared__ double tmp[WARPS_PER_BLOCK];
    __shared__ int owner;
    __shared__ i64 rs, re;
    double err = 0;
    int lane = threadIdx.x & 31;
    for (i64 base = blockIdx.x * (i64)blockDim.x; base < a.n; base += (i64)gridDim.x * blockDim.x) {
        i64 v = base + threadIdx.x;
        i64 b = 0, end = 0;
        if (v < a.n) {
            b = a.off[v];
            end = a.off[v + 1];
        }
        bool mine = v < a.n;
        /// 1. CTA.
        while (true) {
            if (threadIdx.x == 0) owner = -1;
            __syncthreads();
            if (mine && end - b >= BLOCK) owner = threadIdx.x;
            __syncthreads();
            int o = owner;
            if (o < 0) break;
            if (o == (int)threadIdx.x) {
                rs = b;
                re = end;
                mine = false;
            }
            __syncthreads();
            double s = 0;
            for (i64 e = rs + threadIdx.x; e < re; e += blockDim.x) s += a.contrib[a.nbr[e]];
            s = block_sum(s, tmp);
            if (threadIdx.x == 0) pr_set(a, (u32)(base + o), s, &err);
            __syncthreads();
        }
        /// 2. Warp.
        while (true) {
            unsigned want = __ballot_sync(0xffffffffu, mine && end - b >= 32);
            if (!want) break;
            int leader = __ffs(want) - 1;
            i64 ws = __shfl_sync(0xffffffffu, b, leader), we = __shfl_sync(0xffffffffu, end, leader);
            if (lane == leader) mine = false;
            double s = 0;
            for (i64 e = ws + lane; e < we; e += 32) s += a.contrib[a.nbr[e]];
            s = warp_sum(s);
            if (lane == 0) pr_set(a, (u32)(base + (threadIdx.x & ~31) + leader), s, &err);
        }
        /// 3. Thread.
        if (mine) pr_set(a, (u32)v, row_sum_thread(a, (u32)v), &err);
    }
    err_flush(a, err);
}

// Accumulating functor: rank_next[row] += contrib[col] (pull, edge/coo) or
// rank_next[col] += contrib[row] (push). Nothing is pushed.
struct PrAccPull {
    const Args& a;
    __device__ bool row_ok(u32) const { return true; }
    __device__ bool done(u32) const { return false; }
    __device__ int edge(u32 v, u32 u, i64, int, u32*) const {
        atomicAdd(&a.rank_next[v], (double)a.contrib[u]);
        return 0;
    }
};
struct PrAccPush {
    const Args& a;
    __device__ bool row_ok(u32 u) const { return a.contrib[u] != 0.f; }
    __device__ bool done(u32) const { return false; }
    __device__ int edge(u32 u, u32 v, i64, int, u32*) const {
        atomicAdd(&a.rank_next[v], (double)a.contrib[u]);
        return 0;
    }
};

// pr_pull_edge, pr_pull_coo: in-edges split evenly over threads, sums by atomicAdd into
// rank_next, then pr_apply.
ENTRY(pr_pull_edge, PrAccPull, LEdge)
ENTRY(pr_pull_coo, PrAccPull, LCOO)
ENTRY(pr_pull_np, PrAccPull, LNP)
// pr_spush_<lb>: topology-driven push sweep, then pr_apply.
ENTRIES(pr_spush, PrAccPush)

// pr_apply: rank = base + d * rank_next (the accumulated sums); contrib, error.
extern "C" __global__ void __launch_bounds__(BLOCK) pr_apply(const Args a) {
    double err = 0;
    for (i64 v = blockIdx.x * (i64)blockDim.x + threadIdx.x; v < a.n; v += (i64)gridDim.x * blockDim.x) {
        float nr = (float)(a.base + a.damping * a.rank_next[v]);
        err += fabs((double)nr - (double)a.rank[v]);
        a.rank[v] = nr;
        a.rank_next[v] = 0.0;
        float d = out_deg(a, (u32)v);
        a.contrib[v] = d > 0 ? nr / d : 0.f;
    }
    err_flush(a, err);
}

// pr_swap: after a Jacobi pull sweep, rank = rank_next and contrib follows.
extern "C" __global__ void __launch_bounds__(BLOCK) pr_swap(const Args a) {
    for (i64 v = blockIdx.x * (i64)blockDim.x + threadIdx.x; v < a.n; v += (i64)gridDim.x * blockDim.x) {
        float nr = (float)a.rank_next[v];
        a.rank[v] = nr;
        float d = out_deg(a, (u32)v);
        a.contrib[v] = d > 0 ? nr / d : 0.f;
    }
}

// pr_init: rank = 1/n (topology) or rank = 0, resid = (1-d)/n (data-driven); contrib follows.
extern "C" __global__ void __launch_bounds__(BLOCK) pr_init(const Args a) {
    for (i64 v = blockIdx.x * (i64)blockDim.x + threadIdx.x; v < a.n; v += (i64)gridDim.x * blockDim.x) {
        float d = out_deg(a, (u32)v);
        float r = a.resid ? 0.f : (float)(1.0 / (double)a.n);
        a.rank[v] = r;
        if (a.rank_next) a.rank_next[v] = 0.0;
        a.contrib[v] = d > 0 ? r / d : 0.f;
        if (a.resid) a.resid[v] = a.base;
    }
}

// pr_take: each frontier vertex moves its residual into its rank; contrib = d*r/deg.
extern "C" __global__ void __launch_bounds__(BLOCK) pr_take(const Args a) {
    double err = 0;
    u32 cnt = in_count(a);
    for (i64 i = blockIdx.x * (i64)blockDim.x + threadIdx.x; i < cnt; i += (i64)gridDim.x * blockDim.x) {
        u32 u;
        if (!get_row(a, i, &u)) continue;
        double r = __longlong_as_double(atomicExch((u64*)&a.resid[u], 0ull));
        a.rank[u] += (float)r;
        err += r;
        float d = out_deg(a, u);
        a.contrib[u] = d > 0 ? (float)(a.damping * r / d) : 0.f;
    }
    err_flush(a, err);
}

// PrResid: add contrib[u] to each out-neighbour's residual; push those that cross eps.
struct PrResid {
    const Args& a;
    __device__ bool row_ok(u32 u) const { return a.contrib[u] != 0.f; }
    __device__ bool done(u32) const { return false; }
    __device__ int edge(u32 u, u32 v, i64, int, u32* out) const {
        double c = a.contrib[u];
        double old = atomicAdd(&a.resid[v], c);
        if (old >= a.eps || old + c < a.eps) return 0;
        *out = v;
        return 1;
    }
};

// pr_push_<lb>: one residual push step.
ENTRIES(pr_push, PrResid)
