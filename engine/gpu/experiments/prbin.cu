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
#include "urand.cuh"

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

int main(int argc, char** argv) {
    Urand g = build_urand(20, 16);
    const int n = g.n;
    const i64 m = g.m;
    const std::vector<i64>& ro = g.ro;
    const std::vector<u32>& col = g.col;
    std::vector<float> start(n);
    uint64_t rs = 99;
    // a start vector with some spread, so the contributions differ as in a later sweep
    for (int v = 0; v < n; v++) start[v] = (0.5f + (sm64(rs) % 1000) / 1000.f) / n;
    Bench B(g, start);
    const int sms = B.sms, maxsh = B.maxsh, reps = Bench::reps;
    const float base = B.base, damp = B.damp;
    float *dcontrib = B.dcontrib, *ddeg = B.ddeg, *drank = B.drank, *drank_out = B.drank_out, *dcontrib_out = B.dcontrib_out;
    double* derr = B.derr;
    cudaEvent_t e0 = B.e0, e1 = B.e1;
    auto check = [&](const char* name, float ms) { B.check(name, ms); };
    float maxc = 0; for (float c : B.contrib) maxc = std::max(maxc, c);
    // largest power of two with maxc * scale < 2^31
    float fscale = std::ldexp(1.0f, (int)std::floor(std::log2(2147483648.0 / maxc)));
    printf("maxc %.3e scale 2^%d\n", maxc, (int)std::log2(fscale));
    u64* dgsum;
    CK(cudaMalloc(&dgsum, (size_t)n * 8)); CK(cudaMemset(dgsum, 0, (size_t)n * 8));
    B.run_base_warp();
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
