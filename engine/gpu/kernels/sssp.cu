// sssp.cu: single-source shortest paths with non-negative integer weights. dist[v] is the
// distance from the source, INF_DIST when unreached.
// Compiled by `make ptx`: nvcc -ptx -arch=compute_70 -O3 -std=c++14 -o sssp.ptx sssp.cu
//
// Data-driven steps relax the out-edges of the worklist (push) or the in-edges of every
// vertex from frontier members (pull). Near-far (Davidson et al., Gunrock, IrGL): a relaxed
// vertex whose new distance is below `bound` joins the near worklist, others the far pile,
// which the host splits when the near worklist empties (util_far_split). A topology-driven
// step (in_kind=KAll) is a Bellman-Ford sweep over every reached vertex.
#include "block_loop.cuh"

// dist_add: a distance plus a weight, saturated at INF_DIST - 1 (two ints can sum past
// INT_MAX); a result that reaches it is refused on the host.
__device__ __forceinline__ int dist_add(int d, int w) { return (int)min((i64)d + w, (i64)INF_DIST - 1); }

// relax lowers dist[v] to nd. READ (update=rmw): a plain read first, as GSWITCH's cond does
// before its atomicMin: most relaxations of a host-driven step on a skewed graph improve
// nothing (kron20's second step relaxes 22 M edges and pushes 0.6 M vertices), and a read that
// sees a distance at or below nd skips the atomic (distances only fall, so a stale read is
// never below the true distance and never skips a relaxation that would win). The fused loops
// keep the bare atomic: on road NE the read cost 2% (docs/gpu-notes.md).
template <bool READ = false>
__device__ __forceinline__ int relax(const Args& a, u32 v, int nd) {
    if (a.update == URMW) {
        if ((READ && nd >= a.val[v]) || nd >= atomicMin(&a.val[v], nd)) return 0;
    } else {
        if (nd >= a.val[v]) return 0;
        a.val[v] = nd;
    }
    return (i64)nd < a.bound ? 1 : 2;
}

// SsspPush relaxes u's out-edges; READ as relax's (SsspPushRead: the host-driven steps).
template <bool READ>
struct SsspPushT {
    const Args& a;
    __device__ bool row_ok(u32 u) const { return a.val_in[u] != INF_DIST; }
    __device__ bool done(u32) const { return false; }
    __device__ int edge(u32 u, u32 v, i64, int w, u32* out) const {
        int du = a.val_in[u];
        *out = v;
        return relax<READ>(a, v, dist_add(du, w));
    }
};
typedef SsspPushT<false> SsspPush;
typedef SsspPushT<true> SsspPushRead;

struct SsspPull {
    const Args& a;
    __device__ bool row_ok(u32) const { return true; }
    __device__ bool done(u32) const { return false; }
    __device__ int edge(u32 v, u32 u, i64, int w, u32* out) const {
        if (a.mem_kind != KAll && !in_member(a, u)) return 0;
        int du = a.val_in[u];
        if (du == INF_DIST) return 0;
        *out = v;
        return relax(a, v, dist_add(du, w));
    }
};

// sssp_batch: the fused loop's rich frontiers (RichLB). A warp takes R rows at a time (R =
// the frontier over the grid's warps, at most 32: every warp busy), packs their edges over its
// lanes (a warp scan of the degrees; each edge finds its row by a binary search of the 32 scans
// in shared memory) and gives every lane SSSP_BATCH edges whose loads and atomics are all
// issued before any result is used, where a warp per row has one row's edges in flight. Its
// far pushes (urand: up to ~1M an iteration) go through the block's buffer (far_bq), its near
// pushes through push_agg's. On urand it beats np's rich-frontier rule (32 rows a block).
template <int SSSP_BATCH>
__device__ void sssp_batch(const Args& a, Shared& sh, Local& st) {
    __shared__ int sdu[BLOCK];
    BlockQ& fb = far_bq();
    if (threadIdx.x == 0) fb.n = 0;
    __syncthreads();
    u32 cnt = in_count(a);
    int lane = threadIdx.x & 31, wb = threadIdx.x & ~31;
    i64 w = (blockIdx.x * (i64)blockDim.x + threadIdx.x) >> 5, nw = ((i64)gridDim.x * blockDim.x) >> 5;
    i64 R = min((i64)32, max((i64)1, ((i64)cnt + nw - 1) / nw));
    for (i64 base = w * R; base < cnt; base += nw * R) {
        /// 1. Lane j < R owns row base + j: its vertex, distance and edge range.
        i64 i = base + lane;
        u32 r = 0;
        i64 b = 0, deg = 0;
        int du = INF_DIST;
        if (lane < R && i < cnt) {
            r = a.in_q[i];
            du = a.val_in[r];
            if (du != INF_DIST) {
                b = a.off[r];
                deg = a.off[r + 1] - b;
            }
        }
        st.edges += deg;
        i64 inc = deg;
        for (int o = 1; o < 32; o <<= 1) {
            i64 y = __shfl_up_sync(0xffffffffu, inc, o);
            if (lane >= o) inc += y;
        }
        i64 total = __shfl_sync(0xffffffffu, inc, 31);
        sh.wrow[threadIdx.x] = r;
        sh.wbeg[threadIdx.x] = b;
        sh.wend[threadIdx.x] = inc - deg;  // exclusive scan
        sdu[threadIdx.x] = du;
        __syncwarp();
        /// 2. The rows' edges, BATCH per lane at a time: loads, then atomics, then pushes.
        for (i64 k0 = 0; k0 < total; k0 += 32 * SSSP_BATCH) {
            u32 v[SSSP_BATCH];
            int nd[SSSP_BATCH], old[SSSP_BATCH];
#pragma unroll
            for (int j = 0; j < SSSP_BATCH; j++) {
                i64 k = k0 + j * 32 + lane;
                nd[j] = INF_DIST;
                v[j] = 0;
                if (k < total) {
                    int lo = 0;  // the last row whose scan is <= k (empty rows share a scan)
#pragma unroll
                    for (int h = 16; h > 0; h >>= 1)
                        if (sh.wend[wb + lo + h] <= k) lo += h;
                    i64 e = sh.wbeg[wb + lo] + (k - sh.wend[wb + lo]);
                    v[j] = a.nbr[e];
                    nd[j] = dist_add(sdu[wb + lo], weight(a, e));
                }
            }
#pragma unroll
            for (int j = 0; j < SSSP_BATCH; j++) {
                old[j] = INF_DIST;
                if (nd[j] == INF_DIST) continue;
                if (a.update == URMW) old[j] = atomicMin(&a.val[v[j]], nd[j]);
                else old[j] = a.val[v[j]];
            }
#pragma unroll
            for (int j = 0; j < SSSP_BATCH; j++) {
                if (nd[j] >= old[j]) continue;
                if (a.update != URMW) a.val[v[j]] = nd[j];
                if ((i64)nd[j] < a.bound) emit(a, sh, st, v[j]);
                else if (!bq_put(fb.q, &fb.n, v[j])) queue_push(a, a.far_q, a.far_len, a.far_cap, 2, v[j]);
            }
        }
        __syncwarp();
    }
    bq_flush(a, fb.q, &fb.n, &fb.base, a.far_q, a.far_len, a.far_cap, 2);
}

template <>
struct LateLB<LBatch> {
    template <class F>
    static __device__ __forceinline__ bool run(const Args& a, Shared& sh, Local& st, F&) {
        sssp_batch<4>(a, sh, st);
        return true;
    }
};
template <>
struct RichLB<SsspPush> {
    static constexpr int lb = LBatch;
};
template <>
struct FarPile<SsspPush> {
    static constexpr bool on = true;
};
template <>
struct FarPile<SsspPushRead> {
    static constexpr bool on = true;
};
template <>
struct FarPile<SsspPull> {
    static constexpr bool on = true;
};

// sssp_push_<lb>: relax the out-edges of the frontier (a host-driven step: read first);
// sssp_push_grid: a few rows holding many edges, each row over the whole grid (a hub).
ENTRIES(sssp_push, SsspPushRead)
ENTRY(sssp_push_etwc, SsspPushRead, LETWC)
ENTRY(sssp_push_grid, SsspPushRead, LGrid)
// sssp_pull_<lb>: every vertex relaxes its in-edges from frontier members.
ENTRIES(sssp_pull, SsspPull)
ENTRY(sssp_pull_etwc, SsspPull, LETWC)
// sssp_fused_<lb>: the whole near-far loop in one cooperative launch (fuse=on), at least 4
// blocks of 256 threads an SM (64 registers: the cooperative grid is the resident blocks).
FUSED_MIN(sssp_fused_thread, SsspPush, LThread, 4)
FUSED_MIN(sssp_fused_warp, SsspPush, LWarp, 4)
FUSED_MIN(sssp_fused_cta, SsspPush, LCTA, 4)
FUSED_MIN(sssp_fused_twc, SsspPush, LTWC, 4)
FUSED_MIN(sssp_fused_np, SsspPush, LNP, 4)
FUSED_MIN(sssp_fused_etwc, SsspPush, LETWC, 4)


// SsspBlock is block_loop's near-far relaxation (fuse=block): dist_add, then atomicMin (or read
// then write with update=rw); a win at or above the bound joins the far pile.
struct SsspBlock {
    static constexpr bool far = true, weighted = true;
    static __device__ __forceinline__ int start(const Args& a, u32 u) { return a.val[u]; }
    static __device__ __forceinline__ int next(int du, int w, int) { return dist_add(du, w); }
    static __device__ __forceinline__ int update(const Args& a, u32 v, int nd) {
        if (a.update == URMW) return atomicMin(&a.val[v], nd);
        int old = a.val[v];
        if (nd < old) a.val[v] = nd;
        return old;
    }
    static __device__ __forceinline__ bool won(int old, int nd) { return nd < old; }
};

// sssp_block: the near-far loop in one block of SBLOCK threads while the frontier is small
// (fuse=block; kernels/block_loop.cuh).
BLOCK_LOOP(sssp_block, SsspBlock)
