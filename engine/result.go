package engine

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/gworkbench/gworkbench/graph"
)

// Unreached marks a vertex no path reaches: its BFS depth and SSSP distance.
const (
	UnreachedDepth int32 = -1
	InfDist        int32 = math.MaxInt32
)

// MaxDist is the largest distance an SSSP result holds, 2^31-2. The engines add distances
// and weights with saturation at MaxDist, which keeps every distance below MaxDist exact (the
// minimum over paths of min(sum, MaxDist) is min(distance, MaxDist)); a run whose largest
// distance reaches MaxDist may hold a wrong one, and fails with ErrDistTooLarge instead.
const MaxDist = InfDist - 1

// ErrDistTooLarge is the error of an SSSP run whose distances do not fit in 32 bits (the
// session shows it after "sssp: ").
var ErrDistTooLarge = fmt.Errorf("engine: a distance reaches 2^31-2 (%d), the most a distance can hold: the weights along some path sum past it; scale the weights down", MaxDist)

// Result is what a run returns: the per-vertex values of its algorithm, a summary, the trace and
// where it came from. Only the slice of the run's algorithm is set.
type Result struct {
	Algorithm Algorithm
	Engine    string
	Params    Params   // resolved (src is a vertex id, never auto)
	Schedule  Schedule // resolved: every auto knob replaced by the engine's concrete choice
	Graph     GraphInfo

	Depth      []int32   // bfs: depth from src, UnreachedDepth if unreached
	Dist       []int32   // sssp: distance from src, InfDist if unreached
	Comp       []uint32  // cc: component label (any labelling; compare partitions with SamePartition)
	Rank       []float64 // pr: rank, summing to 1
	Centrality []float64 // bc: betweenness (unnormalised, as Brandes; halved on undirected graphs)
	InSet      []bool    // mis: membership
	Forest     []int64   // mst: arc indices (into graph.Neighbors) of the spanning forest's edges
	Triangles  uint64    // tc

	Summary    Summary
	Trace      Trace
	Provenance Provenance
}

// GraphInfo names the graph a result was computed on.
type GraphInfo struct {
	Name        string
	Fingerprint string
	Vertices    int
	Edges       int64
	Directed    bool
	IDs         graph.IDs // the ids the graph's file gives its vertices (results hold dense ids)
}

// InfoOf describes g under name.
func InfoOf(name string, g *graph.CSR) GraphInfo {
	return GraphInfo{Name: name, Fingerprint: g.Fingerprint(), Vertices: g.NumVertices(), Edges: g.NumEdges(), Directed: g.Directed, IDs: g.IDs}
}

// VertexID returns the id the graph's file gives vertex v, as a person types and reads it.
func (gi GraphInfo) VertexID(v int) uint64 {
	if v < 0 || v >= gi.Vertices {
		return uint64(v)
	}
	return gi.IDs.ID(uint32(v))
}

// ParamText returns the named parameter as a person reads it: src is the file's id of the
// source vertex.
func (r *Result) ParamText(name string) string {
	if name == "src" && r.Params.Src >= 0 {
		return strconv.FormatUint(r.Graph.VertexID(int(r.Params.Src)), 10)
	}
	return r.Params.Get(name)
}

// ParamsShown returns the parameters of r's algorithm by name, as ParamText gives them.
func (r *Result) ParamsShown() map[string]string {
	m := r.Params.For(r.Algorithm)
	if _, ok := m["src"]; ok {
		m["src"] = r.ParamText("src")
	}
	return m
}

// Summary holds the numbers a person reads first. Fields that do not apply are zero.
type Summary struct {
	Reached        int64 // bfs, sssp, bc: vertices reached from src
	MaxDepth       int32 // bfs
	MaxDist        int32 // sssp: largest finite distance
	Components     int64 // cc; mst: trees in the forest
	LargestComp    int64 // cc
	RankSum        float64
	Triangles      uint64
	SetSize        int64 // mis
	TotalWeight    int64 // mst
	ForestEdges    int64 // mst
	Iterations     int
	EdgesTraversed int64         // edges scanned: the work done, summed over iterations
	Time           time.Duration // the run itself, end to end, without graph upload or setup
	KernelTime     time.Duration // GPU: the kernels' time by CUDA events, summed (0: not measured)
	DeviceTime     time.Duration // GPU: from right before the run's first device operation to after its last, on the device's clock, as a CUDA program's event timer (0: not measured)
	TEPSEdges      int64         // the edges TEPS counts (Graph500: the reached component's; see TEPSEdges)
	GTEPS          float64       // TEPSEdges / Time, in 1e9 per second (0 until SetTEPS)
}

// Provenance says which program, on which machine, produced a result.
type Provenance struct {
	Version   string
	Commit    string
	Machine   string // CPU model and cores
	GPU       string // device name, "" for CPU engines
	GoVersion string
	Started   time.Time
}

// ResolveSource returns the source vertex for p on g: p.Src, or the highest out-degree vertex
// (lowest id on ties) when p.Src is auto. It refuses a source outside the graph. Engines call
// it inside their timed region, so it costs at most one O(V) scan of the offsets, cached on the
// graph (graph.CSR.MaxDegreeVertex), never g.Properties() and its BFS sweeps.
func ResolveSource(p Params, g *graph.CSR) (uint32, error) {
	n := g.NumVertices()
	if n == 0 {
		return 0, fmt.Errorf("the graph has no vertices")
	}
	if p.Src == SrcRandom {
		srcs, err := SampleSources(g, p.Seed, 1)
		if err != nil {
			return 0, err
		}
		return srcs[0], nil
	}
	if p.Src < 0 {
		return g.MaxDegreeVertex(), nil
	}
	if p.Src >= int64(n) {
		return 0, fmt.Errorf("src=%d is not a vertex: the graph has vertices 0..%d", p.Src, n-1)
	}
	return uint32(p.Src), nil
}

// Finish fills the summary's time, the kernels' time, the edges scanned and the iteration
// count from the trace. TEPS needs the graph: SetTEPS.
func (r *Result) Finish(elapsed time.Duration) {
	r.Summary.Time = elapsed
	r.Summary.Iterations = r.Trace.Iterations()
	scanned := r.Summary.EdgesTraversed == 0
	r.Summary.KernelTime = 0
	for i := range r.Trace.Records {
		if scanned {
			r.Summary.EdgesTraversed += r.Trace.Records[i].EdgesScanned
		}
		for _, k := range r.Trace.Records[i].Kernels {
			r.Summary.KernelTime += k.Time
		}
	}
}

// Value formats vertex v's value for export ("" when the algorithm has no per-vertex value).
func (r *Result) Value(v int) string {
	switch {
	case r.Depth != nil:
		return fmt.Sprint(r.Depth[v])
	case r.Dist != nil:
		if r.Dist[v] == InfDist {
			return "inf"
		}
		return fmt.Sprint(r.Dist[v])
	case r.Comp != nil:
		return fmt.Sprint(r.Graph.VertexID(int(r.Comp[v]))) // a label is a vertex of the component
	case r.Rank != nil:
		return fmt.Sprintf("%.9g", r.Rank[v])
	case r.Centrality != nil:
		return fmt.Sprintf("%.9g", r.Centrality[v])
	case r.InSet != nil:
		if r.InSet[v] {
			return "1"
		}
		return "0"
	}
	return ""
}
