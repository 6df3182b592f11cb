package graph

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"sync"
	"testing"
)

// build makes a CSR from arcs (sorted per vertex, as the loader leaves them).
func build(n int, arcs [][3]int, directed bool) *CSR {
	slices.SortFunc(arcs, func(a, b [3]int) int {
		if a[0] != b[0] {
			return a[0] - b[0]
		}
		return a[1] - b[1]
	})
	g := &CSR{Offsets: make([]int64, n+1), Directed: directed}
	weighted := false
	for _, a := range arcs {
		weighted = weighted || a[2] != 0
	}
	for _, a := range arcs {
		g.Offsets[a[0]+1]++
		g.Neighbors = append(g.Neighbors, uint32(a[1]))
		if weighted {
			g.Weights = append(g.Weights, int32(a[2]))
		}
	}
	for v := 0; v < n; v++ {
		g.Offsets[v+1] += g.Offsets[v]
	}
	return g
}

// undirected makes both arcs of every edge.
func undirected(n int, edges [][2]int) *CSR {
	var arcs [][3]int
	for _, e := range edges {
		arcs = append(arcs, [3]int{e[0], e[1], 0}, [3]int{e[1], e[0], 0})
	}
	return build(n, arcs, false)
}

func randomDirected(n, m int, seed uint64, weighted bool) *CSR {
	r := rand.New(rand.NewPCG(seed, 1))
	seen := map[[2]int]bool{}
	var arcs [][3]int
	for len(arcs) < m {
		u, v := r.IntN(n), r.IntN(n)
		if u == v || seen[[2]int{u, v}] {
			continue
		}
		seen[[2]int{u, v}] = true
		w := 0
		if weighted {
			w = 1 + r.IntN(100)
		}
		arcs = append(arcs, [3]int{u, v, w})
	}
	return build(n, arcs, true)
}

// naiveTranspose is the obviously correct transpose.
func naiveTranspose(g *CSR) *CSR {
	var arcs [][3]int
	for v := 0; v < g.NumVertices(); v++ {
		for i, u := range g.Neigh(uint32(v)) {
			w := 0
			if g.Weights != nil {
				w = int(g.NeighWeights(uint32(v))[i])
			}
			arcs = append(arcs, [3]int{int(u), v, w})
		}
	}
	t := build(g.NumVertices(), arcs, true)
	if g.Weights != nil && t.Weights == nil {
		t.Weights = []int32{}
	}
	return t
}

func TestTranspose(t *testing.T) {
	defer func(b int) { binMin = b }(binMin)
	for _, b := range []int{1 << 16, 1 << 10} { // direct and binned scatter
		binMin = b
		testTranspose(t)
	}
}

func testTranspose(t *testing.T) {
	cases := []struct {
		name string
		g    *CSR
	}{
		{"small", build(4, [][3]int{{0, 1, 0}, {0, 2, 0}, {2, 1, 0}, {3, 0, 0}}, true)},
		{"weighted", build(3, [][3]int{{0, 1, 5}, {1, 2, 6}, {2, 0, 7}, {0, 2, 8}}, true)},
		{"no arcs", build(5, nil, true)},
		{"random serial", randomDirected(1000, 5000, 1, true)},
		{"random parallel", randomDirected(20000, 150000, 2, true)},
		{"random parallel unweighted", randomDirected(30000, 100000, 3, false)},
	}
	for _, c := range cases {
		got := c.g.Transpose()
		want := naiveTranspose(c.g)
		if !reflect.DeepEqual(got.Offsets, want.Offsets) || !slices.Equal(got.Neighbors, want.Neighbors) || !slices.Equal(got.Weights, want.Weights) {
			t.Errorf("%s: transpose differs from the naive one", c.name)
		}
		if !got.Directed || got.Transpose() != c.g {
			t.Errorf("%s: the transpose's transpose is not the graph", c.name)
		}
	}
}

func TestTransposeUndirectedIsItself(t *testing.T) {
	g := undirected(3, [][2]int{{0, 1}, {1, 2}})
	if g.Transpose() != g {
		t.Fatal("an undirected graph's transpose is not itself")
	}
}

func TestTransposeConcurrent(t *testing.T) {
	g := randomDirected(30000, 100000, 4, false)
	var wg sync.WaitGroup
	got := make([]*CSR, 8)
	for i := range got {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			got[i] = g.Transpose()
		}(i)
	}
	wg.Wait()
	for _, tr := range got {
		if tr != got[0] {
			t.Fatal("concurrent callers got different transposes")
		}
	}
}

func path(n int) *CSR {
	var e [][2]int
	for i := 0; i+1 < n; i++ {
		e = append(e, [2]int{i, i + 1})
	}
	return undirected(n, e)
}

func grid(r, c int) *CSR {
	var e [][2]int
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if j+1 < c {
				e = append(e, [2]int{i*c + j, i*c + j + 1})
			}
			if i+1 < r {
				e = append(e, [2]int{i*c + j, (i+1)*c + j})
			}
		}
	}
	return undirected(r*c, e)
}

func TestProperties(t *testing.T) {
	star := undirected(6, [][2]int{{0, 1}, {0, 2}, {0, 3}, {0, 4}})
	dir := build(5, [][3]int{{0, 1, 0}, {1, 2, 0}, {2, 2, 0}}, true)
	cases := []struct {
		name string
		g    *CSR
		want Properties
	}{
		{"path 5", path(5), Properties{Vertices: 5, Arcs: 8, Edges: 4, MinDegree: 1, MaxDegree: 2, MaxDegreeVertex: 1, AvgDegree: 1.6,
			DegreeHistogram: []int64{0, 2, 3}, Diameter: 4, Bytes: 6*8 + 8*4}},
		{"star with an isolated vertex", star, Properties{Vertices: 6, Arcs: 8, Edges: 4, MinDegree: 0, MaxDegree: 4, MaxDegreeVertex: 0, AvgDegree: 8.0 / 6,
			DegreeHistogram: []int64{1, 4, 0, 1}, Isolated: 1, Diameter: 2, Bytes: 7*8 + 8*4}},
		{"directed with a self-loop", dir, Properties{Vertices: 5, Arcs: 3, Edges: 3, MinDegree: 0, MaxDegree: 1, MaxDegreeVertex: 0, AvgDegree: 0.6,
			DegreeHistogram: []int64{2, 3}, Isolated: 2, SelfLoops: 1, Diameter: 2, Bytes: 6*8 + 3*4}},
		{"empty", &CSR{Offsets: []int64{0}}, Properties{Diameter: -1, Bytes: 8}},
	}
	for _, c := range cases {
		got := c.g.Properties()
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\ngot  %+v\nwant %+v", c.name, got, c.want)
		}
	}
}

// TestDiameter checks the estimate on graphs whose diameter is known, small (serial BFS) and
// large (parallel BFS).
func TestDiameter(t *testing.T) {
	cases := []struct {
		g    *CSR
		want int
	}{
		{path(100), 99},
		{path(70000), 69999},
		{grid(10, 20), 28},
		{grid(200, 300), 498},
	}
	for _, c := range cases {
		if got := c.g.Properties().Diameter; got != c.want {
			t.Errorf("V=%d: diameter %d, want %d", c.g.NumVertices(), got, c.want)
		}
	}
}

// TestPropertiesParallelMatchesSerial computes the properties of one graph both ways.
func TestPropertiesParallelMatchesSerial(t *testing.T) {
	g := randomDirected(parallelMin*2, parallelMin*6, 5, false)
	par := computeProperties(g)
	if par.Isolated == 0 {
		t.Fatal("test graph has no isolated vertex")
	}
	// Serial reference.
	n := g.NumVertices()
	in := make([]bool, n)
	var iso int64
	hist := make([]int64, 40)
	for v := 0; v < n; v++ {
		for _, u := range g.Neigh(uint32(v)) {
			in[u] = true
		}
	}
	for v := 0; v < n; v++ {
		d := g.Degree(uint32(v))
		if d == 0 && !in[v] {
			iso++
		}
		k := 0
		for x := d; x > 0; x >>= 1 {
			k++
		}
		hist[k]++
	}
	if par.Isolated != iso {
		t.Errorf("isolated %d, want %d", par.Isolated, iso)
	}
	for k, c := range par.DegreeHistogram {
		if hist[k] != c {
			t.Errorf("histogram[%d] = %d, want %d", k, c, hist[k])
		}
	}
	depth := make([]int32, n)
	_, e1 := bfsSerial(g, 0, depth)
	_, e2 := bfsParallel(g, 0, depth, 4)
	if e1 != e2 {
		t.Errorf("serial BFS eccentricity %d, parallel %d", e1, e2)
	}
}

func TestFingerprint(t *testing.T) {
	a, b := path(10), path(10)
	if a.Fingerprint() != b.Fingerprint() {
		t.Error("equal graphs, different fingerprints")
	}
	c := path(11)
	d := build(10, nil, true)
	for _, x := range []*CSR{c, d} {
		if x.Fingerprint() == a.Fingerprint() {
			t.Errorf("different graphs share fingerprint %s", a.Fingerprint())
		}
	}
	if len(a.Fingerprint()) != 16 {
		t.Errorf("fingerprint %q", a.Fingerprint())
	}
}

func ExampleCSR_Properties() {
	// A 3x4 grid: 12 vertices, 17 edges.
	g := grid(3, 4)
	p := g.Properties()
	fmt.Println(p.Vertices, p.Edges, p.MinDegree, p.MaxDegree, p.Diameter, p.DegreeHistogram)
	// Output: 12 17 2 4 5 [0 0 10 2]
}
