// common.cuh: what every gworkbench kernel shares: the argument block, frontier access,
// worklist pushes (dedup, cooperative conversion, spill on overflow) and the load-balancing
// strategies as device templates.
//
// An algorithm supplies a functor with Gunrock's advance contract
//   int edge(u32 row, u32 col, i64 e, int w, u32* out)   // 0: nothing, 1: push *out, 2: push *out far
// plus row_ok(row) (skip a row), done(row) (stop scanning a row early, pull) and member(v).
// For push, row is the source and col the destination; for pull, row is the vertex being
// updated and col its in-neighbour. Every strategy loops grid-stride, so any grid is correct and
// the host sizes grids to the frontier (variable kernel configuration, Nasre et al.).
#pragma once
#include "platform.cuh"

#define BLOCK 256
#define WARPS_PER_BLOCK (BLOCK / 32)
#define AGG_SLOTS 1024

typedef unsigned int u32;
typedef long long i64;
typedef unsigned long long u64;

// Frontier representations (input) and worklist kinds (output).
enum { KQueue = 0, KBitmap = 1, KBoolmap = 2, KAll = 3 };
enum { DNone = 0, DAtomic = 1, DCull = 2, DCullStamp = 3 };
enum { AggAtomic = 0, AggWarp = 1, AggBlock = 2 };
enum { URMW = 0, URW = 1 };
// Counters, read back after every iteration.
enum { CEdges = 0, CPushes = 1, CScout = 2, COverflow = 3, CCulled = 4, CFar = 5, CCount = 6, CCountEdges = 7, CChanged = 8, CMinFar = 9, CTime = 10, CBound = 11, CFarSel = 12, CStop = 13, CDir = 15, NCounters = 16 };

// Args is every kernel's single parameter. Every field is 8 bytes, mirrored by kargs in Go.
struct Args {
    // 1. The CSR traversed: out-edges for push, in-edges for pull. row[e] is the row of edge e (coo).
    const i64* off;
    const u32* nbr;
    const int* wt;
    const u32* row;
    i64 n;
    i64 m;
    const i64* out_off;  // the out-CSR offsets: degree of a pushed vertex (scout count), PageRank out-degree
    // 2. Per-vertex values. val_in == val unless sync=sync (double buffer).
    int* val;
    const int* val_in;
    float* rank;
    double* rank_next;  // PageRank sums, in double: a vertex of 100,000 in-edges sums that many terms
    float* contrib;
    double* resid;
    // 3. Input frontier.
    i64 in_kind;
    const u32* in_q;
    const u32* in_len;
    const u32* in_bits;
    const unsigned char* in_bools;
    const i64* in_scan;  // lb=edge: exclusive scan of the rows' degrees (len+1 entries)
    // Membership of the frontier, for pull and coo: KBitmap, KBoolmap, or KAll (functor decides).
    i64 mem_kind;
    const u32* mem_bits;
    const unsigned char* mem_bools;
    // 4. Output worklist.
    i64 out_kind;
    u32* out_q;
    u32* out_len;
    i64 out_cap;
    u32* out_bits;
    unsigned char* out_bools;
    unsigned char* spill;  // overflowed pushes land here; the host grows the queue and folds them in
    u32* far_q;
    u32* far_len;
    i64 far_cap;
    // 5. Knobs and per-iteration scalars.
    i64 dedup;
    i64 agg;
    i64 update;
    u32* stamp;
    u32* cull;
    i64 tag;
    i64 iter;
    i64 bound;
    double damping;
    double base;
    double eps;
    u64* counters;
    double* err;
    // 6. Fused loops (fuse=on): iterations to run, per-iteration queue lengths and counters,
    // the second far pile, and the near-far bucket width.
    i64 iters;
    u32* lens;
    u64* trace;
    u32* far2;
    u32* far_len2;
    i64 delta;
    // Rows a block owns: lb=twc's (0: BLOCK; fewer for frontiers of rich rows); lb=np's enabled
    // schedulers in the low byte and its rows a block above; PageRank's tiled pull, the
    // destinations of a range; its binned push, the destinations of a bin.
    i64 rows_per_block;
    // PageRank Jacobi sweeps write the next ranks and contributions here (ping-pong buffers).
    float* rank_out;
    float* contrib_out;
    i64 twc_warp;  // lb=twc: a warp takes rows of at least this many edges (0: TwcLimits)
    // 7. Fused direction-optimizing BFS (kernels/bfs.cu bfs_do_loop), passed with the launch so
    // that no copy precedes it: the in-CSR of its bottom-up levels, Beamer's alpha and beta,
    // three membership bitmaps, and the state it starts from: the direction of the last level
    // (0 push, 1 pull), the unexplored edges, the last frontier's vertices, the edges and
    // vertices of the input frontier; do_init: the first launch, from source do_src.
    const i64* in_off;
    const u32* in_nbr;
    double alpha;
    double beta;
    u32* do_bitmaps;
    i64 do_dir;
    i64 do_to_check;
    i64 do_awake;
    i64 do_scout;
    i64 do_count;
    i64 do_init;
    i64 do_src;
    // 8. PageRank (kernels/pr.cu): the projection's scale and the stored dangling rank a fused
    // launch starts from (base holds the constant term before scaling there); pr_fixed: the
    // dangling vertices are isolated, so their rank and its spread are constants (in base);
    // pr_init_out, pr_init_dang: pr_init's start ranks for vertices with and without out-edges.
    double pr_scale;
    double pr_dang;
    i64 pr_fixed;
    double pr_init_out;
    double pr_init_dang;
    // 9. PageRank's binned push (kernels/pr.cu bin_sweep): two words, the largest contribution
    // (float bits) of the even and odd sweeps, from which a sweep takes its fixed-point scale.
    u32* pr_cmax;
    // 10. fuse=block (kernels/block_loop.cuh): block_loop returns to the host when its frontier
    // exceeds small, fused_loop when its frontier falls to small or below (0: never).
    i64 small;
};

static_assert(sizeof(Args) == 592, "Args must match kargs in run.go");

// Block-aggregated queue pushes (SSSP's far pile in sssp_batch, the far split): a block
// collects its pushes in shared memory and appends them with one global atomic (bq_flush); a
// full buffer falls back to one atomic per warp. The queue tails are single counters: with a
// warp's coalesced group as the unit (one to three items an atomic in the near-far
// iterations) urand's big iterations spent most of their time in those atomics.
#define BQ_SLOTS 1024
struct BlockQ {
    u32 q[BQ_SLOTS];
    u32 n, base;
};
__device__ __forceinline__ BlockQ& far_bq() {
    __shared__ BlockQ b;
    return b;
}

// queue_push appends v to queue (q, len, cap) with one atomic per coalesced group; past cap it
// spills v and raises overflow code ovf.
__device__ __forceinline__ void queue_push(const Args& a, u32* q, u32* len, i64 cap, int ovf, u32 v) {
    cg::coalesced_group g = cg::coalesced_threads();
    u32 base = 0;
    if (g.thread_rank() == 0) base = atomicAdd(len, (u32)g.size());
    u32 idx = g.shfl(base, 0) + g.thread_rank();
    if ((i64)idx < cap) {
        q[idx] = v;
    } else {
        a.spill[v] = 1;
        a.counters[COverflow] = ovf;
    }
}

// bq_put buffers v in the block's buffer (q, n); false when it is full.
__device__ __forceinline__ bool bq_put(u32* q, u32* n, u32 v) {
    u32 s = atomicAdd(n, 1u);
    if (s >= BQ_SLOTS) return false;
    q[s] = v;
    return true;
}

// bq_flush appends the block's buffered pushes to queue (dst, len, cap) with one atomic and
// empties the buffer. Every thread of the block calls it.
__device__ __forceinline__ void bq_flush(const Args& a, u32* q, u32* n, u32* base, u32* dst, u32* len, i64 cap, int ovf) {
    __syncthreads();
    u32 k = min(*n, (u32)BQ_SLOTS);
    if (threadIdx.x == 0 && k) *base = atomicAdd(len, k);
    __syncthreads();
    for (u32 i = threadIdx.x; i < k; i += blockDim.x) {
        u32 idx = *base + i, v = q[i];
        if ((i64)idx < cap) {
            dst[idx] = v;
        } else {
            a.spill[v] = 1;
            a.counters[COverflow] = ovf;
        }
    }
    __syncthreads();
    if (threadIdx.x == 0) *n = 0;
    __syncthreads();
}

struct Shared {
    u32 q[AGG_SLOTS];
    u32 n;
    u32 base;
    u64 edges;
    u64 scout;
    u64 pushes;
    u64 culled;
    int flag;
    u32 row, rbeg;
    i64 rs, re;
    u32 wn;  // lb_twc: rows for the warps
    u32 wrow[BLOCK];
    i64 wbeg[BLOCK], wend[BLOCK];
};

struct Local {
    u64 edges;
    u64 scout;
    u64 pushes;
    u64 culled;
};

__device__ __forceinline__ bool bit_test(const u32* b, u32 v) { return (b[v >> 5] >> (v & 31)) & 1u; }

__device__ __forceinline__ u32 in_count(const Args& a) { return a.in_kind == KQueue ? *a.in_len : (u32)a.n; }

// get_row maps index i of the input frontier to a vertex; false when i is not active.
__device__ __forceinline__ bool get_row(const Args& a, i64 i, u32* v) {
    switch (a.in_kind) {
    case KQueue: *v = a.in_q[i]; return true;
    case KBitmap: *v = (u32)i; return bit_test(a.in_bits, (u32)i);
    case KBoolmap: *v = (u32)i; return a.in_bools[i] != 0;
    default: *v = (u32)i; return true;
    }
}

// row_active tests whether vertex v is a row of the input frontier (lb=coo; a queue is turned
// into a boolmap first).
__device__ __forceinline__ bool row_active(const Args& a, u32 v) {
    if (a.in_kind == KBitmap) return bit_test(a.in_bits, v);
    if (a.in_kind == KBoolmap) return a.in_bools[v] != 0;
    return true;
}

// in_member tests frontier membership through the mem_* fields (pull, coo).
__device__ __forceinline__ bool in_member(const Args& a, u32 v) {
    if (a.mem_kind == KBitmap) return bit_test(a.mem_bits, v);
    if (a.mem_kind == KBoolmap) return a.mem_bools[v] != 0;
    return true;
}

__device__ __forceinline__ int weight(const Args& a, i64 e) { return a.wt ? a.wt[e] : 1; }

__device__ __forceinline__ void shared_init(Shared& sh) {
    if (threadIdx.x == 0) {
        sh.n = 0;
        sh.edges = 0;
        sh.scout = 0;
        sh.pushes = 0;
        sh.culled = 0;
        sh.flag = 0;
    }
    __syncthreads();
}

// queue_put appends v at a reserved index, or spills it when the queue is full.
__device__ __forceinline__ void queue_put(const Args& a, u32 idx, u32 v) {
    if ((i64)idx < a.out_cap) {
        a.out_q[idx] = v;
    } else {
        a.spill[v] = 1;
        a.counters[COverflow] = 1;
    }
}

// emit pushes v to the output worklist: 1. dedup, 2. representation, 3. aggregation.
__device__ __forceinline__ void emit(const Args& a, Shared& sh, Local& st, u32 v) {
    /// 1. Dedup: atomic claims v once per iteration; cull drops v when a racy bitmap saw it.
    if (a.dedup == DAtomic) {
        if (atomicExch(&a.stamp[v], (u32)a.tag) == (u32)a.tag) return;
    } else if (a.dedup == DCull) {
        u32 w = a.cull[v >> 5], b = 1u << (v & 31);
        if (w & b) {
            st.culled++;
            return;
        }
        a.cull[v >> 5] = w | b;  // plain store: a lost bit only lets a duplicate through
    } else if (a.dedup == DCullStamp) {
        // fused loops cull with per-iteration stamps, which need no clearing between steps
        if (a.stamp[v] == (u32)a.tag) {
            st.culled++;
            return;
        }
        a.stamp[v] = (u32)a.tag;
    }
    st.pushes++;
    if (a.out_off) st.scout += (u64)(a.out_off[v + 1] - a.out_off[v]);
    /// 2. Representation.
    if (a.out_kind == KBitmap) {
        atomicOr(&a.out_bits[v >> 5], 1u << (v & 31));
        return;
    }
    if (a.out_kind == KBoolmap) {
        a.out_bools[v] = 1;
        return;
    }
    if (a.out_kind != KQueue) return;
    /// 3. Aggregation: one atomic per item, per warp (coalesced group), or per block.
    if (a.agg == AggWarp) {
        cg::coalesced_group g = cg::coalesced_threads();
        u32 base = 0;
        if (g.thread_rank() == 0) base = atomicAdd(a.out_len, (u32)g.size());
        base = g.shfl(base, 0);
        queue_put(a, base + g.thread_rank(), v);
    } else if (a.agg == AggBlock) {
        u32 s = atomicAdd(&sh.n, 1u);
        if (s < AGG_SLOTS) {
            sh.q[s] = v;
        } else {
            // the block's buffer is full: one atomic per warp, not per item, on the shared
            // length (per-item atomics on one address serialize a level of 500K pushes)
            cg::coalesced_group g = cg::coalesced_threads();
            u32 base = 0;
            if (g.thread_rank() == 0) base = atomicAdd(a.out_len, (u32)g.size());
            base = g.shfl(base, 0);
            queue_put(a, base + g.thread_rank(), v);
        }
    } else {
        queue_put(a, atomicAdd(a.out_len, 1u), v);
    }
}

__device__ __forceinline__ void emit_far(const Args& a, u32 v) {
    // one atomic per warp (coalesced group); kernels/sssp.cu sssp_batch, which takes urand's
    // millions of far pushes, buffers them per block (far_bq)
    queue_push(a, a.far_q, a.far_len, a.far_cap, 2, v);
}

// agg_flush empties a half-full block buffer of aggregated pushes into the worklist between
// the row batches of a grid-stride strategy, so that a block walking many batches (a fused
// loop's fixed grid) keeps one global atomic per batch. Every thread of the block calls it.
__device__ __forceinline__ void agg_flush(const Args& a, Shared& sh) {
    __syncthreads();
    if (a.agg != AggBlock || a.out_kind != KQueue) return;
    u32 k = sh.n;
    __syncthreads();
    if (k < AGG_SLOTS / 2) return;
    k = min(k, (u32)AGG_SLOTS);
    if (threadIdx.x == 0) sh.base = atomicAdd(a.out_len, k);
    __syncthreads();
    for (u32 i = threadIdx.x; i < k; i += blockDim.x) queue_put(a, sh.base + i, sh.q[i]);
    __syncthreads();
    if (threadIdx.x == 0) sh.n = 0;
    __syncthreads();
}

// finish flushes the block's aggregated pushes and its counters. Every thread of the block
// must reach it.
__device__ __forceinline__ void finish(const Args& a, Shared& sh, Local& st) {
    if (st.edges) atomicAdd(&sh.edges, st.edges);
    if (st.scout) atomicAdd(&sh.scout, st.scout);
    if (st.pushes) atomicAdd(&sh.pushes, st.pushes);
    if (st.culled) atomicAdd(&sh.culled, st.culled);
    __syncthreads();
    u32 k = min(sh.n, (u32)AGG_SLOTS);
    if (threadIdx.x == 0) {
        if (k) sh.base = atomicAdd(a.out_len, k);
        if (sh.edges) atomicAdd(&a.counters[CEdges], sh.edges);
        if (sh.scout) atomicAdd(&a.counters[CScout], sh.scout);
        if (sh.pushes) atomicAdd(&a.counters[CPushes], sh.pushes);
        if (sh.culled) atomicAdd(&a.counters[CCulled], sh.culled);
    }
    __syncthreads();
    for (u32 i = threadIdx.x; i < k; i += blockDim.x) queue_put(a, sh.base + i, sh.q[i]);
}

// FarPile<F>::on: functor F pushes to a far pile (SSSP; kernels/sssp.cu specialises it); off,
// the far pushes are compiled out of its strategies.
template <class F>
struct FarPile {
    static constexpr bool on = false;
};

template <class F>
__device__ __forceinline__ void visit(const Args& a, Shared& sh, Local& st, F& f, u32 r, i64 e) {
    u32 out;
    int c = f.edge(r, a.nbr[e], e, weight(a, e), &out);
    if (c == 1) emit(a, sh, st, out);
    else if (FarPile<F>::on && c == 2) emit_far(a, out);
}

/// Load-balancing strategies (Gunrock's operators/advance, Merrill et al.).

// lb_thread: one row per thread (Gunrock ThreadExpand, UGF VERTEX_BASED).
template <class F>
__device__ void lb_thread(const Args& a, Shared& sh, Local& st, F& f) {
    u32 cnt = in_count(a);
    for (i64 i = blockIdx.x * (i64)blockDim.x + threadIdx.x; i < cnt; i += (i64)gridDim.x * blockDim.x) {
        u32 r;
        if (!get_row(a, i, &r) || !f.row_ok(r)) continue;
        i64 b = a.off[r], end = a.off[r + 1];
        st.edges += end - b;
        for (i64 e = b; e < end; e++) {
            if (f.done(r)) break;
            visit(a, sh, st, f, r, e);
        }
    }
}

// lb_warp: one row per warp, lanes stride its edges.
template <class F>
__device__ void lb_warp(const Args& a, Shared& sh, Local& st, F& f) {
    u32 cnt = in_count(a);
    int lane = threadIdx.x & 31;
    i64 w = (blockIdx.x * (i64)blockDim.x + threadIdx.x) >> 5, nw = ((i64)gridDim.x * blockDim.x) >> 5;
    for (i64 i = w; i < cnt; i += nw) {
        u32 r;
        if (!get_row(a, i, &r) || !f.row_ok(r)) continue;
        i64 b = a.off[r], end = a.off[r + 1];
        if (lane == 0) st.edges += end - b;
        for (i64 e = b + lane; e < end; e += 32) {
            if (f.done(r)) break;
            visit(a, sh, st, f, r, e);
        }
    }
}

// lb_cta: one row per thread block.
template <class F>
__device__ void lb_cta(const Args& a, Shared& sh, Local& st, F& f) {
    u32 cnt = in_count(a);
    for (i64 i = blockIdx.x; i < cnt; i += gridDim.x) {
        u32 r;
        if (!get_row(a, i, &r) || !f.row_ok(r)) continue;
        i64 b = a.off[r], end = a.off[r + 1];
        if (threadIdx.x == 0) st.edges += end - b;
        for (i64 e = b + threadIdx.x; e < end; e += blockDim.x) {
            if (f.done(r)) break;
            visit(a, sh, st, f, r, e);
        }
    }
}

// TwcLimits are lb_twc's degree thresholds for a functor: a warp takes rows of at least `warp`
// edges, the block rows of at least `cta`. A functor that stops a row early (bottom-up BFS)
// raises them, since its rows are mostly cut short after an edge or two.
template <class F>
struct TwcLimits {
    static constexpr int warp = 32, cta = BLOCK;
};

// lb_twc: thread/warp/CTA by degree (Merrill; Gunrock TWC). Rows of degree >= cta are taken
// by the whole block, >= warp by a warp, the rest by their own thread.
template <class F>
__device__ void lb_twc(const Args& a, Shared& sh, Local& st, F& f) {
    u32 cnt = in_count(a);
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    i64 R = a.rows_per_block > 0 ? a.rows_per_block : BLOCK;  // rows per block: the first R threads own a row each
    for (i64 base = blockIdx.x * R; base < cnt; base += (i64)gridDim.x * R) {
        i64 i = base + threadIdx.x;
        u32 r = 0;
        i64 b = 0, end = 0;
        if (threadIdx.x < R && i < cnt && get_row(a, i, &r) && f.row_ok(r)) {
            b = a.off[r];
            end = a.off[r + 1];
            st.edges += end - b;
        }
        /// 1. CTA: rows with at least cta edges, one at a time.
        while (true) {
            if (threadIdx.x == 0) sh.flag = -1;
            __syncthreads();
            if (end - b >= TwcLimits<F>::cta) sh.flag = threadIdx.x;
            __syncthreads();
            int owner = sh.flag;
            if (owner < 0) break;
            if (owner == (int)threadIdx.x) {
                sh.row = r;
                sh.rs = b;
                sh.re = end;
                b = end;
            }
            __syncthreads();
            u32 rr = sh.row;
            i64 rs = sh.rs, re = sh.re;
            for (i64 e = rs + threadIdx.x; e < re; e += blockDim.x) {
                if (f.done(rr)) break;
                visit(a, sh, st, f, rr, e);
            }
            __syncthreads();
        }
        /// 2. Warp: rows with at least `warp` edges go to a shared list that the block's warps
        /// take in turn (Merrill's warp-cooperative gather), so a block of few rich rows keeps
        /// every warp busy.
        if (threadIdx.x == 0) sh.wn = 0;
        __syncthreads();
        if (end - b >= (a.twc_warp > 0 ? a.twc_warp : TwcLimits<F>::warp)) {
            u32 k = atomicAdd(&sh.wn, 1u);
            sh.wrow[k] = r;
            sh.wbeg[k] = b;
            sh.wend[k] = end;
            b = end;
        }
        __syncthreads();
        for (u32 k = warp; k < sh.wn; k += WARPS_PER_BLOCK) {
            u32 rr = sh.wrow[k];
            i64 re = sh.wend[k];
            for (i64 e = sh.wbeg[k] + lane; e < re; e += 32) {
                if (f.done(rr)) break;
                visit(a, sh, st, f, rr, e);
            }
        }
        /// 3. Thread: the rest.
        for (i64 e = b; e < end; e++) {
            if (f.done(r)) break;
            visit(a, sh, st, f, r, e);
        }
        agg_flush(a, sh);
    }
}

__device__ __forceinline__ i64 block_exclusive_scan(i64 x, i64* total) {
    __shared__ i64 warp_tot[WARPS_PER_BLOCK];
    int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
    i64 incl = x;
    for (int o = 1; o < 32; o <<= 1) {
        i64 y = __shfl_up_sync(0xffffffffu, incl, o);
        if (lane >= o) incl += y;
    }
    if (lane == 31) warp_tot[wid] = incl;
    __syncthreads();
    if (wid == 0) {
        i64 t = lane < WARPS_PER_BLOCK ? warp_tot[lane] : 0;
        for (int o = 1; o < 32; o <<= 1) {
            i64 y = __shfl_up_sync(0xffffffffu, t, o);
            if (lane >= o) t += y;
        }
        if (lane < WARPS_PER_BLOCK) warp_tot[lane] = t;
    }
    __syncthreads();
    i64 before = wid > 0 ? warp_tot[wid - 1] : 0;
    *total = warp_tot[WARPS_PER_BLOCK - 1];
    __syncthreads();
    return before + incl - x;
}


// lb_np: IrGL's nested parallelism (inspector-executor): rows of 256 or more edges go to the
// thread block (tb), of 32 or more to a warp (warp), and the rest are packed over the block's
// threads, equal edges per thread, by a block-wide scan of their degrees (fg). The low byte of
// a.rows_per_block holds the enabled schedulers (1 tb, 2 warp, 4 fg); a row no enabled scheduler takes is
// walked by its own thread. On rich frontiers the host applies twc's rule (NpRows): a.rows_per_block >> 8
// rows a block (32) and a.twc_warp as the warp scheduler's threshold (8), so that the rows'
// edges keep every warp of the block busy.
template <class F>
__device__ void lb_np(const Args& a, Shared& sh, Local& st, F& f) {
    u32 cnt = in_count(a);
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    int np = (int)(a.rows_per_block & 255);
    i64 R = a.rows_per_block >> 8;
    if (R <= 0 || R > BLOCK) R = BLOCK;  // rows per block
    i64 wmin = a.twc_warp > 0 ? a.twc_warp : 32;
    for (i64 base = blockIdx.x * R; base < cnt; base += (i64)gridDim.x * R) {
        i64 i = base + threadIdx.x;
        u32 r = 0;
        i64 b = 0, end = 0;
        if (threadIdx.x < R && i < cnt && get_row(a, i, &r) && f.row_ok(r)) {
            b = a.off[r];
            end = a.off[r + 1];
            st.edges += end - b;
        }
        /// 1. TB: rows of 256 or more edges, one at a time by the whole block.
        if (np & 1) {
            while (true) {
                if (threadIdx.x == 0) sh.flag = -1;
                __syncthreads();
                if (end - b >= BLOCK) sh.flag = threadIdx.x;
                __syncthreads();
                int owner = sh.flag;
                if (owner < 0) break;
                if (owner == (int)threadIdx.x) {
                    sh.row = r;
                    sh.rs = b;
                    sh.re = end;
                    b = end;
                }
                __syncthreads();
                u32 rr = sh.row;
                i64 rs = sh.rs, re = sh.re;
                for (i64 e = rs + threadIdx.x; e < re; e += blockDim.x) {
                    if (f.done(rr)) break;
                    visit(a, sh, st, f, rr, e);
                }
                __syncthreads();
            }
        }
        /// 2. Warp: rows of 32 (rich frontiers: twc_warp) or more edges from a shared list, the
        /// block's warps in turn.
        if (np & 2) {
            if (threadIdx.x == 0) sh.wn = 0;
            __syncthreads();
            if (end - b >= wmin) {
                u32 k = atomicAdd(&sh.wn, 1u);
                sh.wrow[k] = r;
                sh.wbeg[k] = b;
                sh.wend[k] = end;
                b = end;
            }
            __syncthreads();
            for (u32 k = warp; k < sh.wn; k += WARPS_PER_BLOCK) {
                u32 rr = sh.wrow[k];
                i64 re = sh.wend[k];
                for (i64 e = sh.wbeg[k] + lane; e < re; e += 32) {
                    if (f.done(rr)) break;
                    visit(a, sh, st, f, rr, e);
                }
            }
            __syncthreads();
        }
        /// 3. FG: the remaining edges of the block's rows, packed over its threads.
        if (np & 4) {
            i64 total;
            i64 ex = block_exclusive_scan(end - b, &total);
            sh.wrow[threadIdx.x] = r;
            sh.wbeg[threadIdx.x] = b;
            sh.wend[threadIdx.x] = ex;  // exclusive scan of the remaining degrees
            __syncthreads();
            for (i64 k = threadIdx.x; k < total; k += blockDim.x) {
                int lo = 0, hi = (int)R;  // the last row whose scan is <= k (rows past R are empty)
                while (hi - lo > 1) {
                    int mid = (lo + hi) >> 1;
                    if (sh.wend[mid] <= k) lo = mid;
                    else hi = mid;
                }
                u32 rr = sh.wrow[lo];
                if (f.done(rr)) continue;
                visit(a, sh, st, f, rr, sh.wbeg[lo] + (k - sh.wend[lo]));
            }
            __syncthreads();
        } else {
            for (i64 e = b; e < end; e++) {
                if (f.done(r)) break;
                visit(a, sh, st, f, r, e);
            }
        }
        agg_flush(a, sh);
    }
}

// upper_bound over s[lo..hi): the first index whose value is > k.
__device__ __forceinline__ i64 upper_bound(const i64* s, i64 lo, i64 hi, i64 k) {
    while (lo < hi) {
        i64 mid = (lo + hi) >> 1;
        if (s[mid] <= k) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

// EDGE_ITEMS: lb_edge's edges a thread, strided by the block (a tile of BLOCK * EDGE_ITEMS
// edges a block; the host sizes lb=edge grids by the tile, edgeTile in launch.go).
#define EDGE_ITEMS 8
#define EDGE_TILE (BLOCK * EDGE_ITEMS)

// warp_last_le returns the last i in [0, n) with s[i] <= k, given s[0] <= k and s
// non-decreasing: a 32-way search by one warp (every lane calls it), about log32(n) rounds of
// one load a lane, where a binary search by one thread is log2(n) dependent loads.
__device__ __forceinline__ i64 warp_last_le(const i64* s, i64 n, i64 k) {
    int lane = threadIdx.x & 31;
    i64 lo = 0, hi = n - 1;  // the answer is in [lo, hi], and s[lo] <= k
    while (hi > lo) {
        i64 step = (hi - lo + 32) / 32;
        i64 p = lo + lane * step;
        unsigned m = __ballot_sync(0xffffffffu, p <= hi && s[p] <= k);
        lo += (31 - __clz(m)) * step;  // lane 0's probe is lo: m is never 0
        hi = min(hi, lo + step - 1);
    }
    return lo;
}

// lb_edge: equal edges per thread (Gunrock LB, GSWITCH's STRICT; Merrill's merge-path
// partitioning of the rows' degree scan): a block takes a tile of EDGE_TILE consecutive edges
// of the frontier and finds the row holding its first edge by a warp search of the scan; it
// loads the scan entries, rows and edge bases of the next BLOCK rows into shared memory, and
// each thread takes EDGE_ITEMS of the tile's edges, BLOCK apart (coalesced), finding each
// edge's row by a binary search in shared memory. A tile spanning more than BLOCK rows (short
// or empty rows) loads the next BLOCK rows and goes on. For in_kind=KAll the scan is the
// CSR's own offsets.
template <class F>
__device__ void lb_edge(const Args& a, Shared& sh, Local& st, F& f) {
    __shared__ i64 ts[BLOCK + 1];  // scan entries of the loaded rows (the last: the next row's)
    __shared__ i64 tb[BLOCK];      // a row's first edge minus its scan entry
    __shared__ u32 tr[BLOCK];      // the row's vertex, or ~0u when row_ok refuses it
    bool all = a.in_kind == KAll;
    i64 rows = all ? a.n : (i64)*a.in_len;
    const i64* scan = all ? a.off : a.in_scan;
    i64 total = scan[rows];
    for (i64 k0 = blockIdx.x * (i64)EDGE_TILE; k0 < total; k0 += (i64)gridDim.x * EDGE_TILE) {
        i64 kend = min(k0 + (i64)EDGE_TILE, total);
        /// 1. The row holding the tile's first edge (warp 0), shared.
        if (threadIdx.x < 32) {
            i64 rs = warp_last_le(scan, rows, k0);
            if (threadIdx.x == 0) sh.rs = rs;
        }
        __syncthreads();
        i64 rs = sh.rs, kstart = k0;
        while (kstart < kend) {
            /// 2. The next BLOCK rows: scan entries, vertices, edge bases.
            i64 j = rs + threadIdx.x;
            ts[threadIdx.x] = j <= rows ? scan[j] : total;
            if (threadIdx.x == 0) ts[BLOCK] = rs + BLOCK <= rows ? scan[rs + BLOCK] : total;
            u32 r = ~0u;
            i64 base = 0;
            if (j < rows && ts[threadIdx.x] < kend) {
                r = all ? (u32)j : a.in_q[j];
                base = a.off[r] - scan[j];
                if (!f.row_ok(r)) r = ~0u;
            }
            tr[threadIdx.x] = r;
            tb[threadIdx.x] = base;
            __syncthreads();
            i64 kstop = min(kend, ts[BLOCK]);
            int nr = (int)min((i64)BLOCK, rows - rs);  // rows loaded
            /// 3. The edges [kstart, kstop): EDGE_ITEMS a thread, BLOCK apart.
#pragma unroll
            for (int it = 0; it < EDGE_ITEMS; it++) {
                i64 k = kstart + it * BLOCK + threadIdx.x;
                if (k >= kstop) break;
                int lo = 0, hi = nr - 1;  // the last loaded row whose scan entry is <= k
                while (lo < hi) {
                    int mid = (lo + hi + 1) >> 1;
                    if (ts[mid] <= k) lo = mid;
                    else hi = mid - 1;
                }
                u32 rr = tr[lo];
                if (rr == ~0u || f.done(rr)) continue;
                st.edges++;
                visit(a, sh, st, f, rr, tb[lo] + k);
            }
            __syncthreads();
            kstart = kstop;
            rs += BLOCK;
        }
        agg_flush(a, sh);
    }
}

// lb_coo: one thread per edge of the whole edge list; the row must be in the frontier.
template <class F>
__device__ void lb_coo(const Args& a, Shared& sh, Local& st, F& f) {
    for (i64 e = blockIdx.x * (i64)blockDim.x + threadIdx.x; e < a.m; e += (i64)gridDim.x * blockDim.x) {
        u32 r = a.row[e];
        if (!row_active(a, r) || !f.row_ok(r) || f.done(r)) continue;
        st.edges++;
        visit(a, sh, st, f, r, e);
    }
}

// lb_etwc: UGF's ETWC (Edge-based Thread Warps CTAs): TWC's assignment done inside each block
// over shared-memory queues. Every block takes BLOCK rows; each row's edges are cut into a
// multiple of BLOCK (queued for the whole block), a multiple of 32 (queued for a warp) and the
// rest (queued for a thread), so a row of 300 edges gives 256 to the block, 32 to a warp and
// 12 to a thread. The three stages then run back to back with no global atomics. The stage
// sizes depend on the algorithm (UGF): as for lb_twc, a row takes the block stage from
// TwcLimits<F>::cta edges and the warp stage from ::warp (bottom-up BFS, which stops a row at
// its first parent, raises both), and on rich frontiers the host's a.rows_per_block and a.twc_warp pack
// fewer rows per block and give a warp the whole rest of any row of at least that many edges.
template <class F>
__device__ void lb_etwc(const Args& a, Shared& sh, Local& st, F& f) {
    __shared__ u32 qn[3];
    __shared__ u32 qrow[3][BLOCK];
    __shared__ i64 qbeg[3][BLOCK];
    __shared__ u32 qlen[3][BLOCK];
    u32 cnt = in_count(a);
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    i64 R = a.rows_per_block > 0 ? a.rows_per_block : BLOCK;  // rows per block, fewer on rich frontiers (as lb_twc)
    for (i64 base = blockIdx.x * R; base < cnt; base += (i64)gridDim.x * R) {
        if (threadIdx.x < 3) qn[threadIdx.x] = 0;
        __syncthreads();
        /// 1. Split each row's edges over the three queues.
        i64 i = base + threadIdx.x;
        u32 r;
        if (threadIdx.x < R && i < cnt && get_row(a, i, &r) && f.row_ok(r)) {
            i64 b = a.off[r], end = a.off[r + 1];
            st.edges += end - b;
            i64 c2 = end - b >= TwcLimits<F>::cta ? (end - b) / BLOCK * BLOCK : 0;
            if (c2) {
                u32 k = atomicAdd(&qn[2], 1u);
                qrow[2][k] = r, qbeg[2][k] = b, qlen[2][k] = (u32)c2;
                b += c2;
            }
            i64 wmin = a.twc_warp > 0 ? a.twc_warp : TwcLimits<F>::warp;
            i64 c1 = end - b < wmin ? 0 : wmin < 32 ? end - b : (end - b) & ~(i64)31;
            if (c1) {
                u32 k = atomicAdd(&qn[1], 1u);
                qrow[1][k] = r, qbeg[1][k] = b, qlen[1][k] = (u32)c1;
                b += c1;
            }
            if (end > b) {
                u32 k = atomicAdd(&qn[0], 1u);
                qrow[0][k] = r, qbeg[0][k] = b, qlen[0][k] = (u32)(end - b);
            }
        }
        __syncthreads();
        /// 2. CTA stage: each block-sized chunk by all the block's threads.
        for (u32 j = 0; j < qn[2]; j++) {
            u32 rr = qrow[2][j];
            i64 e1 = qbeg[2][j] + qlen[2][j];
            for (i64 e = qbeg[2][j] + threadIdx.x; e < e1; e += BLOCK) {
                if (f.done(rr)) break;
                visit(a, sh, st, f, rr, e);
            }
        }
        /// 3. Warp stage: warp-sized chunks, the block's warps in turn.
        for (u32 j = warp; j < qn[1]; j += WARPS_PER_BLOCK) {
            u32 rr = qrow[1][j];
            i64 e1 = qbeg[1][j] + qlen[1][j];
            for (i64 e = qbeg[1][j] + lane; e < e1; e += 32) {
                if (f.done(rr)) break;
                visit(a, sh, st, f, rr, e);
            }
        }
        /// 4. Thread stage: the remainders (under 32 edges), packed over the first threads.
        for (u32 j = threadIdx.x; j < qn[0]; j += BLOCK) {
            u32 rr = qrow[0][j];
            i64 e1 = qbeg[0][j] + qlen[0][j];
            for (i64 e = qbeg[0][j]; e < e1; e++) {
                if (f.done(rr)) break;
                visit(a, sh, st, f, rr, e);
            }
        }
        agg_flush(a, sh);
    }
}

// lb_grid: the rows of a small input frontier one after another, each row's edges strided over
// the whole grid. Fused loops use it for a few rows holding many edges (a hub's
// neighbourhood), where the host-driven loop would expand edge-balanced (lb_edge needs a scan
// the fused loop does not build).
template <class F>
__device__ void lb_grid(const Args& a, Shared& sh, Local& st, F& f) {
    u32 cnt = in_count(a);
    i64 t = blockIdx.x * (i64)blockDim.x + threadIdx.x, nt = (i64)gridDim.x * blockDim.x;
    for (u32 i = 0; i < cnt; i++) {
        u32 r;
        if (!get_row(a, i, &r) || !f.row_ok(r)) continue;
        i64 b = a.off[r], end = a.off[r + 1];
        if (t == 0) st.edges += end - b;
        for (i64 e = b + t; e < end; e += nt) {
            if (f.done(r)) break;
            visit(a, sh, st, f, r, e);
        }
    }
}

enum { LThread = 0, LWarp = 1, LCTA = 2, LTWC = 3, LEdge = 4, LCOO = 5, LNP = 6, LETWC = 7, LGrid = 8, LBatch = 9 };

// RichLB<F>::lb is the strategy a fused push loop runs for functor F on a rich frontier
// (more than 4096 rows of 16 or more edges on average) under lb=twc|etwc|np; -1: the lb
// itself, with 32 rows a block and a warp from 8 edges. kernels/sssp.cu specialises it (LBatch:
// kernels/sssp.cu sssp_batch).
template <class F>
struct RichLB {
    static constexpr int lb = -1;
};

// LateLB dispatches the strategies added after the first seven by specialisation, so that a
// kernel instantiates (and declares the shared queues of) only the strategy it runs.
template <int LB>
struct LateLB {
    template <class F>
    static __device__ __forceinline__ bool run(const Args&, Shared&, Local&, F&) { return false; }
};
template <>
struct LateLB<LETWC> {
    template <class F>
    static __device__ __forceinline__ bool run(const Args& a, Shared& sh, Local& st, F& f) {
        lb_etwc(a, sh, st, f);
        return true;
    }
};
template <>
struct LateLB<LGrid> {
    template <class F>
    static __device__ __forceinline__ bool run(const Args& a, Shared& sh, Local& st, F& f) {
        lb_grid(a, sh, st, f);
        return true;
    }
};

// advance runs one step of functor f with strategy LB over the input frontier.
template <int LB, class F>
__device__ void advance(const Args& a, Shared& sh, F& f) {
    Local st = {0, 0, 0, 0};
    shared_init(sh);
    if (!LateLB<LB>::run(a, sh, st, f)) switch (LB) {
    case LThread: lb_thread(a, sh, st, f); break;
    case LWarp: lb_warp(a, sh, st, f); break;
    case LCTA: lb_cta(a, sh, st, f); break;
    case LTWC: lb_twc(a, sh, st, f); break;
    case LEdge: lb_edge(a, sh, st, f); break;
    case LNP: lb_np(a, sh, st, f); break;
    default: lb_coo(a, sh, st, f); break;
    }
    finish(a, sh, st);
}

// ENTRY defines kernel NAME running functor FUNCTOR with strategy LB.
#define ENTRY(NAME, FUNCTOR, LB)                                              \
    extern "C" __global__ void __launch_bounds__(BLOCK) NAME(const Args a) {  \
        __shared__ Shared sh;                                                 \
        FUNCTOR f{a};                                                         \
        advance<LB>(a, sh, f);                                                \
    }

#define ENTRIES(PREFIX, FUNCTOR)              \
    ENTRY(PREFIX##_thread, FUNCTOR, LThread) \
    ENTRY(PREFIX##_warp, FUNCTOR, LWarp)     \
    ENTRY(PREFIX##_cta, FUNCTOR, LCTA)       \
    ENTRY(PREFIX##_twc, FUNCTOR, LTWC)       \
    ENTRY(PREFIX##_edge, FUNCTOR, LEdge)     \
    ENTRY(PREFIX##_coo, FUNCTOR, LCOO)       \
    ENTRY(PREFIX##_np, FUNCTOR, LNP)

/// Fused loops (IrGL's iteration outlining, UGF's kernel fusion): the whole loop in one
/// cooperative launch, a grid-wide barrier between steps. Iteration k reads queue (k even ?
/// in_q : out_q) of length lens[k] and writes the other, of length lens[k+1]; its counters go
/// to trace[k*NCounters ...], with the time at its end (globaltimer, ns) in CTime. The host
/// zeroes lens and trace before the launch. The loop stops when a worklist is empty, after
/// `iters` iterations, or on overflow (the host grows the queue, folds the spill in, and
/// launches again from the next iteration).
template <int LB, class F>
__device__ void fused_loop(const Args& a0) {
    __shared__ Shared sh;
    cg::grid_group grid = cg::this_grid();
    Args s = a0;
    i64 bound = a0.bound;
    int far_sel = 0;
    __shared__ u64 split_edges;  // the block's share of a far split's near edges
    if (blockIdx.x == 0 && threadIdx.x == 0) a0.trace[a0.iters * NCounters + CStop] = globaltimer();
    for (i64 k = 0; k < a0.iters; k++) {
        bool even = (k & 1) == 0;
        s.in_q = even ? a0.in_q : a0.out_q;
        s.out_q = even ? a0.out_q : (u32*)a0.in_q;
        s.in_len = a0.lens + k;
        s.out_len = a0.lens + k + 1;
        s.counters = a0.trace + k * NCounters;
        s.iter = a0.iter + k;
        s.tag = a0.tag + k;
        s.far_q = far_sel ? a0.far2 : a0.far_q;
        s.far_len = far_sel ? a0.far_len2 : a0.far_len;
        u32 cnt = *((volatile u32*)s.in_len);
        if (k > 0 && cnt > 0 && cnt <= (u32)a0.small) break;  // fuse=block: small again, the host hands it to one block
        bool refilled = false;  // this input came from the far pile
        if (FarPile<F>::on && cnt == 0 && a0.far_q) {
            refilled = true;
            /// Near-far: the near worklist is empty; move the bound past the smallest far
            /// distance and split the far pile into this iteration's input and the other pile.
            u32* dst_q = far_sel ? a0.far_q : a0.far2;
            u32* dst_len = far_sel ? a0.far_len : a0.far_len2;
            u32 fc = *((volatile u32*)s.far_len);
            if (fc == 0) break;
            if (blockIdx.x == 0 && threadIdx.x == 0) s.counters[CFar] = fc;
            if (blockIdx.x == 0 && threadIdx.x == 0) *dst_len = 0;
            u64 best = 0;
            for (i64 i = blockIdx.x * (i64)blockDim.x + threadIdx.x; i < fc; i += (i64)gridDim.x * blockDim.x) {
                i64 d = s.val[s.far_q[i]];
                if (d >= bound) best = max(best, (u64)(INF_DIST - d));
            }
            if (best) atomicMax(&s.counters[CMinFar], best);
            if (threadIdx.x == 0) {
                split_edges = 0;
                sh.n = 0;
                far_bq().n = 0;
            }
            grid.sync();
            u64 m = *((volatile u64*)&s.counters[CMinFar]);
            if (m == 0) break;  // nothing left above the bound
            i64 mind = INF_DIST - (i64)m;
            bound = (mind / a0.delta + 1) * a0.delta;
            u64 ne = 0;  // the near items' out-edges (the next step's rules need them)
            BlockQ& rb = far_bq();
            for (i64 i = blockIdx.x * (i64)blockDim.x + threadIdx.x; i < fc; i += (i64)gridDim.x * blockDim.x) {
                u32 v = s.far_q[i];
                i64 d = s.val[v];
                if (d < mind) continue;
                if (d < bound) {
                    if (atomicExch(&s.stamp[v], (u32)s.tag) == (u32)s.tag) continue;
                    if (a0.out_off) ne += (u64)(a0.out_off[v + 1] - a0.out_off[v]);
                    if (!bq_put(sh.q, &sh.n, v)) queue_push(s, (u32*)s.in_q, a0.lens + k, s.out_cap, 1, v);
                } else {
                    // one copy per vertex: val does not change during the split, so a vertex
                    // goes to one side only and the near side's stamp serves both
                    if (atomicExch(&s.stamp[v], (u32)s.tag) == (u32)s.tag) continue;
                    // the piles have equal capacity: the split never overflows
                    if (!bq_put(rb.q, &rb.n, v)) queue_push(s, dst_q, dst_len, s.far_cap, 2, v);
                }
            }
            bq_flush(s, sh.q, &sh.n, &sh.base, (u32*)s.in_q, a0.lens + k, s.out_cap, 1);
            bq_flush(s, rb.q, &rb.n, &rb.base, dst_q, dst_len, s.far_cap, 2);
            for (int o = 16; o > 0; o >>= 1) ne += __shfl_down_sync(0xffffffffu, ne, o);
            if ((threadIdx.x & 31) == 0 && ne) atomicAdd(&split_edges, ne);
            __syncthreads();
            if (threadIdx.x == 0 && split_edges) atomicAdd(&s.counters[CCountEdges], split_edges);
            far_sel ^= 1;
            s.far_q = far_sel ? a0.far2 : a0.far_q;
            s.far_len = far_sel ? a0.far_len2 : a0.far_len;
            s.tag = a0.tag + k + (1 << 30);
            grid.sync();
            if (s.counters[COverflow]) break;
            cnt = *((volatile u32*)s.in_len);
            if (cnt == 0) continue;
        } else if (cnt == 0 && a0.far_q) {
            // (no far pile for this functor: never taken. The split is kept as it was before
            // the SSSP one above changed, for the fused BFS kernels' register allocation:
            // without it ptxas gives bfs_fused_warp 64 registers, and road BFS ran 3% slower.)
            refilled = true;
            /// Near-far: the near worklist is empty; move the bound past the smallest far
            /// distance and split the far pile into this iteration's input and the other pile.
            u32* dst_q = far_sel ? a0.far_q : a0.far2;
            u32* dst_len = far_sel ? a0.far_len : a0.far_len2;
            u32 fc = *((volatile u32*)s.far_len);
            if (fc == 0) break;
            if (blockIdx.x == 0 && threadIdx.x == 0) *dst_len = 0;
            u64 best = 0;
            for (i64 i = blockIdx.x * (i64)blockDim.x + threadIdx.x; i < fc; i += (i64)gridDim.x * blockDim.x) {
                i64 d = s.val[s.far_q[i]];
                if (d >= bound) best = max(best, (u64)(INF_DIST - d));
            }
            if (best) atomicMax(&s.counters[CMinFar], best);
            grid.sync();
            u64 m = *((volatile u64*)&s.counters[CMinFar]);
            if (m == 0) break;  // nothing left above the bound
            i64 mind = INF_DIST - (i64)m;
            bound = (mind / a0.delta + 1) * a0.delta;
            for (i64 i = blockIdx.x * (i64)blockDim.x + threadIdx.x; i < fc; i += (i64)gridDim.x * blockDim.x) {
                u32 v = s.far_q[i];
                i64 d = s.val[v];
                if (d < mind) continue;
                if (d < bound) {
                    if (atomicExch(&s.stamp[v], (u32)s.tag) == (u32)s.tag) continue;
                    u32 idx = atomicAdd(a0.lens + k, 1u);
                    if ((i64)idx < s.out_cap) ((u32*)s.in_q)[idx] = v;
                    else { s.spill[v] = 1; s.counters[COverflow] = 1; }
                } else {
                    u32 idx = atomicAdd(dst_len, 1u);
                    dst_q[idx] = v;  // the piles have equal capacity: the split never overflows
                }
            }
            far_sel ^= 1;
            s.far_q = far_sel ? a0.far2 : a0.far_q;
            s.far_len = far_sel ? a0.far_len2 : a0.far_len;
            s.tag = a0.tag + k + (1 << 30);
            grid.sync();
            if (s.counters[COverflow]) break;
            cnt = *((volatile u32*)s.in_len);
            if (cnt == 0) continue;
        }
        if (cnt == 0) break;
        s.bound = bound;
        F f{s};
        if (LB == LTWC || LB == LETWC || LB == LNP) {
            /// twc, etwc and np adapt to the frontier as the host-driven step does, from its
            /// edges: the host's count for the launch's first input (do_scout), then the edges
            /// of the last iteration's near pushes (this input, unless a far split refilled
            /// it: then unknown, -1). A hub's few rows over the whole grid; a small frontier
            /// (<= 4096 rows) of rich or unknown rows a warp per row; rich rows (>= 16 edges
            /// on average) 32 rows a block and a warp for every row of 8 or more edges; np's
            /// rows of under 2 edges a thread each (fused.go fusedRule traces the same).
            i64 sc = -1;
            if (!a0.out_off) sc = k == 0 && !refilled ? a0.do_scout : -1;
            else if (refilled) sc = (i64)*((volatile u64*)&s.counters[CCountEdges]);
            else sc = k == 0 ? a0.do_scout : (i64)*((volatile u64*)&a0.trace[(k - 1) * NCounters + CScout]);
            s.rows_per_block = a0.rows_per_block;
            s.twc_warp = a0.twc_warp;
            if (cnt <= 64 && sc >= 16384) {
                advance<LGrid>(s, sh, f);
            } else if (cnt <= 4096 && (sc < 0 || sc >= 8 * (i64)cnt)) {
                advance<LWarp>(s, sh, f);
            } else if (LB == LNP && sc >= 0 && sc < 2 * (i64)cnt) {
                advance<LThread>(s, sh, f);
            } else if (RichLB<F>::lb >= 0 && sc >= 16 * (i64)cnt) {
                advance<(RichLB<F>::lb >= 0 ? RichLB<F>::lb : LB)>(s, sh, f);
            } else {
                if (sc >= 16 * (i64)cnt) {
                    s.rows_per_block = LB == LNP ? (a0.rows_per_block & 255) | (32 << 8) : 32;
                    s.twc_warp = 8;
                }
                advance<LB>(s, sh, f);  // (f reads s)
            }
        } else {
            advance<LB>(s, sh, f);
        }
        if (a0.val != a0.val_in) {
            grid.sync();
            for (i64 v = blockIdx.x * (i64)blockDim.x + threadIdx.x; v < s.n; v += (i64)gridDim.x * blockDim.x)
                ((int*)s.val_in)[v] = s.val[v];
        }
        grid.sync();
        if (blockIdx.x == 0 && threadIdx.x == 0) {
            s.counters[CTime] = globaltimer();
            s.counters[CBound] = (u64)bound;
            s.counters[CFarSel] = far_sel;
            s.counters[CCount] = cnt;
        }
        if (s.counters[COverflow]) break;
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        a0.trace[a0.iters * NCounters + CBound] = (u64)bound;
        a0.trace[a0.iters * NCounters + CFarSel] = far_sel;
    }
}

#define FUSED(NAME, FUNCTOR, LB) \
    extern "C" __global__ void __launch_bounds__(BLOCK) NAME(const Args a) { fused_loop<LB, FUNCTOR>(a); }

// FUSED_MIN is FUSED with at least MINB blocks resident per SM (the register budget).
#define FUSED_MIN(NAME, FUNCTOR, LB, MINB) \
    extern "C" __global__ void __launch_bounds__(BLOCK, MINB) NAME(const Args a) { fused_loop<LB, FUNCTOR>(a); }

#define FUSED_ENTRIES(PREFIX, FUNCTOR)          \
    FUSED(PREFIX##_thread, FUNCTOR, LThread)    \
    FUSED(PREFIX##_warp, FUNCTOR, LWarp)        \
    FUSED(PREFIX##_cta, FUNCTOR, LCTA)          \
    FUSED(PREFIX##_twc, FUNCTOR, LTWC)
