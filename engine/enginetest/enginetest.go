// Package enginetest is the conformance suite of gworkbench engines: a matrix of small graphs
// and a runner that checks every algorithm under every schedule an engine offers against
// engine/ref. An engine's test calls it in a few lines:
//
//	func TestConformance(t *testing.T) {
//		enginetest.Run(t, "cpu", engine.BFS, engine.SSSP, engine.CC, engine.PR)
//	}
package enginetest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/gworkbench/gworkbench/engine"
	_ "github.com/gworkbench/gworkbench/engine/ref" // the oracle
	"github.com/gworkbench/gworkbench/graph"
	"github.com/gworkbench/gworkbench/loader"
)

// Case is one graph of the matrix.
type Case struct {
	Name string
	G    *graph.CSR
	Real bool // read from testdata (or ../shared/data), not generated
}

var (
	casesOnce sync.Once
	cases     []Case
	casesErr  error
	casesLog  []string
)

// specs is the generated part of the matrix: each generator with and without weights,
// directed and undirected.
var specs = []Spec{
	{Kind: "kron", Scale: 8, Degree: 8, Weights: "uniform:1:255", Seed: 1},
	{Kind: "kron", Scale: 8, Degree: 6, Directed: true, Seed: 2},
	{Kind: "kron", Scale: 9, Degree: 4, Directed: true, Weights: "uniform:1:20", Seed: 3},
	{Kind: "urand", Scale: 8, Degree: 6, Seed: 4},
	{Kind: "urand", Scale: 8, Degree: 3, Directed: true, Weights: "uniform:1:255", Seed: 5},
	{Kind: "grid", Rows: 12, Cols: 20, Weights: "uniform:1:9", Seed: 6},
	{Kind: "road", Rows: 24, Cols: 24, Weights: "uniform:1:1000", Seed: 7},
}

// Graphs returns the matrix: the generated graphs of specs, hand-made corner cases (a
// disconnected graph with isolated vertices, a path, a star, a single vertex, a graph with no
// edges, zero-weight arcs), and the real graphs found in testdata/graphs (or ../shared/data). In -short mode real graphs over 50,000 vertices are left out.
// The graphs are built once per test binary.
func Graphs(t testing.TB) []Case {
	t.Helper()
	casesOnce.Do(func() { cases, casesLog, casesErr = buildCases() })
	if casesErr != nil {
		t.Fatal(casesErr)
	}
	out := make([]Case, 0, len(cases))
	for _, c := range cases {
		if testing.Short() && c.Real && c.G.NumVertices() > 50000 {
			continue
		}
		out = append(out, c)
	}
	return out
}

func buildCases() ([]Case, []string, error) {
	var cs []Case
	var log []string
	for _, s := range specs {
		g, how, err := Build(s)
		if err != nil {
			return nil, nil, err
		}
		cs = append(cs, Case{Name: s.String(), G: g})
		log = append(log, fmt.Sprintf("%s: built by %s", s, how))
	}
	road, err := directedRoad(16, 16, 8)
	if err != nil {
		return nil, nil, err
	}
	cs = append(cs, Case{Name: "road16x16-d", G: road})
	corner, err := cornerCases()
	if err != nil {
		return nil, nil, err
	}
	cs = append(cs, corner...)
	for _, path := range realGraphs() {
		g, err := LoadGraph(path)
		if err != nil {
			log = append(log, fmt.Sprintf("%s: skipped: %v", path, err))
			continue
		}
		cs = append(cs, Case{Name: strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)), G: g, Real: true})
	}
	return cs, log, nil
}

// Logf reports how each graph of the matrix was made (generator, loader, skipped).
func Logf(t testing.TB) {
	Graphs(t)
	for _, l := range casesLog {
		t.Log(l)
	}
}

// directedRoad is a directed, unweighted, high-diameter graph: loader's road network of
// rows x cols (undirected), each edge kept both ways except every third, kept from the lower
// id to the higher only.
func directedRoad(rows, cols int, seed uint64) (*graph.CSR, error) {
	u, _, err := Build(Spec{Kind: "road", Rows: rows, Cols: cols, Seed: seed})
	if err != nil {
		return nil, err
	}
	var edges []loader.Edge
	for a := 0; a < u.NumVertices(); a++ {
		for _, b := range u.Neigh(uint32(a)) {
			if uint32(a) < b || (uint32(a)+b)%3 != 0 {
				edges = append(edges, loader.Edge{U: uint32(a), V: b})
			}
		}
	}
	return FromEdges(u.NumVertices(), edges, true, false), nil
}

func cornerCases() ([]Case, error) {
	e := func(u, v uint32, w int32) loader.Edge { return loader.Edge{U: u, V: v, W: w} }
	var cs []Case
	// Two kron pieces, a path piece, and isolated vertices 300..319, all undirected, weighted.
	var edges []loader.Edge
	for _, piece := range []struct {
		spec Spec
		base uint32
	}{
		{Spec{Kind: "kron", Scale: 7, Degree: 4, Weights: "uniform:1:50", Seed: 99}, 0},
		{Spec{Kind: "kron", Scale: 6, Degree: 3, Weights: "uniform:1:50", Seed: 100}, 128},
	} {
		g, _, err := Build(piece.spec)
		if err != nil {
			return nil, err
		}
		for u := 0; u < g.NumVertices(); u++ {
			for i, v := range g.Neigh(uint32(u)) {
				if uint32(u) < v {
					edges = append(edges, e(piece.base+uint32(u), piece.base+v, g.Weights[g.Offsets[u]+int64(i)]))
				}
			}
		}
	}
	for v := uint32(192); v < 299; v++ {
		edges = append(edges, e(v, v+1, int32(v%3))) // zero weights included
	}
	cs = append(cs, Case{Name: "disconnected-w", G: FromEdges(320, edges, false, true)})
	cs = append(cs, Case{Name: "disconnected-d", G: FromEdges(320, edges, true, false)})
	var path, star []loader.Edge
	for v := uint32(0); v < 99; v++ {
		path = append(path, e(v, v+1, 1+int32(v%7)))
		star = append(star, e(0, v+1, 1))
	}
	cs = append(cs, Case{Name: "path-w", G: FromEdges(100, path, false, true)})
	cs = append(cs, Case{Name: "path-d", G: FromEdges(100, path, true, false)})
	cs = append(cs, Case{Name: "star", G: FromEdges(100, star, false, false)})
	cs = append(cs, Case{Name: "single", G: FromEdges(1, nil, false, false)})
	cs = append(cs, Case{Name: "noedges", G: FromEdges(5, nil, true, true)})
	return cs, nil
}

// graphDirs lists where real graphs are looked for: $GWORKBENCH_GRAPHS if set, then
// testdata/graphs under the module root, then ../shared/data beside it.
func graphDirs() []string {
	var dirs []string
	if d := os.Getenv("GWORKBENCH_GRAPHS"); d != "" {
		dirs = append(dirs, d)
	}
	if root := moduleRoot(); root != "" {
		dirs = append(dirs, filepath.Join(root, "testdata", "graphs"), filepath.Join(root, "..", "shared", "data"))
	}
	return dirs
}

// realGraphs lists the graph files of the first of graphDirs that has any.
func realGraphs() []string {
	for _, dir := range graphDirs() {
		var out []string
		ents, _ := os.ReadDir(dir)
		for _, en := range ents {
			switch filepath.Ext(en.Name()) {
			case ".gr", ".mtx", ".txt", ".graph", ".el", ".wel", ".gwg":
				out = append(out, filepath.Join(dir, en.Name()))
			}
		}
		if len(out) > 0 {
			sort.Strings(out)
			return out
		}
	}
	return nil
}

// moduleRoot walks up from the working directory to the directory holding go.mod.
func moduleRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// FindGraph returns the path of the named real graph (e.g. "NY.gr") in the first of
// $GWORKBENCH_GRAPHS, testdata/graphs and ../shared/data that has it, or "".
func FindGraph(name string) string {
	for _, dir := range graphDirs() {
		p := filepath.Join(dir, name)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

// LoadGraph reads a graph file with loader.Load and its default options.
func LoadGraph(path string) (*graph.CSR, error) {
	return loader.Load(context.Background(), path, loader.DefaultOptions())
}

// WithUniformWeights returns g itself when it is weighted, else a copy sharing g's structure
// with weights drawn uniformly from lo..hi (the same weight on both arcs of an undirected
// edge), from seed.
func WithUniformWeights(g *graph.CSR, lo, hi int32, seed uint64) *graph.CSR {
	if g.Weights != nil {
		return g
	}
	w := make([]int32, len(g.Neighbors))
	n := g.NumVertices()
	for u := 0; u < n; u++ {
		for i := g.Offsets[u]; i < g.Offsets[u+1]; i++ {
			v := g.Neighbors[i]
			a, b := uint64(min(uint32(u), v)), uint64(max(uint32(u), v))
			h := graph.Mix64(seed ^ a<<32 ^ b)
			w[i] = lo + int32(h%uint64(hi-lo+1))
		}
	}
	out := &graph.CSR{Offsets: g.Offsets, Neighbors: g.Neighbors, Weights: w, Directed: g.Directed, IDs: g.IDs, Origin: g.Origin}
	out.Origin.WeightsGenerated = fmt.Sprintf("uniform:%d:%d seed=%d", lo, hi, seed)
	return out
}

// Params returns the parameters the suite runs an algorithm with: the defaults, with PageRank
// converged further than its default tolerance so that every PageRank variant (Jacobi,
// Gauss-Seidel, push, residual) lands within engine.PRTolerance of the reference.
func Params(a engine.Algorithm) engine.Params {
	p := engine.DefaultParams()
	if a == engine.PR {
		p.Tolerance, p.MaxIter = 1e-6, 1000
	}
	return p
}

// refParams tightens PageRank further for the oracle.
func refParams(a engine.Algorithm) engine.Params {
	p := Params(a)
	if a == engine.PR {
		p.Tolerance = 1e-9
	}
	return p
}

// Schedules lists the schedules the suite runs algorithm a with on the engine: the cross
// products of the engine's Space (see engine.Spacer) with the engine knobs (workers, chunk,
// split) rotated through them, or, for an engine without Spacer, the default schedule and
// every single-knob change of it from the knob table. Schedules that Validate refuses are
// dropped. The second result reports whether ErrUnsupported is a failure (the engine listed
// the schedule itself).
func Schedules(e engine.Engine, a engine.Algorithm) ([]engine.Schedule, bool) {
	name := e.Name()
	var out []engine.Schedule
	seen := map[string]bool{}
	add := func(s engine.Schedule) {
		if s.Validate(a, name) != nil {
			return
		}
		if k := s.String(); !seen[k] {
			seen[k] = true
			out = append(out, s)
		}
	}
	sp, ok := e.(engine.Spacer)
	if !ok {
		add(engine.Schedule{})
		for _, k := range engine.Knobs() {
			if !k.AppliesTo(a, name) {
				continue
			}
			for _, v := range k.Values {
				var s engine.Schedule
				if s.Set(k.Name, v) == nil {
					add(s)
				}
			}
		}
		return out, false
	}
	isEngineKnob := map[string]bool{}
	for _, k := range engine.EngineKnobs() {
		isEngineKnob[k] = true
	}
	rot := 0
	for _, sub := range sp.Space(a) {
		var algAxes, engAxes []engine.Axis
		for _, ax := range sub {
			if isEngineKnob[ax.Knob] {
				engAxes = append(engAxes, ax)
			} else {
				algAxes = append(algAxes, ax)
			}
		}
		cross(algAxes, func(s engine.Schedule) {
			// Rotate the engine knobs as a mixed-radix counter, so that over the
			// combinations every mix of them comes round.
			div := 1
			for _, ax := range engAxes {
				_ = s.Set(ax.Knob, ax.Values[(rot/div)%len(ax.Values)])
				div *= len(ax.Values)
			}
			if s.Validate(a, name) != nil {
				for _, ax := range engAxes {
					_ = s.Set(ax.Knob, "auto")
				}
			}
			rot++
			add(s)
		})
		// And every engine-knob value once under the subspace's first schedule.
		for _, ax := range engAxes {
			for _, v := range ax.Values {
				var s engine.Schedule
				for _, alg := range algAxes {
					_ = s.Set(alg.Knob, alg.Values[0])
				}
				_ = s.Set(ax.Knob, v)
				add(s)
			}
		}
	}
	return out, true
}

// cross calls f with every schedule of the cross product of axes (values in text form).
func cross(axes []engine.Axis, f func(engine.Schedule)) {
	var rec func(i int, s engine.Schedule)
	rec = func(i int, s engine.Schedule) {
		if i == len(axes) {
			f(s)
			return
		}
		for _, v := range axes[i].Values {
			t := s
			if err := t.Set(axes[i].Knob, v); err != nil {
				panic(fmt.Sprintf("enginetest: engine space lists %s=%s: %v", axes[i].Knob, v, err))
			}
			rec(i+1, t)
		}
	}
	rec(0, engine.Schedule{})
}

// Run checks the named engine: for each algorithm, each graph of the matrix and each schedule
// of Schedules, the engine's result must Verify against engine/ref's, its resolved schedule
// must leave no knob auto that the engine resolved, and its trace must have streamed to the
// observer record for record. In -short mode only every third schedule runs (rotating with
// the graph, so that the matrix still covers every schedule). Graphs over 20,000 vertices
// (in -short mode, over 2,000) take the default schedule and about eight others spread over
// the list (see sampled), and skip chunks under 64.
func Run(t *testing.T, engineName string, algorithms ...engine.Algorithm) {
	t.Helper()
	e, err := engine.Open(engineName)
	if err != nil {
		t.Skipf("engine %s: %v", engineName, err)
	}
	ref, err := engine.Open("ref")
	if err != nil {
		t.Fatal(err)
	}
	graphs := Graphs(t)
	for _, a := range algorithms {
		t.Run(string(a), func(t *testing.T) {
			scheds, strict := Schedules(e, a)
			if len(scheds) == 0 {
				t.Fatalf("%s on %s: no valid schedule", a, engineName)
			}
			for gi, c := range graphs {
				want, err := ref.Run(context.Background(), engine.Request{Graph: c.G, GraphName: c.Name, Algorithm: a, Params: refParams(a)})
				if err != nil {
					if engineName != "ref" && c.G.NumVertices() > 0 {
						t.Fatalf("%s: ref: %v", c.Name, err)
					}
					continue
				}
				t.Run(c.Name, func(t *testing.T) {
					for si, s := range scheds {
						if testing.Short() && (si+gi)%3 != 0 && si != 0 && c.G.NumVertices() <= 2000 {
							continue
						}
						bigN := 20000
						if testing.Short() {
							bigN = 2000 // the real graphs, under -race
						}
						if big := c.G.NumVertices() > bigN; big && (s.Chunk > 0 && s.Chunk < 64 || !sampled(si, gi, len(scheds))) {
							continue // the small graphs take every schedule; NY would take minutes
						}
						runOne(t, e, c, a, s, want, strict)
					}
				})
			}
		})
	}
}

// sampled picks schedule si of n for a big graph (index gi): the first, and about eight
// others evenly spread, the offset turning with the graph.
func sampled(si, gi, n int) bool {
	if si == 0 {
		return true
	}
	step := max(1, n/8)
	return (si+gi)%step == 0
}

func runOne(t *testing.T, e engine.Engine, c Case, a engine.Algorithm, s engine.Schedule, want *engine.Result, strict bool) {
	t.Helper()
	var streamed []engine.Record
	req := engine.Request{Graph: c.G, GraphName: c.Name, Algorithm: a, Params: Params(a), Schedule: s,
		Observer: func(r engine.Record) { streamed = append(streamed, r) }}
	got, err := e.Run(context.Background(), req)
	if err != nil {
		if errors.Is(err, engine.ErrUnsupported) && !strict {
			return
		}
		t.Errorf("%s %s [%s]: %v", a, c.Name, s, err)
		return
	}
	if err := engine.Verify(c.G, got, want); err != nil {
		t.Errorf("%s %s [%s] (resolved %s): %v", a, c.Name, s, got.Schedule, err)
		return
	}
	if len(streamed) != len(got.Trace.Records) {
		t.Errorf("%s %s [%s]: %d records streamed to the observer, %d in the trace", a, c.Name, s, len(streamed), len(got.Trace.Records))
	}
	if got.Params.Src < 0 && a.Traversal() {
		t.Errorf("%s %s [%s]: result's src is still auto", a, c.Name, s)
	}
	// The resolved schedule is what ran, so it must be one a user could ask for again.
	if err := got.Schedule.Validate(a, e.Name()); err != nil {
		t.Errorf("%s %s [%s]: resolved schedule %s is refused by Validate: %v", a, c.Name, s, got.Schedule, err)
	}
}
