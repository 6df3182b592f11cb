// urand.cuh: what the measuring prototypes (prtile.cu, prbin.cu; NOTES.md rounds 5 and 6) share:
// the urand scale 20 degree 16 graph built on the host, an error check, and the reference
// sweep (a warp per vertex, Jacobi pull from the CSR) they time themselves against.
#pragma once
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

// Urand is an undirected uniform random graph in CSR form (symmetric: ro/col are the in-lists
// as well as the out-lists), without self-loops or duplicate edges.
struct Urand {
    int n;
    i64 m;
    std::vector<i64> ro;
    std::vector<u32> col;
};

// build_urand draws n x degree edges (n = 2^scale) with a fixed seed, symmetrised.
static Urand build_urand(int scale, int degree) {
    Urand g;
    g.n = 1 << scale;
    const int n = g.n;
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
    g.m = ed.size();
    g.ro.assign(n + 1, 0);
    g.col.resize(g.m);
    for (i64 i = 0; i < g.m; i++) { g.ro[(ed[i] >> 32) + 1]++; g.col[i] = (u32)ed[i]; }
    for (int v = 0; v < n; v++) g.ro[v + 1] += g.ro[v];
    printf("urand n=%d m=%lld\n", n, g.m);
    return g;
}

// base_warp: the reference sweep, a warp per vertex, Jacobi pull from the CSR.
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

// Bench holds one Jacobi sweep's inputs on the device (the CSR, contributions, out-degrees and
// old ranks from the start ranks given), buffers for its outputs, and the host's reference
// sweep, against which check compares a variant's ranks.
struct Bench {
    static const int reps = 20;  // timed launches of a variant, after 3
    int n, sms, maxsh;
    i64 m;
    float base, damp;
    std::vector<float> deg, rank, contrib, out;
    std::vector<double> ref;
    double referr = 0;
    i64* dro;
    u32* dcol;
    float *dcontrib, *ddeg, *drank, *drank_out, *dcontrib_out;
    double* derr;
    cudaEvent_t e0, e1;

    Bench(const Urand& g, const std::vector<float>& start) : n(g.n), m(g.m), base(0.15f / g.n), damp(0.85f), deg(n), rank(start), contrib(n), out(n), ref(n) {
        for (int v = 0; v < n; v++) { deg[v] = (float)(g.ro[v + 1] - g.ro[v]); contrib[v] = deg[v] > 0 ? rank[v] / deg[v] : 0; }
        for (int v = 0; v < n; v++) {
            double s = 0;
            for (i64 p = g.ro[v]; p < g.ro[v + 1]; p++) s += contrib[g.col[p]];
            ref[v] = (float)(base + damp * s);
            referr += fabs(ref[v] - rank[v]);
        }
        CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
        CK(cudaDeviceGetAttribute(&maxsh, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
        printf("sms=%d maxsh=%d\n", sms, maxsh);
        CK(cudaMalloc(&dro, (n + 1) * 8)); CK(cudaMalloc(&dcol, m * 4 + 64));
        CK(cudaMalloc(&dcontrib, n * 4 + 65536 * 4)); CK(cudaMemset(dcontrib, 0, n * 4 + 65536 * 4)); CK(cudaMalloc(&ddeg, n * 4)); CK(cudaMalloc(&drank, n * 4));
        CK(cudaMalloc(&drank_out, n * 4)); CK(cudaMalloc(&dcontrib_out, n * 4)); CK(cudaMalloc(&derr, 8));
        CK(cudaMemcpy(dro, g.ro.data(), (n + 1) * 8, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(dcol, g.col.data(), m * 4, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(dcontrib, contrib.data(), n * 4, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(ddeg, deg.data(), n * 4, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(drank, rank.data(), n * 4, cudaMemcpyHostToDevice));
        CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    }

    // check prints a variant's time a sweep and how its L1 change and ranks (from the last
    // launch, after err was cleared) compare with the host's sweep.
    void check(const char* name, float ms) {
        double err; CK(cudaMemcpy(&err, derr, 8, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(out.data(), drank_out, n * 4, cudaMemcpyDeviceToHost));
        double md = 0; for (int v = 0; v < n; v++) md = std::max(md, fabs(out[v] - ref[v]) / ref[v]);
        printf("%-44s %8.4f ms/sweep  err %.6e (ref %.6e) maxrel %.2e  %.1f GE/s\n", name, ms, err, referr, md, m / ms / 1e6);
    }

    // run_base_warp times and checks the reference sweep.
    void run_base_warp() {
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
};
