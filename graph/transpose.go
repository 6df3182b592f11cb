package graph

// Propagation blocking for the transpose's scatter: arcs are buffered in bins of
// 1<<binShift consecutive destinations and written out binCap at a time, so that each flush
// touches a few kilobytes of cursors and a short stretch of the neighbour array instead of
// writing all over it.
const (
	binShift = 11
	binMax   = 4096 // bins per worker, so the buffers stay under 8 MB
	binCap   = 256
)

// binMin is the vertex count from which the scatter is binned (tests lower it).
var binMin = 1 << 16

// scatterBinned writes the in-arcs of the sources [lo, hi) at the cursors cur: for each arc
// v->u, v goes to the next slot of u's new list. Arcs of one destination keep the order of
// their sources, so lists come out sorted.
func scatterBinned(g *CSR, lo, hi int, cur []int64, nb []uint32, wt []int32) {
	n := g.NumVertices()
	shift := uint(binShift)
	for n>>shift >= binMax {
		shift++
	}
	k := n>>shift + 1
	bins := make([][]uint64, k) // u<<32 | v
	backing := make([]uint64, k*binCap)
	for i := range bins {
		bins[i] = backing[i*binCap : i*binCap : (i+1)*binCap]
	}
	var wbins [][]int32
	if wt != nil {
		wbins = make([][]int32, k)
		wb := make([]int32, k*binCap)
		for i := range wbins {
			wbins[i] = wb[i*binCap : i*binCap : (i+1)*binCap]
		}
	}
	flush := func(b int) {
		for i, e := range bins[b] {
			u := e >> 32
			p := cur[u]
			cur[u] = p + 1
			nb[p] = uint32(e)
			if wt != nil {
				wt[p] = wbins[b][i]
			}
		}
		bins[b] = bins[b][:0]
		if wt != nil {
			wbins[b] = wbins[b][:0]
		}
	}
	for v := lo; v < hi; v++ {
		for i := g.Offsets[v]; i < g.Offsets[v+1]; i++ {
			u := g.Neighbors[i]
			b := int(u >> shift)
			bins[b] = append(bins[b], uint64(u)<<32|uint64(v))
			if wt != nil {
				wbins[b] = append(wbins[b], g.Weights[i])
			}
			if len(bins[b]) == binCap {
				flush(b)
			}
		}
	}
	for b := range bins {
		flush(b)
	}
}
