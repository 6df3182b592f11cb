package loader

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/gworkbench/gworkbench/graph"
)

func gen(t testing.TB, kind string, kv map[string]string) *graph.CSR {
	t.Helper()
	g, err := Generate(context.Background(), kind, kv, nil)
	if err != nil {
		t.Fatalf("%s %v: %v", kind, kv, err)
	}
	checkCSR(t, g)
	return g
}

// checkCSR checks the CSR invariants every loader output must hold: offsets monotone, lists
// sorted without duplicates or self-loops, ids in range, undirected graphs symmetric with
// equal weights both ways.
func checkCSR(t testing.TB, g *graph.CSR) {
	t.Helper()
	checkCSRDups(t, g, false)
}

// checkCSRDups is checkCSR that allows repeated neighbours when dups is set: what a load with
// Duplicates "keep" gives for a multigraph.
func checkCSRDups(t testing.TB, g *graph.CSR, dups bool) {
	t.Helper()
	n := g.NumVertices()
	if g.Offsets[0] != 0 || g.Offsets[n] != int64(len(g.Neighbors)) {
		t.Fatalf("offsets: first %d last %d, arcs %d", g.Offsets[0], g.Offsets[n], len(g.Neighbors))
	}
	if g.Weights != nil && len(g.Weights) != len(g.Neighbors) {
		t.Fatalf("weights: len %d, arcs %d", len(g.Weights), len(g.Neighbors))
	}
	for v := 0; v < n; v++ {
		if g.Offsets[v+1] < g.Offsets[v] {
			t.Fatalf("offsets decrease at %d", v)
		}
		l := g.Neigh(uint32(v))
		for i, u := range l {
			if int(u) >= n {
				t.Fatalf("vertex %d: neighbour %d out of range", v, u)
			}
			if u == uint32(v) {
				t.Fatalf("vertex %d: self-loop", v)
			}
			if i > 0 && (l[i-1] > u || (l[i-1] == u && !dups)) {
				t.Fatalf("vertex %d: list not strictly sorted at %d: %d, %d", v, i, l[i-1], u)
			}
		}
	}
	if g.Directed {
		return
	}
	for v := 0; v < n; v++ {
		l := g.Neigh(uint32(v))
		for i, u := range l {
			rl := g.Neigh(u)
			j := searchU32(rl, uint32(v))
			for k := i; k > 0 && l[k-1] == u; k-- { // the k-th of repeated arcs pairs with the k-th back
				j++
			}
			if j < 0 || j >= len(rl) || rl[j] != uint32(v) {
				t.Fatalf("undirected graph: arc %d->%d without %d->%d", v, u, u, v)
			}
			if g.Weights != nil && g.NeighWeights(u)[j] != g.NeighWeights(uint32(v))[i] {
				t.Fatalf("undirected graph: weight %d->%d is %d, back %d", v, u, g.NeighWeights(uint32(v))[i], g.NeighWeights(u)[j])
			}
		}
	}
}

func searchU32(l []uint32, x uint32) int {
	lo, hi := 0, len(l)
	for lo < hi {
		m := (lo + hi) / 2
		if l[m] < x {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(l) && l[lo] == x {
		return lo
	}
	return -1
}

func TestGenerators(t *testing.T) {
	cases := []struct {
		kind     string
		kv       map[string]string
		n        int
		minArcs  int64
		maxArcs  int64
		weighted bool
		directed bool
	}{
		{"kron", map[string]string{"scale": "10", "degree": "8", "seed": "1"}, 1024, 8000, 16384, false, false},
		{"kron", map[string]string{"scale": "10", "degree": "8", "seed": "1", "directed": "true"}, 1024, 6000, 8192, false, true},
		{"urand", map[string]string{"scale": "10", "degree": "8", "seed": "2"}, 1024, 15000, 16384, false, false},
		{"grid", map[string]string{"rows": "7", "cols": "5"}, 35, 2 * (7*4 + 6*5), 2 * (7*4 + 6*5), false, false},
		{"road", map[string]string{"vertices": "10000", "seed": "3"}, 10000, 2 * 12000, 2 * 16000, true, false},
		{"rgg", map[string]string{"scale": "12", "degree": "8", "seed": "4"}, 4096, 4096 * 6, 4096 * 9, false, false},
		{"kron", map[string]string{"scale": "8", "weights": "uniform:1:9"}, 256, 1000, 8192, true, false},
		{"road", map[string]string{"vertices": "500", "weights": "drop"}, 500, 500, 2000, false, false},
		{"road", map[string]string{"rows": "20", "cols": "30", "seed": "2"}, 600, 2 * 700, 2 * 1000, true, false},
	}
	for _, c := range cases {
		name := c.kind + " " + strings.TrimSpace(strings.Join(kvList(c.kv), " "))
		t.Run(name, func(t *testing.T) {
			g := gen(t, c.kind, c.kv)
			if g.NumVertices() != c.n {
				t.Errorf("vertices: got %d want %d", g.NumVertices(), c.n)
			}
			if a := g.NumArcs(); a < c.minArcs || a > c.maxArcs {
				t.Errorf("arcs: got %d want %d..%d", a, c.minArcs, c.maxArcs)
			}
			if g.Weighted() != c.weighted {
				t.Errorf("weighted: got %v want %v", g.Weighted(), c.weighted)
			}
			if g.Directed != c.directed {
				t.Errorf("directed: got %v want %v", g.Directed, c.directed)
			}
			if g.Origin.Format != "gen" || !strings.HasPrefix(g.Origin.Generator, c.kind+" ") {
				t.Errorf("origin: %+v", g.Origin)
			}
			g2 := gen(t, c.kind, c.kv)
			if g.Fingerprint() != g2.Fingerprint() {
				t.Errorf("not deterministic: %s vs %s", g.Fingerprint(), g2.Fingerprint())
			}
			t.Logf("%s: V=%d arcs=%d dups=%d diameter~%d", g.Origin.Generator, g.NumVertices(), g.NumArcs(), g.Origin.DuplicatesRemoved, g.Properties().Diameter)
		})
	}
}

func kvList(kv map[string]string) []string {
	var out []string
	for _, k := range []string{"scale", "degree", "seed", "rows", "cols", "vertices", "directed", "weights"} {
		if v, ok := kv[k]; ok {
			out = append(out, k+"="+v)
		}
	}
	return out
}

func TestGenerateSeeds(t *testing.T) {
	for _, kind := range []string{"kron", "urand", "road", "rgg"} {
		kv := map[string]string{"scale": "9", "seed": "1"}
		if kind == "road" {
			kv = map[string]string{"vertices": "2000", "seed": "1"}
		}
		a := gen(t, kind, kv)
		kv["seed"] = "2"
		b := gen(t, kind, kv)
		if a.Fingerprint() == b.Fingerprint() {
			t.Errorf("%s: seeds 1 and 2 give the same graph", kind)
		}
	}
}

func TestGenerateErrors(t *testing.T) {
	cases := []struct {
		kind string
		kv   map[string]string
		want string
	}{
		{"kronn", nil, `unknown generator "kronn" (did you mean "kron"?)`},
		{"kron", map[string]string{"scal": "3"}, `unknown parameter "scal" (did you mean "scale"?)`},
		{"kron", map[string]string{"scale": "x"}, `scale="x": expected an integer`},
		{"kron", map[string]string{"scale": "40"}, `scale=40: expected 1..31`},
		{"grid", map[string]string{"rows": "0"}, `rows=0: expected 1..`},
		{"urand", map[string]string{"weights": "uniform:5:1"}, `expected 0 <= LO <= HI`},
		{"urand", map[string]string{"directed": "maybe"}, `directed="maybe": expected true or false`},
		{"road", map[string]string{"vertices": "100", "scale": "3"}, `unknown parameter "scale"`},
		{"road", map[string]string{"vertices": "100", "rows": "3"}, "give vertices= or rows= cols=, not both"},
	}
	for _, c := range cases {
		_, err := Generate(context.Background(), c.kind, c.kv, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %v: got error %v, want %q", c.kind, c.kv, err, c.want)
		}
	}
}

func TestGenerateTooBig(t *testing.T) {
	defer func(f func() int64) { availableMemory = f }(availableMemory)
	availableMemory = func() int64 { return 1 << 20 }
	_, err := Generate(context.Background(), "kron", map[string]string{"scale": "16"}, nil)
	if err == nil || !strings.Contains(err.Error(), "needs about") || !strings.Contains(err.Error(), "1.0 MB is available") {
		t.Fatalf("got %v, want a refusal with both numbers", err)
	}
}

func TestDemo(t *testing.T) {
	g, err := Demo()
	if err != nil {
		t.Fatal(err)
	}
	checkCSR(t, g)
	if g.NumVertices() != 4039 || g.NumEdges() != 88234 || g.Directed {
		t.Errorf("demo: V=%d E=%d directed=%v, want 4039 88234 false", g.NumVertices(), g.NumEdges(), g.Directed)
	}
	if g.Origin.Name != "facebook" {
		t.Errorf("demo name %q", g.Origin.Name)
	}
	// SNAP lists ego-Facebook's diameter as 8; vertex 107 is the largest hub.
	p := g.Properties()
	want := []int64{0, 75, 191, 388, 741, 907, 835, 597, 298, 3, 3, 1}
	if p.Diameter != 8 || p.MaxDegree != 1045 || p.MaxDegreeVertex != 107 || p.MinDegree != 1 || p.Isolated != 0 || !slices.Equal(p.DegreeHistogram, want) {
		t.Errorf("demo properties %+v", p)
	}
}
