package graph

import (
	"encoding/binary"
	"slices"
	"testing"
)

// TestMaxDegreeVertex checks the cheap scans (and DegreeHistogram) against Properties (lowest id on ties) and that it
// does not compute the properties (whose diameter sweeps must stay out of engines' timed runs).
func TestMaxDegreeVertex(t *testing.T) {
	star := undirected(6, [][2]int{{0, 1}, {0, 2}, {0, 3}, {0, 4}})
	ties := undirected(6, [][2]int{{1, 2}, {3, 4}, {3, 5}, {1, 5}}) // vertices 1, 3 and 5 have degree 2
	late := build(4, [][3]int{{3, 0, 0}, {3, 1, 0}, {2, 1, 0}}, true)
	cases := []struct {
		name string
		g    func() *CSR
		want uint32
	}{
		{"path 5", func() *CSR { return path(5) }, 1},
		{"star", func() *CSR { return star }, 0},
		{"ties", func() *CSR { return ties }, 1},
		{"last vertex", func() *CSR { return late }, 3},
		{"big grid (parallel properties)", func() *CSR { return grid(200, 300) }, 301},
		{"empty", func() *CSR { return &CSR{Offsets: []int64{0}} }, 0},
		{"no arcs", func() *CSR { return &CSR{Offsets: []int64{0, 0, 0}} }, 0},
	}
	for _, c := range cases {
		g := c.g()
		if got := g.MaxDegreeVertex(); got != c.want {
			t.Errorf("%s: MaxDegreeVertex %d, want %d", c.name, got, c.want)
		}
		h := g.DegreeHistogram()
		if g.HasProperties() {
			t.Errorf("%s: MaxDegreeVertex or DegreeHistogram computed the properties", c.name)
		}
		if p := g.Properties(); !slices.Equal(h, p.DegreeHistogram) {
			t.Errorf("%s: DegreeHistogram %v, Properties().DegreeHistogram %v", c.name, h, p.DegreeHistogram)
		}
		if p := g.Properties(); p.MaxDegreeVertex != g.MaxDegreeVertex() {
			t.Errorf("%s: Properties().MaxDegreeVertex %d, MaxDegreeVertex %d", c.name, p.MaxDegreeVertex, g.MaxDegreeVertex())
		}
		if !g.HasProperties() {
			t.Errorf("%s: HasProperties false after Properties", c.name)
		}
	}
}

// TestByteViews checks the exported byte views that the fingerprint and the .gwg writer share.
func TestByteViews(t *testing.T) {
	if Int64Bytes(nil) != nil || Uint32Bytes(nil) != nil || Int32Bytes(nil) != nil {
		t.Fatal("empty slices should view as nil")
	}
	b := Int64Bytes([]int64{1, -2})
	if len(b) != 16 || int64(binary.NativeEndian.Uint64(b[8:])) != -2 {
		t.Errorf("Int64Bytes: % x", b)
	}
	b = Uint32Bytes([]uint32{7, 1 << 31})
	if len(b) != 8 || binary.NativeEndian.Uint32(b[4:]) != 1<<31 {
		t.Errorf("Uint32Bytes: % x", b)
	}
	b = Int32Bytes([]int32{-5})
	if len(b) != 4 || int32(binary.NativeEndian.Uint32(b)) != -5 {
		t.Errorf("Int32Bytes: % x", b)
	}
}

// TestArcVertices: the vertices with an out-arc, in id order, with and without isolated ones.
func TestArcVertices(t *testing.T) {
	star := undirected(6, [][2]int{{0, 1}, {0, 2}, {0, 3}, {0, 4}}) // vertex 5 is isolated
	late := build(4, [][3]int{{3, 0, 0}, {3, 1, 0}, {2, 1, 0}}, true)
	for _, c := range []struct {
		name string
		g    *CSR
		want []uint32
	}{
		{"path 5", path(5), []uint32{0, 1, 2, 3, 4}},
		{"star", star, []uint32{0, 1, 2, 3, 4}},
		{"directed", late, []uint32{2, 3}},
		{"no arcs", &CSR{Offsets: []int64{0, 0, 0}}, []uint32{}},
	} {
		n, at := c.g.ArcVertices()
		got := make([]uint32, n)
		for i := range got {
			got[i] = at(i)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
		if c.g.HasProperties() {
			t.Errorf("%s: ArcVertices computed the properties", c.name)
		}
	}
}
