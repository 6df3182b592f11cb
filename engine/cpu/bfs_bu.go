package cpu

import "math/bits"

// BFS bottom-up (pull) steps: every unvisited vertex scans its in-neighbours for one in the
// frontier map and stops at the first (Beamer et al.'s bottom-up step, GAPBS bfs.cc BUStep
// [1]). Run under direction=pull, and by direction=auto while the frontier is large.
//
// [1] Beamer, Asanović, Patterson. Direction-optimizing breadth-first search. SC 2012.

// buStep is the bottom-up step: each unvisited vertex looks for an in-neighbour in the
// frontier map and stops at the first. Pieces are aligned to 64 vertices, so each word of the
// next bitmap (and each 32-bit word of the boolmap) has one owner: the owner of u writes
// depth[u] and u's mark with plain stores (GAPBS's set_bit, not set_bit_atomic), the bitmap
// one whole word per 64 vertices. An atomic OR per woken vertex would be a locked instruction,
// which stops the loads behind it and so the overlap of the next vertices' cache misses.
//
// An unvisited vertex's depth is -1 - out-degree; on an undirected graph (in-edges are the
// out-edges) depth -1 is then an isolated vertex, skipped with the visited ones by one
// well-predicted test instead of a second branch on its empty in-edge list.
func (b *bfsState) buStep(level int32, form int) bfsStats {
	bits := form == inBitmap
	if bits && b.nmap == nil {
		b.nmap = newBitmap(b.n)
	}
	if !bits && b.bnx == nil {
		b.bnx = newBoolmap(b.n)
	}
	skip := int32(0) // depth >= skip: nothing to look for
	if !b.g.Directed {
		skip = -1
	}
	clear(b.cnt)
	b.forRange(b.n, 1024, 64, func(w, lo, hi int) {
		c := &b.cnt[w]
		if bits {
			b.buBitmap(lo, hi, level+1, skip, c)
		} else {
			b.buBoolmap(lo, hi, level+1, skip, c)
		}
	})
	// The old frontier becomes the next step's output map: clear it.
	if bits {
		front := b.front
		b.forRange(len(front), 1<<12, 1, func(_, lo, hi int) { clear(front[lo:hi]) })
		b.front, b.nmap = b.nmap, front
	} else {
		bfront := b.bfront
		b.forRange(len(bfront), 1<<16, 4, func(_, lo, hi int) { clear(bfront[lo:hi]) })
		b.bfront, b.bnx = b.bnx, bfront
	}
	tot := sumCounters(b.cnt)
	return bfsStats{queued: tot.a, outEdges: tot.b, scanned: tot.c}
}

// buBitmap is buStep's piece [lo, hi) (lo a multiple of 64) with bitmap frontiers; it adds
// the woken vertices, their out-edges and the edges scanned to c.
//
// It works a block of vertices (a few words of the maps) at a time, in passes over bit masks: mark the
// vertices with something to look for (no branch: on the big steps that is a coin toss per
// vertex); probe each one's first in-neighbour, without a branch on what the probes load, so
// that their cache misses (one per vertex, in the in-edge array) overlap instead of each
// waiting behind the previous vertex's mispredicted branch; scan the rest of the lists of
// those the probe missed; then write the woken vertices' depths and the word. On kron and
// urand most woken vertices are found at their first in-neighbour.
func (b *bfsState) buBitmap(lo, hi int, nd, skip int32, c *counters) {
	toff, tnb := b.t.Offsets, b.t.Neighbors
	front, next, depth := b.front, b.nmap, b.depth
	if len(tnb) == 0 {
		return // no edges: nothing wakes
	}
	last := int64(len(tnb) - 1)
	var awake, awakeEdges, scanned int64
	// Blocks of buBlockWords words: when few vertices have something to look for, a block
	// still has enough probes for their misses to overlap.
	for block := lo; block < hi; block += 64 * buBlockWords {
		var cand, hit [buBlockWords]uint64 // bit k of word j: vertex block+64j+k
		nw := min((hi-block+63)>>6, buBlockWords)
		for j := range nw {
			base := block + j<<6
			dd := depth[base:min(base+64, hi)]
			cand[j&(buBlockWords-1)] = belowMask(dd, skip)
		}
		for j := range nw {
			base := block + j<<6
			var h uint64
			for m := cand[j&(buBlockWords-1)]; m != 0; m &= m - 1 {
				k := trailingZeros(m)
				u := base + k
				s, e := toff[u], toff[u+1]
				v := tnb[min(s, last)]
				in := front[v>>6] >> (v & 63) & 1
				in &= uint64(s-e) >> 63 // an empty list (directed graphs) probes nothing
				h |= in << uint(k)
			}
			hit[j&(buBlockWords-1)] = h
		}
		for j := range nw {
			base := block + j<<6
			h := hit[j&(buBlockWords-1)]
			// Hits wake at their first in-neighbour; the others scan the rest of their lists.
			scanned += int64(bits.OnesCount64(h))
			for m := cand[j&(buBlockWords-1)] &^ h; m != 0; m &= m - 1 {
				k := trailingZeros(m)
				u := base + k
				s, e := toff[u], toff[u+1]
				if s >= e {
					continue
				}
				found := int64(-1)
				for i, v := range tnb[s+1 : e] {
					if front[v>>6]&(1<<(v&63)) != 0 {
						found = int64(i) + 2
						break
					}
				}
				if found < 0 {
					scanned += e - s
					continue
				}
				scanned += found
				h |= 1 << uint(k)
			}
			dd := depth[base:min(base+64, hi)]
			for m := h; m != 0; m &= m - 1 {
				k := trailingZeros(m)
				awakeEdges += int64(-1 - dd[k])
				dd[k] = nd
			}
			awake += int64(bits.OnesCount64(h))
			next[base>>6] = h // only this worker's word
		}
	}
	c.a += awake
	c.b += awakeEdges
	c.c += scanned
}

// buBlockWords is the words of vertices buBitmap handles in one block (a power of 2).
const buBlockWords = 4

// buBoolmap is buBitmap with boolmap frontiers.
func (b *bfsState) buBoolmap(lo, hi int, nd, skip int32, c *counters) {
	toff, tnb := b.t.Offsets, b.t.Neighbors
	front, next := b.bfront, b.bnx
	var awake, awakeEdges, scanned int64
	dd := b.depth[lo:hi]
	for k, d := range dd {
		if d >= skip {
			continue
		}
		u := lo + k
		nbs := tnb[toff[u]:toff[u+1]]
		found := -1
		for i, v := range nbs {
			if front[v] != 0 {
				found = i
				break
			}
		}
		if found < 0 {
			scanned += int64(len(nbs))
			continue
		}
		dd[k] = nd
		next[u] = 1
		awake++
		awakeEdges += int64(-1 - d)
		scanned += int64(found + 1)
	}
	c.a += awake
	c.b += awakeEdges
	c.c += scanned
}

// belowMaskGo is belowMask in Go: bit k of the mask is dd[k] < skip (len(dd) <= 64). First
// whether any of them is below (d < skip, so d-skip has its sign bit; no overflow: d >=
// -1-2^30): late steps of a long search (a road graph's last levels) find none in nearly every
// word, and this test costs an OR a vertex where the mask costs a shift and an OR.
func belowMaskGo(dd []int32, skip int32) uint64 {
	var any0, any1 int32
	for k := 0; k+1 < len(dd); k += 2 {
		any0 |= dd[k] - skip
		any1 |= dd[k+1] - skip
	}
	if len(dd)&1 != 0 {
		any0 |= dd[len(dd)-1] - skip
	}
	var m uint64
	if any0|any1 < 0 {
		for k, d := range dd {
			m |= uint64(uint32(d-skip)>>31) << uint(k)
		}
	}
	return m
}
