//go:build cuda

package gpu

import (
	"context"
	"slices"
	"testing"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/loader"
)

// TestBuildBlocked checks the EdgeBlocking layout on the host (no GPU needed): every in-edge
// of every vertex appears once, in the segment of its source, inside the entry of its vertex;
// entries of a segment ascend by vertex; and the segment bounds add up. One worker and many
// give the same layout.
func TestBuildBlocked(t *testing.T) {
	for _, directed := range []bool{false, true} {
		g, err := loader.Generate(context.Background(), "kron", map[string]string{"scale": "15", "degree": "8", "directed": boolStr(directed)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		in := g.Transpose()
		n := in.NumVertices()
		for _, size := range []int{1, 64, 1000, n, 2 * n} {
			rows, off, nbr, segStart, segEdges := buildBlocked(in, size, 7, nil)
			segs := (n + size - 1) / size
			if len(segStart) != segs+1 || len(segEdges) != segs+1 || int64(len(nbr)) != in.NumArcs() || segEdges[segs] != in.NumArcs() {
				t.Fatalf("size %d: %d/%d segment bounds for %d segments, %d edges of %d", size, len(segStart), len(segEdges), segs, len(nbr), in.NumArcs())
			}
			seen := make([]int64, n+1) // per vertex: edges found, in source order
			for s := 0; s < segs; s++ {
				if off[segStart[s]] != segEdges[s] {
					t.Fatalf("size %d segment %d: first entry starts at edge %d, want %d", size, s, off[segStart[s]], segEdges[s])
				}
				for i := segStart[s]; i < segStart[s+1]; i++ {
					v := int(rows[i])
					if i > segStart[s] && rows[i-1] >= rows[i] {
						t.Fatalf("size %d segment %d: entries not ascending at %d", size, s, i)
					}
					if off[i+1] <= off[i] {
						t.Fatalf("size %d: empty entry %d", size, i)
					}
					for e := off[i]; e < off[i+1]; e++ {
						u := int(nbr[e])
						if u/size != s {
							t.Fatalf("size %d: source %d in segment %d", size, u, s)
						}
						want := in.Neighbors[in.Offsets[v]+seen[v]]
						if nbr[e] != want {
							t.Fatalf("size %d: vertex %d edge %d: source %d, want %d", size, v, seen[v], u, want)
						}
						seen[v]++
					}
				}
			}
			for v := 0; v < n; v++ {
				if seen[v] != in.Offsets[v+1]-in.Offsets[v] {
					t.Fatalf("size %d: vertex %d: %d in-edges in the layout, %d in the graph", size, v, seen[v], in.Offsets[v+1]-in.Offsets[v])
				}
			}
			r1, o1, n1, _, _ := buildBlocked(in, size, 1, nil)
			if len(r1) != len(rows) || len(o1) != len(off) || len(n1) != len(nbr) {
				t.Fatalf("size %d: one worker built a different layout", size)
			}
			for i := range r1 {
				if r1[i] != rows[i] || o1[i] != off[i] {
					t.Fatalf("size %d: one worker built a different layout at entry %d", size, i)
				}
			}
		}
	}
}

func boolStr(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// TestBuildTiled checks the tiled layout (blocking=N lb=edge) on the host: every in-edge of
// every vertex appears once, in the tile of its destination's range and its source's segment,
// packed as the offsets in both; a tile's edges ascend by destination; and, cutting each tile
// as kernels/pr.cu tpull_sweep does (runs of a multiple of 4 edges from a 16-byte aligned
// start, one per thread), no destination strictly inside one thread's run is another run's,
// so the plain shared-memory adds of those destinations cannot race.
func TestBuildTiled(t *testing.T) {
	for _, directed := range []bool{false, true} {
		g, err := loader.Generate(context.Background(), "kron", map[string]string{"scale": "13", "degree": "8", "directed": boolStr(directed)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		in := g.Transpose()
		n := in.NumVertices()
		for _, c := range []struct{ size, rng int }{{1, 32}, {64, 32}, {1000, 256}, {n, tpRMax}, {2 * n, 4000}} {
			tileOff, edges := buildTiled(in, c.size, c.rng, 5, nil)
			segs, ranges := (n+c.size-1)/c.size, (n+c.rng-1)/c.rng
			if len(tileOff) != ranges*segs+1 || int64(len(edges)) != in.NumArcs() || tileOff[len(tileOff)-1] != in.NumArcs() {
				t.Fatalf("%+v: %d tile offsets for %d tiles, %d edges of %d", c, len(tileOff), ranges*segs, len(edges), in.NumArcs())
			}
			got := make([]int64, n) // in-edges found per vertex
			sum := make([]uint64, n)
			for rg := 0; rg < ranges; rg++ {
				for s := 0; s < segs; s++ {
					b, e := tileOff[rg*segs+s], tileOff[rg*segs+s+1]
					for i := b; i < e; i++ {
						d, u := int(edges[i]>>tpSrcBits), int(edges[i]&(1<<tpSrcBits-1))
						v, src := rg*c.rng+d, s*c.size+u
						if d >= c.rng || u >= c.size || v >= n || src >= n {
							t.Fatalf("%+v: tile (%d, %d) edge %d: destination offset %d, source offset %d", c, rg, s, i, d, u)
						}
						if i > b && edges[i-1]>>tpSrcBits > edges[i]>>tpSrcBits {
							t.Fatalf("%+v: tile (%d, %d) not sorted by destination at %d", c, rg, s, i)
						}
						got[v]++
						sum[v] += uint64(src)*2654435761 + 1
					}
					// the kernel's runs with 256 threads and with 32
					for _, T := range []int64{256, 32} {
						a := b &^ 3
						cw := ((e-a+T-1)/T + 3) &^ 3
						owner := map[uint32]int64{} // destination -> the one run that may add it plainly
						touched := map[uint32]int{} // destination -> runs that hold it
						for th := int64(0); th < T; th++ {
							lo := a + th*cw
							hi, from := min(lo+cw, e), max(lo, b)
							if from >= hi {
								continue
							}
							if lo%4 != 0 {
								t.Fatalf("%+v: run at %d is not 16-byte aligned", c, lo)
							}
							first, last := edges[from]>>tpSrcBits, edges[hi-1]>>tpSrcBits
							for i := from; i < hi; i++ {
								d := edges[i] >> tpSrcBits
								if i == from || edges[i-1]>>tpSrcBits != d {
									touched[d]++
									if d != first && d != last {
										owner[d] = th
									}
								}
							}
						}
						for d := range owner {
							if touched[d] != 1 {
								t.Fatalf("%+v tile (%d, %d), %d threads: destination %d is inside one run and in %d runs", c, rg, s, T, d, touched[d])
							}
						}
					}
				}
			}
			for v := 0; v < n; v++ {
				var want uint64
				for _, u := range in.Neighbors[in.Offsets[v]:in.Offsets[v+1]] {
					want += uint64(u)*2654435761 + 1
				}
				if got[v] != in.Offsets[v+1]-in.Offsets[v] || sum[v] != want {
					t.Fatalf("%+v: vertex %d: %d in-edges in the tiles, %d in the graph (or other sources)", c, v, got[v], in.Offsets[v+1]-in.Offsets[v])
				}
			}
		}
	}
}

// TestBuildBinned checks the binned push's layout on the host (no GPU needed): bin b lists
// exactly the arcs u->v with v in [b x size, (b+1) x size), in source order (and each source's
// arcs in their order in the graph); every group has a real first slot, its empty slots at its
// end, and sources within pbSpan of its first; one worker and many give the same layout. kron
// scale 17 has sources more than pbSpan apart inside a bin, so groups end early there.
func TestBuildBinned(t *testing.T) {
	for _, directed := range []bool{false, true} {
		g, err := loader.Generate(context.Background(), "kron", map[string]string{"scale": "17", "degree": "4", "directed": boolStr(directed)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		n := g.NumVertices()
		for _, size := range []int{1, 7, 4096, pbPad - 1} {
			binGroup, base, slots := buildBinned(g, size, 7, nil)
			bins := (n + size - 1) / size
			groups := int64(len(base))
			if len(binGroup) != bins+1 || binGroup[0] != 0 || binGroup[bins] != groups || int64(len(slots)) != groups*pbGroup {
				t.Fatalf("size %d: %d bin bounds for %d bins, %d groups (last bound %d), %d slots", size, len(binGroup), bins, groups, binGroup[bins], len(slots))
			}
			// the arcs each bin should list, in source order
			want := make([][]uint64, bins)
			for u := 0; u < n; u++ {
				for _, v := range g.Neighbors[g.Offsets[u]:g.Offsets[u+1]] {
					b := int(v) / size
					want[b] = append(want[b], uint64(u)<<32|uint64(v))
				}
			}
			short := 0
			for b := 0; b < bins; b++ {
				var got []uint64
				for gi := binGroup[b]; gi < binGroup[b+1]; gi++ {
					real := 0
					for k := 0; k < pbGroup; k++ {
						x := slots[gi*pbGroup+int64(k)]
						if x>>16 == pbPad {
							continue
						}
						if k != real {
							t.Fatalf("size %d bin %d group %d: slot %d follows an empty slot", size, b, gi, k)
						}
						real++
						d := int(x >> 16)
						if d >= size || b*size+d >= n {
							t.Fatalf("size %d bin %d: destination offset %d", size, b, d)
						}
						got = append(got, uint64(base[gi]+x&0xffff)<<32|uint64(b*size+d))
					}
					if real == 0 {
						t.Fatalf("size %d bin %d: group %d is empty", size, b, gi)
					}
					if real < pbGroup && gi+1 < binGroup[b+1] {
						short++
					}
				}
				if len(got) != len(want[b]) {
					t.Fatalf("size %d bin %d: %d arcs, want %d", size, b, len(got), len(want[b]))
				}
				for i := range got {
					if got[i] != want[b][i] {
						t.Fatalf("size %d bin %d arc %d: %d->%d, want %d->%d", size, b, i, got[i]>>32, uint32(got[i]), want[b][i]>>32, uint32(want[b][i]))
					}
				}
			}
			if size == 1 && short == 0 {
				t.Errorf("size 1: no group ended early on a span of %d sources; the test graph does not exercise it", pbSpan)
			}
			bg1, base1, slots1 := buildBinned(g, size, 1, nil)
			if !slices.Equal(bg1, binGroup) || !slices.Equal(base1, base) || !slices.Equal(slots1, slots) {
				t.Fatalf("size %d: one worker builds a different layout", size)
			}
		}
	}
}

// TestBuildersMeter checks that each layout builder tells its meter of every pass's arcs, so
// that a progress line reaches 100% exactly when the build ends.
func TestBuildersMeter(t *testing.T) {
	g, err := loader.Generate(context.Background(), "kron", map[string]string{"scale": "15", "degree": "8"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	in := g.Transpose()
	arcs := in.NumArcs()
	req := &engine.Request{Progress: func(engine.Progress) {}}
	for _, c := range []struct {
		name   string
		passes int64
		build  func(mt *meter)
	}{
		{"blocked", 2, func(mt *meter) { buildBlocked(in, 1000, 7, mt) }},
		{"tiled", 2, func(mt *meter) { buildTiled(in, 1000, 1000, 5, mt) }},
		{"binned", 4, func(mt *meter) { buildBinned(g, 1000, 7, mt) }},
		{"staged", 2, func(mt *meter) { buildDPB(g, 1000, 1000, 7, mt) }},
	} {
		mt := newMeter(req, c.name, c.passes*arcs)
		c.build(mt)
		if got := mt.done.Load(); got != c.passes*arcs {
			t.Errorf("%s: the meter counted %d arcs, want %d (%d passes over %d)", c.name, got, c.passes*arcs, c.passes, arcs)
		}
	}
}
