package cpu

import (
	"context"
	"math"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/graph"
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
//
// On an undirected graph the sweep is lean (gsLean): no scores are kept (a vertex's old score
// is its old contribution times its degree) and no dangling rank is tracked (its dangling
// vertices are isolated, their share fixed: see startRanks). With split=blocked (auto on a
// graph whose neighbours are near in number) each worker sweeps the block it owns (gsOwners).
func (p *prState) pullGS(ctx context.Context) ([]float64, error) {
	n, d, base := p.n, p.d, p.base
	off, toff, tnb := p.g.Offsets, p.t.Offsets, p.t.Neighbors
	outOff := off
	if &off[0] == &toff[0] {
		outOff = nil // undirected: out-degree = in-degree, read from the gather's bounds
	}
	// lean: an undirected graph, whose dangling vertices are isolated (startRanks' fixed case,
	// always so for a damping under 1), keeps no scores (see gsLean) and sweeps no isolated
	// vertex: their scores follow from the constant term alone (isoPrev below).
	lean := !p.g.Directed && d < 1
	// The contributions and scores are scratch (startRanks writes every entry): kept between
	// runs, as a fresh 2 x 4 bytes a vertex is cleared by the allocator on one thread (~3 ms
	// of a ~28 ms road NE run at 16 workers went to clearing, the final ranks included).
	sc := gsScratch.get()
	if sc == nil {
		sc = &gsBufs{}
	}
	handed := false // to collect, which puts it back
	defer func() {
		if !handed {
			gsScratch.put(sc)
		}
	}()
	sc.contrib = gsBuf(sc.contrib, n)
	contrib, score := sc.contrib[:n], []float32(nil)
	if !lean {
		sc.score = gsBuf(sc.score, n)
		score = sc.score[:n]
	}
	dangling, fixedSpread, fixed := startRanks(p, score, contrib)
	// dang holds the float64 bits of the stored dangling rank, updated as pieces finish.
	var dang atomic.Uint64
	dang.Store(math.Float64bits(dangling))
	var iso, isoPrev float64 // lean: the isolated vertices, and the score each holds
	if lean {
		if h := p.g.DegreeHistogram(); len(h) > 0 {
			iso = float64(h[0])
		}
		isoPrev = base + fixedSpread // startRanks' start for them: r = base + d*z*r/n
	}
	own := p.owners(toff)
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
		if lean {
			p.sweep(own, func(w, lo, hi int) {
				change, sum := gsLean(contrib, toff, tnb, lo, hi, float32(cst), float32(d), gsFourSums)
				p.cnt[w].a += change
				p.cnt[w].b += sum
			})
		} else {
			p.sweep(own, func(w, lo, hi int) {
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
		}
		if p.stopped() {
			return nil, p.ctxErr(ctx)
		}
		change, sum := p.sums()
		if lean && iso > 0 {
			x := float64(float32(cst)) // each isolated vertex's new score, as gsPiece stores it
			change += iso * math.Abs(x-isoPrev)
			sum += iso * x
			isoPrev = x
		}
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
	// The ranks are the scores scaled to the true ones, widened to float64 after the run's clock
	// stops (collect), as the GPU engine copies its results back and GAPBS's kernel returns its
	// float scores: the float64 vector is the result's format, not PageRank's work (its allocation
	// alone is cleared on one thread). The ranks are summed for the summary on the way. A lean
	// sweep's score is its contribution times the degree (float32 x/deg times deg: within 2^-23 of
	// the score), an isolated vertex's isoPrev.
	handed = true
	p.collect = func() error {
		defer gsScratch.put(sc)
		rank := make([]float64, n)
		clear(p.cnt)
		p.forRange(n, 1<<14, 1, func(w, lo, hi int) {
			sum := 0.0
			if lean {
				for v := lo; v < hi; v++ {
					x := isoPrev
					if deg := toff[v+1] - toff[v]; deg != 0 {
						x = float64(contrib[v]) * float64(deg)
					}
					x *= scale
					rank[v] = x
					sum += x
				}
			} else {
				for v := lo; v < hi; v++ {
					x := float64(score[v]) * scale
					rank[v] = x
					sum += x
				}
			}
			p.cnt[w].a += sum
		})
		p.Res.Rank = rank
		p.Res.Summary.RankSum, _ = p.sums()
		return nil
	}
	return nil, nil
}

// gsBufs is pullGS's scratch, kept in gsScratch between runs.
type gsBufs struct{ score, contrib []float32 }

var gsScratch keep[gsBufs]

// gsBuf returns b if it holds n entries, else a fresh buffer of n, on huge pages where the
// kernel gives them (the contributions' gathers on kron and urand graphs are random reads).
func gsBuf(b []float32, n int) []float32 {
	if cap(b) >= n {
		return b
	}
	b = make([]float32, n)
	graph.AdviseHuge(b)
	return b
}

// gsOwners is the sweep's split=blocked: each worker owns a block of the vertices, contiguous and
// of about equal arcs (graph.SplitByArcs), which it sweeps in pieces of gsChunk from its start
// (shorter at its end: gsClaim), and a worker done with its own block takes the pieces the others
// have not started, through a cursor a block. Sweep after sweep a worker's pieces are mostly the
// same, so the arcs and contributions it reads, and the contributions it writes, are still in its
// core's caches from the sweep before, where neighbours are near in number (gsLocal); with dynamic
// pieces most contributions were written by another core the sweep before. Taking what others left
// keeps a sweep from waiting on one late worker: forRange's static splits, without it, ran kron20
// and urand20 much slower than dynamic pieces (docs/cpu-notes.md has the figures).
//
// On a graph whose neighbours are far apart in number (kron, urand) owning saves little and
// costs a sweep: at 16 blocks a vertex reads fewer of its neighbours' new contributions than
// in dynamic pieces, which the workers take in order (kron20 6 sweeps against 5, urand20 5
// against 4, at tolerance 1e-4; dealing pieces round-robin to owners did the same, as the
// owners drift apart). So split=auto is blocked on local graphs only.
type gsOwners struct {
	bounds []int      // block b is [bounds[b], bounds[b+1])
	next   []gsCursor // block b's first unclaimed vertex
}

type gsCursor struct {
	at atomic.Int64
	_  [56]byte
}

// gsChunk is the vertices of a sweep's piece, unless the chunk knob says otherwise. A
// variable so that tests can make blocks of many pieces.
var gsChunk = 4096

// gsLocal reports whether most of a graph's arcs join vertices near in number (within
// gsChunk), from the arcs of 256 vertices spread evenly over the ids (at most 64 each): a road
// graph in its file's order (road NE: 53% of its arcs; the sample, 54%), not a kron or urand
// graph (0.8%, as random ids give). A graph of one piece has nothing to own.
func gsLocal(off []int64, nb []uint32) bool {
	n := len(off) - 1
	if n <= gsChunk {
		return false
	}
	var near, arcs int
	for i := range 256 {
		u := int(int64(i) * int64(n) / 256)
		for _, v := range nb[off[u]:min(off[u+1], off[u]+64)] {
			arcs++
			if d := int(v) - u; d < gsChunk && d > -gsChunk {
				near++
			}
		}
	}
	return arcs > 0 && 4*near >= arcs
}

// owners returns the sweep's blocks for split=blocked, nil otherwise (forRange's split).
func (p *prState) owners(off []int64) *gsOwners {
	if p.Res.Schedule.Split != engine.Blocked {
		return nil
	}
	b := graph.SplitByArcs(off, max(1, min(p.Workers, (p.n+gsChunk-1)/gsChunk)))
	return &gsOwners{bounds: b, next: make([]gsCursor, len(b)-1)}
}

// sweep calls body(w, lo, hi) on pieces covering the vertices: from the owners when there are
// some, else dynamic pieces taken in order that shrink toward the sweep's end (gsClaim), unless
// the chunk or split knob asks for forRange's pieces.
func (p *prState) sweep(o *gsOwners, body func(w, lo, hi int)) {
	c := int64(gsChunk)
	if o == nil {
		if p.Req.Schedule.Chunk > 0 || p.split() != engine.Dynamic {
			p.forRange(p.n, gsChunk, 1, body)
			return
		}
		k := p.loopWorkers(p.n, gsChunk)
		n := int64(p.n)
		var next atomic.Int64
		p.parallel(k, func(w int) {
			for !p.stopped() {
				lo, hi, ok := gsClaim(&next, n, c, 2*int64(k))
				if !ok {
					return
				}
				body(w, int(lo), int(hi))
			}
		})
		return
	}
	k := len(o.next)
	for b := range o.next {
		o.next[b].at.Store(int64(o.bounds[b]))
	}
	p.parallel(k, func(w int) {
		for i := range k {
			b := (w + i) % k
			end := int64(o.bounds[b+1])
			for !p.stopped() {
				lo, hi, ok := gsClaim(&o.next[b].at, end, c, 4)
				if !ok {
					break
				}
				body(w, int(lo), int(hi))
			}
		}
	})
}

// gsClaim takes the next piece of [*at, end): c vertices while much is left, then a part of
// what is left, (end - *at) / parts, down to c/16, so that a sweep's last pieces are short and
// its workers finish together (OpenMP's guided schedule, with a floor): with fixed pieces, the
// last workers each took a whole piece while the others waited (docs/cpu-notes.md). ok is
// false when nothing is left.
func gsClaim(at *atomic.Int64, end, c, parts int64) (lo, hi int64, ok bool) {
	for {
		lo = at.Load()
		if lo >= end {
			return 0, 0, false
		}
		hi = min(end, lo+min(c, max(c/16, (end-lo)/parts, 1)))
		if at.CompareAndSwap(lo, hi) {
			return lo, hi, true
		}
	}
}
