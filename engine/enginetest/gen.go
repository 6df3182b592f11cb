package enginetest

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"sync"

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

// Build makes the graph of spec. It asks loader.Generate first and falls back to the small
// deterministic generators of this package while the loader's generators are not available
// (or refuse the parameters); the second result says which one built it.
func Build(spec Spec) (*graph.CSR, string, error) {
	kv := map[string]string{"seed": strconv.FormatUint(max(spec.Seed, 1), 10)}
	switch spec.Kind {
	case "grid", "road":
		kv["rows"], kv["cols"] = strconv.Itoa(spec.Rows), strconv.Itoa(spec.Cols)
	default:
		kv["scale"], kv["degree"] = strconv.Itoa(spec.Scale), strconv.Itoa(spec.Degree)
	}
	if spec.Weights != "" {
		kv["weights"] = spec.Weights
	}
	if spec.Directed {
		kv["directed"] = "true"
	}
	if g, err := loader.Generate(context.Background(), spec.Kind, kv, nil); err == nil && g.Directed == spec.Directed &&
		(spec.Weights == "") == (g.Weights == nil) {
		return g, "loader.Generate", nil
	}
	g, err := generate(spec)
	return g, "enginetest", err
}

// splitmix is SplitMix64: a tiny, good, seedable stream.
type splitmix uint64

func (s *splitmix) next() uint64 {
	*s += 0x9e3779b97f4a7c15
	z := uint64(*s)
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

func (s *splitmix) intn(n int) int { return int(s.next() % uint64(n)) }

func generate(spec Spec) (*graph.CSR, error) {
	rng := splitmix(spec.Seed*0x2545f4914f6cdd1d + 1)
	var n int
	var edges []loader.Edge
	switch spec.Kind {
	case "kron":
		n = 1 << spec.Scale
		edges = kron(&rng, spec.Scale, spec.Degree)
	case "urand":
		n = 1 << spec.Scale
		m := n * spec.Degree
		edges = make([]loader.Edge, m)
		for i := range edges {
			edges[i] = loader.Edge{U: uint32(rng.intn(n)), V: uint32(rng.intn(n))}
		}
	case "grid":
		n = spec.Rows * spec.Cols
		edges = grid(spec.Rows, spec.Cols, nil)
	case "road":
		n = spec.Rows * spec.Cols
		edges = grid(spec.Rows, spec.Cols, &rng)
	default:
		return nil, fmt.Errorf("enginetest: unknown generator %q", spec.Kind)
	}
	weighted := spec.Weights != ""
	if weighted {
		lo, hi := 1, 255
		if _, err := fmt.Sscanf(spec.Weights, "uniform:%d:%d", &lo, &hi); err != nil || lo > hi {
			return nil, fmt.Errorf("enginetest: weights=%s: want uniform:LO:HI", spec.Weights)
		}
		for i := range edges {
			edges[i].W = int32(lo + rng.intn(hi-lo+1))
		}
	}
	return FromEdges(n, edges, spec.Directed, weighted), nil
}

// kron draws Degree x 2^Scale edges of a Kronecker (R-MAT) graph with the Graph500
// probabilities a=0.57, b=0.19, c=0.19, then permutes the vertex ids so that degree does not
// follow the id.
func kron(rng *splitmix, scale, degree int) []loader.Edge {
	n := 1 << scale
	m := n * degree
	edges := make([]loader.Edge, m)
	const a, b, c = 0.57, 0.19, 0.19
	for i := range edges {
		var u, v uint32
		for d := 0; d < scale; d++ {
			r := float64(rng.next()>>11) / (1 << 53)
			switch {
			case r < a:
			case r < a+b:
				v |= 1 << d
			case r < a+b+c:
				u |= 1 << d
			default:
				u |= 1 << d
				v |= 1 << d
			}
		}
		edges[i] = loader.Edge{U: u, V: v}
	}
	perm := make([]uint32, n)
	for i := range perm {
		perm[i] = uint32(i)
	}
	for i := n - 1; i > 0; i-- {
		j := rng.intn(i + 1)
		perm[i], perm[j] = perm[j], perm[i]
	}
	for i := range edges {
		edges[i].U, edges[i].V = perm[edges[i].U], perm[edges[i].V]
	}
	return edges
}

// grid returns the 4-neighbour mesh of rows x cols; with rng it is road-like instead: about
// 15% of the mesh edges are removed and a few diagonal shortcuts added.
func grid(rows, cols int, rng *splitmix) []loader.Edge {
	var edges []loader.Edge
	id := func(r, c int) uint32 { return uint32(r*cols + c) }
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			if c+1 < cols && (rng == nil || rng.intn(100) >= 15) {
				edges = append(edges, loader.Edge{U: id(r, c), V: id(r, c+1)})
			}
			if r+1 < rows && (rng == nil || rng.intn(100) >= 15) {
				edges = append(edges, loader.Edge{U: id(r, c), V: id(r+1, c)})
			}
			if rng != nil && r+1 < rows && c+1 < cols && rng.intn(100) < 5 {
				edges = append(edges, loader.Edge{U: id(r, c), V: id(r+1, c+1)})
			}
		}
	}
	return edges
}

// FromEdges builds a CSR from an edge list as loader.FromEdges does (symmetrize an undirected
// graph, drop self-loops and duplicates keeping the lowest weight, sort neighbours), by
// counting sort and in parallel, so that benchmark-sized graphs build in seconds.
func FromEdges(n int, edges []loader.Edge, directed, weighted bool) *graph.CSR {
	deg := make([]int64, n+1)
	for _, e := range edges {
		if e.U == e.V {
			continue
		}
		deg[e.U+1]++
		if !directed {
			deg[e.V+1]++
		}
	}
	for v := 0; v < n; v++ {
		deg[v+1] += deg[v]
	}
	// Each arc packed as neighbour<<32 | weight (weights made non-negative for the sort:
	// lowest weight first among duplicates).
	arcs := make([]uint64, deg[n])
	pos := slices.Clone(deg[:n])
	put := func(u, v uint32, w int32) {
		arcs[pos[u]] = uint64(v)<<32 | uint64(uint32(w)^0x80000000)
		pos[u]++
	}
	for _, e := range edges {
		if e.U == e.V {
			continue
		}
		put(e.U, e.V, e.W)
		if !directed {
			put(e.V, e.U, e.W)
		}
	}
	keep := make([]int64, n+1)
	var wg sync.WaitGroup
	const parts = 8
	for p := 0; p < parts; p++ {
		wg.Add(1)
		go func(p int) {
			defer wg.Done()
			for v := p * n / parts; v < (p+1)*n/parts; v++ {
				l := arcs[deg[v]:deg[v+1]]
				slices.Sort(l)
				k := 0
				for i, a := range l {
					if i > 0 && a>>32 == l[k-1]>>32 {
						continue
					}
					l[k] = a
					k++
				}
				keep[v+1] = int64(k)
			}
		}(p)
	}
	wg.Wait()
	off := make([]int64, n+1)
	for v := 0; v < n; v++ {
		off[v+1] = off[v] + keep[v+1]
	}
	g := &graph.CSR{Offsets: off, Neighbors: make([]uint32, off[n]), Directed: directed}
	if weighted {
		g.Weights = make([]int32, off[n])
	}
	for p := 0; p < parts; p++ {
		wg.Add(1)
		go func(p int) {
			defer wg.Done()
			for v := p * n / parts; v < (p+1)*n/parts; v++ {
				src := arcs[deg[v] : deg[v]+keep[v+1]]
				for i, a := range src {
					g.Neighbors[off[v]+int64(i)] = uint32(a >> 32)
					if weighted {
						g.Weights[off[v]+int64(i)] = int32(uint32(a) ^ 0x80000000)
					}
				}
			}
		}(p)
	}
	wg.Wait()
	g.Origin.Format = "gen"
	return g
}
