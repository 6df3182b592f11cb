// bfs.cu: breadth-first search. depth[v] is the level of v from the source, -1 when unreached.
// Compiled by `make ptx`: nvcc -ptx -arch=compute_70 -O3 -std=c++14 -o bfs.ptx bfs.cu
//
// Push (top-down) expands the frontier over out-edges and claims each unvisited neighbour;
// pull (bottom-up, Beamer et al.) lets every unvisited vertex look for a parent in the
// frontier among its in-edges and stop at the first. A topology-driven step (in_kind=KAll)
// visits every vertex and treats those at depth == iter as the frontier (Nasre et al.).
// update=rmw claims with atomicCAS (exactly one push); update=rw reads then writes (the same
// depth from every writer, so a lost write is harmless, but duplicates reach the worklist).
#include "block_loop.cuh"

struct BfsPush {
    const Args& a;
    __device__ bool row_ok(u32 u) const { return a.in_kind != KAll || a.val_in[u] == (int)a.iter; }
    __device__ bool done(u32) const { return false; }
    __device__ int edge(u32, u32 v, i64, int, u32* out) const {
        int d = (int)a.iter + 1;
        if (a.val_in[v] >= 0) return 0;
        if (a.update == URMW) {
            if (atomicCAS(&a.val[v], -1, d) != -1) return 0;
        } else {
            a.val[v] = d;
        }
        *out = v;
        return 1;
    }
};

struct BfsPull {
    const Args& a;
    __device__ bool row_ok(u32 v) const { return a.val_in[v] < 0; }
    __device__ bool done(u32 v) const { return a.val[v] >= 0; }
    __device__ int edge(u32 v, u32 u, i64, int, u32* out) const {
        bool in = a.mem_kind == KAll ? a.val_in[u] == (int)a.iter : in_member(a, u);
        if (!in) return 0;
        int d = (int)a.iter + 1;
        if (a.update == URMW) {
            if (atomicCAS(&a.val[v], -1, d) != -1) return 0;
        } else {
            a.val[v] = d;
        }
        *out = v;
        return 1;
    }
};

template <>
struct TwcLimits<BfsPull> {
    static constexpr int warp = 256, cta = 4096;
};

// BfsDoPull is BfsPull inside the fused direction-optimizing loop: membership is always a
// bitmap (mem_bits), and every vertex it settles is also marked in the next level's bitmap
// (out_bits), so that consecutive bottom-up levels need no conversion.
struct BfsDoPull {
    const Args& a;
    __device__ bool row_ok(u32 v) const { return a.val_in[v] < 0; }
    __device__ bool done(u32 v) const { return a.val[v] >= 0; }
    __device__ int edge(u32 v, u32 u, i64, int, u32* out) const {
        if (!bit_test(a.mem_bits, u)) return 0;
        int d = (int)a.iter + 1;
        if (a.update == URMW) {
            if (atomicCAS(&a.val[v], -1, d) != -1) return 0;
        } else {
            a.val[v] = d;
        }
        atomicOr(&a.out_bits[v >> 5], 1u << (v & 31));
        *out = v;
        return 1;
    }
};

template <>
struct TwcLimits<BfsDoPull> {
    static constexpr int warp = 256, cta = 4096;
};

// The state row of a fused direction-optimizing launch: NCounters words just before lens,
// written by the kernel: Beamer's state at its end (for the next launch) and its timing.
enum {
    DoDir = 4,      // the direction of the last level (0 push, 1 pull)
    DoToCheck = 5,  // unexplored edges
    DoAwake = 6,    // the last frontier's vertices
    DoScout = 7,    // edges of the next input frontier
    DoDone = 11,    // levels completed
    DoStart = 12,   // globaltimer at the start
};

// bfs_do_loop is the whole direction-optimizing BFS in one cooperative launch: level k reads
// queue (k even ? in_q : out_q) of length lens[k] and appends the next frontier to the other
// (every level, push or pull, fills the queue; a pull level also fills the next bitmap).
// Before each level every thread takes Beamer's decision from the previous level's counters,
// read after the grid barrier, so all take the same: push -> pull when the frontier's edges
// exceed the unexplored edges / alpha, pull -> push when the frontier has fewer than V / beta
// vertices and shrinks. The direction goes to trace[k*NCounters + CDir]; the host replays the
// rule on the counters to trace each switch with its quantities.
//
// Push levels: a frontier of at most 64 rows holding 16K or more edges runs lb_grid (a hub's
// neighbourhood over the whole grid); with lb=twc, etwc or np, a small frontier of rich rows (up
// to 4096 rows, 8 or more edges each on average) runs a warp per row, and a rich one packs 32
// rows a block with a warp for every row of 8 or more edges, as the host-driven step does. Pull
// levels (np and etwc: a thread per vertex, as lb=thread) read the in-CSR (control row) and test membership in a bitmap: on a switch to pull
// the queue is scattered into it (two extra barriers); pull -> pull rotates three bitmaps,
// clearing the one read a level earlier. Counters, overflow and relaunch are fused_loop's.
template <int LB>
__device__ void bfs_do_loop(const Args& a0) {
    __shared__ Shared sh;
    cg::grid_group grid = cg::this_grid();
    u64* ctl = (u64*)a0.lens - NCounters;
    const i64* in_off = a0.in_off;
    const u32* in_nbr = a0.in_nbr;
    double alpha = a0.alpha, beta = a0.beta;
    int dir = (int)a0.do_dir;
    i64 to_check = a0.do_to_check;
    i64 awake = a0.do_awake;
    i64 scout = a0.do_scout;
    u32* bits = a0.do_bitmaps;
    i64 words = (a0.n + 31) >> 5;
    i64 t = blockIdx.x * (i64)blockDim.x + threadIdx.x, nt = (i64)gridDim.x * blockDim.x;
    /// 1. Prologue: depths, the spill boolmap and the source on the first launch; the input
    /// length, row 0 and lens[1] set.
    if (a0.do_init) {
        u32 src = (u32)a0.do_src;
        for (i64 v = t; v < a0.n; v += nt) {
            int d = v == src ? 0 : -1;
            a0.val[v] = d;
            if (a0.val_in != a0.val) ((int*)a0.val_in)[v] = d;
        }
        for (i64 v = t; v < a0.n; v += nt) a0.spill[v] = 0;
        if (t == 0) ((u32*)a0.in_q)[0] = src;
    }
    if (t == 0) {
        ctl[DoStart] = globaltimer();
        a0.lens[0] = (u32)a0.do_count;
        for (int c = 0; c < NCounters; c++) a0.trace[c] = 0;
        a0.lens[1] = 0;
    }
    grid.sync();
    bool prev_pull = false;
    int c = 0;  // the membership bitmap of a pull level
    i64 k = 0;
    while (k < a0.iters) {
        u32 cnt = *((volatile u32*)(a0.lens + k));
        if (cnt == 0) break;
        /// 2. Beamer's switch, taken alike by every thread.
        if (dir == 0 && (double)scout > (double)to_check / alpha) dir = 1;
        else if (dir == 1 && (double)cnt < (double)a0.n / beta && (i64)cnt <= awake) dir = 0;
        awake = cnt;
        Args s = a0;
        bool even = (k & 1) == 0;
        s.in_q = even ? a0.in_q : a0.out_q;
        s.out_q = even ? a0.out_q : (u32*)a0.in_q;
        s.in_len = a0.lens + k;
        s.out_len = a0.lens + k + 1;
        s.counters = a0.trace + k * NCounters;
        s.iter = a0.iter + k;
        s.tag = a0.tag + k;
        if (t == 0) {
            // the next level's counters and output length (untouched during this level)
            if (k + 1 < a0.iters)
                for (int j = 0; j < NCounters; j++) s.counters[NCounters + j] = 0;
            a0.lens[k + 2] = 0;
        }
        if (dir == 1) {
            /// 3a. Bottom-up over the in-CSR.
            if (!prev_pull) {
                for (i64 i = t; i < 3 * words; i += nt) bits[i] = 0;
                grid.sync();
                for (i64 i = t; i < cnt; i += nt) {
                    u32 v = s.in_q[i];
                    atomicOr(&bits[v >> 5], 1u << (v & 31));
                }
                grid.sync();
                c = 0;
            } else {
                u32* old = bits + ((c + 2) % 3) * words;  // last level's membership
                for (i64 i = t; i < words; i += nt) old[i] = 0;
            }
            s.off = in_off;
            s.nbr = in_nbr;
            s.in_kind = KAll;
            s.mem_kind = KBitmap;
            s.mem_bits = bits + c * words;
            s.out_bits = bits + ((c + 1) % 3) * words;
            BfsDoPull f{s};
            // np and etwc: a thread per vertex, as lb=thread (a row stops at its first parent,
            // so nested scheduling only adds its staging and barriers)
            if (LB == LNP || LB == LETWC) advance<LThread>(s, sh, f);
            else advance<LB>(s, sh, f);
            c = (c + 1) % 3;
            prev_pull = true;
        } else {
            /// 3b. Top-down over the out-CSR.
            BfsPush f{s};
            if (cnt <= 64 && scout >= 16384) {
                advance<LGrid>(s, sh, f);
            } else if ((LB == LTWC || LB == LETWC || LB == LNP) && cnt <= 4096 && scout >= 8 * (i64)cnt) {
                advance<LWarp>(s, sh, f);
            } else if (LB == LNP && scout < 2 * (i64)cnt) {
                advance<LThread>(s, sh, f);  // np: rows of one or two edges, as the host step
            } else {
                if ((LB == LTWC || LB == LETWC) && scout >= 16 * (i64)cnt) s.rows_per_block = 32, s.twc_warp = 8;
                if (LB == LNP && scout >= 16 * (i64)cnt) s.rows_per_block = (a0.rows_per_block & 255) | (32 << 8), s.twc_warp = 8;
                advance<LB>(s, sh, f);
            }
            prev_pull = false;
        }
        if (a0.val != a0.val_in) {
            grid.sync();
            for (i64 v = t; v < s.n; v += nt) ((int*)s.val_in)[v] = s.val[v];
        }
        grid.sync();
        /// 4. The level's counters, seen alike by every thread.
        scout = (i64)*((volatile u64*)&s.counters[CScout]);
        to_check -= scout;
        k++;
        if (t == 0) {
            s.counters[CTime] = globaltimer();
            s.counters[CCount] = cnt;
            s.counters[CDir] = dir;
        }
        if (*((volatile u64*)&s.counters[COverflow])) break;
    }
    if (t == 0) {
        ctl[DoDir] = dir;
        ctl[DoToCheck] = (u64)to_check;
        ctl[DoAwake] = (u64)awake;
        ctl[DoScout] = (u64)scout;
        ctl[DoDone] = k;
    }
}

#define BFS_DO(LBNAME, LB) \
    extern "C" __global__ void __launch_bounds__(BLOCK) bfs_do_##LBNAME(const Args a) { bfs_do_loop<LB>(a); }

// bfs_push_<lb>: one top-down step.
ENTRIES(bfs_push, BfsPush)
ENTRY(bfs_push_etwc, BfsPush, LETWC)
// bfs_pull_<lb>: one bottom-up step.
ENTRIES(bfs_pull, BfsPull)
ENTRY(bfs_pull_etwc, BfsPull, LETWC)
// bfs_fused_<lb>: the whole top-down loop in one cooperative launch (fuse=on direction=push).
FUSED_ENTRIES(bfs_fused, BfsPush)
FUSED(bfs_fused_np, BfsPush, LNP)
FUSED(bfs_fused_etwc, BfsPush, LETWC)
// bfs_do_<lb>: the whole direction-optimizing loop in one cooperative launch (fuse=on
// direction=auto).
BFS_DO(thread, LThread)
BFS_DO(warp, LWarp)
BFS_DO(cta, LCTA)
BFS_DO(twc, LTWC)
BFS_DO(np, LNP)
BFS_DO(etwc, LETWC)


// BfsBlock is block_loop's top-down claim (fuse=block): atomicCAS from -1 to the level (or
// read then write with update=rw, where duplicates reach the worklist).
struct BfsBlock {
    static constexpr bool far = false, weighted = false;
    static __device__ __forceinline__ int start(const Args&, u32) { return 0; }
    static __device__ __forceinline__ int next(int, int, int level) { return level; }
    static __device__ __forceinline__ int update(const Args& a, u32 v, int d) {
        if (a.update == URMW) return atomicCAS(&a.val[v], -1, d);
        int old = a.val[v];
        if (old < 0) a.val[v] = d;
        return old;
    }
    static __device__ __forceinline__ bool won(int old, int) { return old < 0; }
};

// bfs_block: the top-down loop in one block of SBLOCK threads while the frontier is small
// (fuse=block; kernels/block_loop.cuh).
BLOCK_LOOP(bfs_block, BfsBlock)
