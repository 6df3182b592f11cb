package cpu

import "sync/atomic"

// BFS topology-driven sweeps (driven=topology, and driven=hybrid while the frontier is
// large): every vertex is visited every level, and a vertex is in the frontier when its
// depth is the level, so there is no worklist to build (Nasre et al. [1]).
//
// [1] Nasre, Burtscher, Pingali. Data-driven versus topology-driven irregular computations on
// GPUs. IPDPS 2013.

// tdTopo is a topology-driven push sweep: every vertex whose depth is the level relaxes its
// out-neighbours. With fill (the hybrid), the discovered vertices also go to the next queue,
// so that a data-driven step can follow.
func (b *bfsState) tdTopo(level int32, fill bool) bfsStats {
	off, nb, depth := b.g.Offsets, b.g.Neighbors, b.depth
	nd := level + 1
	next := b.next
	if fill {
		next.reset()
	}
	clear(b.cnt)
	b.forRange(b.n, 1024, 1, func(w, lo, hi int) {
		var out, scout, scanned int64
		var buf []uint32
		if fill {
			buf = next.seg[w]
		}
		for v := lo; v < hi; v++ {
			if atomic.LoadInt32(&depth[v]) != level {
				continue
			}
			s, e := off[v], off[v+1]
			scanned += e - s
			for _, u := range nb[s:e] {
				if b.visit(u, nd) {
					out++
					scout += off[u+1] - off[u]
					if fill {
						buf = append(buf, u)
					}
				}
			}
		}
		if fill {
			next.seg[w] = buf
		}
		c := &b.cnt[w]
		c.a += out
		c.b += scout
		c.c += scanned
	})
	tot := sumCounters(b.cnt)
	st := bfsStats{queued: tot.a, outEdges: tot.b, scanned: tot.c}
	if fill {
		next.seal()
		if b.claim == claimNone {
			// Racing rw writers may have queued a vertex twice; the sweep counted each once
			// per push, so drop the repeats to keep the queue a set.
			st.dups = b.filterDuplicates(next, true)
			st.queued -= st.dups
		}
		b.cur, b.next = next, b.cur
	}
	return st
}

// buTopo is a topology-driven pull sweep: every unvisited vertex looks for an in-neighbour
// whose depth is the level. Depths are read and written atomically: the sweep reads depths
// other workers are writing (only ever to level+1, which never equals level).
func (b *bfsState) buTopo(level int32) bfsStats {
	toff, tnb, off, depth := b.t.Offsets, b.t.Neighbors, b.g.Offsets, b.depth
	nd := level + 1
	clear(b.cnt)
	b.forRange(b.n, 1024, 1, func(w, lo, hi int) {
		var awake, awakeEdges, scanned int64
		for u := lo; u < hi; u++ {
			if atomic.LoadInt32(&depth[u]) >= 0 {
				continue
			}
			s, e := toff[u], toff[u+1]
			for i := s; i < e; i++ {
				if atomic.LoadInt32(&depth[tnb[i]]) == level {
					atomic.StoreInt32(&depth[u], nd)
					awake++
					awakeEdges += off[u+1] - off[u]
					scanned += i - s + 1
					e = -1
					break
				}
			}
			if e >= 0 {
				scanned += e - s
			}
		}
		c := &b.cnt[w]
		c.a += awake
		c.b += awakeEdges
		c.c += scanned
	})
	tot := sumCounters(b.cnt)
	return bfsStats{queued: tot.a, outEdges: tot.b, scanned: tot.c}
}
