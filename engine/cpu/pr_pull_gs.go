package cpu

import (
	"context"
	"math"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/gworkbench/gworkbench/engine"
)

// PageRank by Gauss-Seidel pull sweeps (direction=pull, driven=topology, sync=async: the
// default; GAPBS pr.cc [1]): each vertex sums its in-neighbours' contributions and publishes
// its own new contribution at once, so later vertices of the same sweep read it. Converges in
// fewer sweeps than Jacobi; the ranks are projected back to sum 1 after each sweep (see
// pullGS).
//
// [1] Beamer, Asanović, Patterson. The GAP benchmark suite. 2015.

// pullGS is the Gauss-Seidel pull sweep. Scores (the ranks in stored units, see below) and
// contributions (score / out-degree) are float32, as GAPBS's float scores: half the memory
// traffic of float64, and no conversion per arc. A contribution is written as soon as its
// vertex is done, so later vertices of the same sweep (on any worker) read the new value.
// Float32 sums over even 1e5 in-arcs stay within ~1e-5 relative, far under the tolerance in
// L1; the sweep's L1 change and score sum are float64. The dangling rank is kept current the
// same way: each piece adds its change of dangling rank to a shared total, which later pieces
// spread.
//
// After every sweep the ranks are projected back to sum 1 (the fixed point's sum). A
// Gauss-Seidel sweep, unlike a Jacobi one, does not conserve the rank mass of a connected
// component, and the drift of that mass decays slowly (by about d^2 a sweep): on kron scale 20
// the L1 change lingered at 8e-4 .. 1e-4 for 5 sweeps; with the projection it falls as fast as
// the rest (9 sweeps to 1e-4 become 5). The projection costs no pass: the ranks stay stored
// unscaled, stored = true/scale, and, the iteration being affine, sweeping the stored values
// with the constant term divided by scale yields the next stored values; scale is 1 over the
// stored sum of the sweep just done, and the final ranks are scaled once at the end.
func (p *prState) pullGS(ctx context.Context) ([]float64, error) {
	n, d, base := p.n, p.d, p.base
	off, toff, tnb := p.g.Offsets, p.t.Offsets, p.t.Neighbors
	outOff := off
	if &off[0] == &toff[0] {
		outOff = nil // undirected: out-degree = in-degree, read from the gather's bounds
	}
	// The scores and contributions are scratch (startRanks writes every entry): kept between
	// runs, as a fresh 2 x 4 bytes a vertex is cleared by the allocator on one thread (~3 ms
	// of a ~28 ms road NE run at 16 workers went to clearing, the final ranks included).
	sc := gsScratch.get()
	if sc == nil || cap(sc.score) < n {
		sc = &gsBufs{score: make([]float32, n), contrib: make([]float32, n)}
	}
	defer gsScratch.put(sc)
	score, contrib := sc.score[:n], sc.contrib[:n]
	dangling, fixedSpread, fixed := startRanks(p, score, contrib)
	// dang holds the float64 bits of the stored dangling rank, updated as pieces finish.
	var dang atomic.Uint64
	dang.Store(math.Float64bits(dangling))
	scale := 1.0
	params := p.Req.Params
	for iter := 0; iter < params.MaxIter; iter++ {
		if err := p.ctxErr(ctx); err != nil {
			return nil, err
		}
		start := time.Now()
		cst := base / scale // the constant term in stored units
		if fixed {
			cst = (base + fixedSpread) / scale
		}
		clear(p.cnt)
		p.forRange(n, 4096, 1, func(w, lo, hi int) {
			cf := contrib // a local: the closure's captured slice would be reloaded every arc
			c0 := cst
			if !fixed {
				c0 += d * math.Float64frombits(dang.Load()) / float64(n)
			}
			change, sum, ddang := gsPiece(cf, score, toff, outOff, tnb, lo, hi, float32(c0), float32(d))
			if ddang != 0 && !fixed {
				addF((*uint64)(unsafe.Pointer(&dang)), ddang)
			}
			p.cnt[w].a += change
			p.cnt[w].b += sum
		})
		if p.stopped() {
			return nil, p.ctxErr(ctx)
		}
		change, sum := p.sums()
		if sum > 0 {
			// The sweep moved the true ranks by scale*change; the projection then moves
			// them by |1 - scale/next| in L1 (they sum to 1 after it): report both.
			next := 1 / sum
			change = scale*change + math.Abs(1-scale/next)
			scale = next
		}
		p.emit(p.record(iter, engine.Pull, change, start))
		if change < params.Tolerance {
			break
		}
	}
	// Scale the stored ranks to the true ones, and sum them for the summary on the way.
	rank := make([]float64, n)
	clear(p.cnt)
	p.forRange(n, 1<<14, 1, func(w, lo, hi int) {
		sum := 0.0
		for v := lo; v < hi; v++ {
			x := float64(score[v]) * scale
			rank[v] = x
			sum += x
		}
		p.cnt[w].a += sum
	})
	p.rankSum, _ = p.sums()
	p.haveSum = true
	return rank, nil
}

// gsBufs is pullGS's scratch, kept in gsScratch between runs.
type gsBufs struct{ score, contrib []float32 }

var gsScratch keep[gsBufs]

// gsPiece is one piece [lo, hi) of a Gauss-Seidel sweep: each vertex gathers its in-neighbours'
// contributions from cf, stores its new score (in stored units: c0 + d * the sum) in sc and
// publishes its contribution (score / out-degree) in cf at once. It returns the piece's L1
// change, the sum of its new scores and the change of its dangling vertices' scores. off
// holds the out-arc offsets; nil means they are toff (an undirected graph). A function of its
// own, not the sweep's closure, so that the loop's slices stay in registers.
//
// The arcs and contributions are read through pointers, without bounds checks: the piece's
// arcs are checked to lie in tnb once, and a CSR's neighbours are below its vertex count
// (len(cf)). With the checks, two compares and branches an arc and the registers they held
// made the sweep ~7% slower on road NE (one thread, AMD), where a vertex has two or three
// arcs.
func gsPiece(cf, sc []float32, toff, off []int64, tnb []uint32, lo, hi int, c0, d float32) (change, sum, ddang float64) {
	if raceBuild {
		return gsPieceRace(cf, sc, toff, off, tnb, lo, hi, c0, d)
	}
	// Sliced to the piece so that the loop over ends needs no bounds checks.
	ends := toff[lo+1 : hi+1]
	sc = sc[lo:hi]
	sc = sc[:len(ends)]
	if len(ends) > 0 {
		_ = tnb[toff[lo]:ends[len(ends)-1]]
	}
	_ = cf[:hi]
	cfp := unsafe.Pointer(unsafe.SliceData(cf))
	nbp := unsafe.Pointer(unsafe.SliceData(tnb))
	var offp unsafe.Pointer // &off[lo]: a directed graph's out-degrees
	if off != nil {
		offp = unsafe.Pointer(&off[lo : hi+1][0])
	}
	e := uintptr(toff[lo])
	// The piece's L1 change is summed in float32 (a piece is thousands of vertices: ~1e-5
	// relative, against a tolerance on it), converted once: two instructions a vertex fewer.
	// The score sum stays float64: it sets the projection's scale, and so the final ranks'
	// sum, which float32 sums of 4096 scores moved by 5e-6 (kron scale 14).
	var dchange float32
	for i, end64 := range ends {
		end := uintptr(end64)
		// Plain loads of contributions others may be publishing: see raceBuild. Many arcs
		// get four sums, which break the chain of dependent adds.
		var s float32
		j := e
		if end-e >= 8 {
			var s1, s2, s3 float32
			for ; j+4 <= end; j += 4 {
				q := (*[4]uint32)(unsafe.Add(nbp, j*4))
				s += *(*float32)(unsafe.Add(cfp, uintptr(q[0])*4))
				s1 += *(*float32)(unsafe.Add(cfp, uintptr(q[1])*4))
				s2 += *(*float32)(unsafe.Add(cfp, uintptr(q[2])*4))
				s3 += *(*float32)(unsafe.Add(cfp, uintptr(q[3])*4))
			}
			s += s1 + (s2 + s3)
		}
		for ; j < end; j++ {
			s += *(*float32)(unsafe.Add(cfp, uintptr(*(*uint32)(unsafe.Add(nbp, j*4)))*4))
		}
		deg := int64(end - e)
		e = end
		if offp != nil {
			deg = *(*int64)(unsafe.Add(offp, (i+1)*8)) - *(*int64)(unsafe.Add(offp, i*8))
		}
		x := c0 + d*s
		old := sc[i]
		dchange += abs32(x - old)
		sum += float64(x)
		sc[i] = x
		if deg != 0 {
			// a plain store (an atomic one is a locked XCHG on amd64): see raceBuild
			*(*float32)(unsafe.Add(cfp, uintptr(lo+i)*4)) = x / float32(deg)
		} else {
			ddang += float64(x - old)
		}
	}
	return float64(dchange), sum, ddang
}

// gsPieceRace is gsPiece for the race detector's builds: indexed, with atomic loads and stores
// of the contributions.
func gsPieceRace(cf, sc []float32, toff, off []int64, tnb []uint32, lo, hi int, c0, d float32) (change, sum, ddang float64) {
	e := toff[lo]
	for i := lo; i < hi; i++ {
		end := toff[i+1]
		var s float32
		for _, v := range tnb[e:end] {
			s += loadF32(&cf[v])
		}
		deg := end - e
		e = end
		if off != nil {
			deg = off[i+1] - off[i]
		}
		x := c0 + d*s
		old := sc[i]
		change += float64(abs32(x - old))
		sum += float64(x)
		sc[i] = x
		if deg != 0 {
			storeF32(&cf[i], x/float32(deg))
		} else {
			ddang += float64(x - old)
		}
	}
	return change, sum, ddang
}

func abs32(x float32) float32 { return math.Float32frombits(math.Float32bits(x) &^ (1 << 31)) }
