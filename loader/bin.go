package loader

// Propagation blocking: a binner buffers arcs in bins of binVertices consecutive source
// vertices and writes a bin out when it holds binCap arcs, so that a flush touches a few
// kilobytes of cursors and a small stretch of the neighbour array instead of the whole CSR.
const (
	binShift = 11   // at least 2048 vertices per bin
	binMax   = 4096 // bins per binner (so the buffers stay under 8 MB)
	binCap   = 256
)

// binMinVertices is the owned range from which scatter is binned (tests lower it).
var binMinVertices uint32 = 1 << 16

type binner struct {
	lo    uint32
	span  uint32
	shift uint
	arcs  [][]uint64 // per bin: source<<32 | neighbour
	ws    [][]int32  // per bin: weights, when weighted
	cur   []int64
	nb    []uint32
	wt    []int32
}

func newBinner(lo, span uint32, cur []int64, nb []uint32, wt []int32) *binner {
	shift := uint(binShift)
	for span>>shift >= binMax {
		shift++
	}
	k := int(span>>shift) + 1
	bn := &binner{lo: lo, span: span, shift: shift, arcs: make([][]uint64, k), cur: cur, nb: nb, wt: wt}
	backing := make([]uint64, k*binCap)
	for i := range bn.arcs {
		bn.arcs[i] = backing[i*binCap : i*binCap : (i+1)*binCap]
	}
	if wt != nil {
		bn.ws = make([][]int32, k)
		wb := make([]int32, k*binCap)
		for i := range bn.ws {
			bn.ws[i] = wb[i*binCap : i*binCap : (i+1)*binCap]
		}
	}
	return bn
}

func (bn *binner) flush(k uint32) {
	a := bn.arcs[k]
	cur, nb := bn.cur, bn.nb
	if bn.wt != nil {
		ws := bn.ws[k]
		for i, e := range a {
			x := e >> 32
			p := cur[x]
			cur[x] = p + 1
			nb[p], bn.wt[p] = uint32(e), ws[i]
		}
		bn.ws[k] = ws[:0]
	} else {
		for _, e := range a {
			x := e >> 32
			p := cur[x]
			cur[x] = p + 1
			nb[p] = uint32(e)
		}
	}
	bn.arcs[k] = a[:0]
}

func (bn *binner) flushAll() {
	for k := range bn.arcs {
		bn.flush(uint32(k))
	}
}

// put bins the arc x->y (weight w).
func (bn *binner) put(x, y uint32, w int32) {
	k := (x - bn.lo) >> bn.shift
	a := append(bn.arcs[k], uint64(x)<<32|uint64(y))
	bn.arcs[k] = a
	if bn.wt != nil {
		bn.ws[k] = append(bn.ws[k], w)
	}
	if len(a) == binCap {
		bn.flush(k)
	}
}

// scatter bins the block's arcs that leave the binner's range, in input order.
func (bn *binner) scatter(b *edgeBlock, sym, keepLoops bool) {
	if b.packed != nil {
		b.batches(func(t *edgeBlock) { bn.scatter(t, sym, keepLoops) })
		return
	}
	lo, span := bn.lo, bn.span
	var w int32
	if b.src != nil {
		src := b.src[:len(b.dst)]
		for i, v := range b.dst {
			u := src[i]
			if u == v && !keepLoops {
				continue
			}
			if b.w != nil {
				w = b.w[i]
			}
			if u-lo < span {
				bn.put(u, v, w)
			}
			if sym && v-lo < span && u != v {
				bn.put(v, u, w)
			}
		}
		return
	}
	i := 0
	for _, r := range b.runs {
		u := r.v
		for _, v := range b.dst[i : i+int(r.n)] {
			if u == v && !keepLoops {
				i++
				continue
			}
			if b.w != nil {
				w = b.w[i]
			}
			if u-lo < span {
				bn.put(u, v, w)
			}
			if sym && v-lo < span && u != v {
				bn.put(v, u, w)
			}
			i++
		}
	}
}
