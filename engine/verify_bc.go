package engine

import (
	"fmt"
	"math"
	"strings"

	"github.com/gworkbench/gworkbench/graph"
)

// BCSources returns the sources of a bc run, in the order they are processed: the single
// source src (sources=0), every vertex (sources=all), or k vertices sampled without
// replacement by a SplitMix64 stream seeded with seed (sources=k), as GAPBS's SourcePicker
// does with kRandSeed. Sampling prefers vertices with out-arcs; k at least the number of such
// vertices takes them all. Every engine and verifier replays the same sequence.
func BCSources(p Params, g *graph.CSR) ([]uint32, error) {
	n := g.NumVertices()
	switch {
	case n == 0:
		return nil, fmt.Errorf("bc: the graph has no vertices")
	case p.Sources == 0:
		s, err := ResolveSource(p, g)
		if err != nil {
			return nil, fmt.Errorf("bc: %w", err)
		}
		return []uint32{s}, nil
	case p.Sources < 0:
		all := make([]uint32, n)
		for v := range all {
			all[v] = uint32(v)
		}
		return all, nil
	}
	return sampleSources(g, p.Seed, p.Sources), nil
}

// SampleSources returns k sources for benchmark trials (src=random, sources=k), sampled as
// BCSources samples: vertices with at least one out-arc, without replacement, from a
// SplitMix64 stream seeded with seed (k at least their number takes them all). It refuses a
// graph without edges.
func SampleSources(g *graph.CSR, seed int64, k int) ([]uint32, error) {
	if g.NumArcs() == 0 {
		return nil, fmt.Errorf("engine: random sources need a vertex with an edge, and the graph has no edges")
	}
	return sampleSources(g, seed, k), nil
}

func sampleSources(g *graph.CSR, seed int64, k int) []uint32 {
	count, at := g.ArcVertices()
	if count == 0 {
		count, at = g.NumVertices(), func(i int) uint32 { return uint32(i) }
	}
	k = min(k, count)
	// A partial Fisher-Yates shuffle of the candidates whose swapped entries live in a map, so
	// that k draws cost O(k), not a copy of every candidate.
	moved := make(map[int]uint32, 2*k)
	get := func(i int) uint32 {
		if v, ok := moved[i]; ok {
			return v
		}
		return at(i)
	}
	out := make([]uint32, k)
	state := uint64(seed)
	for i := 0; i < k; i++ {
		state += graph.Golden
		j := i + int(graph.Mix64(state)%uint64(count-i))
		vi, vj := get(i), get(j)
		moved[j] = vi
		out[i] = vj
	}
	return out
}

// BCSourcesNote describes the sources for a trace note: "source 5", or "12 sources (seed 1):
// 5, 17, ..." with at most 16 ids listed.
func BCSourcesNote(p Params, srcs []uint32, ids graph.IDs) string {
	if len(srcs) == 1 && p.Sources == 0 {
		return "source " + ids.Text(srcs[0])
	}
	var b strings.Builder
	if p.Sources < 0 {
		fmt.Fprintf(&b, "all %d vertices as sources", len(srcs))
		return b.String()
	}
	fmt.Fprintf(&b, "%d sources (seed %d): ", len(srcs), p.Seed)
	for i, s := range srcs {
		if i == 16 {
			b.WriteString(", ...")
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(ids.Text(s))
	}
	return b.String()
}

// BCTolerance is the relative tolerance of bc verification.
const BCTolerance = 1e-6

func init() { registerVerifier(BC, verifyBC) }

// verifyBC compares centralities within BCTolerance relative (plus 1e-9 absolute, for values
// that are zero up to rounding).
func verifyBC(g *graph.CSR, got, want *Result) error {
	n := g.NumVertices()
	if len(got.Centrality) != n || len(want.Centrality) != n {
		return fmt.Errorf("bc: got %d centralities, want %d, for %d vertices", len(got.Centrality), len(want.Centrality), n)
	}
	if got.Params.Sources != want.Params.Sources || got.Params.Seed != want.Params.Seed || got.Params.Src != want.Params.Src {
		return fmt.Errorf("bc: runs differ in their sources: got sources=%s seed=%d src=%d, want sources=%s seed=%d src=%d",
			got.Params.Get("sources"), got.Params.Seed, got.Params.Src, want.Params.Get("sources"), want.Params.Seed, want.Params.Src)
	}
	bad, first := 0, -1
	for v := 0; v < n; v++ {
		a, b := got.Centrality[v], want.Centrality[v]
		if !(math.Abs(a-b) <= BCTolerance*math.Max(math.Abs(a), math.Abs(b))+1e-9) {
			if first < 0 {
				first = v
			}
			bad++
		}
	}
	if bad > 0 {
		a, b := got.Centrality[first], want.Centrality[first]
		return fmt.Errorf("bc: %d vertices differ by more than %g relative, first %d: got %.12g, want %.12g (relative difference %.3g)",
			bad, BCTolerance, g.IDs.ID(uint32(first)), a, b, math.Abs(a-b)/math.Max(math.Abs(a), math.Abs(b)))
	}
	return nil
}
