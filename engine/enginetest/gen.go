package enginetest

import (
	"context"
	"fmt"
	"strconv"

	"github.com/gworkbench/gworkbench/graph"
	"github.com/gworkbench/gworkbench/loader"
)

// Spec names a synthetic graph: a generator kind (kron, urand, grid, road) and its size.
type Spec struct {
	Kind     string // kron, urand: Scale and Degree; grid, road: Rows and Cols
	Scale    int    // 2^Scale vertices
	Degree   int    // average edges per vertex (edges = Degree x V, before symmetrizing)
	Rows     int
	Cols     int
	Directed bool
	Weights  string // "" for none, or "uniform:LO:HI"
	Seed     uint64
}

func (s Spec) String() string {
	var size string
	switch s.Kind {
	case "grid", "road":
		size = fmt.Sprintf("%dx%d", s.Rows, s.Cols)
	default:
		size = fmt.Sprintf("s%dd%d", s.Scale, s.Degree)
	}
	d := "u"
	if s.Directed {
		d = "d"
	}
	w := ""
	if s.Weights != "" {
		w = "-w"
	}
	return s.Kind + size + "-" + d + w
}

// Build makes the graph of spec with loader.Generate; the second result names the generator
// ("loader.Generate", for the suite's log). It refuses a spec the loader builds differently
// (directed or weighted otherwise than asked).
func Build(spec Spec) (*graph.CSR, string, error) {
	kv := map[string]string{"seed": strconv.FormatUint(max(spec.Seed, 1), 10)}
	switch spec.Kind {
	case "grid", "road":
		kv["rows"], kv["cols"] = strconv.Itoa(spec.Rows), strconv.Itoa(spec.Cols)
	default:
		kv["scale"], kv["degree"] = strconv.Itoa(spec.Scale), strconv.Itoa(spec.Degree)
	}
	kv["weights"] = "drop"
	if spec.Weights != "" {
		kv["weights"] = spec.Weights
	}
	if spec.Directed {
		kv["directed"] = "true"
	}
	g, err := loader.Generate(context.Background(), spec.Kind, kv, nil)
	if err != nil {
		return nil, "", fmt.Errorf("enginetest: %s: %w", spec, err)
	}
	if g.Directed != spec.Directed || (spec.Weights == "") != (g.Weights == nil) {
		return nil, "", fmt.Errorf("enginetest: %s: the loader built it directed=%v weighted=%v", spec, g.Directed, g.Weights != nil)
	}
	return g, "loader.Generate", nil
}

// FromEdges builds a CSR from an edge list with loader.FromEdges (symmetrize an undirected
// graph, drop self-loops and duplicates, sort neighbours), for the hand-made graphs of tests. It
// panics where the loader refuses the list (an id outside 0..n-1: the test's own mistake).
func FromEdges(n int, edges []loader.Edge, directed, weighted bool) *graph.CSR {
	g, err := loader.FromEdges(n, edges, directed, weighted)
	if err != nil {
		panic(fmt.Sprintf("enginetest: FromEdges: %v", err))
	}
	return g
}
