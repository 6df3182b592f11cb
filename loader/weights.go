package loader

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/gworkbench/gworkbench/graph"
)

// weightSpec is a parsed weights= option.
type weightSpec struct {
	mode   string // "keep", "drop" or "uniform"
	lo, hi int32  // for uniform: weights in [lo, hi]
}

// maxWeight bounds generated weights, so sums along long paths stay far from overflow.
const maxWeight = 1 << 24

// parseWeights parses keep, drop or uniform:LO:HI.
func parseWeights(s string) (weightSpec, error) {
	switch s {
	case "", "keep":
		return weightSpec{mode: "keep"}, nil
	case "drop", "none":
		return weightSpec{mode: "drop"}, nil
	}
	rest, ok := strings.CutPrefix(s, "uniform")
	if ok && (rest == "" || rest[0] == ':') {
		lo, hi := int64(1), int64(255)
		if rest != "" {
			parts := strings.Split(rest[1:], ":")
			if len(parts) != 2 {
				return weightSpec{}, fmt.Errorf("loader: weights=%s: expected uniform:LO:HI, e.g. uniform:1:255", s)
			}
			var err1, err2 error
			lo, err1 = strconv.ParseInt(parts[0], 10, 32)
			hi, err2 = strconv.ParseInt(parts[1], 10, 32)
			if err1 != nil || err2 != nil {
				return weightSpec{}, fmt.Errorf("loader: weights=%s: LO and HI must be integers, e.g. uniform:1:255", s)
			}
		}
		if lo < 0 || hi < lo || hi > maxWeight {
			return weightSpec{}, fmt.Errorf("loader: weights=%s: expected 0 <= LO <= HI <= %d", s, maxWeight)
		}
		return weightSpec{mode: "uniform", lo: int32(lo), hi: int32(hi)}, nil
	}
	return weightSpec{}, fmt.Errorf("loader: weights=%s: expected keep, drop or uniform:LO:HI", s)
}

func (w weightSpec) String() string {
	if w.mode == "uniform" {
		return fmt.Sprintf("uniform:%d:%d", w.lo, w.hi)
	}
	return w.mode
}

// applyWeights gives g the weights spec asks for. Uniform weights are a hash of the seed and
// the arc's endpoints (for an undirected graph, of the unordered pair, so both arcs of an edge
// agree), so they do not depend on input order or on the number of goroutines, and the same
// graph read from two formats gets the same weights.
func applyWeights(g *graph.CSR, spec weightSpec, seed int64) {
	switch spec.mode {
	case "drop":
		g.Weights = nil
		return
	case "keep":
		return
	}
	// A fresh array: the old one may be a read-only memory map of a .gwg file.
	wt := make([]int32, len(g.Neighbors))
	graph.AdviseHuge(wt)
	span := uint64(spec.hi-spec.lo) + 1
	key := graph.Mix64(uint64(seed) ^ 0x5eed)
	parts := graph.SplitByArcs(g.Offsets, workers()*4)
	parallelFor(len(parts)-1, workers(), func(p int) {
		for v := parts[p]; v < parts[p+1]; v++ {
			for i := g.Offsets[v]; i < g.Offsets[v+1]; i++ {
				a, b := uint32(v), g.Neighbors[i]
				if !g.Directed && a > b {
					a, b = b, a
				}
				h := graph.Mix64(key ^ (uint64(a)<<32 | uint64(b)))
				r, _ := bits.Mul64(h, span)
				wt[i] = spec.lo + int32(r)
			}
		}
	})
	g.Weights = wt
	g.Origin.WeightsGenerated = fmt.Sprintf("%s seed=%d", spec, seed)
}
