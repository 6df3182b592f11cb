// block_loop.cuh: fuse=block: a traversal's loop in one thread block while its frontier is
// small. A road network's BFS and near-far SSSP run thousands of iterations over frontiers of
// a few hundred to a few thousand vertices; the grid-wide barrier between the fused loop's
// steps (kernels/common.cuh fused_loop) costs more than such a step's work. One block of
// SBLOCK threads steps with __syncthreads only and keeps its worklists in shared memory, so a
// step is a few dependent L2 round trips (the row, the neighbours, the atomic). When the
// frontier grows past a.small the block writes it out and returns, and the host continues
// with the cooperative grid (fused_loop, which returns when the frontier falls to its own
// a.small).
//
// The launch follows fused_loop's contract, so the host reads both alike: iteration k reads
// queue (k even ? in_q : out_q) of length lens[k] and writes the other; its counters go to
// trace row k (CTime last); a.far_q / a.far2 are the near-far piles, far_sel the current one;
// the stop time, final bound and pile go to row a.iters. A functor supplies the relaxation:
//   F::far                       near-far (SSSP): pushes at or above the bound go to the far pile
//   F::weighted                  the step reads the edge weights
//   int F::start(a, u)           the row's value (SSSP: its distance)
//   int F::next(du, w, level)    the value offered to a neighbour
//   int F::update(a, v, nd)      offers nd to v, returns v's value before
//   bool F::won(old, nd)         whether the offer changed v (v joins the worklist)
#pragma once
#include "common.cuh"

#define SBLOCK 1024
#define SCAP 4096   // near worklist entries held in shared memory (each of two)
#define SFCAP 1024  // far pile entries held in shared memory (each of two)

// VQ is a worklist whose first SCAP (or SFCAP) entries live in shared memory and the rest in
// a global queue at the same index, so a worklist past its shared part needs no other care.
struct VQ {
    u32* s;
    u32* g;
    u32 cap;
};

__device__ __forceinline__ u32 vq_get(const VQ& q, u32 i) { return i < q.cap ? q.s[i] : q.g[i]; }

// vq_put stores v at index i; false past the global queue's capacity gcap.
__device__ __forceinline__ bool vq_put(const VQ& q, u32 i, i64 gcap, u32 v) {
    if (i < q.cap) {
        q.s[i] = v;
        return true;
    }
    if ((i64)i >= gcap) return false;
    q.g[i] = v;
    return true;
}

// vq_spill writes the shared part of q's first n entries to its global queue.
__device__ __forceinline__ void vq_spill(const VQ& q, u32 n) {
    for (u32 i = threadIdx.x; i < min(n, q.cap); i += blockDim.x) q.g[i] = q.s[i];
}

__device__ __forceinline__ u64 warp_sum(u64 x) {
    for (int o = 16; o > 0; o >>= 1) x += __shfl_down_sync(0xffffffffu, x, o);
    return x;
}

// Per-iteration counters in shared memory, three sets in rotation: thread 0 reads set k after
// the step's barrier and clears set k+2, which nobody touches before the next barrier. The
// worklist lengths rotate the same way (nlen).
struct BlockCounters {
    u64 edges, pushes, culled;
};

template <class F>
__device__ void block_loop(const Args& a0) {
    __shared__ u32 nq[2][SCAP];
    __shared__ u32 fq[F::far ? 2 : 1][F::far ? SFCAP : 1];
    __shared__ u32 nlen[3];  // worklist lengths: input of iteration k in nlen[k % 3]
    __shared__ u32 flen[2];  // far pile lengths (attempted pushes)
    __shared__ BlockCounters cnt3[3];
    __shared__ int s_min, s_ovf;
    __shared__ u64 s_edges;
    const u32 t = threadIdx.x;
    i64 bound = a0.bound;
    int fsel = 0;  // the current far pile: 0 far_q, 1 far2
    /// 1. Prologue: the start time, lengths, and the input and far pile's shared parts.
    if (t == 0) {
        a0.trace[a0.iters * NCounters + CStop] = globaltimer();
        nlen[0] = a0.lens[0];
        nlen[1] = 0;
        nlen[2] = 0;
        flen[0] = F::far ? *a0.far_len : 0;
        flen[1] = 0;
        s_ovf = 0;
        for (int j = 0; j < 3; j++) cnt3[j] = BlockCounters{0, 0, 0};
    }
    __syncthreads();
    {
        u32 c = nlen[0];
        for (u32 i = t; i < min(c, (u32)SCAP); i += SBLOCK) nq[0][i] = a0.in_q[i];
        if (F::far)
            for (u32 i = t; i < min(flen[0], (u32)SFCAP); i += SBLOCK) fq[0][i] = a0.far_q[i];
    }
    __syncthreads();
    i64 k = 0;
    bool stale = false;  // the far pile holds only settled entries
    for (; k < a0.iters; k++) {
        const int p = (int)(k & 1);
        u32* gin = p == 0 ? (u32*)a0.in_q : a0.out_q;
        u32* gout = p == 0 ? a0.out_q : (u32*)a0.in_q;
        VQ in{nq[p], gin, SCAP}, out{nq[p ^ 1], gout, SCAP};
        u32* in_len = &nlen[k % 3];
        u32* out_len = &nlen[(k + 1) % 3];
        BlockCounters& bc = cnt3[k % 3];
        u64* row = a0.trace + k * NCounters;
        u32 cnt = *in_len;
        // the output of iteration k+1 (input of k-1, read no more)
        if (t == 0) nlen[(k + 2) % 3] = 0;
        bool refilled = false;
        if (F::far && cnt == 0) {
            /// 2. Near-far: the worklist is empty; move the bound past the smallest far
            /// distance and split the pile into this iteration's input and the other pile.
            u32 fc = flen[fsel];
            if (fc == 0) break;
            VQ far{fq[fsel], fsel ? a0.far2 : a0.far_q, SFCAP};
            VQ dst{fq[fsel ^ 1], fsel ? a0.far_q : a0.far2, SFCAP};
            if (t == 0) {
                s_min = INF_DIST;
                flen[fsel ^ 1] = 0;
            }
            __syncthreads();
            int best = INF_DIST;
            for (u32 i = t; i < fc; i += SBLOCK) {
                int d = a0.val[vq_get(far, i)];
                if ((i64)d >= bound) best = min(best, d);
            }
            for (int o = 16; o > 0; o >>= 1) best = min(best, __shfl_down_sync(0xffffffffu, best, o));
            if ((t & 31) == 0 && best != INF_DIST) atomicMin(&s_min, best);
            __syncthreads();
            int mind = s_min;
            if (mind == INF_DIST) {
                stale = true;
                break;
            }
            bound = ((i64)mind / a0.delta + 1) * a0.delta;
            u32 stag = (u32)(a0.tag + k + (1 << 30));
            for (u32 i = t; i < fc; i += SBLOCK) {
                u32 v = vq_get(far, i);
                int d = a0.val[v];
                if (d < mind) continue;
                // one copy per vertex: val does not change during the split
                if (atomicExch(&a0.stamp[v], stag) == stag) continue;
                if ((i64)d < bound) {
                    if (!vq_put(in, atomicAdd(in_len, 1u), a0.out_cap, v)) {
                        a0.spill[v] = 1;
                        s_ovf = 1;
                    }
                } else if (!vq_put(dst, atomicAdd(&flen[fsel ^ 1], 1u), a0.far_cap, v)) {
                    a0.spill[v] = 1;
                    s_ovf = 2;
                }
            }
            if (t == 0) {
                row[CFar] = fc;
                row[CMinFar] = (u64)(INF_DIST - mind);
            }
            fsel ^= 1;
            refilled = true;
            __syncthreads();
            cnt = *in_len;
        }
        if (cnt == 0 || cnt > (u32)a0.small || s_ovf) break;
        /// 3. The step: a thread per row, its edges four at a time (loads, then the atomics,
        /// then the pushes, so that each lane has four relaxations in flight).
        VQ farq{fq[F::far ? fsel : 0], fsel ? a0.far2 : a0.far_q, SFCAP};
        const int level = (int)(a0.iter + k + 1);
        const u32 tag = (u32)(a0.tag + k);
        u64 edges = 0, pushes = 0, culled = 0;
        for (u32 i = t; i < cnt; i += SBLOCK) {
            u32 u = vq_get(in, i);
            i64 b = a0.off[u], e = a0.off[u + 1];
            int du = F::start(a0, u);
            edges += (u64)(e - b);
            for (i64 e0 = b; e0 < e; e0 += 4) {
                u32 v[4];
                int nd[4], old[4];
#pragma unroll
                for (int j = 0; j < 4; j++) {
                    v[j] = 0;
                    nd[j] = 0;
                    if (e0 + j < e) {
                        v[j] = a0.nbr[e0 + j];
                        nd[j] = F::next(du, F::weighted ? weight(a0, e0 + j) : 1, level);
                    }
                }
#pragma unroll
                for (int j = 0; j < 4; j++)
                    if (e0 + j < e) old[j] = F::update(a0, v[j], nd[j]);
#pragma unroll
                for (int j = 0; j < 4; j++) {
                    if (e0 + j >= e || !F::won(old[j], nd[j])) continue;
                    if (F::far && (i64)nd[j] >= bound) {
                        if (!vq_put(farq, atomicAdd(&flen[fsel], 1u), a0.far_cap, v[j])) {
                            a0.spill[v[j]] = 1;
                            s_ovf = 2;
                        }
                        continue;
                    }
                    if (a0.dedup == DAtomic) {
                        if (atomicExch(&a0.stamp[v[j]], tag) == tag) continue;
                    } else if (a0.dedup != DNone) {
                        // cull: racy per-iteration stamps (a lost stamp lets a duplicate through)
                        if (a0.stamp[v[j]] == tag) {
                            culled++;
                            continue;
                        }
                        a0.stamp[v[j]] = tag;
                    }
                    pushes++;
                    if (!vq_put(out, atomicAdd(out_len, 1u), a0.out_cap, v[j])) {
                        a0.spill[v[j]] = 1;
                        s_ovf = 1;
                    }
                }
            }
        }
        edges = warp_sum(edges);
        pushes = warp_sum(pushes);
        culled = warp_sum(culled);
        if ((t & 31) == 0) {
            if (edges) atomicAdd(&bc.edges, edges);
            if (pushes) atomicAdd(&bc.pushes, pushes);
            if (culled) atomicAdd(&bc.culled, culled);
        }
        __syncthreads();
        /// 4. The iteration's trace row (CTime last: the host reads rows up to the first
        /// without it); the input's edges are the last row's CScout, or this row's
        /// CCountEdges when a split refilled it.
        if (t == 0) {
            row[CEdges] = bc.edges;
            row[CPushes] = bc.pushes;
            row[CCulled] = bc.culled;
            row[CCount] = cnt;
            row[CBound] = (u64)bound;
            row[CFarSel] = fsel;
            if (refilled) row[CCountEdges] = bc.edges;
            else if (k > 0) a0.trace[(k - 1) * NCounters + CScout] = bc.edges;
            if (s_ovf) row[COverflow] = s_ovf;
            a0.lens[k + 1] = *out_len;
            cnt3[(k + 2) % 3] = BlockCounters{0, 0, 0};
            row[CTime] = globaltimer();
        }
        if (s_ovf) {
            k++;
            break;
        }
    }
    /// 5. Epilogue: the input of iteration k (the next to run) and the far pile to global
    /// memory, their lengths, the input's edges (the last row's CScout), the bound and pile.
    if (t == 0) s_edges = 0;
    __syncthreads();
    u32 c = nlen[k % 3];
    u32* gk = (k & 1) == 0 ? (u32*)a0.in_q : a0.out_q;
    vq_spill(VQ{nq[k & 1], gk, SCAP}, c);
    u64 edges = 0;
    for (u32 i = t; i < c; i += SBLOCK) {
        u32 v = i < SCAP ? nq[k & 1][i] : gk[i];
        edges += (u64)(a0.off[v + 1] - a0.off[v]);
    }
    edges = warp_sum(edges);
    if ((t & 31) == 0 && edges) atomicAdd(&s_edges, edges);
    if (F::far) vq_spill(VQ{fq[fsel], fsel ? a0.far2 : a0.far_q, SFCAP}, flen[fsel]);
    __syncthreads();
    if (t == 0) {
        a0.lens[k] = c;
        if (k > 0 && c > 0) a0.trace[(k - 1) * NCounters + CScout] = s_edges;
        if (F::far) *(fsel ? a0.far_len2 : a0.far_len) = stale ? 0 : flen[fsel];
        a0.trace[a0.iters * NCounters + CBound] = (u64)bound;
        a0.trace[a0.iters * NCounters + CFarSel] = fsel;
    }
}

#define BLOCK_LOOP(NAME, FUNCTOR) \
    extern "C" __global__ void __launch_bounds__(SBLOCK, 1) NAME(const Args a) { block_loop<FUNCTOR>(a); }
