//go:build cuda

package gpu

import (
	"context"
	"slices"
	"testing"

	"github.com/gworkbench/gworkbench/loader"
)

// TestBuildDPB checks method=dpb's layout on the host (no GPU needed), decoding it as the
// kernels do: every bin lists its arcs in source order, each slot's pair found from its group's
// first pair and the pair starts before it in the group (pr_dpb_sum), and each pair's source
// from its piece's chunk and its 16-bit offset (pr_dpb_bin); pads only end a bin; one worker and
// seven build the same layout; and too many pieces are refused.
func TestBuildDPB(t *testing.T) {
	for _, directed := range []bool{false, true} {
		g, err := loader.Generate(context.Background(), "kron", map[string]string{"scale": "17", "degree": "4", "directed": boolStr(directed)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		n := g.NumVertices()
		for _, c := range []struct{ size, chunk int }{{1, dpbChunk}, {7, 1000}, {4096, 1000}, {dpbPad - 1, dpbChunk}} {
			h, err := buildDPB(g, c.size, c.chunk, 7, nil)
			if err != nil {
				t.Fatal(err)
			}
			bins, chunks := (n+c.size-1)/c.size, (n+c.chunk-1)/c.chunk
			if h.bins != bins || h.chunks != chunks || len(h.binGroup) != bins+1 || len(h.pieces) != 2*bins*chunks ||
				int64(len(h.slots)) != h.binGroup[bins]*dpbGroup || len(h.gpair) != int(h.binGroup[bins]) || int64(len(h.psrc)) != h.pairs {
				t.Fatalf("%+v: %d bins, %d chunks, %d bin bounds, %d pieces, %d slots, %d groups, %d sources for %d pairs", c, h.bins, h.chunks, len(h.binGroup), len(h.pieces), len(h.slots), len(h.gpair), len(h.psrc), h.pairs)
			}
			// each pair's source, from its piece
			src := make([]int, h.pairs)
			for ch := 0; ch < chunks; ch++ {
				for b := 0; b < bins; b++ {
					i := ch*bins + b
					for p := h.pieces[2*i]; p < h.pieces[2*i]+h.pieces[2*i+1]; p++ {
						src[p] = ch*c.chunk + int(h.psrc[p])
					}
				}
			}
			want := make([][]uint64, bins)
			for u := 0; u < n; u++ {
				for _, v := range g.Neighbors[g.Offsets[u]:g.Offsets[u+1]] {
					b := int(v) / c.size
					want[b] = append(want[b], uint64(u)<<32|uint64(v))
				}
			}
			last := -1 // the last pair seen: pairs are numbered bin by bin
			for b := 0; b < bins; b++ {
				var got []uint64
				for gi := h.binGroup[b]; gi < h.binGroup[b+1]; gi++ {
					starts := 0
					for k := 0; k < dpbGroup; k++ {
						x := h.slots[gi*dpbGroup+int64(k)]
						if x == dpbPad {
							if gi+1 != h.binGroup[b+1] {
								t.Fatalf("%+v bin %d: an empty slot in group %d, not the bin's last", c, b, gi)
							}
							continue
						}
						if x&dpbFirst != 0 && k > 0 {
							starts++
						}
						p := int(h.gpair[gi]) + starts
						if x&dpbFirst != 0 {
							if p != last+1 {
								t.Fatalf("%+v bin %d: pair %d starts after pair %d", c, b, p, last)
							}
							last = p
						} else if p != last {
							t.Fatalf("%+v bin %d group %d slot %d: pair %d continues pair %d", c, b, gi, k, p, last)
						}
						d := int(x &^ dpbFirst)
						if d >= c.size || b*c.size+d >= n {
							t.Fatalf("%+v bin %d: destination offset %d", c, b, d)
						}
						got = append(got, uint64(src[p])<<32|uint64(b*c.size+d))
					}
				}
				if !slices.Equal(got, want[b]) {
					t.Fatalf("%+v bin %d: %d arcs, want %d (or they differ)", c, b, len(got), len(want[b]))
				}
			}
			if last+1 != int(h.pairs) {
				t.Fatalf("%+v: %d pairs decoded, want %d", c, last+1, h.pairs)
			}
			h1, err := buildDPB(g, c.size, c.chunk, 1, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(h1.pieces, h.pieces) || !slices.Equal(h1.psrc, h.psrc) || !slices.Equal(h1.binGroup, h.binGroup) ||
				!slices.Equal(h1.gpair, h.gpair) || !slices.Equal(h1.slots, h.slots) {
				t.Fatalf("%+v: one worker builds a different layout", c)
			}
		}
		if _, err := buildDPB(g, 1, 1, 7, nil); err == nil {
			t.Errorf("bins and chunks of 1 vertex (%d x %d pieces): built, want refused", n, n)
		}
	}
}
