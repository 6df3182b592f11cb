// mis.cu: maximal independent set, Luby's algorithm with priorities fixed in advance
// (engine.MISPriority; IrGL's and Indigo2's MIS), which reaches the set of the greedy algorithm
// in decreasing priority. Compiled by `make ptx`:
// nvcc -ptx -arch=compute_70 -O3 -std=c++14 -o mis.ptx mis.cu
//
// A vertex per thread. Arcs count both ways: on a directed graph every kernel reads the
// out-list and the in-list. The file is self-contained.
#define BLOCK 256

typedef unsigned int u32;
typedef long long i64;
typedef unsigned long long u64;

enum { Undecided = 0, In = 1, Out = 2 };
// Counters (u64 words of counters), cleared by the host every round.
enum { CJoined = 0, CScanned = 1, CNext = 2, CJoins = 3 };

// MisArgs is every MIS kernel's single parameter, mirrored by misArgs in mis.go (all 8 bytes).
struct MisArgs {
    // 1. Out-CSR, and the in-CSR of a directed graph (null for an undirected one).
    const i64* off;
    const u32* nbr;
    const i64* ioff;
    const u32* inbr;
    i64 n;
    i64 seed;
    // 2. Per-vertex priority and state.
    u64* prio;
    u32* state;
    // 3. Items: q[0..qlen) (the undecided worklist, or the round's joins), or every vertex (topo).
    const u32* q;
    i64 qlen;
    i64 topo;
    // 4. Outputs: the next worklist, the round's new members (sync, push).
    u32* next;
    u32* joins;
    u64* counters;
};

static_assert(sizeof(MisArgs) == 112, "MisArgs must match misArgs in mis.go");

__device__ __forceinline__ i64 gtid() { return blockIdx.x * (i64)blockDim.x + threadIdx.x; }
__device__ __forceinline__ i64 gstride() { return (i64)gridDim.x * blockDim.x; }
__device__ __forceinline__ i64 items(const MisArgs& a) { return a.topo ? a.n : a.qlen; }
__device__ __forceinline__ u32 item(const MisArgs& a, i64 i) { return a.topo ? (u32)i : a.q[i]; }
__device__ __forceinline__ u32 state(const MisArgs& a, u32 v) { return ((volatile u32*)a.state)[v]; }

// mix64 is engine.Mix64, the SplitMix64 finaliser.
__device__ __forceinline__ u64 mix64(u64 x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

// mis_init: prio[v] = engine.MISPriority(seed, v), every vertex undecided, next = every vertex.
extern "C" __global__ void __launch_bounds__(BLOCK) mis_init(const MisArgs a) {
    for (i64 v = gtid(); v < a.n; v += gstride()) {
        u64 h = mix64((u64)a.seed * 0x9e3779b97f4a7c15ull ^ (u64)v);
        a.prio[v] = (h & ~0xffffffffull) | (u64)v;
        a.state[v] = Undecided;
        if (a.next) a.next[v] = (u32)v;
    }
}

// beats: every neighbour of higher priority has left (in one list).
__device__ __forceinline__ bool beats(const MisArgs& a, const i64* off, const u32* nbr, u32 v, u64 pv, u64* scanned) {
    if (!off) return true;
    i64 beg = off[v], end = off[v + 1];
    *scanned += end - beg;
    for (i64 e = beg; e < end; e++) {
        u32 u = nbr[e];
        if (u != v && a.prio[u] > pv && state(a, u) != Out) return false;
    }
    return true;
}

__device__ __forceinline__ bool has_member(const MisArgs& a, const i64* off, const u32* nbr, u32 v, u64* scanned) {
    if (!off) return false;
    i64 beg = off[v], end = off[v + 1];
    *scanned += end - beg;
    for (i64 e = beg; e < end; e++) {
        u32 u = nbr[e];
        if (u != v && state(a, u) == In) return true;
    }
    return false;
}

__device__ __forceinline__ void push_out(const MisArgs& a, const i64* off, const u32* nbr, u32 v, u64* scanned) {
    if (!off) return;
    i64 beg = off[v], end = off[v + 1];
    *scanned += end - beg;
    for (i64 e = beg; e < end; e++) {
        u32 u = nbr[e];
        if (u != v && state(a, u) == Undecided) a.state[u] = Out;
    }
}

// Sum the thread's counters per warp into counters (every lane calls).
__device__ __forceinline__ void flush(const MisArgs& a, u64 joined, u64 scanned) {
    for (int o = 16; o > 0; o >>= 1) {
        joined += __shfl_down_sync(0xffffffffu, joined, o);
        scanned += __shfl_down_sync(0xffffffffu, scanned, o);
    }
    if ((threadIdx.x & 31) == 0) {
        if (joined) atomicAdd(&a.counters[CJoined], joined);
        if (scanned) atomicAdd(&a.counters[CScanned], scanned);
    }
}

// mis_select_thread (sync=sync, select): an undecided vertex whose priority beats every
// neighbour that has not left joins; with joins set, it is listed for the push removal.
extern "C" __global__ void __launch_bounds__(BLOCK) mis_select_thread(const MisArgs a) {
    u64 joined = 0, scanned = 0;
    for (i64 i = gtid(); i < items(a); i += gstride()) {
        u32 v = item(a, i);
        if (state(a, v) != Undecided) continue;
        u64 pv = a.prio[v];
        if (beats(a, a.off, a.nbr, v, pv, &scanned) && beats(a, a.ioff, a.inbr, v, pv, &scanned)) {
            a.state[v] = In;
            joined++;
            if (a.joins) a.joins[atomicAdd(&a.counters[CJoins], 1ull)] = v;
        }
    }
    flush(a, joined, scanned);
}

// mis_remove_push_thread (sync=sync, remove, push): the round's members push their undecided
// neighbours out. The items are the joins.
extern "C" __global__ void __launch_bounds__(BLOCK) mis_remove_push_thread(const MisArgs a) {
    u64 scanned = 0;
    for (i64 i = gtid(); i < items(a); i += gstride()) {
        u32 v = item(a, i);
        push_out(a, a.off, a.nbr, v, &scanned);
        push_out(a, a.ioff, a.inbr, v, &scanned);
    }
    flush(a, 0, scanned);
}

// mis_remove_pull_thread (sync=sync, remove, pull): an undecided vertex with a member among its
// neighbours leaves.
extern "C" __global__ void __launch_bounds__(BLOCK) mis_remove_pull_thread(const MisArgs a) {
    u64 scanned = 0;
    for (i64 i = gtid(); i < items(a); i += gstride()) {
        u32 v = item(a, i);
        if (state(a, v) != Undecided) continue;
        if (has_member(a, a.off, a.nbr, v, &scanned) || has_member(a, a.ioff, a.inbr, v, &scanned)) a.state[v] = Out;
    }
    flush(a, 0, scanned);
}

// mis_async_<push|pull>_thread (sync=async): one pass that sees the round's own decisions. An
// undecided vertex joins when every neighbour of higher priority has left; push: it then
// pushes its neighbours out; pull: it first leaves if a neighbour is a member.
template <bool PUSH>
__device__ void async_round(const MisArgs& a) {
    u64 joined = 0, scanned = 0;
    for (i64 i = gtid(); i < items(a); i += gstride()) {
        u32 v = item(a, i);
        if (state(a, v) != Undecided) continue;
        if (!PUSH && (has_member(a, a.off, a.nbr, v, &scanned) || has_member(a, a.ioff, a.inbr, v, &scanned))) {
            a.state[v] = Out;
            continue;
        }
        u64 pv = a.prio[v];
        if (beats(a, a.off, a.nbr, v, pv, &scanned) && beats(a, a.ioff, a.inbr, v, pv, &scanned)) {
            a.state[v] = In;
            joined++;
            if (PUSH) {
                __threadfence();
                push_out(a, a.off, a.nbr, v, &scanned);
                push_out(a, a.ioff, a.inbr, v, &scanned);
            }
        }
    }
    flush(a, joined, scanned);
}

extern "C" __global__ void __launch_bounds__(BLOCK) mis_async_push_thread(const MisArgs a) { async_round<true>(a); }
extern "C" __global__ void __launch_bounds__(BLOCK) mis_async_pull_thread(const MisArgs a) { async_round<false>(a); }

// mis_compact: the items still undecided go to next (data) and are counted in counters[CNext].
extern "C" __global__ void __launch_bounds__(BLOCK) mis_compact(const MisArgs a) {
    for (i64 i = gtid(); i < items(a); i += gstride()) {
        u32 v = item(a, i);
        if (a.state[v] != Undecided) continue;
        u64 k = atomicAdd(&a.counters[CNext], 1ull);
        if (a.next) a.next[k] = v;
    }
}
