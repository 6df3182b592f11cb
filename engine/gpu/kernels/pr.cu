// pr.cu: PageRank. A topology-driven sweep computes x'[v] = c + d * sum over in-edges u->v of
// x[u]/deg(u), where the constant c is set per sweep (a.base) so that the dangling rank is
// spread and the ranks are projected to sum 1 after every sweep (as engine/cpu's pullGS):
// the ranks are stored unscaled, true = stored * scale; scale = 1 / (the stored sum of the
// last sweep) and c = (1-d)/n / scale + d * D / n, D the stored rank of the dangling vertices
// after the last sweep (on an undirected graph the dangling vertices are isolated: their rank
// r = (1-d)/n / (1 - d z/n) for z of them and its spread d z r / n are constants, folded into
// the constant term, pr_fixed). Each sweep adds its L1 change, the sum of its stored ranks and of its
// dangling ones to three doubles of its counter row (PR_ERR, PR_SUM, PR_DANG), from which the
// host (or, fused, every thread) takes the next scale and c and the true L1 change,
// scale * change + |1 - scale * sum|. The host normalises the final ranks to sum 1.
// Compiled by `make ptx`: nvcc -ptx -arch=compute_70 -O3 -std=c++14 -o pr.ptx pr.cu
//
// Topology-driven pull (Gunrock, GAPBS): every vertex sums contrib[u] = rank[u]/deg(u) over its
// in-edges; sync=sync (Jacobi) writes rank_out and contrib_out (ping-pong), sync=async (Gauss-Seidel) updates rank and
// contrib in place. Topology-driven push atomically adds contributions into rank_next, then
// pr_apply. Data-driven push (residual PageRank, PageRank-Delta): pr_take moves a frontier
// vertex's residual into its rank, then pr_push_<lb> adds d*r/deg to each out-neighbour's
// residual and pushes those that cross eps.
#include "common.cuh"

// PR_ERR is the counter word that holds a sweep's L1 change as a double (cErr in run.go);
// PR_SUM and PR_DANG hold the sums of its stored ranks and dangling ranks (cRankSum,
// cRankDang). a.err points at PR_ERR of the sweep's counter row.
#define PR_ERR 14
#define PR_SUM 8
#define PR_DANG 9

// PrAcc accumulates a thread's share of a sweep's L1 change and rank sums.
struct PrAcc {
    double err, sum, dang;
};

__device__ __forceinline__ float out_deg(const Args& a, u32 v) { return (float)(a.out_off[v + 1] - a.out_off[v]); }


// Row reduction helpers for the pull sweep.
__device__ __forceinline__ double warp_sum(double x) {
    for (int o = 16; o > 0; o >>= 1) x += __shfl_down_sync(0xffffffffu, x, o);
    return x;
}

// pr_write writes the new rank of v from its sum, given its old rank and out-degree d, and
// accumulates |change|, the rank and the dangling rank.
__device__ __forceinline__ void pr_write(const Args& a, i64 v, double sum, float old, float d, PrAcc* acc) {
    float nr = (float)(a.base + a.damping * sum);
    acc->err += fabs((double)nr - (double)old);
    acc->sum += nr;
    if (d == 0) acc->dang += nr;
    if (a.update == 1) {  // update=1 here means Gauss-Seidel (sync=async): in place
        a.rank[v] = nr;
        a.contrib[v] = d > 0 ? nr / d : 0.f;
    } else {  // Jacobi: into the other buffers, swapped by the host
        a.rank_out[v] = nr;
        a.contrib_out[v] = d > 0 ? nr / d : 0.f;
    }
}

// pr_set is pr_write with v's old rank and out-degree read here.
__device__ __forceinline__ void pr_set(const Args& a, u32 v, double sum, PrAcc* acc) {
    pr_write(a, v, sum, a.rank[v], out_deg(a, v), acc);
}

__device__ __forceinline__ void err_flush(const Args& a, double e) {
    __shared__ double s;
    if (threadIdx.x == 0) s = 0;
    __syncthreads();
    if (e != 0) atomicAdd(&s, e);
    __syncthreads();
    if (threadIdx.x == 0 && s != 0) atomicAdd(a.err, s);
}

// acc_flush adds a block's PrAcc to the sweep's three counter doubles: warp sums, then one
// shared atomic per warp and one global atomic per block and double. Every thread of the block
// calls it.
__device__ __forceinline__ void acc_flush(const Args& a, const PrAcc& acc) {
    __shared__ double s[3];
    if (threadIdx.x == 0) s[0] = s[1] = s[2] = 0;
    __syncthreads();
    double e = warp_sum(acc.err), r = warp_sum(acc.sum), g = warp_sum(acc.dang);
    if ((threadIdx.x & 31) == 0) {
        if (e != 0) atomicAdd(&s[0], e);
        if (r != 0) atomicAdd(&s[1], r);
        if (g != 0) atomicAdd(&s[2], g);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        if (s[0] != 0) atomicAdd(a.err, s[0]);
        if (s[1] != 0) atomicAdd(a.err + (PR_SUM - PR_ERR), s[1]);
        if (s[2] != 0) atomicAdd(a.err + (PR_DANG - PR_ERR), s[2]);
    }
}

__device__ __forceinline__ double row_sum(const Args& a, i64 b, i64 end) {
    double s = 0;
    for (i64 e = b; e < end; e++) s += a.contrib[a.nbr[e]];
    return s;
}

// The pull sweeps are templates over BLK. BLK=false: row i is vertex i of the in-CSR, and its
// sum becomes its new rank (pr_set). BLK=true (EdgeBlocking, blocking=N): row i is an entry of
// the blocked layout, the in-edges of vertex in_q[i] whose sources lie in one segment of N
// vertices; its partial sum is added to rank_next[in_q[i]] (plainly when the host launches one
// segment at a time, update=0, so no two rows of a launch share a vertex; atomically when one
// launch walks every segment, update=1), and pr_apply turns the sums into ranks.
template <bool BLK>
__device__ __forceinline__ void pr_out(const Args& a, i64 i, double s, PrAcc* err) {
    if (BLK) {
        u32 v = a.in_q[i];
        if (a.update) atomicAdd(&a.rank_next[v], s);
        else a.rank_next[v] += s;
    } else {
        pr_set(a, (u32)i, s, err);
    }
}

// pull_thread: one row per thread.
template <bool BLK>
__device__ void pull_thread(const Args& a) {
    PrAcc err = {0, 0, 0};
    for (i64 v = blockIdx.x * (i64)blockDim.x + threadIdx.x; v < a.n; v += (i64)gridDim.x * blockDim.x) {
        pr_out<BLK>(a, v, row_sum(a, a.off[v], a.off[v + 1]), &err);
    }
    acc_flush(a, err);
}

// pull_warp: one row per warp, lanes stride its in-edges and reduce by shuffles.
template <bool BLK>
__device__ void pull_warp(const Args& a) {
    PrAcc err = {0, 0, 0};
    int lane = threadIdx.x & 31;
    i64 w = (blockIdx.x * (i64)blockDim.x + threadIdx.x) >> 5, nw = ((i64)gridDim.x * blockDim.x) >> 5;
    for (i64 v = w; v < a.n; v += nw) {
        i64 b = a.off[v], end = a.off[v + 1];
        double s = 0;
        for (i64 e = b + lane; e < end; e += 32) s += a.contrib[a.nbr[e]];
        s = warp_sum(s);
        if (lane == 0) pr_out<BLK>(a, v, s, &err);
    }
    acc_flush(a, err);
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

// pull_cta: one row per thread block.
template <bool BLK>
__device__ void pull_cta(const Args& a) {
    __shared__ double tmp[WARPS_PER_BLOCK];
    PrAcc err = {0, 0, 0};
    for (i64 v = blockIdx.x; v < a.n; v += gridDim.x) {
        double s = 0;
        for (i64 e = a.off[v] + threadIdx.x; e < a.off[v + 1]; e += blockDim.x) s += a.contrib[a.nbr[e]];
        s = block_sum(s, tmp);
        if (threadIdx.x == 0) pr_out<BLK>(a, v, s, &err);
    }
    acc_flush(a, err);
}

// pull_twc: rows of at least BLOCK in-edges summed by the block, >= 32 by a warp, the rest by
// their own thread.
template <bool BLK>
__device__ void pull_twc(const Args& a) {
    __shared__ double tmp[WARPS_PER_BLOCK];
    __shared__ int owner;
    __shared__ i64 rs, re;
    PrAcc err = {0, 0, 0};
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
            if (threadIdx.x == 0) pr_out<BLK>(a, base + o, s, &err);
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
            if (lane == 0) pr_out<BLK>(a, base + (threadIdx.x & ~31) + leader, s, &err);
        }
        /// 3. Thread.
        if (mine) pr_out<BLK>(a, v, row_sum(a, b, end), &err);
    }
    acc_flush(a, err);
}

// pr_pull_<lb>: one topology-driven pull sweep (Jacobi or Gauss-Seidel, see pr_set).
extern "C" __global__ void __launch_bounds__(BLOCK) pr_pull_thread(const Args a) { pull_thread<false>(a); }
extern "C" __global__ void __launch_bounds__(BLOCK) pr_pull_warp(const Args a) { pull_warp<false>(a); }
extern "C" __global__ void __launch_bounds__(BLOCK) pr_pull_cta(const Args a) { pull_cta<false>(a); }
extern "C" __global__ void __launch_bounds__(BLOCK) pr_pull_twc(const Args a) { pull_twc<false>(a); }
// pr_bpull_<lb>: the rows of one or more segments of the blocked layout (blocking=N), then
// pr_apply.
extern "C" __global__ void __launch_bounds__(BLOCK) pr_bpull_thread(const Args a) { pull_thread<true>(a); }
extern "C" __global__ void __launch_bounds__(BLOCK) pr_bpull_warp(const Args a) { pull_warp<true>(a); }
extern "C" __global__ void __launch_bounds__(BLOCK) pr_bpull_cta(const Args a) { pull_cta<true>(a); }
extern "C" __global__ void __launch_bounds__(BLOCK) pr_bpull_twc(const Args a) { pull_twc<true>(a); }

// pull_tile (lb=edge, pull): a warp takes a tile of T consecutive vertices and splits the
// tile's in-edges, a contiguous range of about T x the average degree, into 32 equal runs,
// one per lane (merge-path inside the tile: equal edges per thread, Merrill & Garland's
// merge-based SpMV, with the row ends in shared memory). A lane reads its run of neighbours
// with aligned 16-byte loads and issues U independent gathers of contributions before it uses
// any, then walks them against the row ends, adding each row's partial sum into a
// shared-memory double of the tile (a row spans one lane or a few); the tile's offsets, old
// ranks and out-degrees are loaded up front, and lane i < T writes vertex i's new rank
// (pr_set's work, coalesced). A warp-per-vertex sweep waits on four dependent loads (offsets,
// column, contribution, old rank) for 32 gathers; this one waits on about two per U gathers
// per lane, so more random L2 reads are in flight. Every vertex is written once, by its own
// lane, so it serves Gauss-Seidel (update=1, in place) as well as Jacobi (update=0). A
// Gauss-Seidel sweep converges faster the more of its gathers see ranks already updated in
// the sweep; a vertex's rank is written when its whole tile is done, so smaller tiles keep
// fewer vertices pending. NC: gather through the non-coherent cache (Jacobi only, where the
// contributions are read-only); CG: through L2 only.
// TileHead is what lane i of a tile loads for its vertex before the gathers: its in-edge
// range, old rank and out-degree (lanes past T or V: an empty range at the end).
struct TileHead {
    i64 b, e;
    float old, od;
};

template <int T>
__device__ __forceinline__ TileHead tile_head(const Args& a, i64 t, int lane) {
    TileHead h = {0, 0, 0.f, 0.f};
    i64 v = t * T + lane;
    if (lane < T) {
        bool ok = v < a.n;
        h.b = a.off[ok ? v : a.n];
        h.e = ok ? a.off[v + 1] : h.b;
        if (ok) {
            h.old = a.rank[v];
            h.od = out_deg(a, (u32)v);
        }
    }
    return h;
}

// load_edges4 reads a.nbr[p .. p + 3] into out (p a multiple of 4, so one 16-byte load where
// the array holds all four; zeros past its end). STREAM marks the load evict-first (__ldcs).
template <bool STREAM>
__device__ __forceinline__ void load_edges4(const Args& a, i64 p, u32* out) {
    if (p + 4 <= a.m) {
        const uint4* src = (const uint4*)(a.nbr + p);
        uint4 y = STREAM ? __ldcs(src) : *src;
        out[0] = y.x;
        out[1] = y.y;
        out[2] = y.z;
        out[3] = y.w;
    } else {
#pragma unroll
        for (int k = 0; k < 4; k++) out[k] = p + k < a.m ? a.nbr[p + k] : 0;
    }
}

// The next tile's heads are loaded while this tile's gathers are in flight (a vertex's old
// rank is written only by its own lane, later, so reading it early is exact).
template <int T, int U, bool NC, bool CG>
__device__ __forceinline__ void pull_tile_body(const Args& a) {
    __shared__ i64 s_off[WARPS_PER_BLOCK][T + 1];
    __shared__ double s_sum[WARPS_PER_BLOCK][T];
    PrAcc acc = {0, 0, 0};
    int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
    i64* so = s_off[wid];
    double* ss = s_sum[wid];
    i64 w = (blockIdx.x * (i64)blockDim.x + threadIdx.x) >> 5, nw = ((i64)gridDim.x * blockDim.x) >> 5;
    i64 tiles = (a.n + T - 1) / T;
    TileHead h = {0, 0, 0.f, 0.f};
    if (w < tiles) h = tile_head<T>(a, w, lane);
    for (i64 t = w; t < tiles; t += nw) {
        i64 v = t * T + lane;
        bool ok = lane < T && v < a.n;
        float old = h.old, od = h.od;
        if (lane < T) {
            if (lane == 0) so[0] = h.b;
            so[lane + 1] = h.e;
            ss[lane] = 0;
        }
        if (t + nw < tiles) h = tile_head<T>(a, t + nw, lane);
        __syncwarp();
        i64 B = so[0], E = so[T];
        i64 A = B & ~(i64)3;  // 16-byte aligned (the column array starts aligned)
        i64 C = (((E - A + 31) >> 5) + 3) & ~(i64)3;
        i64 lo = A + lane * C, hi = min(lo + C, E);
        i64 from = max(lo, B);
        if (from < hi) {
            int vi = 0;  // the row of edge `from`: the last vi with so[vi] <= from
#pragma unroll
            for (int st = T / 2; st > 0; st >>= 1)
                if (so[vi + st] <= from) vi += st;
            i64 end = so[vi + 1];
            double run = 0;
            for (i64 p = lo; p < hi; p += U) {
                u32 idx[U];
                float g[U];
#pragma unroll
                for (int q = 0; q < U; q += 4) load_edges4<false>(a, p + q, idx + q);
#pragma unroll
                for (int q = 0; q < U; q++) {
                    bool in = p + q >= from && p + q < hi;
                    g[q] = in ? (NC ? __ldg(a.contrib + idx[q]) : CG ? __ldcg(a.contrib + idx[q]) : a.contrib[idx[q]]) : 0.f;
                }
#pragma unroll
                for (int q = 0; q < U; q++) {
                    i64 x = p + q;
                    if (x >= from && x < hi) {
                        while (x >= end) {
                            if (run != 0) atomicAdd(&ss[vi], run);
                            run = 0;
                            vi++;
                            end = so[vi + 1];
                        }
                        run += g[q];
                    }
                }
            }
            if (run != 0) atomicAdd(&ss[vi], run);
        }
        __syncwarp();
        if (ok) pr_write(a, v, ss[lane], old, od, &acc);
        __syncwarp();
    }
    acc_flush(a, acc);
}

// pull_tile: Gauss-Seidel (update=1) in place, its gathers through L2 only (a line of
// contributions cached in L1 would go stale as other SMs update it); Jacobi into
// rank_out/contrib_out, its gathers through the non-coherent cache (not in the fused loop,
// where the buffers trade places between sweeps of one launch and that cache could serve a
// stale line). U = T: a lane's run is about T x the average degree / 32 edges, one pass of U
// gathers on urand.
template <int T>
__device__ void pull_tile(const Args& a) {
    if (a.update == 1) pull_tile_body<T, T, false, true>(a);
    else pull_tile_body<T, T, true, false>(a);
}

// pr_pull_edge: one topology-driven pull sweep, a warp per tile of 8 vertices (pull_tile).
extern "C" __global__ void __launch_bounds__(BLOCK) pr_pull_edge(const Args a) { pull_tile<8>(a); }

// Tiled pull (blocking=N lb=edge): EdgeBlocking with CTA-owned destinations. Block b owns
// ranges of R = a.rows_per_block consecutive vertices (b, b + grid, ...) and keeps their sums in shared
// memory (doubles: a hub's sum of 120,000 terms drifts in float) for the whole sweep. It walks
// the source segments s = 0..S-1 (S = a.bound, N = a.delta sources each) in order and sums tile
// (range, s): the in-edges of the range from sources of segment s, a.off[range * S + s] ..
// [.. + 1] in a.nbr, each packed as (destination - range start) << TP_SRC_BITS | (source - s x
// N), sorted by destination (blocking.go buildTiled). One block of TP_THREADS threads per SM
// (tspull_sweep, pr_tspull, pr_fused_stiled): segment s's N contributions are copied into
// shared memory (coalesced; the next segment's are loaded into registers while the current
// tile is summed), and the tile's gathers read shared memory. Each SM reads every contribution
// once a sweep, in full lines, instead of one 32-byte L2 sector per edge.
// A tile's edges are cut into equal runs of a multiple of 4, one per thread (aligned 16-byte
// loads, streamed past L1); the runs ascend by destination, so only a run's first and last
// destination can be another thread's too: those are added atomically, the others plainly,
// and a barrier separates tiles. After the last segment the block writes its vertices' ranks as
// pr_set does (Jacobi into rank_out/contrib_out, Gauss-Seidel in place).
#define TP_SRC_BITS 18
#define TP_THREADS 1024
#define TP_SEGQ 4  // staged: float4s of a segment per thread, so N <= TP_SEGQ x 4 x TP_THREADS

// tile_sum adds tile [B, E) of a.nbr into sums: gather(i) is source offset i's contribution.
template <typename G>
__device__ __forceinline__ void tile_sum(const Args& a, i64 B, i64 E, double* sums, const G& gather) {
    const int T = blockDim.x, tid = threadIdx.x;
    const i64 A = B & ~(i64)3;  // 16-byte aligned (the edge array starts aligned)
    const i64 C = (((E - A + T - 1) / T) + 3) & ~(i64)3;
    const i64 lo = A + tid * C, hi = min(lo + C, E), from = max(lo, B);
    if (from >= hi) return;
    int cur = -1;
    bool first = true;
    double run = 0;
    for (i64 p = lo; p < hi; p += 8) {
        u32 x[8];
        float g[8];
#pragma unroll
        for (int q = 0; q < 8; q += 4) {
            if (p + q >= hi) {
#pragma unroll
                for (int k = 0; k < 4; k++) x[q + k] = 0;
            } else {
                load_edges4<true>(a, p + q, x + q);
            }
        }
#pragma unroll
        for (int q = 0; q < 8; q++) {
            bool in = p + q >= from && p + q < hi;
            g[q] = in ? gather(x[q] & ((1u << TP_SRC_BITS) - 1)) : 0.f;
        }
#pragma unroll
        for (int q = 0; q < 8; q++) {
            if (p + q >= from && p + q < hi) {
                int d = (int)(x[q] >> TP_SRC_BITS);
                if (d != cur) {
                    if (cur >= 0) {
                        if (first) atomicAdd(&sums[cur], run);
                        else sums[cur] += run;  // no other run holds cur
                        first = false;
                    }
                    cur = d;
                    run = g[q];
                } else {
                    run += g[q];
                }
            }
        }
    }
    atomicAdd(&sums[cur], run);
}

// tile_write writes the new ranks of range [v0, v0 + rn) from its sums (pr_set's work).
__device__ __forceinline__ void tile_write(const Args& a, i64 v0, int rn, const double* sums, PrAcc* acc) {
    for (int i = threadIdx.x; i < rn; i += blockDim.x) pr_set(a, (u32)(v0 + i), sums[i], acc);
}

struct GatherShared {
    const float* seg;
    __device__ float operator()(u32 i) const { return seg[i]; }
};

// seg_load loads segment s's contributions (N of them, fewer in the last segment) into this
// thread's registers: float4 k holds sources 4 x (tid + k x T) .. + 3.
__device__ __forceinline__ void seg_load(const Args& a, i64 s, i64 N, float4* pre) {
    const i64 b = s * N, lim = min(N, a.n - b);
#pragma unroll
    for (int k = 0; k < TP_SEGQ; k++) {
        i64 i = 4 * ((i64)threadIdx.x + (i64)k * blockDim.x);
        float4 f = make_float4(0.f, 0.f, 0.f, 0.f);
        if (i + 4 <= lim) {
            f = *(const float4*)(a.contrib + b + i);  // N is a multiple of 4: aligned
        } else if (i < lim) {
            f.x = a.contrib[b + i];
            if (i + 1 < lim) f.y = a.contrib[b + i + 1];
            if (i + 2 < lim) f.z = a.contrib[b + i + 2];
        }
        pre[k] = f;
    }
}

// tspull_sweep: the staged form. Dynamic shared memory: R doubles (the sums), then N floats
// (the segment); blockDim.x = TP_THREADS, N <= TP_SEGQ x 4 x TP_THREADS, a multiple of 4.
__device__ void tspull_sweep(const Args& a) {
    extern __shared__ double tsh[];
    PrAcc acc = {0, 0, 0};
    const i64 S = a.bound, N = a.delta, R = a.rows_per_block;
    double* sums = tsh;
    float* seg = (float*)(tsh + R);  // R is a multiple of 32: 16-byte aligned
    const i64 ranges = R > 0 ? (a.n + R - 1) / R : 0;
    for (i64 rg = blockIdx.x; rg < ranges; rg += gridDim.x) {
        const i64 v0 = rg * R;
        const int rn = (int)min(R, a.n - v0);
        for (int i = threadIdx.x; i < rn; i += blockDim.x) sums[i] = 0;
        const i64* to = a.off + rg * S;
        float4 pre[TP_SEGQ];
        if (S > 0) seg_load(a, 0, N, pre);
        for (i64 s = 0; s < S; s++) {
            __syncthreads();  // the last tile's gathers are done (and the sums zeroed)
#pragma unroll
            for (int k = 0; k < TP_SEGQ; k++) {
                i64 i = 4 * ((i64)threadIdx.x + (i64)k * blockDim.x);
                if (i < N) *(float4*)(seg + i) = pre[k];
            }
            __syncthreads();
            if (s + 1 < S) seg_load(a, s + 1, N, pre);  // in flight while tile s is summed
            tile_sum(a, to[s], to[s + 1], sums, GatherShared{seg});
        }
        __syncthreads();
        tile_write(a, v0, rn, sums, &acc);
        __syncthreads();
    }
    acc_flush(a, acc);
}

// pr_tspull: one sweep of the tiled pull (blocking=N lb=edge).
extern "C" __global__ void __launch_bounds__(TP_THREADS, 1) pr_tspull(const Args a) { tspull_sweep(a); }

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

// pr_pull_coo, pr_pull_np: sums by atomicAdd into rank_next, then pr_apply.
ENTRY(pr_pull_coo, PrAccPull, LCOO)
ENTRY(pr_pull_np, PrAccPull, LNP)
// pr_spush_<lb>: topology-driven push sweep, then pr_apply.
ENTRIES(pr_spush, PrAccPush)

// Binned push (direction=push blocking=N lb=edge): propagation blocking with the bins in
// shared memory. The destinations are cut into bins of R = a.rows_per_block; bin b's in-edges are listed
// in source order, in groups of 32 slots (blocking.go buildBinned): a.off[b] is the bin's first
// group (a.bound bins, a.off[a.bound] groups in all), a.in_q[g] group g's first source, and
// slot a.nbr[32 g + i] = (destination - b R) << 16 | (source - a.in_q[g]), PB_PAD << 16 for a
// slot left empty (a group ends early where the next source is 65536 or more past its first).
// Block i of the grid takes the i-th equal run of groups (one or a few bins' worth: a run may
// end inside a bin); lane i of a warp takes slot i of its groups, PB_U groups in flight, so a
// warp's 32 gathers of contributions fall on a few consecutive sectors rather than 32 random
// ones: the random side of the sweep is the destinations, and those are shared-memory atomics.
// The sums are 64-bit fixed point, kept as two 32-bit words (lo, hi) because 32-bit integer
// adds are native shared atomics on every GPU where float, double and 64-bit adds are CAS
// loops (sm_90: ATOMS.CAST.SPIN): a term goes into lo and a carry, when lo wraps, into hi.
// Integer sums are exact and their order does not matter, so the sweep is deterministic. At a
// bin's end the block adds its partial sums into the vertices' global 64-bit sums (a.rank_next,
// coalesced atomics), and apply<true> turns them into ranks after the sweep (Jacobi).
//
// The scale is 2^(30 - e) for the sweep's largest contribution in [2^e, 2^(e+1)), so a term is
// below 2^31 and a vertex's sum of up to 2^32 terms fits 63 bits; pr_init and apply<true>
// leave that largest contribution (float bits, an atomic max) in a.pr_cmax[k & 1] for sweep k.
// A term is exact to 2^-31 of the largest contribution, finer than float's rounding of the
// contributions themselves wherever they are within 2^7 of the largest.
#define PB_THREADS 1024
#define PB_U 8
#define PB_PAD 0xffffu
// The staged form's slots (method=dpb, below): bit 15 marks a pair's first slot, DPB_PAD an
// empty slot, so a bin holds fewer than DPB_PAD destinations.
#define DPB_FIRST 0x8000u
#define DPB_PAD 0x7fffu

// bin_shift is the fixed-point scale's exponent for the largest contribution cm (float bits).
__device__ __forceinline__ int bin_shift(u32 cm) {
    if (cm == 0) return 0;
    return min(30 - ((int)((cm >> 23) & 0xff) - 127), 126);
}

// cmax_flush raises *dst to the block's largest c (float bits of non-negative floats order as
// integers): warp maxima, one shared atomic per warp, one global per block. Every thread of the
// block calls it.
__device__ __forceinline__ void cmax_flush(u32* dst, u32 c) {
    __shared__ u32 m;
    if (threadIdx.x == 0) m = 0;
    __syncthreads();
    for (int o = 16; o > 0; o >>= 1) c = max(c, __shfl_down_sync(0xffffffffu, c, o));
    if ((threadIdx.x & 31) == 0 && c != 0) atomicMax(&m, c);
    __syncthreads();
    if (threadIdx.x == 0 && m != 0) atomicMax(dst, m);
}

// bin_add adds term f into destination d's fixed-point sum (lo, hi words in shared memory).
__device__ __forceinline__ void bin_add(u32* lo, u32* hi, u32 d, u32 f) {
    u32 old = atomicAdd(lo + d, f);
    if (old + f < old) atomicAdd(hi + d, 1u);
}

// bin_run is block blockIdx.x's equal run [*g0, *g1) of the a.off[a.bound] groups of the bins
// (a.off: each bin's first group), and returns the last bin whose first group is at most *g0.
__device__ __forceinline__ i64 bin_run(const Args& a, i64* g0, i64* g1) {
    const i64 G = a.off[a.bound];
    *g0 = G * blockIdx.x / gridDim.x;
    *g1 = G * (blockIdx.x + 1) / gridDim.x;
    i64 b = 0, top = a.bound;
    while (top - b > 1) {
        i64 mid = (b + top) / 2;
        if (a.off[mid] <= *g0) b = mid;
        else top = mid;
    }
    return b;
}

// bin_flush adds bin b's fixed-point sums (lo, hi: a.rows_per_block words each in shared memory)
// into its vertices' 64-bit sums in a.rank_next.
__device__ __forceinline__ void bin_flush(const Args& a, const u32* lo, const u32* hi, i64 b) {
    const i64 R = a.rows_per_block, v0 = b * R;
    u64* sums = (u64*)a.rank_next;
    for (i64 i = threadIdx.x; i < R && v0 + i < a.n; i += blockDim.x) {
        u64 f = ((u64)hi[i] << 32) | lo[i];
        if (f != 0) atomicAdd((unsigned long long*)(sums + v0 + i), (unsigned long long)f);
    }
}

// bin_sweep adds sweep k's binned terms into a.rank_next (as u64). Dynamic shared memory: 2 R
// words. NC: gather through the non-coherent cache (unfused; in the fused loop the
// contributions change between sweeps of one launch, and plain loads after the grid barrier
// see them).
template <bool NC>
__device__ void bin_sweep(const Args& a, i64 k) {
    extern __shared__ u32 pbsh[];
    const i64 R = a.rows_per_block;
    u32* lo = pbsh;
    u32* hi = pbsh + R;
    const int sh = bin_shift(*(volatile u32*)&a.pr_cmax[k & 1]);
    const float scale = __int_as_float((sh + 127) << 23);
    if (blockIdx.x == 0 && threadIdx.x == 0) a.pr_cmax[(k + 1) & 1] = 0;  // apply<true> of sweep k raises it
    i64 g0, g1;
    i64 b = bin_run(a, &g0, &g1);
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, W = blockDim.x >> 5;
    for (i64 s = g0; s < g1; b++) {
        const i64 e = min(g1, a.off[b + 1]);
        if (e <= s) continue;  // an empty bin
        for (i64 i = threadIdx.x; i < R; i += blockDim.x) lo[i] = hi[i] = 0;
        __syncthreads();
        for (i64 g = s + warp; g < e; g += (i64)W * PB_U) {
            u32 x[PB_U], src[PB_U];
#pragma unroll
            for (int q = 0; q < PB_U; q++) {
                i64 gg = g + (i64)q * W;
                x[q] = gg < e ? __ldcs(a.nbr + gg * 32 + lane) : PB_PAD << 16;
                src[q] = gg < e ? __ldg(a.in_q + gg) : 0;
            }
            float c[PB_U];
#pragma unroll
            for (int q = 0; q < PB_U; q++) {
                u32 u = src[q] + (x[q] & 0xffffu);  // a padding slot reads a real vertex, unused
                c[q] = NC ? __ldg(a.contrib + u) : a.contrib[u];
            }
#pragma unroll
            for (int q = 0; q < PB_U; q++) {
                u32 d = x[q] >> 16;
                if (d != PB_PAD) bin_add(lo, hi, d, __float2uint_rn(c[q] * scale));
            }
        }
        __syncthreads();
        bin_flush(a, lo, hi, b);
        __syncthreads();
        s = e;
    }
}

// Deterministic propagation blocking (method=dpb; Beamer, Asanović, Patterson, IPDPS 2017 [5]
// of pr.go) for graphs whose contributions outgrow L2, where bin_sweep's gathers become one
// random DRAM sector each. The order of the terms is fixed once per graph (pr_dpb.go buildDPB):
// the destinations are cut into bins of R = a.rows_per_block as above, a pair is a source with
// its out-neighbours in one bin, and the pairs are numbered bin by bin, in source order. A
// sweep is two streaming passes, then apply<true>:
/// 1. pr_dpb_bin (binning): block c takes chunk c of S = a.delta sources, turns their
///    contributions into fixed-point terms in shared memory (bin_shift's scale), and writes each
///    of its pairs' term into a.out_q[pair]. The chunk's pairs of bin b are one run (a piece:
///    first pair a.in_q[2 (c B + b)], length [+1]); a.nbr, as 16-bit words, holds each pair's
///    source offset in its chunk. Reads and writes stream; the gather is from shared memory. A
///    source writes one term per bin, not per arc: on kron, about half the arcs' worth.
/// 2. pr_dpb_sum (accumulation): groups of 32 slots, a slot a 16-bit word: the destination's
///    offset in its bin, bit 15 set on a pair's first slot, DPB_PAD for an empty one; a.in_q[g]
///    is the pair of group g's first slot, and a lane's pair is that plus the pairs starting in
///    lanes 1 .. its own (a ballot). The terms are read in order (a.out_q).
/// Per arc a sweep moves 2 bytes of slot, and per pair 2 bytes of source offset and a 4-byte term
/// written and read, where bin_sweep moves 4 bytes of slot and a 32-byte sector.
#define DPB_THREADS 1024
// DPB_Q: the quads of pairs (4 source offsets in 8 bytes) a lane of the binning pass has in flight.
#define DPB_Q 2
// DPB_U: the groups of 32 slots a warp of the accumulation has in flight.
#define DPB_U 16

// pr_dpb_bin: the binning pass of sweep a.iter. Dynamic shared memory: S words. A warp takes an
// equal run of the bins, loads their pieces' bounds 32 at a time (a lane a piece) and walks each
// piece in quads of pairs aligned to 4 (a.nbr is padded to whole quads): a lane reads a quad's 4
// source offsets in one 8-byte load and writes its 4 terms in one 16-byte store, the quads
// that a piece shares with its neighbours word by word.
extern "C" __global__ void __launch_bounds__(DPB_THREADS, 2) pr_dpb_bin(const Args a) {
    extern __shared__ u32 dbsh[];
    const i64 S = a.delta, B = a.bound;
    const i64 chunks = (a.n + S - 1) / S;
    const float scale = __int_as_float((bin_shift(*(volatile u32*)&a.pr_cmax[a.iter & 1]) + 127) << 23);
    const ushort4* psrc = (const ushort4*)a.nbr;
    const uint2* pieces = (const uint2*)a.in_q;
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, W = blockDim.x >> 5;
    const int b0 = (int)(B * warp / W), b1 = (int)(B * (warp + 1) / W);  // this warp's bins
    for (i64 c = blockIdx.x; c < chunks; c += gridDim.x) {
        const i64 v0 = c * S;  // S is a multiple of 4: aligned float4 loads
        const int cn = (int)min(S, a.n - v0);
        __syncthreads();  // the last chunk's terms are read
        for (int i = 4 * threadIdx.x; i < cn; i += 4 * blockDim.x) {
            if (i + 4 <= cn) {
                float4 f = __ldcs((const float4*)(a.contrib + v0 + i));
                dbsh[i] = __float2uint_rn(f.x * scale);
                dbsh[i + 1] = __float2uint_rn(f.y * scale);
                dbsh[i + 2] = __float2uint_rn(f.z * scale);
                dbsh[i + 3] = __float2uint_rn(f.w * scale);
            } else {
                for (int j = i; j < cn; j++) dbsh[j] = __float2uint_rn(a.contrib[v0 + j] * scale);
            }
        }
        __syncthreads();
        const uint2* pc = pieces + c * B;
        for (int bb = b0; bb < b1; bb += 32) {
            const uint2 mine = bb + lane < b1 ? __ldcs(pc + bb + lane) : make_uint2(0, 0);
            const int np = min(32, b1 - bb);
            for (int i = 0; i < np; i++) {
                // pair numbers, and the quads past a piece's end, stay below 2^32 (pr_dpb.go dpbMaxPairs)
                const u32 p0 = __shfl_sync(0xffffffffu, mine.x, i);
                const u32 end = p0 + __shfl_sync(0xffffffffu, mine.y, i);
                for (u32 q = (p0 & ~3u) + 4 * lane; q < end; q += 4 * 32 * DPB_Q) {
                    ushort4 o[DPB_Q];
#pragma unroll
                    for (int u = 0; u < DPB_Q; u++)
                        if (q + 128 * u < end) o[u] = __ldcs(psrc + (q + 128 * u) / 4);
#pragma unroll
                    for (int u = 0; u < DPB_Q; u++) {
                        const u32 x = q + 128 * u;  // the quad's first pair
                        if (x >= end) continue;
                        const uint4 t = make_uint4(dbsh[o[u].x], dbsh[o[u].y], dbsh[o[u].z], dbsh[o[u].w]);
                        if (x >= p0 && x + 4 <= end) {
                            __stcg((uint4*)(a.out_q + x), t);
                        } else {  // x > p0 - 4: the quad's last pair is never before the piece
                            if (x >= p0) __stcg(a.out_q + x, t.x);
                            if (x + 1 >= p0 && x + 1 < end) __stcg(a.out_q + x + 1, t.y);
                            if (x + 2 >= p0 && x + 2 < end) __stcg(a.out_q + x + 2, t.z);
                            if (x + 3 < end) __stcg(a.out_q + x + 3, t.w);
                        }
                    }
                }
            }
        }
    }
}

// pr_dpb_sum: the accumulation pass of sweep a.iter (then pr_bin_apply), a block per equal run
// of the groups as bin_sweep, the sums in shared memory added into a.rank_next at each bin's end.
// A warp takes 32 consecutive groups at a time: their first pairs in one load (a lane a group;
// the next 32's loaded ahead), then DPB_U groups in flight, each lane reading the term of its
// group's lane-th pair (a.out_q[first + lane]; a.out_q is padded by 32 terms) and taking its
// slot's term from the lane of its pair by a shuffle, so that no load waits on another. Dynamic
// shared memory: 2 R words.
extern "C" __global__ void __launch_bounds__(PB_THREADS, 1) pr_dpb_sum(const Args a) {
    extern __shared__ u32 dssh[];
    const i64 R = a.rows_per_block;
    u32* lo = dssh;
    u32* hi = dssh + R;
    if (blockIdx.x == 0 && threadIdx.x == 0) a.pr_cmax[(a.iter + 1) & 1] = 0;  // pr_bin_apply of the sweep raises it
    const u32* gpair = a.in_q;
    const u32* vals = a.out_q;
    const unsigned short* slots = (const unsigned short*)a.nbr;
    i64 g0, g1;
    i64 b = bin_run(a, &g0, &g1);
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, W = blockDim.x >> 5;
    const u32 after0 = (0xffffffffu >> (31 - lane)) & ~1u;  // lanes 1 .. this one
    for (i64 s = g0; s < g1; b++) {
        const i64 e = min(g1, a.off[b + 1]);
        if (e <= s) continue;  // an empty bin
        for (i64 i = threadIdx.x; i < R; i += blockDim.x) lo[i] = hi[i] = 0;
        __syncthreads();
        i64 base = s + (i64)warp * 32;
        u32 gp = base + lane < e ? __ldg(gpair + base + lane) : 0;
        for (; base < e; base += (i64)W * 32) {
            const i64 nb = base + (i64)W * 32;
            const u32 gpn = nb + lane < e ? __ldg(gpair + nb + lane) : 0;
            const int ng = (int)min((i64)32, e - base);
            for (int j = 0; j < ng; j += DPB_U) {
                u32 x[DPB_U], v[DPB_U];
#pragma unroll
                for (int q = 0; q < DPB_U; q++) {
                    const int jj = j + q;  // the same in every lane
                    if (jj < ng) {
                        x[q] = __ldcs(slots + (base + jj) * 32 + lane);
                        v[q] = __ldg(vals + __shfl_sync(0xffffffffu, gp, jj) + lane);
                    } else {
                        x[q] = DPB_PAD;
                        v[q] = 0;
                    }
                }
#pragma unroll
                for (int q = 0; q < DPB_U; q++) {
                    // the slot's pair: the group's first, plus the pairs that start in lanes 1 .. this one
                    const u32 t = __shfl_sync(0xffffffffu, v[q], __popc(__ballot_sync(0xffffffffu, x[q] & DPB_FIRST) & after0));
                    const u32 d = x[q] & DPB_PAD;
                    if (d != DPB_PAD && t != 0) bin_add(lo, hi, d, t);
                }
            }
            gp = gpn;
        }
        __syncthreads();
        bin_flush(a, lo, hi, b);
        __syncthreads();
        s = e;
    }
}

// pr_bin: one binned push sweep (sweep a.iter), then pr_bin_apply.
extern "C" __global__ void __launch_bounds__(PB_THREADS, 1) pr_bin(const Args a) { bin_sweep<true>(a, a.iter); }

// apply: rank = base + d * rank_next (the accumulated sums; BIN: the binned sweep k's
// fixed-point sums); contrib, L1 change and rank sums; rank_next = 0.
template <bool BIN>
__device__ void apply(const Args& a, i64 k) {
    PrAcc err = {0, 0, 0};
    double inv = 0;
    u32 cm = 0;
    if (BIN) inv = ldexp(1.0, -bin_shift(*(volatile u32*)&a.pr_cmax[k & 1]));
    for (i64 v = blockIdx.x * (i64)blockDim.x + threadIdx.x; v < a.n; v += (i64)gridDim.x * blockDim.x) {
        double sum = BIN ? (double)((const u64*)a.rank_next)[v] * inv : a.rank_next[v];
        float nr = (float)(a.base + a.damping * sum);
        err.err += fabs((double)nr - (double)a.rank[v]);
        err.sum += nr;
        a.rank[v] = nr;
        a.rank_next[v] = 0.0;
        float d = out_deg(a, (u32)v);
        float c = d > 0 ? nr / d : 0.f;
        a.contrib[v] = c;
        cm = max(cm, __float_as_uint(c));
        if (d == 0) err.dang += nr;
    }
    if (BIN) cmax_flush(a.pr_cmax + ((k + 1) & 1), cm);
    acc_flush(a, err);
}

// pr_apply: after an accumulating sweep (push, pull edge/coo/np, blocked pull).
extern "C" __global__ void __launch_bounds__(BLOCK) pr_apply(const Args a) { apply<false>(a, 0); }
// pr_bin_apply: after the binned sweep a.iter.
extern "C" __global__ void __launch_bounds__(BLOCK) pr_bin_apply(const Args a) { apply<true>(a, a.iter); }

/// Fused sweeps (fuse=on): the whole topology-driven pull loop in one cooperative launch, with
/// grid-wide barriers. Sweep k writes its L1 change into trace[k*NCounters + PR_ERR] (a double)
/// and its end time into trace[k*NCounters + CTime]; after the barrier every thread reads the
/// change, and the loop stops when it is below eps (the tolerance), NaN, or after `iters`
/// sweeps; the launch's start time goes to trace[iters*NCounters + CStop]. Unblocked: Jacobi
/// (update=0) reads rank/contrib and writes rank_out/contrib_out, the pairs trading places every sweep; Gauss-Seidel (update=1) updates in place. Blocked (bound =
/// the number of segments, in_scan = their first entries, in_q = the entries' vertices):
/// segment after segment with a barrier between them, so each segment's sources stay in cache
/// while it is summed (UGF's EdgeBlocking, Algorithm 3), then apply. iter is the global index
/// of the first sweep (its parity picks the Jacobi buffers). FORM: the sweep's form, a pull
/// under lb LB (FPull), the tiled pull (FTiled) or the binned push (FBinned).
enum { FPull, FTiled, FBinned };
template <int LB, int FORM = FPull>
__device__ void pr_fused(const Args& a0) {
    cg::grid_group grid = cg::this_grid();
    if (blockIdx.x == 0 && threadIdx.x == 0) a0.trace[a0.iters * NCounters + CStop] = globaltimer();
    double scale = a0.pr_scale, dang = a0.pr_dang;
    for (i64 k = 0; k < a0.iters; k++) {
        Args s = a0;
        s.err = (double*)(a0.trace + k * NCounters + PR_ERR);
        s.base = a0.base / scale + (a0.pr_fixed ? 0.0 : a0.damping * dang / (double)a0.n);  // see the top
        if (FORM == FBinned) {
            bin_sweep<false>(s, a0.iter + k);
            grid.sync();
            apply<true>(s, a0.iter + k);
        } else if (a0.bound > 0 && FORM == FPull) {
            for (i64 g = 0; g < a0.bound; g++) {
                Args b = s;
                i64 lo = a0.in_scan[g], hi = a0.in_scan[g + 1];
                b.off = a0.off + lo;
                b.in_q = a0.in_q + lo;
                b.n = hi - lo;
                b.update = 0;
                switch (LB) {
                case LThread: pull_thread<true>(b); break;
                case LWarp: pull_warp<true>(b); break;
                case LCTA: pull_cta<true>(b); break;
                default: pull_twc<true>(b); break;
                }
                grid.sync();
            }
            apply<false>(s, 0);
        } else {
            if (a0.update == 0 && ((a0.iter + k) & 1)) {
                s.rank = a0.rank_out;
                s.contrib = a0.contrib_out;
                s.rank_out = a0.rank;
                s.contrib_out = a0.contrib;
            }
            if (FORM == FTiled) {
                tspull_sweep(s);
            } else {
                switch (LB) {
                case LThread: pull_thread<false>(s); break;
                case LWarp: pull_warp<false>(s); break;
                case LCTA: pull_cta<false>(s); break;
                case LEdge: pull_tile_body<8, 8, false, true>(s); break;
                default: pull_twc<false>(s); break;
                }
            }
        }
        grid.sync();
        /// The projection, taken alike by every thread from the sweep's counter row.
        double change = *((volatile double*)s.err);
        double sum = *((volatile double*)(s.err + (PR_SUM - PR_ERR)));
        dang = *((volatile double*)(s.err + (PR_DANG - PR_ERR)));
        if (sum > 0) {
            change = scale * change + fabs(1.0 - scale * sum);
            scale = 1.0 / sum;
        }
        if (blockIdx.x == 0 && threadIdx.x == 0) a0.trace[k * NCounters + CTime] = globaltimer();
        if (change < a0.eps || change != change) break;
    }
}

extern "C" __global__ void __launch_bounds__(BLOCK) pr_fused_thread(const Args a) { pr_fused<LThread>(a); }
extern "C" __global__ void __launch_bounds__(BLOCK) pr_fused_warp(const Args a) { pr_fused<LWarp>(a); }
extern "C" __global__ void __launch_bounds__(BLOCK) pr_fused_cta(const Args a) { pr_fused<LCTA>(a); }
extern "C" __global__ void __launch_bounds__(BLOCK) pr_fused_twc(const Args a) { pr_fused<LTWC>(a); }
extern "C" __global__ void __launch_bounds__(BLOCK) pr_fused_edge(const Args a) { pr_fused<LEdge>(a); }
// pr_fused_stiled: the tiled pull's sweeps (blocking=N lb=edge fuse=on).
extern "C" __global__ void __launch_bounds__(TP_THREADS, 1) pr_fused_stiled(const Args a) { pr_fused<LEdge, FTiled>(a); }
// pr_fused_bin: the binned push's sweeps (direction=push blocking=N fuse=on), each a binned
// sweep, a grid barrier and apply<true>.
extern "C" __global__ void __launch_bounds__(PB_THREADS, 1) pr_fused_bin(const Args a) { pr_fused<LEdge, FBinned>(a); }

// pr_swap: after a Jacobi pull sweep, rank = rank_next and contrib follows.
extern "C" __global__ void __launch_bounds__(BLOCK) pr_swap(const Args a) {
    for (i64 v = blockIdx.x * (i64)blockDim.x + threadIdx.x; v < a.n; v += (i64)gridDim.x * blockDim.x) {
        float nr = (float)a.rank_next[v];
        a.rank[v] = nr;
        float d = out_deg(a, (u32)v);
        a.contrib[v] = d > 0 ? nr / d : 0.f;
    }
}

// pr_init: rank = pr_init_out or pr_init_dang (topology: 1/n, or the fixed start of isolated
// dangling vertices, see pr.go) or rank = 0, resid = (1-d)/n (data-driven); contrib follows.
// With pr_cmax (the binned push), the largest contribution goes to pr_cmax[0] for sweep 0.
extern "C" __global__ void __launch_bounds__(BLOCK) pr_init(const Args a) {
    u32 cm = 0;
    for (i64 v = blockIdx.x * (i64)blockDim.x + threadIdx.x; v < a.n; v += (i64)gridDim.x * blockDim.x) {
        float d = out_deg(a, (u32)v);
        float r = a.resid ? 0.f : (float)(d > 0 ? a.pr_init_out : a.pr_init_dang);
        a.rank[v] = r;
        if (a.rank_next) a.rank_next[v] = 0.0;
        float c = d > 0 ? r / d : 0.f;
        a.contrib[v] = c;
        cm = max(cm, __float_as_uint(c));
        if (a.resid) a.resid[v] = a.base;
    }
    if (a.pr_cmax) cmax_flush(a.pr_cmax, cm);
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
