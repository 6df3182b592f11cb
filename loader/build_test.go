package loader

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestRadixSort(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var scratch []uint64
	for _, n := range []int{1, 2, 511, 512, 1000, 70000} {
		for _, bitsN := range []int{1, 8, 9, 17, 32} {
			list := make([]uint32, n)
			for i := range list {
				list[i] = uint32(r.Uint64() & (1<<bitsN - 1))
			}
			want := slices.Clone(list)
			slices.Sort(want)
			scratch = radixSort(list, scratch, bitsN)
			if !slices.Equal(list, want) {
				t.Fatalf("n=%d bits=%d: not sorted", n, bitsN)
			}
		}
	}
}

// naiveBuild is the obviously correct builder: collect arcs, sort by (u, v, w), drop what
// the options drop.
func naiveBuild(n int, edges []Edge, sym, keepLoops, keepDups, weighted bool) (off []int64, nb []uint32, wt []int32) {
	var arcs []Edge
	for _, e := range edges {
		if e.U == e.V && !keepLoops {
			continue
		}
		arcs = append(arcs, e)
		if sym && e.U != e.V {
			arcs = append(arcs, Edge{e.V, e.U, e.W})
		}
	}
	slices.SortFunc(arcs, func(a, b Edge) int {
		if a.U != b.U {
			return int(a.U) - int(b.U)
		}
		if a.V != b.V {
			return int(a.V) - int(b.V)
		}
		return int(a.W) - int(b.W)
	})
	if !keepDups {
		arcs = slices.CompactFunc(arcs, func(a, b Edge) bool { return a.U == b.U && a.V == b.V })
	}
	off = make([]int64, n+1)
	for _, a := range arcs {
		off[a.U+1]++
		nb = append(nb, a.V)
		if weighted {
			wt = append(wt, a.W)
		}
	}
	for v := 0; v < n; v++ {
		off[v+1] += off[v]
	}
	return off, nb, wt
}

// TestBuildMatchesNaive checks the parallel builder (direct and binned scatter, per-edge and
// run-length sources, radix and comparison sorts) against naiveBuild for every option.
func TestBuildMatchesNaive(t *testing.T) {
	defer func(b uint32, o int) { binMinVertices, ownerMax = b, o }(binMinVertices, ownerMax)
	binMinVertices = 1024
	for _, om := range []int{8, 0} { // owned ranges, then shared arrays with atomics
		ownerMax = om
		buildMatchesNaive(t)
	}
}

func buildMatchesNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{50, 20000} {
		m := 4 * n
		edges := make([]Edge, m)
		for i := range edges {
			u := uint32(r.IntN(n))
			if i > 0 && r.IntN(3) > 0 && (i/7919)%2 == 0 {
				u = edges[i-1].U // runs of equal sources (every other block)
			}
			v := uint32(r.IntN(n))
			if r.IntN(50) == 0 {
				v = u // self-loops
			}
			if r.IntN(8) == 0 {
				v = uint32(r.IntN(min(n, 8))) // hubs, so some lists are radix sorted
			}
			if r.IntN(8) == 0 {
				u = uint32(r.IntN(min(n, 8)))
			}
			edges[i] = Edge{u, v, int32(r.IntN(5))}
		}
		edges = append(edges, edges[:m/20]...) // duplicates
		for _, sym := range []bool{false, true} {
			for _, weighted := range []bool{false, true} {
				for _, keep := range [][2]bool{{false, false}, {true, false}, {false, true}, {true, true}} {
					var blocks []*edgeBlock
					for lo := 0; lo < len(edges); lo += 7919 {
						s := &scratch{}
						for _, e := range edges[lo:min(lo+7919, len(edges))] {
							s.src = append(s.src, e.U)
							s.dst = append(s.dst, e.V)
							s.w = append(s.w, e.W)
						}
						blocks = append(blocks, s.block(weighted))
					}
					g, _, err := buildCSR(t.Context(), blocks, buildSpec{n: n, symmetrize: sym, keepLoops: keep[0], keepDups: keep[1], weighted: weighted})
					if err != nil {
						t.Fatal(err)
					}
					off, nb, wt := naiveBuild(n, edges, sym, keep[0], keep[1], weighted)
					if !slices.Equal(g.Offsets, off) || !slices.Equal(g.Neighbors, nb) || !slices.Equal(g.Weights, wt) {
						t.Errorf("ownerMax=%d n=%d sym=%v weighted=%v keepLoops=%v keepDups=%v: differs from the naive build", ownerMax, n, sym, weighted, keep[0], keep[1])
					}
				}
			}
		}
	}
}

// TestBlockForms checks that every block form gives back the edges it was made of.
func TestBlockForms(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, c := range []struct {
		maxID uint32
		runs  bool
		form  string
	}{
		{3, false, "packed"}, {1<<13 - 1, false, "packed"}, {1<<24 - 1, false, "packed"},
		{1 << 24, false, "plain"}, {1<<32 - 2, false, "plain"}, {1 << 30, true, "runs"},
	} {
		for _, m := range []int{0, 1, 1023, 1024, 3001} {
			s := &scratch{}
			for i := 0; i < m; i++ {
				u := uint32(r.Uint64() % (uint64(c.maxID) + 1))
				if c.runs && i > 0 {
					u = s.src[i-1]
				}
				if i == 0 {
					u = c.maxID
				}
				s.src = append(s.src, u)
				s.dst = append(s.dst, uint32(r.Uint64()%(uint64(c.maxID)+1)))
				s.w = append(s.w, int32(i))
			}
			src, dst := slices.Clone(s.src), slices.Clone(s.dst)
			b := s.block(true)
			form := "plain"
			if b.packed != nil {
				form = "packed"
			} else if b.runs != nil {
				form = "runs"
			}
			if m > 1 && form != c.form {
				t.Errorf("maxID %d runs %v m %d: form %s, want %s", c.maxID, c.runs, m, form, c.form)
			}
			var gs, gd []uint32
			var gw []int32
			var visit func(t *edgeBlock)
			visit = func(t *edgeBlock) {
				if t.packed != nil {
					t.batches(visit)
					return
				}
				i := 0
				for j, v := range t.dst {
					u := uint32(0)
					if t.src != nil {
						u = t.src[j]
					}
					gd = append(gd, v)
					gw = append(gw, t.w[j])
					if t.src != nil {
						gs = append(gs, u)
					}
					i++
				}
				for _, run := range t.runs {
					for k := uint32(0); k < run.n; k++ {
						gs = append(gs, run.v)
					}
				}
			}
			visit(b)
			if b.len() != m || !slices.Equal(gs, src) || !slices.Equal(gd, dst) || len(gw) != m {
				t.Errorf("maxID %d runs %v m %d: edges differ after the round trip", c.maxID, c.runs, m)
			}
		}
	}
}

func TestFromEdges(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	n := 3000
	edges := make([]Edge, 20000)
	for i := range edges {
		edges[i] = Edge{uint32(r.IntN(n)), uint32(r.IntN(n)), int32(r.IntN(9))}
	}
	edges = append(edges, edges[:500]...)
	for _, directed := range []bool{true, false} {
		for _, weighted := range []bool{true, false} {
			g, err := FromEdges(n, edges, directed, weighted)
			if err != nil {
				t.Fatal(err)
			}
			off, nb, wt := naiveBuild(n, edges, !directed, false, false, weighted)
			if g.Directed != directed || !slices.Equal(g.Offsets, off) || !slices.Equal(g.Neighbors, nb) || !slices.Equal(g.Weights, wt) {
				t.Errorf("directed=%v weighted=%v: differs from the naive build", directed, weighted)
			}
		}
	}
	if _, err := FromEdges(3, []Edge{{0, 3, 0}}, true, false); err == nil {
		t.Error("out-of-range id accepted")
	}
	g, err := FromEdges(4, nil, false, false)
	if err != nil || g.NumVertices() != 4 || g.NumArcs() != 0 {
		t.Errorf("empty edge list: %v %v", g, err)
	}
}
