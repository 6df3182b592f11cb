package cpu

// Triangle counting, step 2 at the middle vertex: over lists sorted by rank, every triangle
// x < v < w is found at v by marking N+(v) in a bitmap and probing, for each in-arc x->v,
// the part of N+(x) after v. On skewed graphs that probes several times less than counting
// at the low vertex (sum of out(u)^2/2 against sum of in(v)*out(v)); runTC picks it when the
// estimate says so.

// tcInArcs are the oriented graph's arcs grouped by head: for the in-arcs x->v of v,
// src[off[v]:off[v+1]] holds x and pos the index of v in x's list.
type tcInArcs struct {
	off      []int64
	src, pos []uint32
}

// tcHeads counts the in-arcs of every vertex of the oriented graph, per worker over blocks of
// sources of about equal arcs, so that tcBuildInArcs can fill without atomics.
type tcHeads struct {
	bounds []int     // worker w owns sources [bounds[w], bounds[w+1])
	counts [][]int64 // counts[w][v]: in-arcs of v from worker w's sources; later its cursor
}

func tcCountHeads(r *Run, h *tcAdj) *tcHeads {
	n, m := len(h.off)-1, int64(len(h.nb))
	workers := min(r.Workers, 4) // each block costs 8 bytes per vertex
	hd := &tcHeads{bounds: make([]int, workers+1), counts: make([][]int64, workers)}
	for w := 1; w <= workers; w++ {
		hd.bounds[w] = min(sortSearch64(h.off[1:], m*int64(w)/int64(workers)-1)+1, n)
	}
	hd.bounds[workers] = n
	r.parallel(workers, func(w int) {
		c := make([]int64, n)
		for x := hd.bounds[w]; x < hd.bounds[w+1]; x++ {
			for _, v := range h.nb[h.off[x]:h.off[x+1]] {
				c[v]++
			}
		}
		hd.counts[w] = c
	})
	return hd
}

// tcMiddleCosts returns the probes of the two hash formulations over lists sorted by rank:
// by the low vertex, sum of in(v)*out(v) (every arc u->v probes N+(v)); by the middle vertex,
// sum of out(u)^2/2 (every arc u->v probes the part of N+(u) after v). Skewed graphs favour
// the middle vertex several times over; uniform ones barely.
func tcMiddleCosts(h *tcAdj, hd *tcHeads) (low, middle float64) {
	for v := 0; v < len(h.off)-1; v++ {
		var in int64
		for _, c := range hd.counts {
			in += c[v]
		}
		out := float64(h.off[v+1] - h.off[v])
		low += float64(in) * out
		middle += out * out / 2
	}
	return low, middle
}

// tcBuildInArcs groups the arcs by head: a prefix sum over vertices, then workers in order,
// gives every worker a cursor in every in-list, and each worker scatters its own sources'
// arcs there. In-lists come out sorted by source.
func tcBuildInArcs(r *Run, h *tcAdj, hd *tcHeads) *tcInArcs {
	n := len(h.off) - 1
	off := make([]int64, n+1)
	var sum int64
	for v := 0; v < n; v++ {
		off[v] = sum
		for _, c := range hd.counts {
			k := c[v]
			c[v] = sum
			sum += k
		}
	}
	off[n] = sum
	ia := &tcInArcs{off: off, src: make([]uint32, sum), pos: make([]uint32, sum)}
	r.parallel(len(hd.counts), func(w int) {
		cur := hd.counts[w]
		for x := hd.bounds[w]; x < hd.bounds[w+1]; x++ {
			for i, v := range h.nb[h.off[x]:h.off[x+1]] {
				p := cur[v]
				cur[v] = p + 1
				ia.src[p], ia.pos[p] = uint32(x), uint32(i)
			}
		}
	})
	return ia
}

// tcCountMiddle counts every triangle x < v < w at its middle vertex v: mark N+(v), then for
// each in-arc x->v probe the part of N+(x) after v. The lists must be sorted by rank.
func tcCountMiddle(r *Run, h *tcAdj, ia *tcInArcs) (uint64, int64) {
	n := len(h.off) - 1
	cnt := make([]counters, r.Workers)
	marks := make([][]uint64, r.Workers)
	off, nb := h.off, h.nb
	r.forRange(n, 64, 1, func(w, lo, hi int) {
		if marks[w] == nil {
			marks[w] = make([]uint64, (n+63)/64)
		}
		bm := marks[w]
		var tri uint64
		var scanned int64
		var los, his [tcBatch]int64
		for v := lo; v < hi; v++ {
			b := nb[off[v]:off[v+1]]
			if len(b) == 0 {
				continue
			}
			for _, y := range b {
				bm[y>>6] |= 1 << (y & 63)
			}
			src, pos := ia.src[ia.off[v]:ia.off[v+1]], ia.pos[ia.off[v]:ia.off[v+1]]
			scanned += 2 * int64(len(b))
			for len(src) > 0 {
				k := min(tcBatch, len(src))
				for j := 0; j < k; j++ {
					x := src[j]
					los[j], his[j] = off[x]+int64(pos[j])+1, off[x+1]
				}
				var touch uint32
				for j := 0; j < k; j++ {
					if los[j] < his[j] {
						touch |= nb[los[j]]
					}
				}
				for j := 0; j < k; j++ {
					suf := nb[los[j]:his[j]]
					for _, y := range suf {
						tri += bm[y>>6] >> (y & 63) & 1
					}
					scanned += int64(len(suf))
				}
				if touch == 0xfeedface { // never in practice; keeps the touching loads alive
					scanned++
				}
				src, pos = src[k:], pos[k:]
			}
			for _, y := range b {
				bm[y>>6] = 0
			}
		}
		cnt[w].a += int64(tri)
		cnt[w].b += scanned
	})
	s := sumCounters(cnt)
	return uint64(s.a), s.b
}
