package loader

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"

	"github.com/gworkbench/gworkbench/graph"
)

// facebookGz is SNAP's ego-Facebook (4,039 vertices, 88,234 undirected edges), gzipped.
//
//go:embed facebook.txt.gz
var facebookGz []byte

// Demo returns the embedded demo graph that `make run` starts on: SNAP ego-Facebook, a social
// network small enough to load instantly (4,039 vertices, 88,234 edges) whose dense core makes
// direction-optimizing BFS switch to pull and back. Each call returns a new graph named
// "facebook".
func Demo() (*graph.CSR, error) {
	opt := DefaultOptions()
	opt.Direction = "undirected"
	g, err := LoadReader(context.Background(), bytes.NewReader(facebookGz), "facebook_combined.txt.gz", opt)
	if err != nil {
		return nil, fmt.Errorf("loader: demo graph: %w", err)
	}
	g.Origin.Name = "facebook"
	g.Origin.Path = "facebook_combined.txt (embedded)"
	g.Origin.DirectionAssumed = "told: undirected (SNAP ego-Facebook lists each edge once)"
	g.Origin.Symmetrized = false
	return g, nil
}
