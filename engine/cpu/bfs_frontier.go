package cpu

// The BFS frontier's representations (queue, bitmap, boolmap) and the conversions between
// them; bfs.go's loop converts when a step reads another form than the last one wrote.

// convert changes the frontier's representation between steps.
func (b *bfsState) convert(from, to int) {
	switch {
	case from == to:
	case from == inQueue:
		b.queueToMap(to)
	case to == inQueue:
		b.mapToQueue(from)
	default:
		panic("cpu: bfs: no conversion between bitmap and boolmap") // never: one schedule picks one map
	}
}

// queueToMap turns the queue frontier into a bitmap (or boolmap) for a pull step.
func (b *bfsState) queueToMap(to int) {
	if to == inBoolmap {
		if b.bfront == nil {
			b.bfront, b.bnx = newBoolmap(b.n), newBoolmap(b.n)
		}
	} else if b.front == nil {
		b.maps = getBFSMaps(b.n)
		b.front, b.nmap = b.maps.front, b.maps.nmap
	}
	cur := b.cur
	if to == inBitmap && b.Workers > 1 && (b.Workers <= privMapWorkers || b.Workers <= privMapMaxWorkers && cur.len() >= b.n/16) {
		b.queueToBitmapPrivate()
		return
	}
	front, bfront := b.front, b.bfront
	if to == inBoolmap {
		front = nil
	}
	b.forRange(cur.len(), 1024, 1, func(_, lo, hi int) {
		for lo < hi {
			var items []uint32
			items, lo = cur.piece(lo, hi)
			for _, v := range items {
				if front != nil {
					front.set(v)
				} else {
					bfront.set(v)
				}
			}
		}
	})
}

// privMapWorkers is the most workers for which queueToBitmapPrivate gives each its own
// bitmap (n/8 bytes each); up to privMapMaxWorkers it does so for a large frontier (a
// sixteenth of the vertices or more), where the atomic ORs' contention costs most and the
// second pass, which reads every worker's bitmap, costs least in comparison.
const (
	privMapWorkers    = 8
	privMapMaxWorkers = 32
)

// queueToBitmapPrivate is queueToMap into the (clear) frontier bitmap with plain stores:
// each worker marks its pieces of the queue in a bitmap of its own, and a second pass ORs
// those into the frontier a range of words per worker, clearing them for the next time.
// Marking the shared bitmap takes an atomic OR per vertex, a locked instruction on a line the
// other workers are marking too: on urand20's 825K-vertex switch that was 2.2 ms.
func (b *bfsState) queueToBitmapPrivate() {
	m := b.maps
	for len(m.priv) < b.Workers {
		m.priv = append(m.priv, newBitmap(b.n))
	}
	priv, cur, front := m.priv[:b.Workers], b.cur, b.front
	b.forRange(cur.len(), 1024, 1, func(w, lo, hi int) {
		p := priv[w]
		for lo < hi {
			var items []uint32
			items, lo = cur.piece(lo, hi)
			for _, v := range items {
				p[v>>6] |= 1 << (v & 63)
			}
		}
	})
	b.forRange(len(front), 1<<12, 1, func(_, lo, hi int) {
		f := front[lo:hi]
		for _, p := range priv {
			p := p[lo:hi]
			p = p[:len(f)]
			for i, x := range p {
				f[i] |= x
				p[i] = 0
			}
		}
	})
}

// bfsMaps are a run's frontier bitmaps, kept between runs (as segQueues are) since fresh
// ones cost a page fault per 4 KiB on every run.
type bfsMaps struct {
	n           int
	front, nmap bitmap
	priv        []bitmap // queueToBitmapPrivate's, clear between uses
}

var bfsMapKeep keep[bfsMaps]

// getBFSMaps returns clear frontier bitmaps for n vertices, reusing kept ones if any.
func getBFSMaps(n int) *bfsMaps {
	if m := bfsMapKeep.get(); m != nil && m.n == n {
		clear(m.front)
		clear(m.nmap)
		for _, p := range m.priv {
			clear(p) // (a cancelled conversion may have left marks)
		}
		return m
	}
	return &bfsMaps{n: n, front: newBitmap(n), nmap: newBitmap(n)}
}

// mapToQueue turns the frontier map back into a queue (per-worker segments) and clears it.
func (b *bfsState) mapToQueue(form int) {
	q := b.cur
	q.reset()
	if form == inBitmap {
		front := b.front
		b.forRange(b.n, 1<<14, 64, func(w, lo, hi int) {
			buf := q.seg[w]
			for wi := lo >> 6; wi < (hi+63)>>6; wi++ {
				word := front[wi]
				front[wi] = 0
				for word != 0 {
					buf = append(buf, uint32(wi<<6+trailingZeros(word)))
					word &= word - 1
				}
			}
			q.seg[w] = buf
		})
	} else {
		front := b.bfront
		b.forRange(b.n, 1<<14, 4, func(w, lo, hi int) {
			buf := q.seg[w]
			for v := lo; v < hi; v++ {
				if front[v] != 0 {
					front[v] = 0
					buf = append(buf, uint32(v))
				}
			}
			q.seg[w] = buf
		})
	}
	q.seal()
}
