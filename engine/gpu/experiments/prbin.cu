// prbin.cu: a measuring prototype, not part of the build (NOTES.md, "Round 6").
//
// One Jacobi PageRank sweep over urand scale 20 degree 16 (built on the host, 33.55M arcs) in a
// destination-binned, source-ordered layout: the destinations are cut into row blocks of R, a
// row block's in-edges are listed in source order (so a warp's gathers of contributions walk
// the array nearly in order, a few sectors per 32 edges), and a CTA adds each edge's
// contribution into its row block's sums in shared memory as 64-bit fixed point (two native
// 32-bit shared atomics: the low word, and the high word only on a carry). A CTA takes an equal
// run of the edge groups (which may cross row blocks); at a row block's end it adds its partial
// sums into the global 64-bit sums (coalesced atomics). A second kernel turns the sums into
// ranks. Each variant is timed (mean of 20 sweeps after 3) and its ranks checked against a host
// sweep. On the device machine:
//
//	nvcc -arch=sm_90 -O3 -std=c++17 -o prbin prbin.cu && ./prbin
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <algorithm>
#include <cmath>
#include <cuda_runtime.h>

typedef long long i64;
typedef unsigned u32;
typedef unsigned long long u64;
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(1);} } while (0)

static uint64_t sm64(uint64_t& s) { uint64_t z = (s += 0x9e3779b97f4a7c15ULL); z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL; z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL; return z ^ (z >> 31); }

struct P {
    const u32* ed;      // groups of 32 packed edges: (destination offset in the row block) << 16 | (source - group base)
    const u32* gbase;   // per group: its base source
    const int* rbg;     // per row block: its first group (nb + 1 entries)
    const float* contrib;
    u64* gsum;          // per vertex: fixed-point sum
    int n, R, nb, groups;
    float scale;        // fixed-point scale (a power of two)
};

// MODE: 0 fixed point, lo/hi u32 atomics; 1 float shared atomicAdd; 2 no sums (register
// total, the floor); 3 lo only (no carry; wrong, for measuring the carry's cost); 4 gathers
// only into a register total, no edges' destinations used.
template <int T, int U, int MODE>
__global__ void __launch_bounds__(T, 1) pbin(P a) {
    extern __shared__ u32 sh[];
    u32* lo = sh;
    u32* hi = sh + a.R + 1;
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, W = T / 32;
    const i64 g0 = (i64)a.groups * blockIdx.x / gridDim.x, g1 = (i64)a.groups * (blockIdx.x + 1) / gridDim.x;
    // the row block holding g0
    int rb = 0;
    while (a.rbg[rb + 1] <= g0) rb++;
    float tot = 0;
    for (i64 s = g0; s < g1; rb++) {
        const i64 e = min(g1, (i64)a.rbg[rb + 1]);
        for (int i = threadIdx.x; i <= a.R; i += T) { lo[i] = 0; hi[i] = 0; }
        __syncthreads();
        for (i64 g = s + warp; g < e; g += (i64)W * U) {
            u32 x[U], b[U];
            float c[U];
#pragma unroll
            for (int k = 0; k < U; k++) {
                i64 gg = g + (i64)k * W;
                x[k] = gg < e ? __ldcs(a.ed + gg * 32 + lane) : 0xffff0000u;
                b[k] = gg < e ? __ldg(a.gbase + gg) : 0;
            }
#pragma unroll
            for (int k = 0; k < U; k++) c[k] = __ldg(a.contrib + b[k] + (x[k] & 0xffff));
#pragma unroll
            for (int k = 0; k < U; k++) {
                u32 d = x[k] >> 16;
                if (d == 0xffff) continue;
                if (MODE == 0) {
                    u64 f = (u64)__float2ull_rn(c[k] * a.scale);
                    u32 f0 = (u32)f, old = atomicAdd(lo + d, f0);
                    u32 carry = (old + f0 < old) + (u32)(f >> 32);
                    if (carry) atomicAdd(hi + d, carry);
                } else if (MODE == 1) {
                    atomicAdd((float*)lo + d, c[k]);
                } else if (MODE == 3) {
                    atomicAdd(lo + d, (u32)__float2ull_rn(c[k] * a.scale));
                } else if (MODE == 2) {
                    tot += c[k] * (float)d;
                } else {
                    tot += c[k];
                }
            }
        }
        __syncthreads();
        const i64 v0 = (i64)rb * a.R;
        for (int i = threadIdx.x; i < a.R && v0 + i < a.n; i += T) {
            u64 f;
            if (MODE == 1) f = (u64)__float2ull_rn(((float*)lo)[i] * a.scale);
            else f = ((u64)hi[i] << 32) | lo[i];
            if (f) atomicAdd(a.gsum + v0 + i, f);
        }
        __syncthreads();
        s = e;
    }
    if ((MODE == 2 || MODE == 4) && tot == 12345.f) a.gsum[0] = 1; // keep the floor's work
}

// finish turns the sums into ranks and contributions, adds the L1 change and clears the sums.
__global__ void finish(u64* gsum, const float* deg, const float* rank_in, float* rank_out, float* contrib_out, int n, float base, float damp, double inv, double* err) {
    double e = 0;
    for (int v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x) {
        float nr = (float)(base + damp * ((double)gsum[v] * inv));
        gsum[v] = 0;
        e += fabs((double)nr - (double)rank_in[v]);
        rank_out[v] = nr;
        float od = deg[v];
        contrib_out[v] = od > 0 ? nr / od : 0.f;
    }
    for (int o = 16; o; o >>= 1) e += __shfl_down_sync(0xffffffff, e, o);
    if ((threadIdx.x & 31) == 0) atomicAdd(err, e);
}

// Baseline: warp per vertex, Jacobi pull from CSR.
__global__ void base_warp(const i64* ro, const u32* col, const float* contrib, const float* deg, const float* rank_in, float* rank_out, float* contrib_out, int n, float base, float damp, double* err) {
    int w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
    int nw = (gridDim.x * blockDim.x) >> 5;
    double e = 0;
    for (int v = w; v < n; v += nw) {
        float s = 0;
        for (i64 p = ro[v] + lane; p < ro[v + 1]; p += 32) s += __ldg(contrib + col[p]);
        for (int o = 16; o; o >>= 1) s += __shfl_down_sync(0xffffffff, s, o);
        if (lane == 0) {
            float nr = base + damp * s;
            e += fabs((double)nr - rank_in[v]);
            rank_out[v] = nr;
            contrib_out[v] = deg[v] > 0 ? nr / deg[v] : 0.f;
        }
    }
    if (lane == 0) atomicAdd(err, e);
}

int main(int argc, char** argv) {
    int scale = 20, degree = 16;
    int n = 1 << scale;
    i64 m0 = (i64)n * degree;
    std::vector<uint64_t> ed;
    ed.reserve(2 * m0);
    uint64_t seed = 12345;
    for (i64 i = 0; i < m0; i++) {
        u32 u = sm64(seed) % n, v = sm64(seed) % n;
        if (u == v) continue;
        ed.push_back(((uint64_t)u << 32) | v);
        ed.push_back(((uint64_t)v << 32) | u);
    }
    std::sort(ed.begin(), ed.end());
    ed.erase(std::unique(ed.begin(), ed.end()), ed.end());
    i64 m = ed.size();
    // ro/col: in-CSR (the graph is symmetric); the edge (u, v) with u the source
    std::vector<i64> ro(n + 1, 0);
    std::vector<u32> col(m);
    for (i64 i = 0; i < m; i++) { ro[(ed[i] >> 32) + 1]++; col[i] = (u32)ed[i]; }
    for (int v = 0; v < n; v++) ro[v + 1] += ro[v];
    std::vector<uint64_t>().swap(ed);
    printf("urand n=%d m=%lld\n", n, m);
    std::vector<float> deg(n), rank(n), contrib(n);
    uint64_t rs = 99;
    // a start vector with some spread, so the contributions differ as in a later sweep
    for (int v = 0; v < n; v++) { deg[v] = (float)(ro[v + 1] - ro[v]); rank[v] = (0.5f + (sm64(rs) % 1000) / 1000.f) / n; contrib[v] = deg[v] > 0 ? rank[v] / deg[v] : 0; }
    float base = 0.15f / n, damp = 0.85f;
    std::vector<double> ref(n);
    double referr = 0;
    for (int v = 0; v < n; v++) { double s = 0; for (i64 p = ro[v]; p < ro[v + 1]; p++) s += contrib[col[p]]; ref[v] = (float)(base + damp * s); referr += fabs(ref[v] - rank[v]); }
    float maxc = 0; for (float c : contrib) maxc = std::max(maxc, c);
    // largest power of two with maxc * scale < 2^31
    float fscale = std::ldexp(1.0f, (int)std::floor(std::log2(2147483648.0 / maxc)));
    printf("maxc %.3e scale 2^%d\n", maxc, (int)std::log2(fscale));

    int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    int maxsh; CK(cudaDeviceGetAttribute(&maxsh, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
    printf("sms=%d maxsh=%d\n", sms, maxsh);
    i64* dro; u32* dcol; float *dcontrib, *ddeg, *drank, *drank_out, *dcontrib_out; double* derr; u64* dgsum;
    CK(cudaMalloc(&dro, (n + 1) * 8)); CK(cudaMalloc(&dcol, m * 4 + 64));
    CK(cudaMalloc(&dcontrib, n * 4 + 65536 * 4)); CK(cudaMemset(dcontrib, 0, n * 4 + 65536 * 4)); CK(cudaMalloc(&ddeg, n * 4)); CK(cudaMalloc(&drank, n * 4));
    CK(cudaMalloc(&drank_out, n * 4)); CK(cudaMalloc(&dcontrib_out, n * 4)); CK(cudaMalloc(&derr, 8));
    CK(cudaMalloc(&dgsum, (size_t)n * 8)); CK(cudaMemset(dgsum, 0, (size_t)n * 8));
    CK(cudaMemcpy(dro, ro.data(), (n + 1) * 8, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dcol, col.data(), m * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dcontrib, contrib.data(), n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(ddeg, deg.data(), n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(drank, rank.data(), n * 4, cudaMemcpyHostToDevice));
    cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    std::vector<float> out(n);
    auto check = [&](const char* name, float ms) {
        double err; CK(cudaMemcpy(&err, derr, 8, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(out.data(), drank_out, n * 4, cudaMemcpyDeviceToHost));
        double md = 0; for (int v = 0; v < n; v++) md = std::max(md, fabs(out[v] - ref[v]) / ref[v]);
        printf("%-44s %8.4f ms/sweep  err %.6e (ref %.6e) maxrel %.2e  %.1f GE/s\n", name, ms, err, referr, md, m / ms / 1e6);
    };
    const int reps = 20;
    {
        for (int it = 0; it < 3; it++) { CK(cudaMemset(derr, 0, 8)); base_warp<<<sms * 8, 256>>>(dro, dcol, dcontrib, ddeg, drank, drank_out, dcontrib_out, n, base, damp, derr); }
        CK(cudaDeviceSynchronize());
        CK(cudaEventRecord(e0));
        for (int it = 0; it < reps; it++) base_warp<<<sms * 8, 256>>>(dro, dcol, dcontrib, ddeg, drank, drank_out, dcontrib_out, n, base, damp, derr);
        CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
        float ms; CK(cudaEventElapsedTime(&ms, e0, e1));
        CK(cudaMemset(derr, 0, 8)); base_warp<<<sms * 8, 256>>>(dro, dcol, dcontrib, ddeg, drank, drank_out, dcontrib_out, n, base, damp, derr);
        CK(cudaDeviceSynchronize());
        check("base warp", ms / reps);
    }
    // finish alone
    {
        CK(cudaEventRecord(e0));
        for (int it = 0; it < reps; it++) finish<<<sms * 4, 256>>>(dgsum, ddeg, drank, drank_out, dcontrib_out, n, base, damp, 1.0 / fscale, derr);
        CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
        float ms; CK(cudaEventElapsedTime(&ms, e0, e1));
        printf("%-44s %8.4f ms\n", "finish alone", ms / reps);
    }
    auto runB = [&](int R, auto kern, int T, int perSM, const char* name) {
        int nb = (n + R - 1) / R;
        // row block b: in-edges of v in [bR, bR+R), sorted by source, in groups of 32 whose
        // sources lie within 65536 of the group's base
        std::vector<std::vector<std::pair<u32, u32>>> lists(nb);
        for (int v = 0; v < n; v++) for (i64 p = ro[v]; p < ro[v + 1]; p++) lists[v / R].push_back({col[p], (u32)(v % R)});
        std::vector<u32> edv, gb;
        std::vector<int> rbg(nb + 1, 0);
        for (int b = 0; b < nb; b++) {
            auto& L = lists[b];
            std::sort(L.begin(), L.end());
            rbg[b] = (int)gb.size();
            size_t i = 0;
            while (i < L.size()) {
                u32 base0 = L[i].first;
                gb.push_back(base0);
                for (int k = 0; k < 32; k++) {
                    if (i < L.size() && L[i].first - base0 < 65536) { edv.push_back((L[i].second << 16) | (L[i].first - base0)); i++; }
                    else edv.push_back(0xffff0000u);
                }
            }
            std::vector<std::pair<u32, u32>>().swap(L);
        }
        rbg[nb] = (int)gb.size();
        int groups = (int)gb.size();
        u32 *d_ed, *d_gb; int* d_rbg;
        CK(cudaMalloc(&d_ed, edv.size() * 4)); CK(cudaMalloc(&d_gb, gb.size() * 4)); CK(cudaMalloc(&d_rbg, rbg.size() * 4));
        CK(cudaMemcpy(d_ed, edv.data(), edv.size() * 4, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(d_gb, gb.data(), gb.size() * 4, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(d_rbg, rbg.data(), rbg.size() * 4, cudaMemcpyHostToDevice));
        size_t shb = (size_t)(R + 1) * 8;
        if ((int)shb > maxsh) { printf("%-44s skip: shared %zu > %d\n", name, shb, maxsh); return; }
        CK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shb));
        P a{d_ed, d_gb, d_rbg, dcontrib, dgsum, n, R, nb, groups, fscale};
        int grid = sms * perSM;
        auto sweep = [&]() {
            kern<<<grid, T, shb>>>(a);
            finish<<<sms * 4, 256>>>(dgsum, ddeg, drank, drank_out, dcontrib_out, n, base, damp, 1.0 / fscale, derr);
        };
        for (int it = 0; it < 3; it++) sweep();
        CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
        CK(cudaEventRecord(e0));
        for (int it = 0; it < reps; it++) sweep();
        CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
        float ms; CK(cudaEventElapsedTime(&ms, e0, e1));
        CK(cudaEventRecord(e0));
        for (int it = 0; it < reps; it++) kern<<<grid, T, shb>>>(a);
        CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
        float msk; CK(cudaEventElapsedTime(&msk, e0, e1));
        CK(cudaMemset(dgsum, 0, (size_t)n * 8));
        CK(cudaMemset(derr, 0, 8)); sweep(); CK(cudaDeviceSynchronize());
        char nm[160]; snprintf(nm, sizeof nm, "%s R=%d T=%d x%d (pad %.1f%%, bin %.4f)", name, R, T, perSM, 100.0 * (edv.size() - m) / m, msk / reps);
        check(nm, ms / reps);
        cudaFree(d_ed); cudaFree(d_gb); cudaFree(d_rbg);
    };
    runB(24576, pbin<1024, 4, 0>, 1024, 1, "fixed U4");
    runB(24576, pbin<1024, 4, 2>, 1024, 1, "floor (no sums) U4");
    runB(24576, pbin<1024, 4, 4>, 1024, 1, "gathers only U4");
    runB(24576, pbin<1024, 4, 3>, 1024, 1, "lo only (wrong) U4");
    runB(24576, pbin<1024, 4, 1>, 1024, 1, "float atomics U4");
    runB(24576, pbin<1024, 8, 0>, 1024, 1, "fixed U8");
    runB(24576, pbin<1024, 2, 0>, 1024, 1, "fixed U2");
    runB(28672, pbin<1024, 4, 0>, 1024, 1, "fixed U4");
    runB(16384, pbin<1024, 4, 0>, 1024, 1, "fixed U4");
    runB(12288, pbin<1024, 4, 0>, 1024, 2, "fixed U4");
    runB(12288, pbin<512, 4, 0>, 512, 2, "fixed U4");
    runB(8192, pbin<512, 4, 0>, 512, 3, "fixed U4");
    runB(24576, pbin<512, 8, 0>, 512, 1, "fixed U8");
    return 0;
}
