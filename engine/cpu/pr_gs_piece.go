package cpu

import (
	"math"
	"unsafe"
)

// The Gauss-Seidel sweep's pieces (pullGS): gsLean for undirected graphs, gsPiece for the
// rest, and their race-detector twins.

// gsLean is one piece [lo, hi) of a lean Gauss-Seidel sweep (pullGS): an undirected graph,
// whose arcs off/nb are both the in- and the out-arcs, and whose dangling vertices are
// isolated. Each vertex of arcs gathers its neighbours' contributions from cf, and replaces
// its own contribution with (c0 + d * the sum) / degree at once; it returns the piece's L1
// change and the sum of its new scores (c0 + d * the sum, in stored units). Isolated vertices
// are skipped: their score is c0 every sweep, which the caller accounts for.
//
// It keeps no scores: a vertex's old score is its old contribution times its degree (within
// 2^-23 of it, against an L1 tolerance summed over all vertices). GAPBS's PageRankPullGS, and
// gsPiece, read and write a score array besides the contributions: 8 of the ~30 bytes a road
// graph's vertex moves a sweep (an offset, 2.5 neighbours, a contribution, a score).
//
// With four (gsFourSums), a vertex of 8 arcs or more sums them in four sums, else in one. On
// amd64 the loop runs in assembly (gsLeanAsm), where its arc loops are aligned; the Go loop
// below runs elsewhere and in tests (SetGSAsm).
func gsLean(cf []float32, off []int64, nb []uint32, lo, hi int, c0, d float32, four bool) (change, sum float64) {
	if raceBuild {
		return gsLeanRace(cf, off, nb, lo, hi, c0, d)
	}
	ends := off[lo+1 : hi+1]
	if len(ends) == 0 {
		return 0, 0
	}
	_ = nb[off[lo]:ends[len(ends)-1]]
	_ = cf[:hi]
	if gsAsm {
		return gsLeanFast(cf, off, nb, lo, hi, c0, d, four)
	}
	cfp := unsafe.Pointer(unsafe.SliceData(cf))
	nbp := unsafe.Pointer(unsafe.SliceData(nb))
	own := unsafe.Add(cfp, lo*4) // &cf[lo]
	e := off[lo]
	var dchange float32 // see gsPiece
	for i, end := range ends {
		deg := end - e
		if deg == 0 {
			continue
		}
		var s float32 // gsPiece's gather (a function would not be inlined)
		j, end := uintptr(e), uintptr(end)
		if four && end-j >= 8 {
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
		e = int64(end)
		x := c0 + d*s
		fd := float32(deg)
		c := (*float32)(unsafe.Add(own, i*4))
		old := *c * fd
		*c = x / fd // a plain store: see raceBuild
		dchange += abs32(x - old)
		sum += float64(x)
	}
	return float64(dchange), sum
}

// gsFourSums is whether gsLean sums a vertex's many arcs in four sums (on Intel processors)
// or in one (on AMD's): on an AMD processor one sum swept urand20 and kron20 faster than four
// (road NE, whose vertices seldom have 8 arcs, the same), in Go and in assembly; on an Intel
// one the assembly loop ran as fast with one as with four, and the four stay there
// (docs/cpu-notes.md).
var gsFourSums = !amdCPU()

// gsLeanRace is gsLean for the race detector's builds: indexed, with atomic loads and stores
// of the contributions.
func gsLeanRace(cf []float32, off []int64, nb []uint32, lo, hi int, c0, d float32) (change, sum float64) {
	for i := lo; i < hi; i++ {
		deg := off[i+1] - off[i]
		if deg == 0 {
			continue
		}
		var s float32
		for _, v := range nb[off[i]:off[i+1]] {
			s += loadF32(&cf[v])
		}
		x := c0 + d*s
		old := loadF32(&cf[i]) * float32(deg)
		storeF32(&cf[i], x/float32(deg))
		change += float64(abs32(x - old))
		sum += float64(x)
	}
	return change, sum
}

// gsPiece is one piece [lo, hi) of a Gauss-Seidel sweep: each vertex gathers its in-neighbours'
// contributions from cf, stores its new score (in stored units: c0 + d * the sum) in sc and
// publishes its contribution (score / out-degree) in cf at once. It returns the piece's L1
// change, the sum of its new scores and the change of its dangling vertices' scores. off
// holds the out-arc offsets; nil means they are toff (an undirected graph). A function of its
// own, not the sweep's closure, so that the loop's slices stay in registers.
//
// The arcs and contributions are read through pointers, without bounds checks: the piece's
// arcs are checked to lie in tnb once, and a CSR's neighbours are below its vertex count
// (len(cf)). The checks cost two compares and branches an arc and the registers they held,
// which showed on road NE, where a vertex has two or three arcs.
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
