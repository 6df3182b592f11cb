package cpu

// Triangle counting in place, for order=id without relabelling and intersect=merge (the auto
// schedule on sparse graphs such as road networks): every triangle w < v < x is counted once,
// at its highest vertex x, from the undirected lists themselves. N-(x), the neighbours below
// x, is the prefix of x's sorted list, so no oriented copy is built and the step has no cost
// beyond the count: GAPBS's OrderedCount [1] over a graph it does not relabel. For each v in
// N-(x), |N-(x) ∩ N-(v)| needs only the part of N-(x) below v, a merge that stops when that
// part is used up.
//
// Input requirements: sorted lists without repeats or self-loops (graph.CSR.Undirected).
//
// [1] Beamer, Asanović, Patterson. The GAP benchmark suite. 2015 (src/tc.cc).

// tcSparseDegree is the average degree under which tc's auto schedule counts in place, by
// merge, when the vertices keep their ids.
const tcSparseDegree = 8

// tcCountLower returns the triangles of the simple undirected lists u and the list entries
// the merges were given.
func tcCountLower(r *Run, u *tcAdj) (uint64, int64) {
	off, nb := u.off, u.nb
	cnt := make([]counters, r.Workers)
	r.forRange(len(off)-1, 256, 1, func(w, lo, hi int) {
		var tri uint64
		var scanned int64
		for x := lo; x < hi; x++ {
			a := nb[off[x]:off[x+1]]
			for i, v := range a {
				if v >= uint32(x) {
					break
				}
				b := nb[off[v]:off[v+1]]
				tri += tcMerge(a[:i], b)
				scanned += int64(i + len(b))
			}
		}
		cnt[w].a += int64(tri)
		cnt[w].b += scanned
	})
	s := sumCounters(cnt)
	return uint64(s.a), s.b
}
