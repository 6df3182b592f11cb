// tc.cu: triangle counting, the forward algorithm (Schank and Wagner; Gunrock's TC, GAPBS's
// OrderedCount). Compiled by `make ptx`: nvcc -ptx -arch=compute_70 -O3 -std=c++14 -o tc.ptx tc.cu
//
// The host keeps one arc of each edge, from the lower- to the higher-ranked endpoint
// (tc_keep, a prefix sum, tc_fill; with relabel, tc_sort_warp and tc_sort sort each
// renumbered list), then sums |N+(x) ∩ N+(v)| over the oriented arcs x->v
// (tc_<intersect>_<lb>). The file is self-contained: it shares no header with the traversal
// kernels.
#define BLOCK 256
#define TC_HASH_MAX 2048  // longest list a block's shared hash table holds (4096 slots)
#define TC_SORT_MAX 2048  // longest list sorted in shared memory (a bitonic sort)
#define TC_SEARCH_RATIO 64  // intersect=merge searches instead when one list is this much longer

typedef unsigned int u32;
typedef long long i64;
typedef unsigned long long u64;

// Order values, as engine.Order.
enum { ODegree = 1, OId = 2, ONone = 3 };
// Counters (u64 words of counters): triangles, entries scanned, lists in longq.
enum { CTri = 0, CScanned = 1, CLong = 2 };

// TcArgs is every TC kernel's single parameter, mirrored by tcArgs in tc.go (all fields 8 bytes).
struct TcArgs {
    // 1. The undirected graph: sorted lists, possibly with duplicates and self-loops.
    const i64* off;
    const u32* nbr;
    i64 n;
    // 2. Orientation: order, and the new id of every vertex when relabelling (else null).
    i64 order;
    const u32* newid;
    // 3. The oriented graph: offsets (n+1), lists, and each arc's source (lb=edge).
    i64* hoff;
    u32* hnbr;
    u32* hsrc;
    i64 hm;
    u32* tmp;   // scratch of hm entries (sorting long lists)
    // 4. Counting.
    i64 byrank;  // lists are sorted by rank: only the part of N+(x) after v can meet N+(v)
    u64* counters;
    // 5. Prefix sum over hoff[1..n]: one partial sum per block.
    i64* part;
    i64 parts;
    // 6. Sorting: the vertices whose oriented lists are longer than 32 (counters[CLong] of them).
    u32* longq;
};

static_assert(sizeof(TcArgs) == 120, "TcArgs must match tcArgs in tc.go");

__device__ __forceinline__ i64 gtid() { return blockIdx.x * (i64)blockDim.x + threadIdx.x; }
__device__ __forceinline__ i64 gstride() { return (i64)gridDim.x * blockDim.x; }

// keep says whether arc v->y of the undirected graph is kept (the i-th entry of v's list).
__device__ __forceinline__ bool keep(const TcArgs& a, u32 v, i64 i, i64 beg) {
    u32 y = a.nbr[i];
    if (i > beg && a.nbr[i - 1] == y) return false;  // a duplicate
    if (a.newid) return a.newid[y] > a.newid[v];
    switch (a.order) {
    case ODegree: {
        i64 dv = a.off[v + 1] - a.off[v], dy = a.off[y + 1] - a.off[y];
        return dy > dv || (dy == dv && y > v);
    }
    case OId: return y > v;
    default: return y != v;
    }
}

// tc_keep: hoff[x+1] = the number of arcs vertex x keeps (x renumbered when relabelling). A
// warp per vertex, lanes over its list (a hub's list is read 32 entries at a time).
extern "C" __global__ void __launch_bounds__(BLOCK) tc_keep(const TcArgs a) {
    int lane = threadIdx.x & 31;
    i64 warps = gstride() >> 5;
    for (i64 v = gtid() >> 5; v < a.n; v += warps) {
        i64 beg = a.off[v], end = a.off[v + 1], c = 0;
        for (i64 i = beg + lane; i < end; i += 32) c += keep(a, (u32)v, i, beg);
        for (int o = 16; o > 0; o >>= 1) c += __shfl_down_sync(0xffffffffu, c, o);
        if (lane == 0) a.hoff[(a.newid ? a.newid[v] : (u32)v) + 1] = c;
    }
    if (gtid() == 0) a.hoff[0] = 0;
}

// Block-wide inclusive scan of one value per thread.
__device__ i64 block_scan(i64 x, i64* sh) {
    sh[threadIdx.x] = x;
    __syncthreads();
    for (int s = 1; s < BLOCK; s <<= 1) {
        i64 y = threadIdx.x >= s ? sh[threadIdx.x - s] : 0;
        __syncthreads();
        sh[threadIdx.x] += y;
        __syncthreads();
    }
    return sh[threadIdx.x];
}

// tc_scan_blocks: 1. each block scans its BLOCK entries of hoff[1..n] in place and writes its
// total to part[block]. One block per tile (no grid stride: the host sizes the grid).
extern "C" __global__ void __launch_bounds__(BLOCK) tc_scan_blocks(const TcArgs a) {
    __shared__ i64 sh[BLOCK];
    i64 i = gtid();
    i64 x = i < a.n ? a.hoff[i + 1] : 0;
    i64 s = block_scan(x, sh);
    if (i < a.n) a.hoff[i + 1] = s;
    if (threadIdx.x == BLOCK - 1) a.part[blockIdx.x] = s;
}

// tc_scan_parts: 2. one block turns part[] into an exclusive scan, a tile at a time.
extern "C" __global__ void __launch_bounds__(BLOCK) tc_scan_parts(const TcArgs a) {
    __shared__ i64 sh[BLOCK];
    i64 carry = 0;
    for (i64 base = 0; base < a.parts; base += BLOCK) {
        i64 i = base + threadIdx.x;
        i64 x = i < a.parts ? a.part[i] : 0;
        i64 s = block_scan(x, sh);
        if (i < a.parts) a.part[i] = carry + s - x;
        carry += sh[BLOCK - 1];
        __syncthreads();
    }
}

// tc_scan_add: 3. add each block's exclusive prefix to its entries.
extern "C" __global__ void __launch_bounds__(BLOCK) tc_scan_add(const TcArgs a) {
    i64 i = gtid();
    if (i < a.n) a.hoff[i + 1] += a.part[blockIdx.x];
}

// tc_fill writes the kept arcs in list order (renumbered when relabelling), and each arc's
// source when hsrc is set. A warp per vertex: each round of 32 entries places its kept ones by
// a ballot and a population count, so the list order is kept.
extern "C" __global__ void __launch_bounds__(BLOCK) tc_fill(const TcArgs a) {
    int lane = threadIdx.x & 31;
    i64 warps = gstride() >> 5;
    for (i64 v = gtid() >> 5; v < a.n; v += warps) {
        i64 beg = a.off[v], end = a.off[v + 1];
        u32 x = a.newid ? a.newid[v] : (u32)v;
        i64 k = a.hoff[x];
        for (i64 base = beg; base < end; base += 32) {
            i64 i = base + lane;
            bool kept = i < end && keep(a, (u32)v, i, beg);
            u32 mask = __ballot_sync(0xffffffffu, kept);
            if (kept) {
                i64 pos = k + __popc(mask & ((1u << lane) - 1));
                u32 y = a.nbr[i];
                a.hnbr[pos] = a.newid ? a.newid[y] : y;
                if (a.hsrc) a.hsrc[pos] = x;
            }
            k += __popc(mask);
        }
    }
}

// tc_sort_warp sorts the oriented lists of 2 to 32 entries (relabelling leaves them in the old
// order), a warp per list: a bitonic network over the lanes, one entry a lane (shuffles; no
// shared memory, no barriers), and lists the longer ones in longq for tc_sort. On kron20 all
// but 128 K of the million lists are this short, and a block per list spent most of its time
// on barriers and block launches.
extern "C" __global__ void __launch_bounds__(BLOCK) tc_sort_warp(const TcArgs a) {
    int lane = threadIdx.x & 31;
    i64 warps = gstride() >> 5;
    for (i64 x = gtid() >> 5; x < a.n; x += warps) {
        i64 beg = a.hoff[x], d = a.hoff[x + 1] - beg;
        if (d > 32 && lane == 0) a.longq[atomicAdd(&a.counters[CLong], 1ull)] = (u32)x;
        if (d < 2 || d > 32) continue;  // the same for the whole warp
        u32* l = a.hnbr + beg;
        u32 v = lane < d ? l[lane] : 0xffffffffu;
        for (int k = 2; k <= 32; k <<= 1) {
            for (int j = k >> 1; j > 0; j >>= 1) {
                u32 o = __shfl_xor_sync(0xffffffffu, v, j);
                // the pair's lower lane keeps the smaller entry in an ascending run of k
                bool up = (lane & k) == 0, lower = (lane & j) == 0;
                v = lower == up ? min(v, o) : max(v, o);
            }
        }
        if (lane < d) l[lane] = v;
    }
}

// tc_sort sorts the oriented lists longer than 32, those tc_sort_warp put in longq: a bitonic
// sort in shared memory for lists up to TC_SORT_MAX, and for longer ones (a few hubs) a rank
// sort through tmp: each entry's position is the number of smaller entries (the entries are
// distinct). One block per list, grid-stride over longq.
extern "C" __global__ void __launch_bounds__(BLOCK) tc_sort(const TcArgs a) {
    __shared__ u32 sh[TC_SORT_MAX];
    i64 cnt = (i64)a.counters[CLong];
    for (i64 q = blockIdx.x; q < cnt; q += gridDim.x) {
        i64 x = a.longq[q];
        i64 beg = a.hoff[x], d = a.hoff[x + 1] - beg;
        u32* l = a.hnbr + beg;
        if (d <= TC_SORT_MAX) {
            // 1. Load, padded to a power of two with the largest value.
            int p = 1;
            while (p < d) p <<= 1;
            for (int i = threadIdx.x; i < p; i += BLOCK) sh[i] = i < d ? l[i] : 0xffffffffu;
            __syncthreads();
            // 2. Bitonic network.
            for (int k = 2; k <= p; k <<= 1) {
                for (int j = k >> 1; j > 0; j >>= 1) {
                    for (int i = threadIdx.x; i < p; i += BLOCK) {
                        int o = i ^ j;
                        if (o > i) {
                            u32 u = sh[i], w = sh[o];
                            bool up = (i & k) == 0;
                            if ((u > w) == up) {
                                sh[i] = w;
                                sh[o] = u;
                            }
                        }
                    }
                    __syncthreads();
                }
            }
            // 3. Store.
            for (int i = threadIdx.x; i < d; i += BLOCK) l[i] = sh[i];
            __syncthreads();
        } else {
            u32* t = a.tmp + beg;
            for (i64 i = threadIdx.x; i < d; i += BLOCK) {
                u32 u = l[i];
                i64 r = 0;
                for (i64 j = 0; j < d; j++) r += l[j] < u;
                t[r] = u;
            }
            __syncthreads();
            for (i64 i = threadIdx.x; i < d; i += BLOCK) l[i] = t[i];
            __syncthreads();
        }
    }
}

// merge counts the common entries of two sorted lists.
__device__ __forceinline__ u64 merge(const u32* x, i64 nx, const u32* y, i64 ny) {
    u64 c = 0;
    i64 i = 0, j = 0;
    while (i < nx && j < ny) {
        u32 p = x[i], q = y[j];
        c += p == q;
        i += p <= q;
        j += q <= p;
    }
    return c;
}

// lower returns the first index of l[0..n) holding a value >= v.
__device__ __forceinline__ i64 lower(const u32* l, i64 n, u32 v) {
    i64 lo = 0, hi = n;
    while (lo < hi) {
        i64 mid = (lo + hi) >> 1;
        if (l[mid] < v) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

// binary searches each entry of the shorter list in the longer, from where the last search ended.
__device__ __forceinline__ u64 binary(const u32* x, i64 nx, const u32* y, i64 ny) {
    if (nx > ny) {
        const u32* t = x; x = y; y = t;
        i64 tn = nx; nx = ny; ny = tn;
    }
    u64 c = 0;
    for (i64 i = 0; i < nx && ny > 0; i++) {
        i64 k = lower(y, ny, x[i]);
        if (k < ny && y[k] == x[i]) {
            c++;
            k++;
        }
        y += k;
        ny -= k;
    }
    return c;
}

// arc counts the triangles closed by oriented arc e = x->v and the entries it read.
template <int HOW>
__device__ __forceinline__ void arc(const TcArgs& a, u32 x, i64 e, u64* tri, u64* scanned) {
    u32 v = a.hnbr[e];
    i64 xb = a.hoff[x], nx = a.hoff[x + 1] - xb;
    const u32* lx = a.hnbr + xb;
    if (a.byrank) {
        i64 skip = e - xb + 1;
        lx += skip;
        nx -= skip;
    }
    i64 vb = a.hoff[v], nv = a.hoff[v + 1] - vb;
    // A merge walks the whole longer list; when one list is TC_SEARCH_RATIO times longer (a
    // hub's list against a leaf's) the shorter one's entries are searched in it instead, so
    // that a lane never walks a hub's list once per arc.
    bool search = HOW == 1 || nx > TC_SEARCH_RATIO * nv || nv > TC_SEARCH_RATIO * nx;
    *tri += search ? binary(lx, nx, a.hnbr + vb, nv) : merge(lx, nx, a.hnbr + vb, nv);
    *scanned += nx + nv;
}

// Sum over the warp, one atomic per warp (all lanes must call).
__device__ __forceinline__ void flush(const TcArgs& a, u64 tri, u64 scanned) {
    for (int o = 16; o > 0; o >>= 1) {
        tri += __shfl_down_sync(0xffffffffu, tri, o);
        scanned += __shfl_down_sync(0xffffffffu, scanned, o);
    }
    if ((threadIdx.x & 31) == 0) {
        if (tri) atomicAdd(&a.counters[CTri], tri);
        if (scanned) atomicAdd(&a.counters[CScanned], scanned);
    }
}

// tc_<merge|binary>_vertex: vertex-parallel: a warp per vertex x, a lane per arc of N+(x).
template <int HOW>
__device__ void count_vertex(const TcArgs& a) {
    u64 tri = 0, scanned = 0;
    int lane = threadIdx.x & 31;
    i64 warps = gstride() >> 5;
    for (i64 x = gtid() >> 5; x < a.n; x += warps) {
        for (i64 e = a.hoff[x] + lane; e < a.hoff[x + 1]; e += 32) arc<HOW>(a, (u32)x, e, &tri, &scanned);
    }
    flush(a, tri, scanned);
}

// tc_<merge|binary>_edge: edge-parallel: a thread per oriented arc.
template <int HOW>
__device__ void count_edge(const TcArgs& a) {
    u64 tri = 0, scanned = 0;
    i64 m = (a.hm + 31) & ~31ll;  // whole warps stay in the loop for the shuffles
    for (i64 e = gtid(); e < m; e += gstride()) {
        if (e < a.hm) arc<HOW>(a, a.hsrc[e], e, &tri, &scanned);
    }
    flush(a, tri, scanned);
}

extern "C" __global__ void __launch_bounds__(BLOCK) tc_merge_vertex(const TcArgs a) { count_vertex<0>(a); }
extern "C" __global__ void __launch_bounds__(BLOCK) tc_binary_vertex(const TcArgs a) { count_vertex<1>(a); }
extern "C" __global__ void __launch_bounds__(BLOCK) tc_merge_edge(const TcArgs a) { count_edge<0>(a); }
extern "C" __global__ void __launch_bounds__(BLOCK) tc_binary_edge(const TcArgs a) { count_edge<1>(a); }

// merge_unique counts the distinct common entries of two sorted lists that may repeat entries.
__device__ __forceinline__ u64 merge_unique(const u32* x, i64 nx, const u32* y, i64 ny) {
    u64 c = 0;
    i64 i = 0, j = 0;
    while (i < nx && j < ny) {
        u32 p = x[i], q = y[j];
        c += p == q && (i == 0 || x[i - 1] != p);
        i += p <= q;
        j += q <= p;
    }
    return c;
}

// tc_merge_thread: lb=thread with order=id, in place: no oriented copy. A thread per vertex x
// takes its arcs x->v with v > x from x's own sorted list (from a binary search for x+1) and
// merges the rest of that list (the entries above v) with N(v)'s entries above v, so each
// triangle counts once, at its lowest vertex. For sparse, even degrees (road networks), where
// orienting costs more than counting.
extern "C" __global__ void __launch_bounds__(BLOCK) tc_merge_thread(const TcArgs a) {
    u64 tri = 0, scanned = 0;
    i64 n = (a.n + 31) & ~31ll;  // whole warps stay in the loop for the shuffles
    for (i64 x = gtid(); x < n; x += gstride()) {
        if (x >= a.n) continue;
        i64 beg = a.off[x], end = a.off[x + 1];
        i64 p = beg + lower(a.nbr + beg, end - beg, (u32)x + 1);
        for (i64 i = p; i < end; i++) {
            u32 v = a.nbr[i];
            if (i > p && a.nbr[i - 1] == v) continue;  // a duplicate
            i64 vb = a.off[v], ve = a.off[v + 1];
            i64 q = vb + lower(a.nbr + vb, ve - vb, v + 1);
            tri += merge_unique(a.nbr + i + 1, end - i - 1, a.nbr + q, ve - q);
            scanned += (u64)(end - i - 1 + ve - q);
        }
    }
    flush(a, tri, scanned);
}

// hash_slot is the first probe of value y in a table of 2^bits slots.
__device__ __forceinline__ u32 hash_slot(u32 y, int bits) { return (y * 2654435761u) >> (32 - bits); }

// hash_segment counts, for the arcs [e0, e1) of x's list, the entries of each N+(v) that are in
// N+(x): 1. the block puts N+(x) into a shared open-addressing table (or, for a list longer
// than TC_HASH_MAX, searches the sorted list instead); 2. a warp per arc, lanes over N+(v),
// probe it. Block-uniform: every thread calls it with the same arguments.
__device__ void hash_segment(const TcArgs& a, u32 x, i64 e0, i64 e1, u32* table, u64* tri, u64* scanned) {
    i64 xb = a.hoff[x], nx = a.hoff[x + 1] - xb;
    const u32* lx = a.hnbr + xb;
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    bool hashed = nx <= TC_HASH_MAX;
    int bits = 5;
    // 1. Build.
    if (hashed) {
        while ((1 << bits) < 2 * nx) bits++;
        for (int i = threadIdx.x; i < (1 << bits); i += BLOCK) table[i] = 0xffffffffu;
        __syncthreads();
        u32 mask = (1u << bits) - 1;
        for (i64 i = threadIdx.x; i < nx; i += BLOCK) {
            u32 y = lx[i];
            u32 s = hash_slot(y, bits);
            while (atomicCAS(&table[s], 0xffffffffu, y) != 0xffffffffu) s = (s + 1) & mask;
        }
        __syncthreads();
        if (threadIdx.x == 0) *scanned += nx;
    }
    // 2. Probe.
    u32 mask = (1u << bits) - 1;
    for (i64 e = e0 + warp; e < e1; e += BLOCK / 32) {
        u32 v = a.hnbr[e];
        i64 vb = a.hoff[v], nv = a.hoff[v + 1] - vb;
        const u32* lv = a.hnbr + vb;
        for (i64 j = lane; j < nv; j += 32) {
            u32 y = lv[j];
            if (hashed) {
                u32 s = hash_slot(y, bits);
                for (;;) {
                    u32 t = table[s];
                    if (t == y) {
                        (*tri)++;
                        break;
                    }
                    if (t == 0xffffffffu) break;
                    s = (s + 1) & mask;
                }
            } else {
                i64 k = lower(lx, nx, y);
                *tri += k < nx && lx[k] == y;
            }
        }
        if (lane == 0) *scanned += nv;
    }
    __syncthreads();  // the table is rebuilt for the next segment
}

// tc_hash_vertex: vertex-parallel with a shared hash table of N+(x): a block per vertex.
extern "C" __global__ void __launch_bounds__(BLOCK) tc_hash_vertex(const TcArgs a) {
    __shared__ u32 table[2 * TC_HASH_MAX];
    u64 tri = 0, scanned = 0;
    for (i64 x = blockIdx.x; x < a.n; x += gridDim.x) {
        if (a.hoff[x + 1] > a.hoff[x]) hash_segment(a, (u32)x, a.hoff[x], a.hoff[x + 1], table, &tri, &scanned);
    }
    flush(a, tri, scanned);
}

// tc_hash_edge: edge-parallel with a shared hash table: a block per BLOCK consecutive oriented
// arcs, one table per source vertex the range touches.
extern "C" __global__ void __launch_bounds__(BLOCK) tc_hash_edge(const TcArgs a) {
    __shared__ u32 table[2 * TC_HASH_MAX];
    u64 tri = 0, scanned = 0;
    for (i64 c = blockIdx.x * (i64)BLOCK; c < a.hm; c += (i64)gridDim.x * BLOCK) {
        i64 end = min(c + BLOCK, a.hm);
        for (u32 x = a.hsrc[c];; x++) {
            i64 e0 = max(a.hoff[x], c);
            if (e0 >= end) break;
            i64 e1 = min(a.hoff[x + 1], end);
            if (e0 < e1) hash_segment(a, x, e0, e1, table, &tri, &scanned);
        }
    }
    flush(a, tri, scanned);
}
