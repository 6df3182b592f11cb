package loader

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gworkbench/gworkbench/graph"
)

// TestFileIDs checks that vertices keep the ids of their file: 1-based files by a base, sparse
// SNAP ids by a compacted map back, and base= as the override that keeps ids as numbers.
func TestFileIDs(t *testing.T) {
	cases := []struct {
		name, text string
		opt        Options
		v          int
		base       uint32
		labels     []uint32
	}{
		{"dense", "0 1\n1 2\n", DefaultOptions(), 3, 0, nil},
		{"shifted", "5 6\n6 7\n", DefaultOptions(), 3, 5, nil},
		{"sparse", "10 20\n20 35\n35 10\n", DefaultOptions(), 3, 0, []uint32{10, 20, 35}},
		{"sparse base=0", "10 20\n20 35\n", Options{Base: 0}, 36, 0, nil},
		{"one-based base=1", "1 2\n2 9\n", Options{Base: 1}, 9, 1, nil},
		{"el keeps gaps", "3 9\n", Options{Base: -1, Format: "el"}, 10, 0, nil},
	}
	for _, c := range cases {
		g, err := LoadReader(context.Background(), strings.NewReader(c.text), c.name+".txt", c.opt)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if g.NumVertices() != c.v || g.IDs.Base != c.base || !slices.Equal(g.IDs.Labels, c.labels) {
			t.Errorf("%s: V=%d ids %+v, want V=%d base %d labels %v", c.name, g.NumVertices(), g.IDs, c.v, c.base, c.labels)
		}
	}
	g := mustLoad(t, filepath.Join(graphsDir, "rome99.gr"), DefaultOptions())
	if v, ok := g.IDs.Vertex(3353, g.NumVertices()); !ok || v != 3352 || g.IDs.ID(0) != 1 {
		t.Errorf("rome99: id 3353 is vertex %d (%v), vertex 0 has id %d; want 3352 and 1", v, ok, g.IDs.ID(0))
	}
	if _, ok := g.IDs.Vertex(0, g.NumVertices()); ok {
		t.Errorf("rome99: id 0 found, but its ids are %s", g.IDs.Range(g.NumVertices()))
	}
	if got := g.IDs.Range(g.NumVertices()); got != "1..3353" {
		t.Errorf("rome99: range %q, want 1..3353", got)
	}
}

// TestCompactKeepsEdges loads sparse-id edge lists (large enough for every block form: plain,
// run-length and packed) compacted and with base=0, and checks that every arc of one is the
// arc of the other through the map.
func TestCompactKeepsEdges(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	defer func(n int) { chunkSize = n }(chunkSize)
	chunkSize = 64 << 10 // many blocks, of every form
	for _, spread := range []uint32{3, 1 << 20} {
		// ids are multiples of spread, plus the vertex 7 (so that they are not a shift).
		var sb strings.Builder
		for u := 0; u < 30000; u++ {
			src := uint32(u/4)*spread + 7 // runs of sources: run-length blocks
			if u >= 15000 {
				src = uint32(rng.IntN(30000))*spread + 7 // plain, or packed when ids are small
			}
			for k := 0; k < 1+u%3; k++ {
				fmt.Fprintf(&sb, "%d %d\n", src, uint32(rng.IntN(30000))*spread+7)
			}
		}
		sb.WriteString("7 0\n")
		text := sb.String()
		if spread > 1<<12 {
			text = strings.ReplaceAll(text, "\n", "\r\n") // the general path
		}
		c, err := LoadReader(context.Background(), strings.NewReader(text), "sparse.txt", DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		checkCSR(t, c)
		if c.IDs.Labels == nil || c.Origin.Compacted == 0 {
			t.Fatalf("spread %d: not compacted: %+v", spread, c.Origin)
		}
		if spread > 1<<12 {
			continue // base=0 would make billions of vertices
		}
		d, err := LoadReader(context.Background(), strings.NewReader(text), "sparse.txt", Options{Base: 0})
		if err != nil {
			t.Fatal(err)
		}
		if c.NumArcs() != d.NumArcs() {
			t.Fatalf("arcs %d compacted, %d not", c.NumArcs(), d.NumArcs())
		}
		for v := 0; v < c.NumVertices(); v++ {
			id := uint32(c.IDs.ID(uint32(v)))
			got := mapIDs(c.IDs, c.Neigh(uint32(v)))
			if want := d.Neigh(id); !slices.Equal(got, want) {
				t.Fatalf("spread %d: vertex %d (id %d): neighbours %v, want %v", spread, v, id, got, want)
			}
		}
	}
}

func mapIDs(m graph.IDs, vs []uint32) []uint32 {
	out := make([]uint32, len(vs))
	for i, v := range vs {
		out[i] = uint32(m.ID(v))
	}
	return out
}

// TestCacheBeforeFileIDs: a .gwg cache made before vertices kept their file's ids (its key
// lacks ids=file) is not reused: the graph is read again, compacted.
func TestCacheBeforeFileIDs(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "sparse.txt")
	os.WriteFile(src, []byte("10 20\n20 35\n"), 0o644)
	opt := DefaultOptions()
	opt.Cache = true
	o, _ := opt.check()
	f, _ := os.Open(src)
	fi, _ := f.Stat()
	key, err := cacheKey(o, f, fi.Size())
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	old, _ := LoadReader(context.Background(), strings.NewReader("10 20\n20 35\n"), "sparse.txt", Options{Base: 0})
	if err := writeGWG(src+".gwg", old, strings.Replace(key, " ids=file", "", 1)); err != nil {
		t.Fatal(err)
	}
	g := mustLoad(t, src, opt)
	if g.NumVertices() != 3 || g.IDs.Labels == nil || g.Origin.FromCache {
		t.Errorf("V=%d ids %v from cache %v: the old cache was reused", g.NumVertices(), g.IDs, g.Origin.FromCache)
	}
}
