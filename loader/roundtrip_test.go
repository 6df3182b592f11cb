package loader

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gworkbench/gworkbench/graph"
)

// writeFormat writes the graph g in a text format, as a published file would have it.
func writeFormat(g *graph.CSR, format string) []byte {
	var b bytes.Buffer
	n := g.NumVertices()
	type arc struct {
		u, v uint32
		w    int32
	}
	var arcs []arc // each undirected edge once (u <= v), each directed arc once
	for v := 0; v < n; v++ {
		for i, u := range g.Neigh(uint32(v)) {
			if !g.Directed && u < uint32(v) {
				continue
			}
			w := int32(0)
			if g.Weights != nil {
				w = g.NeighWeights(uint32(v))[i]
			}
			arcs = append(arcs, arc{uint32(v), u, w})
		}
	}
	switch format {
	case "snap":
		fmt.Fprintf(&b, "# Nodes: %d Edges: %d\n", n, len(arcs))
		for _, a := range arcs {
			if g.Weights != nil {
				fmt.Fprintf(&b, "%d\t%d\t%d\r\n", a.u, a.v, a.w)
			} else {
				fmt.Fprintf(&b, "%d\t%d\r\n", a.u, a.v)
			}
		}
	case "mtx":
		field, sym := "pattern", "general"
		if g.Weights != nil {
			field = "integer"
		}
		if !g.Directed {
			sym = "symmetric"
		}
		fmt.Fprintf(&b, "%%%%MatrixMarket matrix coordinate %s %s\n%% comment\n%d %d %d\n", field, sym, n, n, len(arcs))
		for _, a := range arcs {
			i, j := a.u, a.v
			if !g.Directed {
				i, j = j, i // lower triangle
			}
			if g.Weights != nil {
				fmt.Fprintf(&b, "%d %d %d\n", i+1, j+1, a.w)
			} else {
				fmt.Fprintf(&b, "%d %d\n", i+1, j+1)
			}
		}
	case "dimacs":
		fmt.Fprintf(&b, "c test\np sp %d %d\n", n, len(arcs))
		for _, a := range arcs {
			fmt.Fprintf(&b, "a %d %d %d\n", a.u+1, a.v+1, a.w)
		}
	case "pace":
		fmt.Fprintf(&b, "c test\np tw %d %d\n", n, len(arcs))
		for _, a := range arcs {
			fmt.Fprintf(&b, "%d %d\n", a.u+1, a.v+1)
		}
	case "metis":
		fmtField := ""
		if g.Weights != nil {
			fmtField = " 1"
		}
		fmt.Fprintf(&b, "%% test\n%d %d%s\n", n, len(arcs), fmtField)
		for v := 0; v < n; v++ {
			for i, u := range g.Neigh(uint32(v)) {
				if i > 0 {
					b.WriteByte(' ')
				}
				fmt.Fprintf(&b, "%d", u+1)
				if g.Weights != nil {
					fmt.Fprintf(&b, " %d", g.NeighWeights(uint32(v))[i])
				}
			}
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}

// TestFormatsRoundTrip writes random graphs in every text format (plain and gzipped) and reads
// them back, with small chunks too so that lines straddle chunk boundaries.
func TestFormatsRoundTrip(t *testing.T) {
	cases := []struct {
		format, ext       string
		directed, weights bool
	}{
		{"snap", ".txt", true, false}, {"snap", ".txt", true, true},
		{"mtx", ".mtx", true, false}, {"mtx", ".mtx", false, true}, {"mtx", ".mtx", false, false},
		{"dimacs", ".gr", true, true},
		{"pace", ".gr", false, false},
		{"metis", ".graph", false, false}, {"metis", ".graph", false, true},
	}
	defer func(c int) { chunkSize = c }(chunkSize)
	for seed := uint64(1); seed <= 6; seed++ {
		r := rand.New(rand.NewPCG(seed, 10))
		n := 2 + r.IntN(400)
		// The last vertex has an edge, so an edge list (which names no vertex count) has n.
		edges := []Edge{{uint32(n - 1), 0, 7}}
		for i := 0; i < r.IntN(2000); i++ {
			edges = append(edges, Edge{uint32(r.IntN(n)), uint32(r.IntN(n)), int32(r.IntN(1000))})
		}
		for _, c := range cases {
			want, err := FromEdges(n, edges, c.directed, c.weights)
			if err != nil {
				t.Fatal(err)
			}
			data := writeFormat(want, c.format)
			opt := DefaultOptions()
			if c.format == "snap" {
				opt.Base = 0 // the ids as numbers: vertices without edges stay (compacted, they would go)
			}
			for _, chunk := range []int{4 << 20, 61} {
				chunkSize = chunk
				for _, gz := range []bool{false, true} {
					in, name := data, "g"+c.ext
					if gz {
						in, name = gzipBytes(data), name+".gz"
					}
					g, err := LoadReader(context.Background(), bytes.NewReader(in), name, opt)
					if err != nil {
						t.Fatalf("seed %d %s directed=%v weights=%v: %v", seed, c.format, c.directed, c.weights, err)
					}
					if g.Fingerprint() != want.Fingerprint() || g.Origin.Format != c.format {
						t.Errorf("seed %d %s directed=%v weights=%v chunk=%d gz=%v: read back %s V=%d arcs=%d, want V=%d arcs=%d",
							seed, c.format, c.directed, c.weights, chunk, gz, g.Origin.Format, g.NumVertices(), g.NumArcs(), want.NumVertices(), want.NumArcs())
					}
				}
			}
		}
	}
}
