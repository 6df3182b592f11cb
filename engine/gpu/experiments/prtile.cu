// prtile.cu: a measuring prototype, not part of the build (NOTES.md, "Round 5").
//
// One Jacobi PageRank pull sweep over urand scale 20 degree 16 (built on the host, 33.55M arcs),
// in the tiled layout of blocking.go (a CTA owns a range of destinations, sums them in shared
// memory as doubles, and walks the source segments of N vertices in order), with the segment
// staged in shared memory four ways: cp.async (sm_80), gathers from the cluster's distributed
// shared memory, a software multicast through distributed shared memory, and the TMA bulk copy
// engine's cluster multicast (sm_90a). Each variant is timed (mean of 20 launches after 3) and
// its ranks checked against a host sweep. The TMA variant needs PTX ISA 8.0, which Debian's nvcc
// 11.8 cannot emit; on the device machine (nvcc 13):
//
//	nvcc -arch=sm_90a -O3 -std=c++17 -o prtile prtile.cu && ./prtile
#include "urand.cuh"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
#define SRC_BITS 18

__device__ __forceinline__ void cp16(void* s, const void* g) {
    unsigned a = (unsigned)__cvta_generic_to_shared(s);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(a), "l"(g));
}
__device__ __forceinline__ void cp4(void* s, const void* g) {
    unsigned a = (unsigned)__cvta_generic_to_shared(s);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(a), "l"(g));
}
__device__ __forceinline__ void cp_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int W> __device__ __forceinline__ void cp_wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(W)); }

struct P {
    const i64* off; const u32* nbr; const float* contrib; const float* deg; const float* rank_in;
    float* rank_out; float* contrib_out; double* err;
    int n, S, N, R, EB; float base, damp;
};

// MODE, for every form: 0 sums as doubles with shared atomics (CAS loops on sm_90); 1 floats
// (CAS loops too, and not precise enough for a hub; tas only); 2 no sums, a register total
// (the floor); 3 the warp's equal destinations combined with match_any first (tas only); 4 the
// copies only, no gathers; 5 no segment copy (gathers from whatever is in shared memory).

// Acc adds one edge's contribution to its destination's sum as MODE says.
template <int MODE>
struct Acc {
    double* sums;
    float total;
    __device__ void operator()(int d, float g) {
        if (MODE == 0) atomicAdd(&sums[d], (double)g);
        else if (MODE == 1) atomicAdd((float*)sums + d, g);
        else if (MODE == 3) {
            // sorted edges: the lanes of one destination are contiguous; the first adds
            unsigned grp = __match_any_sync(__activemask(), d);
            int lead = __ffs(grp) - 1, lane = threadIdx.x & 31;
            double tot = 0;
            for (unsigned m = grp; m; m &= m - 1) tot += __shfl_sync(grp, (double)g, __ffs(m) - 1);
            if (lane == lead) {
                if (lead == 0 || (grp >> 31)) atomicAdd(&sums[d], tot);
                else sums[d] += tot;
            }
        } else total += g * (float)d;
    }
    __device__ double sum(int i) const {
        if (MODE == 1) return (double)((const float*)sums)[i];
        if (MODE == 0 || MODE == 3) return sums[i];
        return total;
    }
};

// tile_begin zeroes the block's sums and loads its S + 1 tile offsets into shared memory.
__device__ void tile_begin(const P& a, double* sums, i64* to) {
    for (int i = threadIdx.x; i < a.R; i += blockDim.x) sums[i] = 0;
    for (int i = threadIdx.x; i <= a.S; i += blockDim.x) to[i] = a.off[(i64)blockIdx.x * a.S + i];
}

// tile_edges returns tile s's bounds: its edges [B, E), the 16-byte aligned start A of its
// staged copy, and the end of what the copy holds (at most EB edges).
struct TileEdges { i64 B, E, A, inSh; };
__device__ TileEdges tile_edges(const P& a, const i64* to, int s) {
    TileEdges t;
    t.B = to[s];
    t.E = to[s + 1];
    t.A = t.B & ~(i64)3;
    t.inSh = min(t.E, t.A + a.EB);
    return t;
}

// copy_edges stages tile s's edges into ed with cp.async (16-byte pieces).
__device__ void copy_edges(const P& a, const i64* to, int s, u32* ed) {
    TileEdges t = tile_edges(a, to, s);
    const i64 cnt = min(t.E - t.A, (i64)a.EB);
    for (int i = threadIdx.x * 4; i < cnt; i += blockDim.x * 4) cp16(ed + i, a.nbr + t.A + i);
}

// copy_floats stages lim floats from src into dst with cp.async.
__device__ void copy_floats(float* dst, const float* src, int lim) {
    for (int i = threadIdx.x * 4; i < lim; i += blockDim.x * 4) {
        if (i + 4 <= lim) cp16(dst + i, src + i);
        else for (int k = i; k < lim; k++) cp4(dst + k, src + k);
    }
}

// sum_tile walks tile s: each edge's source offset through gather, its destination to add.
template <int MODE, typename G>
__device__ void sum_tile(const P& a, const i64* to, int s, const u32* e, const G& gather, Acc<MODE>& add) {
    if (MODE == 4) return;
    TileEdges t = tile_edges(a, to, s);
    for (i64 p = t.B + threadIdx.x; p < t.E; p += blockDim.x) {
        u32 x = p < t.inSh ? e[p - t.A] : a.nbr[p];
        add((int)(x >> SRC_BITS), gather(x & ((1u << SRC_BITS) - 1)));
    }
}

// write_ranks writes the block's new ranks and contributions and adds its L1 change.
template <int MODE>
__device__ void write_ranks(const P& a, const Acc<MODE>& add) {
    const i64 v0 = (i64)blockIdx.x * a.R;
    const int rn = (int)max((i64)0, min((i64)a.R, (i64)a.n - v0));
    double err = 0;
    for (int i = threadIdx.x; i < rn; i += blockDim.x) {
        i64 v = v0 + i;
        float nr = (float)(a.base + a.damp * add.sum(i));
        err += fabs((double)nr - (double)a.rank_in[v]);
        a.rank_out[v] = nr;
        float od = a.deg[v];
        a.contrib_out[v] = od > 0 ? nr / od : 0.f;
    }
    for (int o = 16; o; o >>= 1) err += __shfl_down_sync(0xffffffff, err, o);
    if ((threadIdx.x & 31) == 0) atomicAdd(a.err, err);
}

struct Local {
    const float* seg;
    __device__ float operator()(u32 i) const { return seg[i]; }
};

// staged_loop runs the K-stage cp.async pipeline over the block's S tiles: each step copies
// this CTA's slice of the segment (SL floats from sliceOff) and its tile's edges, sync()
// publishes them, and the tile is summed through gatherOf(stage).
template <int K, int MODE, typename Sync, typename GatherOf>
__device__ Acc<MODE> staged_loop(const P& a, const i64* to, float* segb, int SL, i64 sliceOff, u32* eb, double* sums, const Sync& sync, const GatherOf& gatherOf) {
    auto issue = [&](int s) {
        if (s < a.S) {
            const i64 b = (i64)s * a.N + sliceOff;
            if (MODE != 5) copy_floats(segb + (s % K) * SL, a.contrib + b, (int)max((i64)0, min((i64)SL, (i64)a.n - b)));
            copy_edges(a, to, s, eb + (s % K) * (a.EB + 8));
        }
        cp_commit();
    };
#pragma unroll
    for (int s = 0; s < K - 1; s++) issue(s);
    Acc<MODE> add{sums, 0.f};
    for (int s = 0; s < a.S; s++) {
        cp_wait<K - 2>();
        sync();
        issue(s + K - 1);
        sum_tile(a, to, s, eb + (s % K) * (a.EB + 8), gatherOf(s % K), add);
    }
    sync();
    return add;
}

// tas: segments staged with cp.async, K stages, one CTA a SM.
template <int T, int K, int MODE>
__global__ void __launch_bounds__(T, 1) tas(P a) {
    extern __shared__ double sh[];
    const int N = a.N, S = a.S;
    i64* to = (i64*)(sh + a.R);
    float* segb = (float*)(to + S + 1 + ((S + 1) & 1));
    u32* eb = (u32*)(segb + K * N);
    tile_begin(a, sh, to);
    __syncthreads();
    Acc<MODE> add = staged_loop<K, MODE>(a, to, segb, N, 0, eb, sh, [] { __syncthreads(); },
                                         [&](int st) { return Local{segb + st * N}; });
    write_ranks(a, add);
}

// Remote gathers from slices of SL = 2^LOG_SL floats spread over the cluster (rb: their
// generic addresses, one per CTA).
template <int LOG_SL>
struct Remote {
    float* const* rb;
    __device__ float operator()(u32 i) const { return rb[i >> LOG_SL][i & ((1u << LOG_SL) - 1)]; }
};

// dsg: cluster of C CTAs; each stages 1/C of segment s (SL = N/C floats) and the gathers read
// the owner's shared memory, local or remote.
template <int T, int K, int C, int LOG_SL, int MODE>
__global__ void __cluster_dims__(C, 1, 1) __launch_bounds__(T, 1) dsg(P a) {
    cg::cluster_group cl = cg::this_cluster();
    const int rank = (int)cl.block_rank();
    extern __shared__ double sh[];
    const int S = a.S, SL = 1 << LOG_SL;
    float** rb = (float**)(sh + a.R);
    i64* to = (i64*)(rb + K * C);
    float* segb = (float*)(to + S + 1 + ((S + 1) & 1));
    u32* eb = (u32*)(segb + K * SL);
    tile_begin(a, sh, to);
    if (threadIdx.x < K * C) rb[threadIdx.x] = cl.map_shared_rank(segb + (threadIdx.x / C) * SL, threadIdx.x % C);
    cl.sync();
    Acc<MODE> add = staged_loop<K, MODE>(a, to, segb, SL, (i64)rank * SL, eb, sh, [&] { cl.sync(); },
                                         [&](int st) { return Remote<LOG_SL>{rb + st * C}; });
    write_ranks(a, add);
}

// dsp (software multicast): cluster of C CTAs; each loads 1/C of segment s+1 into registers
// while tile s is summed and stores it into every CTA's stage buffer; gathers are local.
template <int T, int C, int MODE>
__global__ void __cluster_dims__(C, 1, 1) __launch_bounds__(T, 1) dsp(P a) {
    cg::cluster_group cl = cg::this_cluster();
    const int rank = (int)cl.block_rank();
    extern __shared__ double sh[];
    const int tid = threadIdx.x, N = a.N, S = a.S, EB = a.EB;
    const int SL = N / C;  // floats of a slice, a multiple of 4
    float4** rb = (float4**)(sh + a.R);  // [2][C]
    i64* to = (i64*)(rb + 2 * C);
    float* segb = (float*)(to + S + 1 + ((S + 1) & 1));
    u32* eb = (u32*)(segb + 2 * N);
    tile_begin(a, sh, to);
    if (tid < 2 * C) rb[tid] = (float4*)cl.map_shared_rank(segb + (tid / C) * N + rank * SL, tid % C);
    cl.sync();
    const int NQ = SL / 4;  // float4s of a slice
    auto ldslice = [&](int s, float4& f) {
        f = make_float4(0.f, 0.f, 0.f, 0.f);
        if (s < S && tid < NQ) {
            const i64 b = (i64)s * N + (i64)rank * SL + 4 * tid;
            if (b + 4 <= a.n) f = *(const float4*)(a.contrib + b);
            else { if (b < a.n) f.x = a.contrib[b]; if (b + 1 < a.n) f.y = a.contrib[b + 1]; if (b + 2 < a.n) f.z = a.contrib[b + 2]; }
        }
    };
    auto stslice = [&](int s, const float4& f) {
        if (s < S && tid < NQ) {
#pragma unroll
            for (int c = 0; c < C; c++) rb[(s & 1) * C + c][tid] = f;
        }
    };
    auto issue = [&](int s) {
        if (s < S) copy_edges(a, to, s, eb + (s & 1) * (EB + 8));
        cp_commit();
    };
    float4 f;
    ldslice(0, f);
    stslice(0, f);
    issue(0);
    Acc<MODE> add{sh, 0.f};
    for (int s = 0; s < S; s++) {
        cp_wait<0>();
        cl.sync();  // stage s published everywhere; everyone is done with stage s-1
        issue(s + 1);
        ldslice(s + 1, f);
        sum_tile(a, to, s, eb + (s & 1) * (EB + 8), Local{segb + (s & 1) * N}, add);
        stslice(s + 1, f);
    }
    cl.sync();
    write_ranks(a, add);
}

__device__ __forceinline__ u32 su32(const void* p) { return (u32)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void mb_wait(u32 bar, u32 phase) {
    asm volatile("{\n .reg .pred p;\n W%=:\n mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n @!p bra W%=;\n }\n" ::"r"(bar), "r"(phase) : "memory");
}

// tmc (TMA multicast): cluster of C CTAs; for each step thread 0 of every CTA multicasts its
// 1/C slice of the segment to all C CTAs and bulk-copies its own tile's edges; an mbarrier a
// stage, and a cluster barrier (arrive after a tile, wait before refilling) a step.
template <int T, int K, int C, int MODE>
__global__ void __cluster_dims__(C, 1, 1) __launch_bounds__(T, 1) tmc(P a) {
    extern __shared__ __align__(128) double sh[];
    u32 rank;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    const int tid = threadIdx.x, N = a.N, S = a.S, EB = a.EB;
    const int SL = N / C;
    unsigned long long* bars = (unsigned long long*)(sh + a.R);
    i64* to = (i64*)(bars + K + (K & 1));
    float* segb = (float*)(to + S + 1 + ((S + 1) & 1));
    u32* eb = (u32*)(segb + K * N);
    tile_begin(a, sh, to);
    if (tid == 0) {
        for (int k = 0; k < K; k++) asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(su32(bars + k)), "r"(1));
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;" ::: "memory");
    auto issue = [&](int s) {
        if (s >= S) return;
        const int st = s % K;
        const i64 valid = min((i64)N, (i64)a.n - (i64)s * N);
        u32 total = 0, mine = 0;
        for (int c = 0; c < C; c++) {
            i64 f = min((i64)SL, max((i64)0, valid - (i64)c * SL));
            u32 b = (u32)(((f * 4) + 15) & ~(i64)15);
            total += b;
            if (c == (int)rank) mine = b;
        }
        if (MODE == 5) total = mine = 0;
        TileEdges t = tile_edges(a, to, s);
        const u32 eby = (u32)(((min(t.E - t.A, (i64)EB) * 4) + 15) & ~(i64)15);
        const u32 bar = su32(bars + st);
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(total + eby) : "memory");
        if (mine) {
            const u32 dst = su32(segb + st * N + rank * SL);
            const float* src = a.contrib + (i64)s * N + (i64)rank * SL;
            if (C > 1) {
                const unsigned short mask = (unsigned short)((1u << C) - 1);
                asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1], %2, [%3], %4;" ::"r"(dst), "l"(src), "r"(mine), "r"(bar), "h"(mask) : "memory");
            } else {
                asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(dst), "l"(src), "r"(mine), "r"(bar) : "memory");
            }
        }
        if (eby) asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(su32(eb + st * (EB + 8))), "l"(a.nbr + t.A), "r"(eby), "r"(bar) : "memory");
    };
    if (tid == 0) for (int s = 0; s < K; s++) issue(s);
    Acc<MODE> add{sh, 0.f};
    for (int s = 0; s < S; s++) {
        if (s > 0) {
            asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
            if (tid == 0) issue(s - 1 + K);
        }
        const int st = s % K;
        mb_wait(su32(bars + st), (u32)((s / K) & 1));
        sum_tile(a, to, s, eb + st * (EB + 8), Local{segb + st * N}, add);
        asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
    }
    asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
    __syncthreads();
    write_ranks(a, add);
}

int main(int argc, char** argv) {
    Urand g = build_urand(20, 16);
    const int n = g.n;
    const i64 m = g.m;
    const std::vector<i64>& ro = g.ro;
    const std::vector<u32>& col = g.col;
    std::vector<float> start(n, 1.0f / n);
    Bench B(g, start);
    const int sms = B.sms, maxsh = B.maxsh, reps = Bench::reps;
    const float base = B.base, damp = B.damp;
    float *dcontrib = B.dcontrib, *ddeg = B.ddeg, *drank = B.drank, *drank_out = B.drank_out, *dcontrib_out = B.dcontrib_out;
    double* derr = B.derr;
    cudaEvent_t e0 = B.e0, e1 = B.e1;
    auto check = [&](const char* name, float ms) { B.check(name, ms); };
    B.run_base_warp();
    // tiled layouts per N
    auto runG = [&](int N, auto kern, int T, int K, const char* name, int EBf, int C, int SL) {
        int ranges = sms;
        if (C > 1) {
            cudaLaunchConfig_t cfg = {};
            cfg.gridDim = dim3(C * 64); cfg.blockDim = dim3(T);
            cudaLaunchAttribute at; at.id = cudaLaunchAttributeClusterDimension; at.val.clusterDim.x = C; at.val.clusterDim.y = 1; at.val.clusterDim.z = 1;
            cfg.attrs = &at; cfg.numAttrs = 1;
            int R0 = ((n + sms - 1) / sms + 31) & ~31; int S0 = (n + N - 1) / N;
            cfg.dynamicSmemBytes = (size_t)R0 * 8 + K * C * 8 + (S0 + 2) * 8 + (size_t)K * (SL > 0 ? SL : N) * 4 + (size_t)K * (EBf + 8) * 4;
            if ((int)cfg.dynamicSmemBytes > maxsh) { printf("%-40s skip: shared %zu > %d\n", name, cfg.dynamicSmemBytes, maxsh); return; }
            CK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)cfg.dynamicSmemBytes));
            if (C > 8) CK(cudaFuncSetAttribute(kern, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
            int ncl = 0; CK(cudaOccupancyMaxActiveClusters(&ncl, kern, &cfg));
            ranges = std::min(ncl, sms / C) * C;
            printf("C=%d max active clusters %d -> ranges %d\n", C, ncl, ranges);
        }
        int R = ((n + ranges - 1) / ranges + 31) & ~31;
        ranges = (n + R - 1) / R;
        int S = (n + N - 1) / N;
        std::vector<i64> off((i64)ranges * S + 1, 0);
        std::vector<u32> nbr(m);
        // count
        std::vector<i64> cnt((i64)ranges * S, 0);
        for (int v = 0; v < n; v++) for (i64 p = ro[v]; p < ro[v + 1]; p++) cnt[(i64)(v / R) * S + col[p] / N]++;
        for (i64 i = 0; i < (i64)ranges * S; i++) off[i + 1] = off[i] + cnt[i];
        std::vector<i64> pos(off.begin(), off.end() - 1);
        i64 maxt = 0; for (auto c : cnt) maxt = std::max(maxt, c);
        for (int v = 0; v < n; v++) for (i64 p = ro[v]; p < ro[v + 1]; p++) { u32 u = col[p]; i64 t = (i64)(v / R) * S + u / N; nbr[pos[t]++] = ((u32)(v % R) << SRC_BITS) | (u % N); }
        // kernel's `to` reads off[r*S + i] for i<=S: the next range's first == this range's end. OK.
        i64* d_off; u32* d_nbr;
        CK(cudaMalloc(&d_off, off.size() * 8)); CK(cudaMalloc(&d_nbr, m * 4 + 65536)); CK(cudaMemset(d_nbr, 0, m * 4 + 65536));
        CK(cudaMemcpy(d_off, off.data(), off.size() * 8, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(d_nbr, nbr.data(), m * 4, cudaMemcpyHostToDevice));
        int EB = EBf;
        size_t shb = (size_t)R * 8 + (S + 2) * 8 + (size_t)K * (SL > 0 ? SL : N) * 4 + (size_t)K * (EB + 8) * 4 + K * C * 8 + 16;
        if ((int)shb > maxsh) { printf("%-40s skip: shared %zu > %d\n", name, shb, maxsh); cudaFree(d_off); cudaFree(d_nbr); return; }
        CK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shb));
        P a{d_off, d_nbr, dcontrib, ddeg, drank, drank_out, dcontrib_out, derr, n, S, N, R, EB, base, damp};
        for (int it = 0; it < 3; it++) kern<<<ranges, T, shb>>>(a);
        CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
        CK(cudaEventRecord(e0));
        for (int it = 0; it < reps; it++) kern<<<ranges, T, shb>>>(a);
        CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
        float ms; CK(cudaEventElapsedTime(&ms, e0, e1));
        CK(cudaMemset(derr, 0, 8)); kern<<<ranges, T, shb>>>(a); CK(cudaDeviceSynchronize());
        char nm[128]; snprintf(nm, sizeof nm, "%s N=%d EB=%d maxtile=%lld", name, N, EB, maxt);
        check(nm, ms / reps);
        cudaFree(d_off); cudaFree(d_nbr);
    };
    auto runN = [&](int N, auto kern, int T, int K, const char* name, int EBf) { runG(N, kern, T, K, name, EBf, 1, 0); };
    // cp.async staged, one CTA a SM
    runN(8192, tas<1024, 3, 0>, 1024, 3, "CPA K3 dbl", 3072);
    runN(8192, tas<1024, 3, 1>, 1024, 3, "CPA K3 flt", 3072);
    runN(8192, tas<1024, 3, 2>, 1024, 3, "CPA K3 noacc", 3072);
    runN(8192, tas<1024, 3, 3>, 1024, 3, "CPA K3 match", 3072);
    runN(8192, tas<1024, 3, 4>, 1024, 3, "CPA K3 copies only", 3072);
    runN(8192, tas<1024, 3, 5>, 1024, 3, "CPA K3 no segment copy", 3072);
    runN(8192, tas<512, 3, 0>, 512, 3, "CPA T512 K3 dbl", 3072);
    runN(8192, tas<1024, 2, 0>, 1024, 2, "CPA K2 dbl", 3072);
    runN(4096, tas<1024, 4, 0>, 1024, 4, "CPA K4 dbl", 1536);
    runN(4096, tas<1024, 6, 0>, 1024, 6, "CPA K6 dbl", 1536);
    runN(4096, tas<1024, 6, 4>, 1024, 6, "CPA K6 copies only", 1536);
    runN(10240, tas<1024, 3, 0>, 1024, 3, "CPA K3 dbl", 3072);
    runN(12288, tas<1024, 2, 0>, 1024, 2, "CPA K2 dbl", 4096);
    runN(12288, tas<1024, 2, 4>, 1024, 2, "CPA K2 copies only", 4096);
    // gathers from distributed shared memory: cluster of C, each CTA stages 1/C
    runG(8192, dsg<1024, 3, 2, 12, 0>, 1024, 3, "DSG C2 K3 dbl", 3072, 2, 4096);
    runG(8192, dsg<1024, 3, 2, 12, 2>, 1024, 3, "DSG C2 K3 noacc", 3072, 2, 4096);
    runG(16384, dsg<1024, 3, 4, 12, 0>, 1024, 3, "DSG C4 K3 dbl", 6144, 4, 4096);
    runG(16384, dsg<1024, 3, 4, 12, 2>, 1024, 3, "DSG C4 K3 noacc", 6144, 4, 4096);
    runG(32768, dsg<1024, 2, 8, 12, 0>, 1024, 2, "DSG C8 K2 dbl", 10240, 8, 4096);
    runG(32768, dsg<1024, 2, 8, 12, 2>, 1024, 2, "DSG C8 K2 noacc", 10240, 8, 4096);
    runG(32768, dsg<1024, 3, 16, 11, 0>, 1024, 3, "DSG C16 K3 dbl", 10240, 16, 2048);
    // software multicast through distributed shared memory
    runG(8192, dsp<1024, 2, 2>, 1024, 2, "DSP C2 noacc", 3072, 2, -1);
    runG(8192, dsp<1024, 2, 0>, 1024, 2, "DSP C2 dbl", 3072, 2, -1);
    runG(8192, dsp<1024, 4, 2>, 1024, 2, "DSP C4 noacc", 3072, 4, -1);
    runG(8192, dsp<1024, 4, 0>, 1024, 2, "DSP C4 dbl", 3072, 4, -1);
    runG(8192, dsp<1024, 8, 2>, 1024, 2, "DSP C8 noacc", 3072, 8, -1);
    runG(8192, dsp<1024, 8, 0>, 1024, 2, "DSP C8 dbl", 3072, 8, -1);
    // TMA multicast (sm_90a): cluster of C
    runG(8192, tmc<1024, 3, 1, 2>, 1024, 3, "TMC C1 K3 noacc", 3072, 1, -1);
    runG(8192, tmc<1024, 3, 1, 0>, 1024, 3, "TMC C1 K3 dbl", 3072, 1, -1);
    runG(8192, tmc<1024, 3, 2, 2>, 1024, 3, "TMC C2 K3 noacc", 3072, 2, -1);
    runG(8192, tmc<1024, 3, 2, 0>, 1024, 3, "TMC C2 K3 dbl", 3072, 2, -1);
    runG(8192, tmc<1024, 3, 2, 4>, 1024, 3, "TMC C2 K3 copies only", 3072, 2, -1);
    runG(8192, tmc<1024, 3, 2, 5>, 1024, 3, "TMC C2 K3 no segment copy", 3072, 2, -1);
    runG(8192, tmc<1024, 3, 4, 2>, 1024, 3, "TMC C4 K3 noacc", 3072, 4, -1);
    runG(8192, tmc<1024, 3, 4, 0>, 1024, 3, "TMC C4 K3 dbl", 3072, 4, -1);
    runG(8192, tmc<1024, 3, 8, 2>, 1024, 3, "TMC C8 K3 noacc", 3072, 8, -1);
    runG(8192, tmc<1024, 3, 8, 0>, 1024, 3, "TMC C8 K3 dbl", 3072, 8, -1);
    runG(4096, tmc<1024, 6, 2, 2>, 1024, 6, "TMC C2 K6 noacc", 1536, 2, -1);
    runG(4096, tmc<1024, 6, 2, 4>, 1024, 6, "TMC C2 K6 copies only", 1536, 2, -1);
    runG(12288, tmc<1024, 2, 2, 2>, 1024, 2, "TMC C2 K2 noacc", 4096, 2, -1);
    runG(12288, tmc<1024, 2, 2, 4>, 1024, 2, "TMC C2 K2 copies only", 4096, 2, -1);
    return 0;
}
