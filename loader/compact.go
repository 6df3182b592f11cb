package loader

import (
	"math/bits"
	"sync/atomic"

	"github.com/gworkbench/gworkbench/graph"
)

// compactIDs renumbers the vertices of an edge list without a vertex count whose ids skip
// numbers (SNAP files often do: wiki-Vote's ids run to 8297 for 7,115 nodes), so that the
// graph has the file's vertices and no phantom isolated ones:
//
//  1. mark the ids that appear, in a bitmap, on all cores;
//  2. count them: ids contiguous from the smallest need only a shift (IDs.Base);
//  3. otherwise rank each id among the marked ones (a popcount prefix per 64-bit word, 1/8
//     byte per id, no per-id table) and list the ids that appear as IDs.Labels;
//  4. rewrite every block's ids in place, on all cores (a rank is never larger than its id,
//     so packed blocks keep their width).
//
// The order of the ids is kept. It returns the vertex count and the map back to the file's ids.
func compactIDs(blocks []*edgeBlock, minID, maxID uint32) (int64, graph.IDs) {
	w := workers()
	// 1. Mark.
	words := make([]uint64, int(maxID>>6)+1)
	mark := func(x uint32) {
		p, m := &words[x>>6], uint64(1)<<(x&63)
		if atomic.LoadUint64(p)&m == 0 {
			atomic.OrUint64(p, m)
		}
	}
	parallelFor(len(blocks), w, func(i int) {
		blocks[i].each(func(t *edgeBlock) {
			for _, x := range t.src {
				mark(x)
			}
			for _, r := range t.runs {
				mark(r.v)
			}
			for _, x := range t.dst {
				mark(x)
			}
		})
	})
	// 2. Count.
	rank := make([]uint32, len(words)) // ids marked in the words before
	var k uint32
	for i, x := range words {
		rank[i] = k
		k += uint32(bits.OnesCount64(x))
	}
	if k == maxID+1 {
		return int64(k), graph.IDs{}
	}
	if k == maxID-minID+1 {
		rk := ranker{shift: minID}
		parallelFor(len(blocks), w, func(i int) { blocks[i].remap(&rk) })
		return int64(k), graph.IDs{Base: minID}
	}
	// 3. Rank and list.
	labels := make([]uint32, 0, k)
	for i, x := range words {
		for x != 0 {
			labels = append(labels, uint32(i)<<6|uint32(bits.TrailingZeros64(x)))
			x &= x - 1
		}
	}
	// 4. Rewrite.
	rk := ranker{words: words, rank: rank}
	parallelFor(len(blocks), w, func(i int) { blocks[i].remap(&rk) })
	return int64(k), graph.IDs{Labels: labels}
}

// ranker maps an id to its new one: its rank among the marked ids, or, without a bitmap, the
// id less shift.
type ranker struct {
	words []uint64 // the marked ids
	rank  []uint32 // ids marked in the words before each word
	shift uint32
}

func (r *ranker) at(x uint32) uint32 {
	if r.words == nil {
		return x - r.shift
	}
	return r.rank[x>>6] + uint32(bits.OnesCount64(r.words[x>>6]&(uint64(1)<<(x&63)-1)))
}

// remap replaces every vertex id x of the block by f.at(x), in place; f.at(x) <= x.
func (b *edgeBlock) remap(f *ranker) {
	for i, x := range b.src {
		b.src[i] = f.at(x)
	}
	for i, r := range b.runs {
		b.runs[i].v = f.at(r.v)
	}
	if b.packed == nil {
		for i, x := range b.dst {
			b.dst[i] = f.at(x)
		}
		return
	}
	k := b.pbits
	mask := uint64(1)<<k - 1
	width := 2 * k
	emask := uint64(1)<<width - 1
	for i := 0; i < b.m; i++ {
		p := uint(i) * width
		word, off := p>>6, p&63
		x := b.packed[word] >> off
		if off+width > 64 {
			x |= b.packed[word+1] << (64 - off)
		}
		y := uint64(f.at(uint32(x&mask))) | uint64(f.at(uint32((x>>k)&mask)))<<k
		b.packed[word] = b.packed[word]&^(emask<<off) | y<<off
		if off+width > 64 {
			b.packed[word+1] = b.packed[word+1]&^(emask>>(64-off)) | y>>(64-off)
		}
	}
}
