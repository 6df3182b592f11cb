package loader

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/gworkbench/gworkbench/graph"
)

// graphsDir holds the real graphs of ../shared/data (see testdata/graphs/README.md).
const graphsDir = "../testdata/graphs"

func mustLoad(t testing.TB, path string, opt Options) *graph.CSR {
	t.Helper()
	g, err := Load(context.Background(), path, opt)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	checkCSR(t, g)
	return g
}

// TestRealGraphs loads each published graph as it is and checks the counts its header (or
// the data README) states.
func TestRealGraphs(t *testing.T) {
	cases := []struct {
		file              string
		format            string
		base              int
		v                 int
		arcs              int64
		entries           int64
		loops, dups       int64
		directed, weights bool
		isolated          int64
	}{
		{"rome99.gr", "dimacs", 1, 3353, 8859, 8870, 0, 11, true, true, 0},
		{"NY.gr", "pace", 1, 264346, 2 * 365050, 365050, 0, 0, false, false, 0},
		{"facebook_combined.txt", "snap", 0, 4039, 88234, 88234, 0, 0, true, false, 0},
		{"wiki-Vote.txt", "snap", 3, 7115, 103689, 103689, 0, 0, true, false, 0}, // sparse ids 3..8297, compacted
		{"p2p-Gnutella31.txt", "snap", 0, 62586, 147892, 147892, 0, 0, true, false, 0},
		{"delaunay_n14.mtx", "mtx", 1, 16384, 2 * 49122, 49122, 0, 0, false, false, 0},
		{"chesapeake.mtx", "mtx", 1, 39, 2 * 170, 170, 0, 0, false, false, 0},
		{"Lederberg.mtx", "mtx", 1, 8843, 41595, 41601, 6, 0, true, true, 519},
		{"4elt.graph", "metis", 1, 15606, 2 * 45878, 2 * 45878, 0, 0, false, false, 0},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			g := mustLoad(t, filepath.Join(graphsDir, c.file), DefaultOptions())
			o := g.Origin
			if g.NumVertices() != c.v || g.NumArcs() != c.arcs || o.Entries != c.entries {
				t.Errorf("V=%d arcs=%d entries=%d, want %d %d %d", g.NumVertices(), g.NumArcs(), o.Entries, c.v, c.arcs, c.entries)
			}
			if o.Format != c.format || o.Base != c.base {
				t.Errorf("format %q base %d, want %q %d", o.Format, o.Base, c.format, c.base)
			}
			if o.SelfLoopsRemoved != c.loops || o.DuplicatesRemoved != c.dups {
				t.Errorf("self-loops removed %d, duplicates removed %d, want %d %d", o.SelfLoopsRemoved, o.DuplicatesRemoved, c.loops, c.dups)
			}
			if g.Directed != c.directed || g.Weighted() != c.weights {
				t.Errorf("directed=%v weighted=%v, want %v %v", g.Directed, g.Weighted(), c.directed, c.weights)
			}
			if o.DirectionAssumed == "" {
				t.Errorf("DirectionAssumed is empty")
			}
			p := g.Properties()
			if p.Isolated != c.isolated {
				t.Errorf("isolated %d, want %d", p.Isolated, c.isolated)
			}
			if p.Diameter < 1 {
				t.Errorf("diameter estimate %d", p.Diameter)
			}
		})
	}
}
