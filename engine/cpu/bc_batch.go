package cpu

import (
	"context"
	"fmt"
	"math/bits"
	"time"

	"github.com/gworkbench/gworkbench/engine"
)

// Batched betweenness centrality (batch=k, sources=N): up to 64 sources per pass, a bit per
// source, as the multi-source BFS of Then et al. (VLDB 2014) shares each edge's scan among the
// searches that cross it. lvl[d][v] is the mask of the sources that reach v at depth d and
// seen[v] of those that reached it earlier; sig and acc hold a path count and a coefficient per
// vertex and source (row v, column l). Every level is a pull that writes only the vertex it
// owns, so no atomics:
//
//  1. forward level d: every vertex with sources it has not seen sums, per such source l,
//     sig[u][l] over its in-neighbours u with l in lvl[d][u]; the sources that found one form
//     lvl[d+1][v].
//  2. backward level d (deepest first, to 1): every vertex v with l in lvl[d][v] sums acc[w][l]
//     = (1 + delta_l(w)) / sigma_l(w) over its out-neighbours w with l in lvl[d+1][w], then
//     adds delta_l(v) = sig[v][l] x that sum to its centrality and keeps its own coefficient.
//
// Time O(levels x (V + E)) word operations per batch plus one term per (edge, source) of the
// shortest-path DAGs; memory two V x k float64 tables and a V-word mask per level.

// bcBatchMax is the most sources the CPU engine runs per pass (a bit of a uint64 each).
const bcBatchMax = 64

// batches runs the sources width at a time.
func (b *bcRun) batches(ctx context.Context, srcs []uint32, width int) error {
	r, n := b.r, b.n
	sig := make([]float64, n*width)
	acc := make([]float64, n*width)
	seen := make([]uint64, n)
	var lvl [][]uint64 // kept, cleared, between batches
	for bi, start := 0, 0; start < len(srcs); bi, start = bi+1, start+width {
		batch := srcs[start:min(start+width, len(srcs))]
		detailed := bi < 2
		clear(sig)
		clear(acc)
		clear(seen)
		for _, l := range lvl {
			clear(l)
		}
		level := func(d int) []uint64 {
			for len(lvl) <= d {
				lvl = append(lvl, make([]uint64, n))
			}
			return lvl[d]
		}
		lanes := ^uint64(0)
		if len(batch) < 64 {
			lanes = 1<<len(batch) - 1
		}
		l0 := level(0)
		for l, s := range batch {
			l0[s] |= 1 << l
			sig[int(s)*width+l] = 1
		}
		note := fmt.Sprintf("batch %d: %d sources, a bit each", bi+1, len(batch))
		if bi == 0 {
			note = engine.BCSourcesNote(r.Req.Params, srcs, b.g.IDs) + "; " + note
		}
		r.emit(engine.Record{Kind: engine.PhaseRecord, Iter: b.iter, Phase: "forward", Note: note + ": multi-source BFS counting shortest paths"})
		// 1. Forward.
		start := time.Now()
		var pairs, edges, first int64
		d := 0
		for ; ; d++ {
			if err := r.ctxErr(ctx); err != nil {
				return err
			}
			t := time.Now()
			cur, next := level(d), level(d+1)
			clear(b.cnt)
			r.forRange(n, 1024, 1, func(w, lo, hi int) {
				c := &b.cnt[w]
				for v := lo; v < hi; v++ {
					fr := cur[v]
					sn := seen[v] | fr
					seen[v] = sn
					c.a += int64(bits.OnesCount64(fr))
					c.d += int64(fr & 1)
					unseen := ^sn & lanes
					if unseen == 0 {
						continue
					}
					in := b.gt.Neighbors[b.gt.Offsets[v]:b.gt.Offsets[v+1]]
					c.c += int64(len(in))
					row := sig[v*width : v*width+width]
					var nb uint64
					for _, u := range in {
						f := cur[u] & unseen
						if f == 0 {
							continue
						}
						nb |= f
						urow := sig[int(u)*width : int(u)*width+width]
						for ; f != 0; f &= f - 1 {
							l := bits.TrailingZeros64(f)
							row[l] += urow[l]
						}
					}
					next[v] = nb
					c.b += int64(bits.OnesCount64(nb))
				}
			})
			var front, found, scanned int64
			for _, c := range b.cnt {
				front, found, scanned = front+c.a, found+c.b, scanned+c.c
				first += c.d
			}
			pairs += front
			edges += scanned
			if detailed {
				r.emit(engine.Record{Iter: b.iter, Phase: "forward", Direction: engine.Pull, Mode: engine.Topology,
					InVertices: front, OutVertices: found, EdgesScanned: scanned, Time: time.Since(t), Note: "vertex-source pairs at this depth"})
				b.iter++
			}
			if found == 0 {
				break
			}
		}
		if !detailed {
			r.emit(engine.Record{Iter: b.iter, Phase: "forward", Direction: engine.Pull, Mode: engine.Topology,
				InVertices: pairs, EdgesScanned: edges, Time: time.Since(start), Note: fmt.Sprintf("whole phase, %d levels", d+1)})
			b.iter++
		}
		if bi == 0 {
			r.Res.Summary.Reached = first
		}
		// 2. Backward, deepest first, to depth 1.
		r.emit(engine.Record{Kind: engine.PhaseRecord, Iter: b.iter, Phase: "backward",
			Note: fmt.Sprintf("dependencies over %d levels, deepest first, a coefficient per source", d)})
		start, pairs, edges = time.Now(), 0, 0
		for lv := d; lv >= 1; lv-- {
			if err := r.ctxErr(ctx); err != nil {
				return err
			}
			t := time.Now()
			cur, next := lvl[lv], lvl[lv+1]
			clear(b.cnt)
			r.forRange(n, 1024, 1, func(w, lo, hi int) {
				c := &b.cnt[w]
				var s [bcBatchMax]float64
				for v := lo; v < hi; v++ {
					m := cur[v]
					if m == 0 {
						continue
					}
					c.a += int64(bits.OnesCount64(m))
					out := b.g.Neighbors[b.g.Offsets[v]:b.g.Offsets[v+1]]
					c.c += int64(len(out))
					for _, x := range out {
						f := next[x] & m
						xrow := acc[int(x)*width : int(x)*width+width]
						for ; f != 0; f &= f - 1 {
							l := bits.TrailingZeros64(f)
							s[l] += xrow[l]
						}
					}
					row, srow := acc[v*width:v*width+width], sig[v*width:v*width+width]
					delta := 0.0
					for f := m; f != 0; f &= f - 1 {
						l := bits.TrailingZeros64(f)
						delta += srow[l] * s[l]
						row[l] = s[l] + 1/srow[l]
						s[l] = 0
					}
					b.cent[v] += delta * b.half
				}
			})
			var front, scanned int64
			for _, c := range b.cnt {
				front, scanned = front+c.a, scanned+c.c
			}
			pairs += front
			edges += scanned
			if detailed {
				r.emit(engine.Record{Iter: b.iter, Phase: "backward", Direction: engine.Pull, Mode: engine.Topology,
					InVertices: front, EdgesScanned: scanned, Time: time.Since(t)})
				b.iter++
			}
		}
		if !detailed {
			r.emit(engine.Record{Iter: b.iter, Phase: "backward", Direction: engine.Pull, Mode: engine.Topology,
				InVertices: pairs, EdgesScanned: edges, Time: time.Since(start), Note: "whole phase"})
			b.iter++
		}
	}
	return nil
}
