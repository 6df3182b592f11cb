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

// MISDegreeStatus is vertex v's undecided status byte under method=ecl (ECL-MIS's
// degree-aware priority, Burtscher et al. 2018): 2p+1 with p = round(126 avg / (avg + deg - h)),
// avg the average degree, h in [0,1) the top 16 bits of the seed's hash of v, so low degrees
// come first and the hash spreads equal degrees over the 127 levels. deg counts v's arcs both
// ways (out plus in on a directed graph); avg16 is MISAvg16 of the graph. A vertex without
// arcs gets 0xfe, the In status. Integer arithmetic, so that every engine computes the same
// byte.
func MISDegreeStatus(seed int64, v uint32, deg int64, avg16 uint64) uint8 {
	if deg <= 0 {
		return 0xfe
	}
	h := graph.Mix64(uint64(seed)*graph.Golden^uint64(v)) >> 48
	d := avg16 + uint64(deg)<<16 - h
	p := (252*avg16 + d) / (2 * d)
	return uint8(2*p + 1)
}

// MISAvg16 is the average degree in 1/65536ths that MISDegreeStatus takes: arcs counted both
// ways (twice NumArcs on a directed graph) over the vertices.
func MISAvg16(g *graph.CSR) uint64 {
	arcs := g.NumArcs()
	if g.Directed {
		arcs *= 2
	}
	return uint64(arcs) << 16 / uint64(max(g.NumVertices(), 1))
}

// MISDegreePriority is vertex v's priority under method=ecl: its status byte, ties broken
// by the higher id. The greedy set in decreasing MISDegreePriority is the set ECL-MIS's
// in-place decisions reach.
func MISDegreePriority(seed int64, v uint32, deg int64, avg16 uint64) uint64 {
	return uint64(MISDegreeStatus(seed, v, deg, avg16))<<32 | uint64(v)
}

// MISDegrees returns every vertex's arc count both ways (out plus in on a directed graph), the
// deg of MISDegreeStatus.
func MISDegrees(g *graph.CSR) []int64 {
	n := g.NumVertices()
	deg := make([]int64, n)
	for v := 0; v < n; v++ {
		deg[v] = g.Offsets[v+1] - g.Offsets[v]
	}
	if g.Directed {
		for _, u := range g.Neighbors {
			deg[u]++
		}
	}
	return deg
}

// misRule names the priorities a result's set was chosen by: method=ecl's degree-aware
// status bytes, or the hash of every other schedule.
func misRule(r *Result) string {
	if r.Schedule.Method == ECL {
		return "degree-aware (method=ecl)"
	}
	return "hashed"
}

func init() { registerVerifier(MIS, verifyMIS) }

// verifyMIS checks got's set for independence and maximality on g (arcs read in both
// directions, self-loops ignored) and, when want ran with the same seed and the same rule of
// priorities (misRule), that the sets are equal.
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
	if want == nil || want.InSet == nil || want.Params.Seed != got.Params.Seed || misRule(got) != misRule(want) {
		// other priorities fix another set: independence and maximality are all that is shared
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
