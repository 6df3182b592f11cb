package engine

import (
	"fmt"

	"github.com/gworkbench/gworkbench/graph"
)

// MIS priorities. Luby's algorithm with priorities fixed in advance (Blelloch, Fineman and Shun,
// "Greedy sequential maximal independent set and matching are parallel on average", SPAA 2012)
// computes exactly the set that the greedy sequential algorithm computes when it visits the
// vertices in decreasing priority. Every engine draws the same priorities from the seed, so
// every correct MIS run with the same seed returns the same set, whatever its schedule.

// MISPriority is vertex v's priority for seed: a hash of (seed, v) in the high 32 bits and v in
// the low 32 bits, so priorities are distinct. A vertex joins the set when its priority is the
// highest among its undecided neighbours.
func MISPriority(seed int64, v uint32) uint64 {
	h := graph.Mix64(uint64(seed)*graph.Golden ^ uint64(v))
	return h&^0xffffffff | uint64(v)
}

func init() { registerVerifier(MIS, verifyMIS) }

// verifyMIS checks got's set for independence and maximality on g (arcs read in both
// directions, self-loops ignored) and, when want ran with the same seed, that the sets are equal.
func verifyMIS(g *graph.CSR, got, want *Result) error {
	n := g.NumVertices()
	if len(got.InSet) != n {
		return fmt.Errorf("mis: got %d memberships, want one per vertex (%d)", len(got.InSet), n)
	}
	hasInNeighbour := make([]bool, n)
	size := int64(0)
	for v := 0; v < n; v++ {
		if got.InSet[v] {
			size++
		}
		for _, u := range g.Neigh(uint32(v)) {
			if int(u) == v {
				continue
			}
			if got.InSet[v] && got.InSet[u] {
				return fmt.Errorf("mis: not independent: vertices %d and %d are adjacent and both in the set", g.IDs.ID(uint32(v)), g.IDs.ID(u))
			}
			if got.InSet[v] {
				hasInNeighbour[u] = true
			}
			if got.InSet[u] {
				hasInNeighbour[v] = true
			}
		}
	}
	for v := 0; v < n; v++ {
		if !got.InSet[v] && !hasInNeighbour[v] {
			return fmt.Errorf("mis: not maximal: vertex %d is out of the set and has no neighbour in it", g.IDs.ID(uint32(v)))
		}
	}
	if got.Summary.SetSize != size {
		return fmt.Errorf("mis: summary says %d members, the set has %d", got.Summary.SetSize, size)
	}
	if want == nil || want.InSet == nil || want.Params.Seed != got.Params.Seed {
		return nil
	}
	if len(want.InSet) != n {
		return fmt.Errorf("mis: want has %d memberships for %d vertices", len(want.InSet), n)
	}
	diff, first := 0, -1
	for v := 0; v < n; v++ {
		if got.InSet[v] != want.InSet[v] {
			if first < 0 {
				first = v
			}
			diff++
		}
	}
	if diff > 0 {
		return fmt.Errorf("mis: seed %d: %d vertices differ from the %s engine's set, first %d (got in=%v, want in=%v); both are maximal independent sets, but priorities from the same seed fix one set",
			got.Params.Seed, diff, want.Engine, first, got.InSet[first], want.InSet[first])
	}
	return nil
}
