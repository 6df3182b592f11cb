package loader

import "math/bits"

// edgeBlock is a batch of input edges, as one parser chunk or one generator block produced
// them, stored in the smallest of three forms: sources run-length encoded (runs) when the
// input lists edges grouped by source, as most files do; else source and destination
// bit-packed together (packed) when the ids are small enough to save a quarter; else plain
// per-edge arrays (src, dst). Weights, when present, are always a plain array.
type edgeBlock struct {
	src    []uint32 // per-edge sources (plain form)
	runs   []srcRun // runs[i].n consecutive edges leave runs[i].v (run-length form)
	dst    []uint32 // per-edge destinations (plain and run-length forms)
	w      []int32  // nil when unweighted
	packed []uint64 // edge i is src | dst<<pbits at bit 2*pbits*i (packed form)
	pbits  uint
	m      int // edges, in the packed form
}

type srcRun struct{ v, n uint32 }

// len returns the number of edges.
func (b *edgeBlock) len() int {
	if b.packed != nil {
		return b.m
	}
	return len(b.dst)
}

// batchSize is how many edges batches unpacks at a time (its buffers stay in L1).
const batchSize = 1024

// batches calls fn with the edges of a packed block, a plain block of up to batchSize edges
// at a time, in order.
func (b *edgeBlock) batches(fn func(t *edgeBlock)) {
	var sb, db [batchSize]uint32
	k := b.pbits
	mask := uint64(1)<<k - 1
	width := 2 * k
	for lo := 0; lo < b.m; lo += batchSize {
		hi := min(lo+batchSize, b.m)
		for i := lo; i < hi; i++ {
			p := uint(i) * width
			word, off := p>>6, p&63
			x := b.packed[word] >> off
			if off+width > 64 {
				x |= b.packed[word+1] << (64 - off)
			}
			sb[i-lo], db[i-lo] = uint32(x&mask), uint32((x>>k)&mask)
		}
		t := edgeBlock{src: sb[:hi-lo], dst: db[:hi-lo]}
		if b.w != nil {
			t.w = b.w[lo:hi]
		}
		fn(&t)
	}
}

// each calls fn with the block's edges as plain or run-length blocks (a packed block is
// unpacked batchSize edges at a time).
func (b *edgeBlock) each(fn func(t *edgeBlock)) {
	if b.packed != nil {
		b.batches(fn)
		return
	}
	fn(b)
}

// forEach calls fn for every edge of a plain or run-length block (see each), in order.
func (b *edgeBlock) forEach(fn func(i int, u, v uint32)) {
	if b.src != nil {
		for i, v := range b.dst {
			fn(i, b.src[i], v)
		}
		return
	}
	i := 0
	for _, r := range b.runs {
		for _, v := range b.dst[i : i+int(r.n)] {
			fn(i, r.v, v)
			i++
		}
	}
}

// scratch is a parse worker's reusable buffers.
type scratch struct {
	src, dst []uint32
	w        []int32
}

// block copies the scratch edges into an exactly sized block of the smallest form and
// empties the scratch.
func (s *scratch) block(weighted bool) *edgeBlock {
	b := &edgeBlock{}
	if weighted {
		b.w = append([]int32(nil), s.w...)
	}
	defer func() { s.src, s.dst, s.w = s.src[:0], s.dst[:0], s.w[:0] }()
	runs := 0
	var maxID uint32
	for i, u := range s.src {
		if i == 0 || u != s.src[i-1] {
			runs++
		}
		maxID = max(maxID, u, s.dst[i])
	}
	if runs*2 <= len(s.src) {
		b.dst = append([]uint32(nil), s.dst...)
		b.runs = make([]srcRun, 0, runs)
		for i, u := range s.src {
			if i > 0 && u == s.src[i-1] {
				b.runs[len(b.runs)-1].n++
				continue
			}
			b.runs = append(b.runs, srcRun{u, 1})
		}
		return b
	}
	k := uint(max(bits.Len32(maxID), 1))
	if k > 24 || len(s.src) == 0 {
		b.src = append([]uint32(nil), s.src...)
		b.dst = append([]uint32(nil), s.dst...)
		return b
	}
	width := 2 * k
	b.packed = make([]uint64, (uint(len(s.src))*width+63)/64+1)
	b.pbits, b.m = k, len(s.src)
	for i, u := range s.src {
		x := uint64(u) | uint64(s.dst[i])<<k
		p := uint(i) * width
		word, off := p>>6, p&63
		b.packed[word] |= x << off
		if off+width > 64 {
			b.packed[word+1] |= x >> (64 - off)
		}
	}
	return b
}

// bytes returns the memory the block holds.
func (b *edgeBlock) bytes() int64 {
	return int64(4*(len(b.src)+len(b.dst)+len(b.w)) + 8*(len(b.runs)+len(b.packed)))
}
