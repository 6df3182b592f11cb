package engine

import (
	"fmt"
	"sort"
	"strings"
)

// Algorithm names an algorithm by its command name.
type Algorithm string

// The algorithms, with their command names.
const (
	BFS  Algorithm = "bfs"  // breadth-first search: depth of every vertex from src
	SSSP Algorithm = "sssp" // single-source shortest paths: distance from src
	CC   Algorithm = "cc"   // connected components (weakly connected on a directed graph)
	PR   Algorithm = "pr"   // PageRank
	TC   Algorithm = "tc"   // triangle counting
	BC   Algorithm = "bc"   // betweenness centrality (Brandes)
	MIS  Algorithm = "mis"  // maximal independent set (Luby)
	MST  Algorithm = "mst"  // minimum spanning forest (Boruvka)
)

// Algorithms lists every algorithm in display order.
func Algorithms() []Algorithm { return []Algorithm{BFS, SSSP, CC, PR, TC, BC, MIS, MST} }

// Describe returns a one-line description of the algorithm.
func (a Algorithm) Describe() string {
	switch a {
	case BFS:
		return "breadth-first search: depth of every vertex from src"
	case SSSP:
		return "single-source shortest paths: distance of every vertex from src (non-negative integer weights)"
	case CC:
		return "connected components (weakly connected on a directed graph)"
	case PR:
		return "PageRank with damping, tolerance and max_iter"
	case TC:
		return "triangle counting (forward algorithm over degree-ordered arcs)"
	case BC:
		return "betweenness centrality (Brandes), from src or from sampled sources"
	case MIS:
		return "maximal independent set (Luby's random priorities)"
	case MST:
		return "minimum spanning forest (Boruvka)"
	}
	return ""
}

// Monotonic reports whether the algorithm's per-vertex values only ever move one way (depths
// and distances decrease, labels decrease), the condition for a plain read-then-write update
// (update=rw) to be correct without atomics.
func (a Algorithm) Monotonic() bool { return a == BFS || a == SSSP || a == CC }

// Traversal reports whether the algorithm walks a frontier out from sources.
func (a Algorithm) Traversal() bool { return a == BFS || a == SSSP || a == BC }

// ParseAlgorithm returns the algorithm with the given command name.
func ParseAlgorithm(s string) (Algorithm, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	for _, a := range Algorithms() {
		if string(a) == s {
			return a, nil
		}
	}
	switch s {
	case "pagerank":
		return PR, nil
	case "triangles":
		return TC, nil
	}
	names := make([]string, 0, 8)
	for _, a := range Algorithms() {
		names = append(names, string(a))
	}
	sort.Strings(names)
	return "", fmt.Errorf("engine: unknown algorithm %q%s (want one of %s)", s, didYouMean(s, names), strings.Join(names, ", "))
}

// didYouMean returns ` (did you mean "x"?)` for the closest candidate within edit distance 2.
func didYouMean(s string, candidates []string) string {
	best, bestD := "", 3
	for _, c := range candidates {
		if d := EditDistance(s, c); d < bestD {
			best, bestD = c, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// DidYouMean is exported for the session's command and name suggestions.
func DidYouMean(s string, candidates []string) string { return didYouMean(s, candidates) }

// EditDistance is the optimal string alignment distance between a and b: insertions,
// deletions, substitutions and transpositions of adjacent characters each count as one edit
// ("bsf" is one edit from "bfs", two from "bc").
func EditDistance(a, b string) int {
	// d holds three rows: i-2, i-1 and i.
	w := len(b) + 1
	d := make([]int, 3*w)
	for j := 0; j < w; j++ {
		d[w+j] = j // row 0 lives in the i-1 slot at i = 1
	}
	for i := 1; i <= len(a); i++ {
		pp, prev, cur := d[:w], d[w:2*w], d[2*w:]
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := 1
			if a[i-1] == b[j-1] {
				c = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, pp[j-2]+1)
			}
			cur[j] = v
		}
		copy(pp, prev)
		copy(prev, cur)
	}
	return d[w+len(b)]
}
