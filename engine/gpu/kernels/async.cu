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
// asynchronous buckets): a value below the window's end is relaxed at once, a larger one is
// deferred (a bit in the deferred bitmap, its value folded into the window's smallest deferred
// value). `active` counts what can still make work: the blocks with work in the window, the
// messages sent and not yet absorbed, and, while a window opens, one token per block. Every
// increment is made by a holder of one of them, so once it reaches zero nothing can raise it:
// the thread that brings it there either ends the run (nothing deferred anywhere) or opens the
// window that holds the smallest deferred value (windows are aligned to multiples of win, and
// empty ones are skipped), whose deferred vertices the blocks requeue. Values only fall, so the
// result is the exact BFS depth or shortest distance whatever the order of the relaxations.
//
// Every block must be resident (they wait for each other's messages): a cooperative launch of
// one block per SM.
#include "platform.cuh"

typedef unsigned int u32;
typedef long long i64;
typedef unsigned long long u64;
typedef unsigned short u16;
typedef unsigned char u8;

#define EMPTY32 0xffffffffu
#define EMPTY64 0xffffffffffffffffull
#define FULL 0xffffffffu
#define OCAP 1024  // outbox entries (u64) a block
// An idle worker or sender polls IDLE_SPINS times, then sleeps IDLE_NS between polls, so that
// twenty-odd idle warps leave the SM's memory pipeline to warp 0, whose hand-over of a window
// is the critical path when windows hold little work.
#define IDLE_SPINS 64
#define IDLE_NS 200
#define NTRACE 5   // trace words a window: open time, relaxed vertices, messages, arcs, end

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
    // 4. Control words, set by the host: active (1, the source), epoch (0), the smallest
    // deferred value of even and odd windows (INF_DIST), done, aborted; then (i64) the end of
    // the open window (win).
    int* ctl;
    // 5. The trace: NTRACE words a window, rows windows (the last row takes any more), then the
    // stop time.
    u64* trace;
    i64 n, per, parts, mbcap, src, win, rows, ring;
    // 6. 1: BFS depths, -1 for the unreached (else INF_DIST).
    i64 depth;
    // 7. The watchdog: a run still going after limit ns stops with ctl[CAborted] set.
    i64 limit;
    // 8. Shared neighbour lists (async_*_sn): per arc, in range order, a local id below per or
    // per + an index into the range's remote table (new ids; remote + remoff[p]); u8 weights;
    // the most arcs a range has.
    const u16* snb;
    const u32* remote;
    const u32* remoff;
    const u8* wt8;
    i64 maxarcs;
};

static_assert(sizeof(AsyncArgs) == 200, "AsyncArgs must match asyncArgs in async.go");

enum { CActive = 0, CEpoch = 1, CMin = 2, CDone = 4, CAborted = 5, CEnd = 3 };  // CEnd: an i64 word

__device__ __forceinline__ i64* ctl64(const AsyncArgs& a, int k) { return (i64*)a.ctl + k; }

__device__ __forceinline__ u32 ldvu(const u32* p) { return *(volatile const u32*)p; }
__device__ __forceinline__ int ldvi(const int* p) { return *(volatile const int*)p; }

// tryEnd runs in the thread that brought active to zero: no block has work, no message is in
// flight and no window is opening, and nothing can raise active again. The run is done when
// nothing was deferred in this window; else the next window opens at the one that holds the
// smallest deferred value, with a token per block (each block requeues its deferred vertices
// that fall in it and folds the rest into the next window's smallest deferred value).
__device__ void tryEnd(const AsyncArgs& a) {
    int e = ldvi(&a.ctl[CEpoch]);
    int nm = ldvi(&a.ctl[CMin + (e & 1)]);
    if (nm == INF_DIST) {
        if (atomicCAS(&a.ctl[CActive], 0, 1 << 30) == 0) {
            a.trace[a.rows * NTRACE] = globaltimer();
            atomicExch(&a.ctl[CDone], 1);
        }
        return;
    }
    if (atomicCAS(&a.ctl[CActive], 0, (int)a.parts) != 0) return;
    i64 end = ((i64)nm / a.win + 1) * a.win;  // nm is past this window's end: end grows
    a.ctl[CMin + ((e + 1) & 1)] = INF_DIST;
    *(volatile i64*)ctl64(a, CEnd) = end;
    i64 row = min((i64)e + 1, a.rows - 1) * NTRACE;
    a.trace[row] = globaltimer();
    a.trace[row + 4] = (u64)end;
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
__device__ __forceinline__ int next_value(int d, int w) {
    if (!W) return d + 1;
    return (int)min((i64)d + w, (i64)INF_DIST - 1);
}

// Slot is the type of a range's offsets and ring entries: u16 where the neighbour lists are in
// shared memory too (a range then has under 65,536 arcs and vertices), else u32.
template <bool SN> struct SlotOf { typedef u32 T; };
template <> struct SlotOf<true> { typedef u16 T; };

// async_traverse relaxes from the source in windows (the file's header). W: weighted (SSSP);
// SN: the range's neighbour lists (u16 entries, u8 weights) are in shared memory, where
// otherwise every relaxation reads its arc from global memory.
template <bool W, bool SN>
__device__ void async_traverse(const AsyncArgs& a) {
    typedef typename SlotOf<SN>::T Slot;
    const Slot EMPTY = (Slot)EMPTY32;
    extern __shared__ u64 sm[];
    __shared__ u32 qhead, qtail, ohead, otail;
    __shared__ int lp, sdone, s_epoch, s_min;
    __shared__ i64 s_end;
    __shared__ u64 s_cnt[3];  // the window's relaxed vertices, messages, arcs (this block)
    const u32 p = blockIdx.x;
    const u32 per = (u32)a.per;
    const u32 vb0 = p * per;
    const u32 nvp = (i64)vb0 >= a.n ? 0 : (u32)min((i64)per, a.n - vb0);
    const u32 cap = (u32)a.ring;
    const u32 words = (per + 31) / 32;
    // The layout (asyncShape in async.go): obox | offs | dist | inq | inw | ring | (SN) snbr,
    // swt. Offsets and ring entries are Slots, every array starts 4-byte aligned.
    u64* obox = sm;                                        // OCAP
    Slot* offs = (Slot*)(obox + OCAP);                     // per + 1
    int* dist = (int*)(offs + ((per + 2) & ~1u));          // per
    u32* inq = (u32*)(dist + per);                         // in the ring
    u32* inw = inq + words;                                // deferred: beyond the window
    Slot* ring = (Slot*)(inw + words);                     // cap (a power of 2)
    u16* snbr = (u16*)(ring + cap);                        // SN: the range's arcs
    u8* swt = (u8*)(snbr + ((a.maxarcs + 1) & ~1ll));      // SN and W: their weights
    const i64 abase = a.off[min((i64)vb0, a.n)];
    const u32 narcs = nvp ? (u32)(a.off[vb0 + nvp] - abase) : 0;
    const u32 t = threadIdx.x;
    if (p == 0 && t == 0) a.trace[0] = globaltimer();
    /// 1. The range's offsets, values, worklists and (SN) neighbour lists.
    for (u32 i = t; nvp > 0 && i <= nvp; i += blockDim.x) offs[i] = (Slot)(a.off[vb0 + i] - abase);
    for (u32 i = t; i < nvp; i += blockDim.x) dist[i] = INF_DIST;
    for (u32 i = t; i < words; i += blockDim.x) inq[i] = 0, inw[i] = 0;
    for (u32 i = t; i < cap; i += blockDim.x) ring[i] = EMPTY;
    for (u32 i = t; i < OCAP; i += blockDim.x) obox[i] = EMPTY64;
    if (SN) {
        for (u32 i = t; i < narcs; i += blockDim.x) {
            snbr[i] = a.snb[abase + i];
            if (W) swt[i] = a.wt8[abase + i];
        }
    }
    if (t == 0) {
        qhead = qtail = ohead = otail = 0;
        lp = sdone = s_epoch = 0;
        s_min = INF_DIST;
        s_end = a.win;
        s_cnt[0] = s_cnt[1] = s_cnt[2] = 0;
    }
    __syncthreads();  // the source's value and bits after every thread's clearing
    if (t == 0) {
        if ((u64)(a.src - vb0) < nvp) {
            u32 s = (u32)(a.src - vb0);
            dist[s] = 0;
            inq[s >> 5] = 1u << (s & 31);
            ring[0] = (Slot)s;
            qtail = 1;
            lp = 1;  // the host starts active at 1 for it
        }
    }
    __syncthreads();
    const u32* nbr = a.nbr + abase;
    const int* wt = W ? a.wt + abase : nullptr;
    const u32* rtab = SN ? a.remote + a.remoff[p] : nullptr;
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
        ((volatile Slot*)ring)[q & (cap - 1)] = (Slot)lw;
    };
    // defer folds a deferred value into the window's smallest (the block's, and the grid's
    // when it is lower than the block's).
    auto defer = [&](int nd) {
        if (nd < ldvi(&s_min) && atomicMin(&s_min, nd) > nd) atomicMin(&a.ctl[CMin + (ldvi(&s_epoch) & 1)], nd);
    };
    // offer lowers lw's value to nd, and queues it (in the window) or defers it.
    auto offer = [&](u32 lw, int nd, bool wake) {
        if (ldvi(&dist[lw]) <= nd) return;
        if (atomicMin(&dist[lw], nd) <= nd) return;
        u32 bit = 1u << (lw & 31);
        if (nd < *(volatile i64*)&s_end) {
            if (!(atomicOr(&inq[lw >> 5], bit) & bit)) push(lw, wake);
        } else {
            atomicOr(&inw[lw >> 5], bit);
            defer(nd);
        }
    };
    // send puts a relaxation of another range's vertex w (a new id) in the outbox; a worker
    // holds lp, and the entry holds it until warp 1 has sent it.
    auto send = [&](u32 w, int nd) {
        atomicAdd(&lp, 1);
        u32 o = atomicAdd(&otail, 1u);
        while (o - ldvu(&ohead) >= OCAP && !stopped(a)) {
        }
        __threadfence_block();
        *(volatile u64*)&obox[o & (OCAP - 1)] = ((u64)w << 32) | (u32)nd;
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
                // the tail before the epoch: a message sent in a new window is seen with it
                tail = ldvu(&a.mb_tail[p]);
                dn = ldvi(&a.ctl[CDone]);
                __threadfence();
                ep = ldvi(&a.ctl[CEpoch]);
            }
            ep = __shfl_sync(FULL, ep, 0);
            tail = __shfl_sync(FULL, tail, 0);
            dn = __shfl_sync(FULL, dn, 0);
            if (ep != myep) {
                // A new window: this block's counts of the last one go to its trace row, the
                // deferred vertices that fall in the new one are queued, the smallest of the
                // rest goes to the new window's, and the token goes back.
                if (lane < 3) atomicAdd(&a.trace[min((i64)myep, a.rows - 1) * NTRACE + 1 + lane], atomicExch(&s_cnt[lane], 0ull));
                myep = ep;
                i64 end = *(volatile i64*)ctl64(a, CEnd);
                if (lane == 0) {
                    s_epoch = ep;
                    s_end = end;
                    s_min = INF_DIST;
                }
                __syncwarp();
                int left = INF_DIST;
                for (u32 w0 = 0; w0 < words; w0 += 32) {
                    u32 wi = w0 + lane;
                    u32 bits = wi < words ? ldvu(&inw[wi]) : 0;
                    while (bits) {
                        u32 b = __ffs(bits) - 1;
                        bits &= bits - 1;
                        u32 v = wi * 32 + b;
                        int d = ldvi(&dist[v]);
                        if (d < end) {
                            atomicAnd(&inw[wi], ~(1u << b));
                            if (!(atomicOr(&inq[wi], 1u << b) & (1u << b))) push(v, true);
                        } else {
                            left = min(left, d);
                        }
                    }
                }
                for (int o = 16; o > 0; o >>= 1) left = min(left, __shfl_xor_sync(FULL, left, o));
                if (lane == 0) {
                    if (left != INF_DIST) defer(left);
                    release(a, 1);
                }
                __syncwarp();
                continue;
            }
            if (tail != head) {
                // Messages, 32 at a time: each holds active until it is absorbed (its offer
                // has woken this block) and the head is published. (A sender past a full
                // mailbox waits for the head, so the head moves on before the next 32 are
                // awaited.)
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
                    release(a, (int)k);
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
                for (u32 idle = 0;; idle++) {
                    h = ldvu(&ohead);
                    u32 tl = ldvu(&otail);
                    if ((int)(tl - h) > 0) {  // as the workers' ring below
                        n = min(tl - h, 32u);
                        break;
                    }
                    if (ldvi(&sdone)) break;
                    if (idle >= IDLE_SPINS) __nanosleep(IDLE_NS);
                }
            }
            h = __shfl_sync(FULL, h, 0);
            n = __shfl_sync(FULL, n, 0);
            if (n == 0) break;
            if (lane == 0) {
                // the messages hold active from before they can be absorbed (this block's
                // outbox entries hold it now)
                atomicAdd(&a.ctl[CActive], (int)n);
                __threadfence();
            }
            __syncwarp();
            if (lane < n) {
                u64* os = &obox[(h + lane) & (OCAP - 1)];
                u64 it;
                while ((it = *(volatile u64*)os) == EMPTY64 && !stopped(a)) {
                }
                *(volatile u64*)os = EMPTY64;
                // stopped by the watchdog: a message to this range's first vertex that
                // lowers nothing (the run is reported as failed)
                if (it == EMPTY64) it = ((u64)vb0 << 32) | (u32)INF_DIST;
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
                for (u32 idle = 0;; idle++) {
                    // The two loads may be reordered (they are to different words, and the
                    // compiler does issue the tail's first), so the tail can be older than the
                    // head read with it: only a tail ahead of the head has entries to take. A
                    // head moved past the tail would hand out slots nobody fills, and the run
                    // would hang (docs/gpu-notes.md).
                    h = ldvu(&qhead);
                    u32 tl = ldvu(&qtail);
                    if ((int)(tl - h) > 0) {
                        n = min(tl - h, 32u);
                        if (atomicCAS(&qhead, h, h + n) == h) break;
                        continue;
                    }
                    if (ldvi(&sdone)) break;
                    if (idle >= IDLE_SPINS) __nanosleep(IDLE_NS);
                }
            }
            h = __shfl_sync(FULL, h, 0);
            n = __shfl_sync(FULL, n, 0);
            if (n == 0) break;
            u32 arcs = 0;
            if (lane < n) {
                volatile Slot* slot = &ring[(h + lane) & (cap - 1)];
                u32 v;
                while ((v = *slot) == EMPTY && !stopped(a)) {
                }
                *slot = EMPTY;
                u32 b = 0, e = 0;
                int d = INF_DIST;
                if (v != EMPTY) {  // else stopped by the watchdog: nothing to relax
                    atomicAnd(&inq[v >> 5], ~(1u << (v & 31)));
                    __threadfence_block();
                    d = ldvi(&dist[v]);
                    b = offs[v], e = offs[v + 1];
                }
                arcs = e - b;
                if (SN) {
                    for (u32 k = b; k < e; k++) {
                        u32 c = snbr[k];
                        int nd = next_value<W>(d, W ? swt[k] : 1);
                        if (c < per) offer(c, nd, false);
                        else send(__ldg(&rtab[c - per]), nd);
                    }
                } else {
                    // four arcs in flight: their loads do not wait on each other's offers
                    for (u32 k0 = b; k0 < e; k0 += 4) {
                        u32 ws[4];
                        int wv[4];
#pragma unroll
                        for (int j = 0; j < 4; j++) {
                            if (k0 + j < e) {
                                ws[j] = __ldg(&nbr[k0 + j]);
                                wv[j] = W ? __ldg(&wt[k0 + j]) : 1;
                            }
                        }
#pragma unroll
                        for (int j = 0; j < 4; j++) {
                            if (k0 + j < e) {
                                int nd = next_value<W>(d, wv[j]);
                                u32 lw = ws[j] - vb0;
                                if (lw < nvp) offer(lw, nd, false);
                                else send(ws[j], nd);
                            }
                        }
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

extern "C" __global__ void __launch_bounds__(768, 1) async_bfs(AsyncArgs a) { async_traverse<false, false>(a); }
extern "C" __global__ void __launch_bounds__(768, 1) async_sssp(AsyncArgs a) { async_traverse<true, false>(a); }
extern "C" __global__ void __launch_bounds__(768, 1) async_bfs_sn(AsyncArgs a) { async_traverse<false, true>(a); }
extern "C" __global__ void __launch_bounds__(768, 1) async_sssp_sn(AsyncArgs a) { async_traverse<true, true>(a); }
