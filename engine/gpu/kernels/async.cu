// async.cu: method=async, BFS and SSSP as a partitioned asynchronous traversal in one
// persistent launch. Compiled by `make ptx`: nvcc -ptx -arch=compute_70 -O3 -std=c++14 -o
// async.ptx async.cu
//
// The host relabels the vertices so that each SM's range of `per` consecutive ids is a compact
// region (recursive bisection, async.go asyncOrder). A block owns a range and keeps in shared memory what a relaxation of its
// vertices touches: their row offsets, their values, an in-ring bitmap, a deferred bitmap and a
// FIFO ring of vertices to relax. Its warps relax ring vertices as they come (no barrier
// between levels); a relaxation that lowers a vertex of the range queues it in the ring, one
// that reaches another range goes to a shared-memory outbox, which warp 1 sends to the owner's
// mailbox in global memory; warp 0 absorbs the block's mailbox and opens the windows. So a hop
// inside a range is shared-memory work and one read of the neighbour list, where a
// level-synchronous traversal pays a grid-wide barrier (or a block's, and a few L2 round trips
// of its worklists) per level (docs/gpu-notes.md).
//
// Windows keep the asynchrony from running ahead (Meyer and Sanders's delta-stepping, ADDS's
// asynchronous buckets): a value below the window's end (epoch + 1) x win is relaxed at once, a
// larger one is deferred (a bit in the deferred bitmap). `active` counts the blocks with work
// in the window, the receivers absorbing and, while a window opens, one token per block; the
// thread that brings it to zero checks that every mailbox is drained and then either opens the
// next window (requeuing the deferred vertices that fall in it) or ends the run when nothing is
// deferred anywhere. Values only fall, so the result is the exact BFS depth or shortest
// distance whatever the order of the relaxations.
//
// Every block must be resident (they wait for each other's messages): a cooperative launch of
// one block per SM.
#include "platform.cuh"

typedef unsigned int u32;
typedef long long i64;
typedef unsigned long long u64;

#define EMPTY32 0xffffffffu
#define EMPTY64 0xffffffffffffffffull
#define FULL 0xffffffffu
#define OCAP 4096  // outbox entries (u64) a block
#define NTRACE 4   // trace words a window: open time, relaxed vertices, messages, arcs

// AsyncArgs is the kernels' single parameter, mirrored by asyncArgs in async.go.
struct AsyncArgs {
    // 1. The relabeled graph: offsets (i64, new ids), neighbours (new ids), weights (SSSP),
    // and each new id's original id.
    const i64* off;
    const u32* nbr;
    const int* wt;
    const u32* perm;
    // 2. The result by original id.
    int* out;
    // 3. Mailboxes: mbcap u64 messages (local id << 32 | value) a range, and per range the
    // messages sent (tail) and absorbed (head).
    u64* mb;
    u32* mb_tail;
    u32* mb_head;
    // 4. Control words (zero but active = 1 at the start): active, epoch, remaining[2], done,
    // aborted, two spare; then (u64) the messages sent and absorbed.
    int* ctl;
    // 5. The trace: NTRACE words a window, rows windows (the last row takes any more), then the
    // stop time.
    u64* trace;
    i64 n, per, parts, mbcap, src, win, rows, ring;
    // 6. 1: BFS depths, -1 for the unreached (else INF_DIST).
    i64 depth;
    // 7. The watchdog: a run still going after limit ns stops with ctl[CAborted] set.
    i64 limit;
};

static_assert(sizeof(AsyncArgs) == 160, "AsyncArgs must match asyncArgs in async.go");

enum { CActive = 0, CEpoch = 1, CRemaining = 2, CDone = 4, CAborted = 5, CSent = 4, CAbsorbed = 5 };  // CSent, CAbsorbed: u64 words

__device__ __forceinline__ u64* ctl64(const AsyncArgs& a, int k) { return (u64*)a.ctl + k; }

__device__ __forceinline__ u32 ldvu(const u32* p) { return *(volatile const u32*)p; }
__device__ __forceinline__ int ldvi(const int* p) { return *(volatile const int*)p; }

// tryEnd runs in the thread that brought active to zero. The window is over when every message
// sent has been absorbed as well (a sender counts its messages before they go, a receiver holds
// active while it absorbs and counts them before it lets go, so one absorbing now tries again
// when it is done); then nothing is deferred anywhere and the run is done, or the next window
// opens with a token per block. The compare-and-swap from zero makes sure nothing woke up in
// between.
__device__ void tryEnd(const AsyncArgs& a) {
    if (*(volatile u64*)ctl64(a, CSent) != *(volatile u64*)ctl64(a, CAbsorbed)) return;
    int e = ldvi(&a.ctl[CEpoch]);
    if (ldvi(&a.ctl[CRemaining + (e & 1)]) == 0) {
        if (atomicCAS(&a.ctl[CActive], 0, 1 << 30) == 0) {
            a.trace[a.rows * NTRACE] = globaltimer();
            atomicExch(&a.ctl[CDone], 1);
        }
        return;
    }
    if (atomicCAS(&a.ctl[CActive], 0, (int)a.parts) != 0) return;
    a.ctl[CRemaining + ((e + 1) & 1)] = 0;
    a.trace[min((i64)e + 1, a.rows - 1) * NTRACE] = globaltimer();
    __threadfence();
    atomicExch(&a.ctl[CEpoch], e + 1);
}

// stopped says whether the run is over, and stops it (aborted) once it has run a.limit ns: every
// wait checks it, so that a fault in the hand-over becomes an error instead of a hung device.
__device__ __forceinline__ bool stopped(const AsyncArgs& a) {
    if (ldvi(&a.ctl[CDone])) return true;
    u64 t0 = *(volatile u64*)&a.trace[0], now = globaltimer();
    if (t0 == 0 || now - t0 <= (u64)a.limit) return false;  // t0: block 0 not started yet
    a.trace[a.rows * NTRACE] = now;
    atomicExch(&a.ctl[CAborted], 1);
    atomicExch(&a.ctl[CDone], 1);
    return true;
}

// release gives back k of active, after this thread's writes.
__device__ __forceinline__ void release(const AsyncArgs& a, int k) {
    __threadfence();
    if (atomicSub(&a.ctl[CActive], k) == k) tryEnd(a);
}

// value: BFS offers depth + 1, SSSP the distance plus the weight saturated at INF_DIST - 1 (a
// result that reaches it is refused on the host).
template <bool W>
__device__ __forceinline__ int next_value(const AsyncArgs& a, const int* wt, u32 arc, int d) {
    if (!W) return d + 1;
    return (int)min((i64)d + __ldg(&wt[arc]), (i64)INF_DIST - 1);
}

template <bool W>
__device__ void async_traverse(const AsyncArgs& a) {
    extern __shared__ u64 sm[];
    __shared__ u32 qhead, qtail, ohead, otail;
    __shared__ int lp, sdone, s_epoch, s_counted;
    __shared__ i64 s_end;
    __shared__ u64 s_cnt[3];  // the window's relaxed vertices, messages, arcs (this block)
    const u32 p = blockIdx.x;
    const u32 per = (u32)a.per;
    const u32 vb0 = p * per;
    const u32 nvp = (i64)vb0 >= a.n ? 0 : (u32)min((i64)per, a.n - vb0);
    const u32 cap = (u32)a.ring;
    const u32 words = (per + 31) / 32;
    u64* obox = sm;                          // OCAP
    u32* offs = (u32*)(obox + OCAP);         // per + 1
    int* dist = (int*)(offs + per + 1);      // per
    u32* inq = (u32*)(dist + per);           // in the ring
    u32* inw = inq + words;                  // deferred: beyond the window
    u32* ring = inw + words;                 // cap (a power of 2)
    const i64 abase = a.off[min((i64)vb0, a.n)];
    const u32 t = threadIdx.x;
    if (p == 0 && t == 0) a.trace[0] = globaltimer();
    /// 1. The range's offsets, values and worklists.
    for (u32 i = t; nvp > 0 && i <= nvp; i += blockDim.x) offs[i] = (u32)(a.off[vb0 + i] - abase);
    for (u32 i = t; i < nvp; i += blockDim.x) dist[i] = INF_DIST;
    for (u32 i = t; i < words; i += blockDim.x) inq[i] = 0, inw[i] = 0;
    for (u32 i = t; i < cap; i += blockDim.x) ring[i] = EMPTY32;
    for (u32 i = t; i < OCAP; i += blockDim.x) obox[i] = EMPTY64;
    if (t == 0) {
        qhead = qtail = ohead = otail = 0;
        lp = sdone = s_epoch = s_counted = 0;
        s_end = a.win;
        s_cnt[0] = s_cnt[1] = s_cnt[2] = 0;
    }
    __syncthreads();  // the source's value and bits after every thread's clearing
    if (t == 0) {
        if ((u64)(a.src - vb0) < nvp) {
            u32 s = (u32)(a.src - vb0);
            dist[s] = 0;
            inq[s >> 5] = 1u << (s & 31);
            ring[0] = s;
            qtail = 1;
            lp = 1;  // the host starts active at 1 for it
        }
    }
    __syncthreads();
    const u32* nbr = a.nbr + abase;
    const int* wt = W ? a.wt + abase : nullptr;
    const int lane = t & 31;
    // push queues lw in the ring; a worker holds lp already, the receiver and the window's
    // opener may wake the block.
    auto push = [&](u32 lw, bool wake) {
        if (wake) {
            // the block wakes: active counts it before its work can end anything
            if (atomicAdd(&lp, 1) == 0) {
                atomicAdd(&a.ctl[CActive], 1);
                __threadfence();
            }
        } else {
            atomicAdd(&lp, 1);
        }
        __threadfence_block();
        u32 q = atomicAdd(&qtail, 1u);
        ((volatile u32*)ring)[q & (cap - 1)] = lw;
    };
    // offer lowers lw's value to nd, and queues it (in the window) or defers it.
    auto offer = [&](u32 lw, int nd, bool wake) {
        if (ldvi(&dist[lw]) <= nd) return;
        if (atomicMin(&dist[lw], nd) <= nd) return;
        u32 bit = 1u << (lw & 31);
        if (nd < *(volatile i64*)&s_end) {
            if (!(atomicOr(&inq[lw >> 5], bit) & bit)) push(lw, wake);
        } else if (!(atomicOr(&inw[lw >> 5], bit) & bit)) {
            if (atomicExch(&s_counted, 1) == 0) atomicAdd(&a.ctl[CRemaining + (ldvi(&s_epoch) & 1)], 1);
        }
    };
    if (t < 32) {
        /// 2. Warp 0: the windows and the mailbox.
        u64* mb = a.mb + (u64)p * a.mbcap;
        u32 head = 0;
        int myep = 0;
        for (;;) {
            u32 tail = 0;
            int ep = 0, dn = 0;
            if (lane == 0) {
                ep = ldvi(&a.ctl[CEpoch]);
                tail = ldvu(&a.mb_tail[p]);
                dn = ldvi(&a.ctl[CDone]);
            }
            ep = __shfl_sync(FULL, ep, 0);
            tail = __shfl_sync(FULL, tail, 0);
            dn = __shfl_sync(FULL, dn, 0);
            if (ep != myep) {
                // A new window: this block's counts of the last one go to its trace row, the
                // deferred vertices that fall in the new one are queued, and the token goes
                // back.
                if (lane < 3) atomicAdd(&a.trace[min((i64)myep, a.rows - 1) * NTRACE + 1 + lane], atomicExch(&s_cnt[lane], 0ull));
                myep = ep;
                i64 end = (i64)(ep + 1) * a.win;
                if (lane == 0) {
                    s_epoch = ep;
                    s_end = end;
                    s_counted = 0;
                }
                __syncwarp();
                bool left = false;
                for (u32 w0 = 0; w0 < words; w0 += 32) {
                    u32 wi = w0 + lane;
                    u32 bits = wi < words ? ldvu(&inw[wi]) : 0;
                    while (bits) {
                        u32 b = __ffs(bits) - 1;
                        bits &= bits - 1;
                        u32 v = wi * 32 + b;
                        if (ldvi(&dist[v]) < end) {
                            atomicAnd(&inw[wi], ~(1u << b));
                            if (!(atomicOr(&inq[wi], 1u << b) & (1u << b))) push(v, true);
                        } else {
                            left = true;
                        }
                    }
                }
                left = __any_sync(FULL, left);
                if (lane == 0) {
                    if (left && atomicExch(&s_counted, 1) == 0) atomicAdd(&a.ctl[CRemaining + (ep & 1)], 1);
                    release(a, 1);
                }
                __syncwarp();
                continue;
            }
            if (tail != head) {
                // Messages, 32 at a time: held in active until they are absorbed and the head
                // is published. (A sender past a full mailbox waits for the head, so the head
                // moves on before the next 32 are awaited.)
                if (lane == 0) {
                    atomicAdd(&a.ctl[CActive], 1);
                    __threadfence();
                }
                __syncwarp();
                tail = min(tail, head + 32);
                if (head + lane < tail) {
                    u64* slot = &mb[(head + lane) % a.mbcap];
                    u64 it;
                    while ((it = *(volatile u64*)slot) == EMPTY64 && !stopped(a)) {
                    }
                    *(volatile u64*)slot = EMPTY64;
                    if (it != EMPTY64) offer((u32)(it >> 32), (int)(u32)it, true);
                }
                __syncwarp();
                u32 k = tail - head;
                head = tail;
                if (lane == 0) {
                    __threadfence();
                    *(volatile u32*)&a.mb_head[p] = head;
                    atomicAdd(ctl64(a, CAbsorbed), (u64)k);
                    release(a, 1);
                }
                __syncwarp();
                continue;
            }
            if (dn) break;
            if (lane == 0) stopped(a);
        }
        if (lane < 3) atomicAdd(&a.trace[min((i64)myep, a.rows - 1) * NTRACE + 1 + lane], s_cnt[lane]);
        if (lane == 0) *(volatile int*)&sdone = 1;
    } else if (t < 64) {
        /// 3. Warp 1: the outbox, sent to the owners' mailboxes (up to 32 at a time).
        for (;;) {
            u32 h = 0, n = 0;
            if (lane == 0) {
                for (;;) {
                    h = ldvu(&ohead);
                    u32 tl = ldvu(&otail);
                    if (tl != h) {
                        n = min(tl - h, 32u);
                        break;
                    }
                    if (ldvi(&sdone)) break;
                }
            }
            h = __shfl_sync(FULL, h, 0);
            n = __shfl_sync(FULL, n, 0);
            if (n == 0) break;
            if (lane == 0) {
                // counted before any of them can be absorbed (tryEnd compares the counts)
                atomicAdd(ctl64(a, CSent), (u64)n);
                __threadfence();
            }
            __syncwarp();
            if (lane < n) {
                u64* os = &obox[(h + lane) & (OCAP - 1)];
                u64 it;
                while ((it = *(volatile u64*)os) == EMPTY64 && !stopped(a)) {
                }
                *(volatile u64*)os = EMPTY64;
                if (it == EMPTY64) it = 0;  // stopped: any message will do
                u32 w = (u32)(it >> 32);
                u32 q = w / per;
                u32 s = atomicAdd(&a.mb_tail[q], 1u);
                if (s >= a.mbcap)
                    while (s - ldvu(&a.mb_head[q]) >= a.mbcap && !stopped(a)) __nanosleep(100);
                *(volatile u64*)&a.mb[(u64)q * a.mbcap + s % a.mbcap] = ((u64)(w - q * per) << 32) | (it & 0xffffffffull);
            }
            __syncwarp();
            if (lane == 0) {
                atomicAdd(&s_cnt[1], (u64)n);
                // the slots' EMPTY marks land before a worker may reuse them
                __threadfence_block();
                *(volatile u32*)&ohead = h + n;
                if (atomicSub(&lp, (int)n) == (int)n) release(a, 1);
            }
            __syncwarp();
        }
    } else {
        /// 4. The other warps: up to 32 ring vertices at a time, relaxed as they come.
        for (;;) {
            u32 h = 0, n = 0;
            if (lane == 0) {
                for (;;) {
                    h = ldvu(&qhead);
                    u32 tl = ldvu(&qtail);
                    if (tl != h) {
                        n = min(tl - h, 32u);
                        if (atomicCAS(&qhead, h, h + n) == h) break;
                        continue;
                    }
                    if (ldvi(&sdone)) break;
                }
            }
            h = __shfl_sync(FULL, h, 0);
            n = __shfl_sync(FULL, n, 0);
            if (n == 0) break;
            u32 arcs = 0;
            if (lane < n) {
                u32* slot = &ring[(h + lane) & (cap - 1)];
                u32 v;
                while ((v = ldvu(slot)) == EMPTY32 && !stopped(a)) {
                }
                *(volatile u32*)slot = EMPTY32;
                if (v == EMPTY32) v = 0;  // stopped by the watchdog: any vertex will do
                atomicAnd(&inq[v >> 5], ~(1u << (v & 31)));
                __threadfence_block();
                int d = ldvi(&dist[v]);
                u32 b = offs[v], e = offs[v + 1];
                arcs = e - b;
                for (u32 k = b; k < e; k++) {
                    u32 w = __ldg(&nbr[k]);
                    int nd = next_value<W>(a, wt, k, d);
                    u32 lw = w - vb0;
                    if (lw < nvp) {
                        offer(lw, nd, false);
                    } else {
                        atomicAdd(&lp, 1);
                        u32 o = atomicAdd(&otail, 1u);
                        while (o - ldvu(&ohead) >= OCAP && !stopped(a)) {
                        }
                        __threadfence_block();
                        *(volatile u64*)&obox[o & (OCAP - 1)] = ((u64)w << 32) | (u32)nd;
                    }
                }
            }
            for (int o = 16; o > 0; o >>= 1) arcs += __shfl_down_sync(FULL, arcs, o);
            if (lane == 0) {
                atomicAdd(&s_cnt[0], (u64)n);
                atomicAdd(&s_cnt[2], (u64)arcs);
                if (atomicSub(&lp, (int)n) == (int)n) release(a, 1);
            }
        }
    }
    /// 5. The range's values, by original id.
    __syncthreads();
    for (u32 i = t; i < nvp; i += blockDim.x) {
        int d = dist[i];
        a.out[a.perm[vb0 + i]] = (a.depth && d == INF_DIST) ? -1 : d;
    }
}

extern "C" __global__ void async_bfs(AsyncArgs a) { async_traverse<false>(a); }
extern "C" __global__ void async_sssp(AsyncArgs a) { async_traverse<true>(a); }
