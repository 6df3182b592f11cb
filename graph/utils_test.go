package graph

import (
	"reflect"
	"testing"
)

// naiveUndirected is the obviously correct underlying simple graph: a set of edges.
func naiveUndirected(g *CSR) ([]int64, []uint32) {
	n := g.NumVertices()
	adj := make([]map[uint32]bool, n)
	for v := range adj {
		adj[v] = map[uint32]bool{}
	}
	for v := 0; v < n; v++ {
		for _, u := range g.Neigh(uint32(v)) {
			if int(u) != v {
				adj[v][u], adj[u][uint32(v)] = true, true
			}
		}
	}
	off := make([]int64, n+1)
	var nb []uint32
	for v := 0; v < n; v++ {
		for u := uint32(0); int(u) < n; u++ {
			if adj[v][u] {
				nb = append(nb, u)
			}
		}
		off[v+1] = int64(len(nb))
	}
	return off, nb
}

func TestUndirected(t *testing.T) {
	simple := undirected(4, [][2]int{{0, 1}, {1, 2}, {2, 3}})
	loops := build(3, [][3]int{{0, 0, 0}, {0, 1, 0}, {1, 0, 0}, {1, 2, 0}, {1, 2, 0}, {2, 1, 0}, {2, 1, 0}}, false)
	cases := []struct {
		name string
		g    *CSR
		self bool // Undirected is g itself
	}{
		{"simple undirected", simple, true},
		{"loops and repeats", loops, false},
		{"directed", randomDirected(300, 2000, 7, false), false},
		{"directed, both ways", build(3, [][3]int{{0, 1, 0}, {1, 0, 0}, {2, 2, 0}, {2, 0, 0}}, true), false},
	}
	for _, c := range cases {
		u := c.g.Undirected()
		if (u == c.g) != c.self {
			t.Errorf("%s: Undirected is the graph itself: got %v want %v", c.name, u == c.g, c.self)
		}
		off, nb := naiveUndirected(c.g)
		if !reflect.DeepEqual(u.Offsets, off) || len(nb) > 0 && !reflect.DeepEqual(u.Neighbors, nb) || len(nb) == 0 && len(u.Neighbors) != 0 {
			t.Errorf("%s: got offsets %v lists %v, want %v %v", c.name, u.Offsets, u.Neighbors, off, nb)
		}
		if u.Directed || u.Undirected() != u || c.g.Undirected() != u {
			t.Errorf("%s: the view is directed (%v) or not cached", c.name, u.Directed)
		}
	}
}

func TestUnionFind(t *testing.T) {
	u := NewUnionFind(6)
	for _, e := range [][2]uint32{{4, 5}, {5, 2}, {1, 3}} {
		if !u.Union(e[0], e[1]) {
			t.Errorf("Union(%d, %d): got false (already joined), want true", e[0], e[1])
		}
	}
	if u.Union(2, 4) {
		t.Errorf("Union(2, 4) of one set: got true, want false")
	}
	got := []uint32{u.Find(0), u.Find(1), u.Find(2), u.Find(3), u.Find(4), u.Find(5)}
	if want := []uint32{0, 1, 2, 1, 2, 2}; !reflect.DeepEqual(got, want) {
		t.Errorf("roots: got %v want %v (each set's smallest vertex)", got, want)
	}
}

func TestSplitMix64(t *testing.T) {
	// The reference values of SplitMix64 seeded with 0 (Vigna's splitmix64.c).
	var s SplitMix64
	want := []uint64{0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f}
	for i, w := range want {
		if got := s.Next(); got != w {
			t.Errorf("value %d: got %#x want %#x", i, got, w)
		}
	}
}

func TestSplitByArcs(t *testing.T) {
	off := []int64{0, 10, 10, 10, 12, 20, 40}
	for parts, want := range map[int][]int{1: {0, 6}, 2: {0, 5, 6}, 4: {0, 1, 5, 6}} {
		if got := SplitByArcs(off, parts); !reflect.DeepEqual(got, want) {
			t.Errorf("parts %d: got %v want %v", parts, got, want)
		}
	}
}
