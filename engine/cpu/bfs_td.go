package cpu

import (
	"sync/atomic"
	"unsafe"

	"github.com/gworkbench/gworkbench/engine"
)

// BFS top-down (push) steps over a data-driven frontier: each frontier vertex claims its
// unvisited out-neighbours for the next level (Beamer et al.'s top-down step, GAPBS bfs.cc
// TDStep [1]). The frontier is a queue (per-worker segments, see segQueue) or a map (a
// bitmap or a boolmap, frontier=bitmap|boolmap, UGF [2]); the claim follows update and dedup
// (see visit in bfs.go).
//
// [1] Beamer, Asanović, Patterson. Direction-optimizing breadth-first search. SC 2012.
// [2] Brahmakshatriya et al. Compiling graph applications for GPUs with GraphIt. CGO 2021.

// tdQueue is the top-down step over a queue frontier into per-worker queues. With split=auto a
// worker takes the pieces of its own segment first: the vertices it claimed one step before,
// whose neighbours' depths it read and swapped then, so that those lines are in its core's
// cache (a road graph's wavefront: neighbours of neighbours are mostly the same lines). Taking
// pieces from one shared counter over the whole queue, a worker read lines another core had just
// swapped, and two workers ran a road graph no faster than one (docs/cpu-notes.md).
func (b *bfsState) tdQueue(level int32) bfsStats {
	off, nb := b.g.Offsets, b.g.Neighbors
	nd := level + 1
	cur, next := b.cur, b.next
	cas := b.claim == claimCAS
	if cas && cur.len() <= tdFewVertices && b.Workers > 1 {
		if st, ok := b.tdEdges(level); ok {
			return st
		}
	}
	next.reset()
	clear(b.cnt)
	// step is one worker's share: the pieces take returns, until it returns nil.
	step := func(w int, take func() []uint32) {
		buf := next.seg[w]
		var scout, scanned int64
		var cl tdClaimer
		for items := take(); items != nil; items = take() {
			if cas {
				buf, scout, scanned = cl.run(items, off, nb, b.depth, nd, buf, scout, scanned)
				continue
			}
			for _, v := range items {
				s, e := off[v], off[v+1]
				scanned += e - s
				for _, u := range nb[s:e] {
					if b.visit(u, nd) {
						scout += off[u+1] - off[u]
						buf = append(buf, u)
					}
				}
			}
		}
		next.seg[w] = buf
		c := &b.cnt[w]
		c.a += scout
		c.b += scanned
	}
	const grain = 64
	if s := b.Res.Schedule; s.Split != engine.SplitAuto || s.Chunk > 0 || b.Workers == 1 {
		// The split and chunk knobs, as every loop honours them.
		b.forRange(cur.len(), grain, 1, func(w, lo, hi int) {
			step(w, func() []uint32 {
				if lo >= hi {
					return nil
				}
				var items []uint32
				items, lo = cur.piece(lo, hi)
				return items
			})
		})
	} else {
		// split=auto: each worker first takes pieces of the segment it appended to in the
		// step before (the vertices it claimed), then of the others' (see segCursors).
		cursors := b.segCursors(len(cur.seg))
		b.parallel(b.loopWorkers(cur.len(), grain), func(w int) {
			s, left := w, len(cur.seg)
			step(w, func() []uint32 {
				for left > 0 && !b.stopped() {
					q := cur.seg[s]
					if lo := int(cursors[s].next.Add(grain)) - grain; lo < len(q) {
						return q[lo:min(lo+grain, len(q))]
					}
					left--
					if s++; s == len(cur.seg) {
						s = 0
					}
				}
				return nil
			})
		})
	}
	out := int64(next.seal())
	tot := sumCounters(b.cnt)
	st := bfsStats{queued: out, outEdges: tot.a, scanned: tot.b}
	if b.claim == claimNone {
		st.dups = b.filterDuplicates(next, b.cull)
		if b.cull {
			st.queued -= st.dups
		}
	}
	b.cur, b.next = next, cur
	return st
}

// tdFewVertices and tdEdgeGrain: a frontier of at most tdFewVertices vertices whose edges make
// several pieces of tdEdgeGrain has its edges split among the workers (tdEdges).
const (
	tdFewVertices = 64
	tdEdgeGrain   = 2048
)

// tdEdges is the top-down step for a frontier of a few vertices with many edges, a hub's
// level: the workers share the frontier's edges rather than its vertices, so that one worker
// does not scan a hub's neighbours alone (kron20's top vertex has 64,637; one worker took
// 1.5 ms of a 5.7 ms BFS on 16). It reports false, doing nothing, when the edges are too few
// to share.
func (b *bfsState) tdEdges(level int32) (bfsStats, bool) {
	off, nb := b.g.Offsets, b.g.Neighbors
	nd := level + 1
	cur, next := b.cur, b.next
	var items [tdFewVertices]uint32
	var ends [tdFewVertices]int64 // ends[i]: where item i's edges end in the frontier's edges
	k, total := 0, int64(0)
	for lo, hi := 0, cur.len(); lo < hi; {
		var piece []uint32
		piece, lo = cur.piece(lo, hi)
		for _, v := range piece {
			total += off[v+1] - off[v]
			items[k], ends[k] = v, total
			k++
		}
	}
	if total < 4*tdEdgeGrain { // too few edges for four pieces
		return bfsStats{}, false
	}
	next.reset()
	clear(b.cnt)
	b.forRange(int(total), tdEdgeGrain, 1, func(w, lo, hi int) {
		buf := next.seg[w]
		var scout int64
		var cl tdClaimer
		i := 0
		for ends[i] <= int64(lo) {
			i++
		}
		for pos := int64(lo); pos < int64(hi); i++ {
			v := items[i]
			first := ends[i] - (off[v+1] - off[v]) // item i's first edge in the frontier's edges
			s, e := off[v]+pos-first, off[v]+min(int64(hi), ends[i])-first
			buf, scout = cl.gather(nb[s:e], b.depth, nd, buf, scout)
			pos += e - s
		}
		buf, scout = cl.claim(b.depth, nd, buf, scout)
		next.seg[w] = buf
		b.cnt[w].a += scout
	})
	out := int64(next.seal())
	st := bfsStats{queued: out, outEdges: sumCounters(b.cnt).a, scanned: total}
	b.cur, b.next = next, cur
	return st, true
}

// tdClaimBatch bounds the candidates a tdClaimer gathers before claiming them; lists of at
// most tdShortList vertices are gathered inline.
const (
	tdClaimBatch = 256
	tdShortList  = 8
)

// tdClaimer is the CAS claim (update=rmw) of a top-down step, in two passes. The gather pass
// reads the depths of many out-neighbours (of several frontier vertices) with no branch on
// them and keeps the unvisited ones as candidates, so that their cache misses overlap; the
// claim pass then CASes each candidate, now cached. Claiming as it reads, a CAS (a locked
// instruction) would hold back every later load until it completes, one miss at a time.
type tdClaimer struct {
	cand  [tdClaimBatch]uint32
	m     int
	touch int64
}

// run claims the unvisited out-neighbours of items for depth nd, appending them to buf, and
// returns buf and the running totals of their out-degrees (scout) and of the edges scanned.
// Runs of short lists (a road graph's every vertex) are gathered by gatherShort, a loop with
// no call in it; a long list, or a full batch, comes back here. Gathered in this loop as they
// once were, every vertex paid for the gather call that a long list needs: Go keeps no
// register across a call, so the loop's dozen values were reloaded from the stack at every
// vertex, several times GAPBS's instructions a vertex (docs/cpu-notes.md).
func (cl *tdClaimer) run(items []uint32, off []int64, nb []uint32, depth []int32, nd int32, buf []uint32, scout, scanned int64) ([]uint32, int64, int64) {
	for i := 0; ; {
		var short int64
		i, short = cl.gatherShort(items, i, off, nb, depth)
		scanned += short
		if i == len(items) {
			break
		}
		if nbs := nb[off[items[i]]:off[items[i]+1]]; len(nbs) > tdShortList {
			scanned += int64(len(nbs))
			buf, scout = cl.gather(nbs, depth, nd, buf, scout)
			i++
		} else {
			buf, scout = cl.claim(depth, nd, buf, scout) // no room for another short list
		}
	}
	buf, scout = cl.claim(depth, nd, buf, scout)
	return buf, scout, scanned
}

// gatherShort gathers the short lists (at most tdShortList vertices) of items[i:], inline,
// until a long list or until the batch has no room for another short list; it returns where
// it stopped and the edges it gathered.
//
// Offsets, neighbours and depths are read through pointers, without bounds checks: a CSR's
// offsets lie within its neighbours and its neighbours below its vertex count (len(depth)),
// and items are vertices. With the checks and the slices' lengths to hold, the loop had more
// values than registers, and Go reloaded them from the stack at every arc.
func (cl *tdClaimer) gatherShort(items []uint32, i int, off []int64, nb []uint32, depth []int32) (int, int64) {
	_ = off[:len(depth)+1] // n+1 offsets (slicing checks, loading nothing)
	if len(nb) == 0 {
		return len(items), 0 // no arcs: nothing to gather
	}
	offp := unsafe.Pointer(unsafe.SliceData(off))
	nbp := unsafe.Pointer(unsafe.SliceData(nb))
	dp := unsafe.Pointer(unsafe.SliceData(depth))
	last := uintptr(len(nb) - 1)
	m := cl.m
	var scanned, touch int64
	for ; i < len(items) && m <= tdClaimBatch-tdShortList; i++ {
		// Touch what later iterations read: the offsets 8 items on, and the first
		// neighbours 4 on (their offsets touched 4 iterations ago), so that those misses
		// overlap with this vertex's work (Go has no prefetch instruction).
		if i+8 < len(items) {
			touch ^= *(*int64)(unsafe.Add(offp, uintptr(items[i+8])*8))
		}
		if i+4 < len(items) {
			a := min(uintptr(*(*int64)(unsafe.Add(offp, uintptr(items[i+4])*8))), last)
			touch ^= int64(*(*uint32)(unsafe.Add(nbp, a*4)))
		}
		v := uintptr(items[i])
		s := uintptr(*(*int64)(unsafe.Add(offp, v*8)))
		e := uintptr(*(*int64)(unsafe.Add(offp, v*8+8)))
		if e-s > tdShortList {
			break
		}
		scanned += int64(e - s)
		for ; s < e; s++ {
			u := *(*uint32)(unsafe.Add(nbp, s*4))
			cl.cand[m&(tdClaimBatch-1)] = u
			m += int(uint32(atomic.LoadInt32((*int32)(unsafe.Add(dp, uintptr(u)*4)))) >> 31) // 1 when unvisited
		}
	}
	cl.m = m
	cl.touch ^= touch // keeps the touching loads
	return i, scanned
}

// gather keeps the unvisited vertices of nbs as candidates, claiming the batch whenever it
// fills; the caller claims what is left at the end.
func (cl *tdClaimer) gather(nbs []uint32, depth []int32, nd int32, buf []uint32, scout int64) ([]uint32, int64) {
	for len(nbs) > 0 {
		k := min(len(nbs), 64)
		m := cl.m
		if m > tdClaimBatch-64 {
			buf, scout = cl.claim(depth, nd, buf, scout)
			m = 0
		}
		for _, u := range nbs[:k] {
			cl.cand[m&(tdClaimBatch-1)] = u
			m += int(uint32(atomic.LoadInt32(&depth[u])) >> 31) // 1 when unvisited
		}
		cl.m = m
		nbs = nbs[k:]
	}
	return buf, scout
}

// claim CASes the gathered candidates; a candidate may have been claimed since, by another
// worker or as a repeat within the batch, and then the CAS fails or is not tried.
func (cl *tdClaimer) claim(depth []int32, nd int32, buf []uint32, scout int64) ([]uint32, int64) {
	for _, u := range cl.cand[:cl.m] {
		old := atomic.LoadInt32(&depth[u])
		if old < 0 && atomic.CompareAndSwapInt32(&depth[u], old, nd) {
			scout += int64(-1 - old)
			buf = append(buf, u)
		}
	}
	cl.m = 0
	return buf, scout
}

// filterDuplicates counts the entries of q that repeat a vertex already in q, using the
// visited bitmap as a test-and-set filter; with remove it also drops them (dedup=cull).
// The bitmap is marked only here, so it holds exactly the vertices ever queued.
func (b *bfsState) filterDuplicates(q *segQueue, remove bool) int64 {
	clear(b.cnt)
	b.parallel(len(q.seg), func(w int) {
		seg := q.seg[w]
		k := 0
		var dups int64
		for _, u := range seg {
			if b.visited.testAndSet(u) {
				dups++
				continue
			}
			seg[k] = u
			k++
		}
		if remove {
			q.seg[w] = seg[:k]
		}
		b.cnt[w].a = dups
	})
	q.seal()
	return sumCounters(b.cnt).a
}

// tdMap is the top-down step over a map frontier (bits: the bitmap, else the boolmap) into
// the next map of the same form. The frontier is read 64 vertices at a time as a mask (a
// bitmap word, or 64 boolmap bytes gathered) and cleared as it is read: pieces are aligned
// to 64 vertices, so each word has one owner.
func (b *bfsState) tdMap(level int32, bits bool) bfsStats {
	off, nb := b.g.Offsets, b.g.Neighbors
	nd := level + 1
	front, next := b.front, b.nmap
	bfront, bnext := b.bfront, b.bnx
	clear(b.cnt)
	b.forRange(b.n, 4096, 64, func(w, lo, hi int) {
		var out, scout, scanned int64
		for wi := lo >> 6; wi < (hi+63)>>6; wi++ {
			var word uint64
			if bits {
				word, front[wi] = front[wi], 0
			} else {
				word = bfront.takeWord(wi)
			}
			for word != 0 {
				v := uint32(wi<<6 + trailingZeros(word))
				word &= word - 1
				s, e := off[v], off[v+1]
				scanned += e - s
				for _, u := range nb[s:e] {
					if b.visit(u, nd) {
						if bits {
							next.set(u)
						} else {
							bnext.set(u)
						}
						out++
						scout += off[u+1] - off[u]
					}
				}
			}
		}
		c := &b.cnt[w]
		c.a += out
		c.b += scout
		c.c += scanned
	})
	if bits {
		b.front, b.nmap = next, front
	} else {
		b.bfront, b.bnx = bnext, bfront
	}
	tot := sumCounters(b.cnt)
	return bfsStats{queued: tot.a, outEdges: tot.b, scanned: tot.c}
}

// segCursor is the next piece of one segment of the queue a top-down step reads, on a cache
// line of its own.
type segCursor struct {
	next atomic.Int64
	_    [56]byte
}

// segCursors returns n cursors at zero, kept in the run's state across its steps.
func (b *bfsState) segCursors(n int) []segCursor {
	if len(b.cursors) < n {
		b.cursors = make([]segCursor, n)
	}
	c := b.cursors[:n]
	for i := range c {
		c[i].next.Store(0)
	}
	return c
}
