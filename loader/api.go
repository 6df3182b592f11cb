package loader

import (
	"context"
	"errors"
	"io"

	"github.com/gworkbench/gworkbench/graph"
)

// Options controls how a file becomes a graph. The zero value means: detect the format,
// follow the format's direction and id base, drop self-loops and duplicate edges, keep weights.
type Options struct {
	Format     string    // "" = detect by extension and content; else mtx, snap, dimacs, pace, metis, el, wel, gwg
	Direction  string    // "" = the format's; "directed"; "undirected" (symmetrize)
	Base       int       // -1 = the format's (or detected); 0 or 1
	SelfLoops  string    // "drop" (default) or "keep"
	Duplicates string    // "drop" (default) or "keep"
	Weights    string    // "keep" (default), "drop", or "uniform:LO:HI"
	Seed       int64     // seed for generated weights (default 1)
	Cache      bool      // write a .gwg beside the source and reuse it while it is newer
	Progress   io.Writer // where progress goes on a terminal; nil = quiet
}

// DefaultOptions returns the zero-value defaults made explicit.
func DefaultOptions() Options {
	return Options{Base: -1, SelfLoops: "drop", Duplicates: "drop", Weights: "keep", Seed: 1}
}

var errNotYet = errors.New("loader: not implemented yet")

// ParseOptions turns a load command's words into Options: key=value pairs (format=, base=,
// selfloops=, duplicates=, weights=, seed=, cache=on|off) and bare flags (directed, undirected).
// Unknown keys are refused with a did-you-mean.
func ParseOptions(kv map[string]string, flags []string) (Options, error) {
	return DefaultOptions(), errNotYet
}

// Load reads the graph at path.
func Load(ctx context.Context, path string, opt Options) (*graph.CSR, error) {
	return nil, errNotYet
}

// GeneratorKinds lists the generators: kron, urand, grid, road, rgg.
func GeneratorKinds() []string { return []string{"kron", "urand", "grid", "road", "rgg"} }
