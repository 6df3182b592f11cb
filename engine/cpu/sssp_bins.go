package cpu

import "math/bits"

// The bins of delta-stepping (sssp_delta.go): each worker's buckets, a ring of bins.

// bucketDiv divides a distance by delta with a multiply and a shift (Granlund and Montgomery,
// "Division by invariant integers using multiplication", PLDI 1994, theorem 4.2): every
// improvement is binned by its bucket, and a 64-bit division is tens of cycles on the
// relaxation's path. Exact for distances 0 .. 2^31-1.
type bucketDiv struct {
	m     uint64
	shift uint
}

// newBucketDiv returns the divider by delta (>= 1). With N = 31 numerator bits and
// l = ceil(log2 delta), m = ceil(2^(N+l) / delta) gives floor(n / delta) = n*m >> (N+l) for
// every n < 2^N; m <= 2^32, so n*m < 2^63. A delta of 2^31 or more puts every distance in
// bucket 0.
func newBucketDiv(delta int64) bucketDiv {
	if delta >= 1<<31 {
		return bucketDiv{}
	}
	l := uint(bits.Len64(uint64(delta - 1)))
	p := uint64(1) << (31 + l)
	return bucketDiv{m: (p + uint64(delta) - 1) / uint64(delta), shift: 31 + l}
}

// of returns nd / delta for 0 <= nd < 2^31.
func (d bucketDiv) of(nd int64) int64 { return int64(uint64(nd) * d.m >> d.shift) }

// binRing is one worker's buckets: a ring of bins indexed by bucket number modulo its size,
// grown so that every pending bucket (from the current one on) has its own slot, up to
// maxRing buckets ahead. A vertex further ahead (huge weights over a small delta: a bucket
// 2^31 ahead would need a 48 GB ring) waits in far with its bucket, and moves into the ring
// when the current bucket comes within maxRing of it.
type binRing struct {
	bins   [][]uint32
	spare  []uint32
	lo     int64 // the current bucket: no pending bucket is below it
	far    []farItem
	farMin int64    // the smallest bucket in far (noBin when far is empty)
	_      [40]byte // 128 bytes: workers' rings share no cache line (lo is written as neighbours read)
}

type farItem struct {
	b int64
	v uint32
}

// maxRing is the most buckets a ring spans.
const maxRing = 1 << 16

func (r *binRing) push(b int64, v uint32) {
	if b-r.lo >= int64(len(r.bins)) {
		if b-r.lo >= maxRing {
			if len(r.far) == 0 {
				r.farMin = noBin
			}
			r.far = append(r.far, farItem{b, v})
			r.farMin = min(r.farMin, b)
			return
		}
		r.grow(b)
	}
	p := &r.bins[b&int64(len(r.bins)-1)]
	*p = append(*p, v)
}

func (r *binRing) grow(b int64) {
	size := max(16, len(r.bins))
	for b-r.lo >= int64(size) {
		size *= 2
	}
	nb := make([][]uint32, size)
	for k := r.lo; k < r.lo+int64(len(r.bins)); k++ {
		nb[k&int64(size-1)] = r.bins[k&int64(len(r.bins)-1)]
	}
	r.bins = nb
}

// ringKeep keeps the workers' rings between runs, with their grown bins.
var ringKeep keep[[]binRing]

// getRings returns workers empty rings, reusing kept ones if any.
func getRings(workers int) []binRing {
	if p := ringKeep.get(); p != nil && len(*p) == workers {
		rs := *p
		for i := range rs {
			for b := range rs[i].bins {
				rs[i].bins[b] = rs[i].bins[b][:0]
			}
			rs[i].lo = 0
			rs[i].far = rs[i].far[:0]
		}
		return rs
	}
	return make([]binRing, workers)
}

// take detaches bucket b's bin (b >= lo), leaving an empty one in its place.
func (r *binRing) take(b int64) []uint32 {
	if len(r.far) > 0 && r.farMin-b < maxRing {
		r.lo = b // b is the lowest pending bucket of every ring
		r.pullFar()
	}
	if b-r.lo >= int64(len(r.bins)) || len(r.bins) == 0 {
		return nil
	}
	i := b & int64(len(r.bins)-1)
	out := r.bins[i]
	r.bins[i] = r.spare[:0]
	r.spare = nil
	return out
}

// giveBack returns a detached bin's memory for reuse.
func (r *binRing) giveBack(s []uint32) {
	if cap(s) > cap(r.spare) {
		r.spare = s[:0]
	}
}

func (r *binRing) size(b int64) int {
	if b-r.lo >= int64(len(r.bins)) || len(r.bins) == 0 {
		return 0
	}
	return len(r.bins[b&int64(len(r.bins)-1)])
}

// advance moves the ring's floor to b and returns its lowest non-empty bucket, or noBin.
func (r *binRing) advance(b int64) int64 {
	r.lo = b
	r.pullFar()
	for k := b; k < b+int64(len(r.bins)); k++ {
		if len(r.bins[k&int64(len(r.bins)-1)]) > 0 {
			return k
		}
	}
	if len(r.far) > 0 {
		return r.farMin
	}
	return noBin
}

// pullFar moves into the ring the far vertices within maxRing of the current bucket.
func (r *binRing) pullFar() {
	if len(r.far) == 0 || r.farMin-r.lo >= maxRing {
		return
	}
	keep := r.far[:0]
	r.farMin = noBin
	for _, it := range r.far {
		if it.b-r.lo < maxRing {
			r.push(it.b, it.v)
		} else {
			keep = append(keep, it)
			r.farMin = min(r.farMin, it.b)
		}
	}
	r.far = keep
}

// detach detaches the bin of bucket b, which must lie in the ring (lo <= b < lo+len(bins)),
// without moving lo: a worker offers its lowest bucket before the workers agree on the next
// one, which may be lower (another worker's), and then puts the bin back (putBack).
func (r *binRing) detach(b int64) []uint32 {
	i := b & int64(len(r.bins)-1)
	out := r.bins[i]
	r.bins[i] = r.spare[:0]
	r.spare = nil
	return out
}

// putBack undoes detach(b): nothing was pushed since, so b's bin is the empty one detach left.
func (r *binRing) putBack(b int64, s []uint32) {
	i := b & int64(len(r.bins)-1)
	r.spare = r.bins[i]
	r.bins[i] = s
}

// inRing reports whether bucket b has a slot in the ring (else it is in far, or noBin).
func (r *binRing) inRing(b int64) bool { return b >= r.lo && b-r.lo < int64(len(r.bins)) }
