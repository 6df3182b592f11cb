//go:build cuda

package gpu_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/engine/enginetest"
	"github.com/gworkbench/gworkbench/engine/gpu"
	"github.com/gworkbench/gworkbench/graph"
)

// The GPU engine's triangle counting, betweenness centrality, MIS and MST, checked against
// engine/ref on the conformance matrix (plus the hub graphs of gpu_test.go) under every
// schedule they implement. Run them alone with -test.run 'TC|BC|MIS|MST'.

// fourAlgsSchedules lists the schedules each of the four (TC, BC, MIS, MST) runs, in the knobs' text form.
var fourAlgsSchedules = map[engine.Algorithm][]string{
	engine.TC: tcSchedules(),
	engine.BC: {"", "direction=push", "direction=pull", "driven=topology", "direction=push driven=topology",
		"direction=pull driven=topology", "fuse=off", "fuse=off direction=push", "fuse=off direction=pull",
		"fuse=off lb=thread", "fuse=off lb=thread direction=push", "fuse=off lb=thread direction=pull",
		"lb=thread driven=topology", "fuse=off alpha=1 beta=2", "fuse=off alpha=1 beta=2 lb=thread",
		"lb=thread", "lb=warp", "lb=cta", "alpha=1 beta=2", "lb=warp direction=pull", "lb=cta direction=push",
		"fuse=on", "fuse=on lb=thread", "fuse=on lb=warp direction=pull", "fuse=on alpha=1 beta=2",
		"lb=twc", "lb=twc direction=push", "lb=twc direction=pull", "lb=twc alpha=1 beta=2",
		"batch=1", "batch=3", "batch=32 fuse=off"},
	engine.MIS: {"", "method=luby", "method=ecl fuse=on", "method=ecl fuse=off", "direction=pull", "driven=topology", "direction=pull driven=topology", "sync=async",
		"sync=async direction=pull", "sync=async driven=topology", "sync=async direction=pull driven=topology"},
	engine.MST: {"", "method=boruvka", "fuse=on", "fuse=off", "driven=topology"},
}

// bcAllSchedules are the BC schedules run with sources=all.
var bcAllSchedules = map[string]bool{"": true, "fuse=on": true, "fuse=off": true, "batch=1": true, "batch=3": true, "batch=32 fuse=off": true}

// tcSchedules crosses order, intersect and lb with relabel off, and degree order with relabel on
// and auto, and adds lb=thread (in place). lb=auto resolves to edge, or thread on sparse even
// graphs in id order.
func tcSchedules() []string {
	out := []string{"", "lb=thread", "lb=thread order=id"}
	for _, lb := range []string{"", " lb=edge"} {
		for _, is := range []string{"merge", "binary", "hash"} {
			for _, o := range []string{"degree", "id", "none"} {
				out = append(out, "order="+o+" relabel=off intersect="+is+lb)
			}
			for _, rl := range []string{"on", "auto"} {
				out = append(out, "order=degree relabel="+rl+" intersect="+is+lb)
			}
		}
	}
	return out
}

func sched(t testing.TB, s string) engine.Schedule {
	t.Helper()
	sch, err := parseSched(s)
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// fourAlgsCases is the conformance matrix plus the hub graphs (a vertex of 120,000 neighbours),
// which -short leaves out.
func fourAlgsCases(t *testing.T) []enginetest.Case {
	cs := enginetest.Graphs(t)
	if testing.Short() {
		return cs
	}
	return append(cs, enginetest.Case{Name: "hub", G: hub(t, false)}, enginetest.Case{Name: "hub-directed", G: hub(t, true)})
}

// runFourAlgs runs algorithm a on every case under every schedule (and extra params) and checks
// the result against engine/ref, the trace's streaming, and the kernels' timing records.
func runFourAlgs(t *testing.T, a engine.Algorithm, params []engine.Params) {
	e := openGPU(t)
	ref, err := engine.Open("ref")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range fourAlgsCases(t) {
		t.Run(c.Name, func(t *testing.T) { runFourAlgsCase(t, e, ref, c, a, params) })
	}
}

// runFourAlgsCase checks one graph of the matrix.
func runFourAlgsCase(t *testing.T, e, ref engine.Engine, c enginetest.Case, a engine.Algorithm, params []engine.Params) {
	for _, p := range params {
		if a == engine.BC && p.Sources < 0 && (c.G.NumVertices() > 2000 || testing.Short() && c.G.NumVertices() > 320) {
			continue // all sources: the small graphs (-short: the smallest)
		}
		want, err := ref.Run(context.Background(), engine.Request{Graph: c.G, GraphName: c.Name, Algorithm: a, Params: p})
		if err != nil {
			if c.G.NumVertices() == 0 {
				continue
			}
			t.Fatalf("%s %s: ref: %v", a, c.Name, err)
		}
		// method=ecl's MIS (auto's choice) takes degree-aware priorities: the same set as
		// engine/ref's greedy under them
		wantECL := want
		if a == engine.MIS {
			if wantECL, err = ref.Run(context.Background(), engine.Request{Graph: c.G, GraphName: c.Name, Algorithm: a, Params: p,
				Schedule: engine.Schedule{Method: engine.ECL}}); err != nil {
				t.Fatalf("%s %s: ref method=ecl: %v", a, c.Name, err)
			}
		}
		for _, ss := range fourAlgsSchedules[a] {
			if a == engine.BC && p.Sources < 0 && !bcAllSchedules[ss] {
				continue // every vertex a source: the batches and one source at a time, fused or not
			}
			name := fmt.Sprintf("%s %s sources=%s seed=%d [%s]", a, c.Name, p.Get("sources"), p.Seed, ss)
			var streamed int
			req := engine.Request{Graph: c.G, GraphName: c.Name, Algorithm: a, Params: p, Schedule: sched(t, ss),
				Observer: func(engine.Record) { streamed++ }}
			got, err := e.Run(context.Background(), req)
			if err != nil && a == engine.MST && c.G.Directed && errors.Is(err, engine.ErrUnsupported) && strings.Contains(ss, "fuse=on") {
				continue // fuse=on is method=ecl's, which keeps undirected edges
			}
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			w := want
			if got.Schedule.Method == engine.ECL {
				w = wantECL
			}
			if err := engine.Verify(c.G, got, w); err != nil {
				t.Errorf("%s (resolved %s): %v", name, got.Schedule.Relevant(a, "gpu"), err)
				continue
			}
			if streamed != len(got.Trace.Records) {
				t.Errorf("%s: %d records streamed, %d in the trace", name, streamed, len(got.Trace.Records))
			}
			checkKernels(t, name, a, got)
		}
	}
}

// checkKernels wants every iteration record but the empty ones to carry timed kernels named
// after the algorithm, and no auto left in the knobs the driver resolves.
func checkKernels(t *testing.T, name string, a engine.Algorithm, res *engine.Result) {
	t.Helper()
	iters := 0
	for _, rec := range res.Trace.Records {
		if rec.Kind != engine.IterationRecord {
			continue
		}
		iters++
		for _, k := range rec.Kernels {
			if !strings.HasPrefix(k.Name, string(a)+"_") || k.Grid < 1 || k.Block != 256 || k.Time <= 0 {
				t.Errorf("%s: iteration %d: odd kernel %+v", name, rec.Iter, k)
			}
		}
	}
	if iters == 0 {
		t.Errorf("%s: no iteration records", name)
	}
	s := res.Schedule
	if s.Method == engine.ECL {
		return // the ECL methods have no round knobs to resolve
	}
	if s.LB == engine.LBAuto || (a == engine.TC && (s.Order == engine.OrderAuto || s.Intersect == engine.IntersectAuto || s.Relabel == engine.RelabelAuto)) ||
		(a != engine.TC && s.Driven == engine.DrivenAuto) {
		t.Errorf("%s: resolved schedule still has auto knobs: %s", name, s.Relevant(a, "gpu"))
	}
}

func TestTC(t *testing.T) { runFourAlgs(t, engine.TC, []engine.Params{engine.DefaultParams()}) }

func TestBC(t *testing.T) {
	single := engine.DefaultParams()
	sampled := single
	sampled.Sources, sampled.Seed = 5, 3
	all := single
	all.Sources = -1
	runFourAlgs(t, engine.BC, []engine.Params{single, sampled, all})
}

// TestBCAutoBatch: batch=auto takes several sources a pass on a low-diameter graph (as many as
// there are, up to 32) and one at a time on a road network, a single source or fuse=on; a
// source that runs alone runs fused (fuse=auto) with twc's classes on the kron graph and a
// warp a row on the road network (lb=auto); every result agrees with engine/ref.
func TestBCAutoBatch(t *testing.T) {
	e := openGPU(t)
	ref, _ := engine.Open("ref")
	kron := generate(t, "kron", map[string]string{"scale": "11", "degree": "8"})
	road := generate(t, "road", map[string]string{"rows": "100", "cols": "100"})
	for _, c := range []struct {
		name    string
		g       *graph.CSR
		sources int
		sched   string
		want    int
		fused   bool
	}{
		{"kron", kron, 40, "", 32, false}, {"kron", kron, 5, "", 5, false}, {"kron", kron, 0, "", 1, true},
		{"kron", kron, 40, "fuse=on", 1, true}, {"kron", kron, 40, "lb=twc", 1, true}, {"kron", kron, 40, "lb=warp", 32, false},
		{"road", road, 40, "", 1, true}, {"road", road, 40, "fuse=off", 1, false},
	} {
		p := engine.DefaultParams()
		p.Sources, p.Seed = c.sources, 7
		got, err := e.Run(context.Background(), engine.Request{Graph: c.g, Algorithm: engine.BC, Params: p, Schedule: sched(t, c.sched)})
		if err != nil {
			t.Fatalf("%s sources=%d [%s]: %v", c.name, c.sources, c.sched, err)
		}
		if got.Schedule.Batch != c.want {
			t.Errorf("%s sources=%d [%s]: batch=%d, want %d", c.name, c.sources, c.sched, got.Schedule.Batch, c.want)
		}
		wantLB := engine.LBTWC // fused: twc on dense graphs, a warp a row on sparse ones
		if c.g == road {
			wantLB = engine.LBWarp
		}
		if fused := got.Schedule.Fuse == engine.FuseOn; fused != c.fused || (fused && c.sched == "" && got.Schedule.LB != wantLB) {
			t.Errorf("%s sources=%d [%s]: resolved fuse=%s lb=%s, want fused %v (lb=%s by default)", c.name, c.sources, c.sched, got.Schedule.Fuse, got.Schedule.LB, c.fused, wantLB)
		}
		want, err := ref.Run(context.Background(), engine.Request{Graph: c.g, Algorithm: engine.BC, Params: p})
		if err != nil {
			t.Fatal(err)
		}
		if err := engine.Verify(c.g, got, want); err != nil {
			t.Errorf("%s sources=%d [%s]: %v", c.name, c.sources, c.sched, err)
		}
	}
}

// TestBCGridLevels runs the fused BC's load-balancing strategies and directions on every test
// graph, and batches of 32 sources with a partial last one.
func TestBCGridLevels(t *testing.T) {
	single := engine.DefaultParams()
	sampled := single
	sampled.Sources, sampled.Seed = 40, 5
	e := openGPU(t)
	ref, _ := engine.Open("ref")
	for _, c := range fourAlgsCases(t) {
		if c.Real && c.G.NumVertices() > 50000 {
			continue
		}
		for _, p := range []engine.Params{single, sampled} {
			want, err := ref.Run(context.Background(), engine.Request{Graph: c.G, Algorithm: engine.BC, Params: p})
			if err != nil {
				continue // the empty graph
			}
			for _, ss := range []string{"fuse=on", "fuse=on direction=push", "fuse=on direction=pull", "fuse=on lb=thread", "lb=cta", "fuse=on lb=warp", "lb=twc", "lb=twc alpha=1 beta=2", "batch=1 lb=thread fuse=on"} {
				name := fmt.Sprintf("bc %s sources=%s [%s]", c.Name, p.Get("sources"), ss)
				got, err := e.Run(context.Background(), engine.Request{Graph: c.G, Algorithm: engine.BC, Params: p, Schedule: sched(t, ss)})
				if err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				if err := engine.Verify(c.G, got, want); err != nil {
					t.Errorf("%s (resolved %s): %v", name, got.Schedule.Relevant(engine.BC, "gpu"), err)
				}
			}
		}
	}
}

// TestBCOnesAndRanks runs the fused BC's counted level (a pulled level whose members' sigma
// are all 1) and its ranked backward levels (added into a dense array at the predecessors'
// ranks, which the engine takes on graphs past L2 and the test turns on for every graph), on
// every test graph and on two multigraphs whose parallel arcs from the source give level 1
// sigma of 2, which a count would miss; every result agrees with engine/ref.
func TestBCOnesAndRanks(t *testing.T) {
	e := openGPU(t)
	ref, _ := engine.Open("ref")
	defer gpu.SetBCRanks(e, gpu.SetBCRanks(e, true))
	// 0 -> 1 twice, 0 -> 2, then 1, 2 -> 3 -> 4 and 1 -> 4, 4 -> 5: sigma(1) = 2, sigma(3) = 3
	multi := &graph.CSR{Offsets: []int64{0, 3, 5, 6, 7, 8, 8}, Neighbors: []uint32{1, 1, 2, 3, 4, 3, 4, 5}, Directed: true}
	// the same arcs both ways, the parallel pair too
	sym := &graph.CSR{Offsets: []int64{0, 3, 7, 9, 12, 15, 16}, Neighbors: []uint32{1, 1, 2, 0, 0, 3, 4, 0, 3, 1, 2, 4, 1, 3, 5, 4}}
	cases := []enginetest.Case{{Name: "multi-d", G: multi}, {Name: "multi-u", G: sym}}
	for _, c := range fourAlgsCases(t) {
		if !c.Real || c.G.NumVertices() <= 50000 {
			cases = append(cases, c)
		}
	}
	single := engine.DefaultParams()
	single.Src = 0
	for _, c := range cases {
		for _, p := range []engine.Params{single, engine.DefaultParams()} {
			want, err := ref.Run(context.Background(), engine.Request{Graph: c.G, Algorithm: engine.BC, Params: p})
			if err != nil {
				continue // the empty graph
			}
			for _, ss := range []string{"fuse=on", "fuse=on direction=push", "fuse=on direction=pull", "fuse=on lb=warp direction=pull"} {
				name := fmt.Sprintf("bc %s src=%s [%s]", c.Name, p.Get("src"), ss)
				got, err := e.Run(context.Background(), engine.Request{Graph: c.G, Algorithm: engine.BC, Params: p, Schedule: sched(t, ss)})
				if err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				if err := engine.Verify(c.G, got, want); err != nil {
					t.Errorf("%s: %v", name, err)
				}
			}
		}
	}
}

func TestMIS(t *testing.T) {
	p1 := engine.DefaultParams()
	p7 := p1
	p7.Seed = 7
	runFourAlgs(t, engine.MIS, []engine.Params{p1, p7})
}

func TestMST(t *testing.T) { runFourAlgs(t, engine.MST, []engine.Params{engine.DefaultParams()}) }

// TestTCVertexLB runs lb=vertex by name (auto is lb=edge), and checks that the traversals
// refuse it.
func TestTCVertexLB(t *testing.T) {
	e := openGPU(t)
	ref, _ := engine.Open("ref")
	g := enginetest.Graphs(t)[0].G
	want, err := ref.Run(context.Background(), engine.Request{Graph: g, Algorithm: engine.TC, Params: engine.DefaultParams()})
	if err != nil {
		t.Fatal(err)
	}
	got, err := e.Run(context.Background(), engine.Request{Graph: g, Algorithm: engine.TC, Params: engine.DefaultParams(), Schedule: sched(t, "lb=vertex")})
	if err != nil {
		t.Fatal(err)
	}
	if err := engine.Verify(g, got, want); err != nil {
		t.Error(err)
	}
	if _, err := e.Run(context.Background(), engine.Request{Graph: g, Algorithm: engine.BFS, Params: engine.DefaultParams(), Schedule: sched(t, "lb=vertex")}); !errors.Is(err, engine.ErrUnsupported) {
		t.Errorf("bfs lb=vertex: got %v, want ErrUnsupported", err)
	}
}

// TestTCBCMISMSTUnsupported checks that schedules outside what the drivers run are refused
// with ErrUnsupported, never run as something else.
func TestTCBCMISMSTUnsupported(t *testing.T) {
	e := openGPU(t)
	g := enginetest.Graphs(t)[0].G
	for _, c := range []struct {
		a engine.Algorithm
		s string
	}{
		{engine.BC, "driven=hybrid"}, {engine.BC, "frontier=bitmap"}, {engine.BC, "lb=edge"}, {engine.BC, "fuse=off lb=twc"}, {engine.BC, "lb=cta fuse=off"},
		{engine.BC, "fuse=on driven=topology"}, {engine.BC, "batch=33"},
		{engine.MIS, "driven=hybrid"}, {engine.MIS, "dedup=cull"}, {engine.MIS, "lb=warp"},
		{engine.MST, "driven=hybrid"}, {engine.MST, "frontier=boolmap"},
	} {
		s := sched(t, c.s)
		_, err := e.Run(context.Background(), engine.Request{Graph: g, Algorithm: c.a, Params: engine.DefaultParams(), Schedule: s})
		if verr := s.Validate(c.a, "gpu"); verr != nil {
			// Refused for every engine by the contract: the run must give that sentence.
			if err == nil || err.Error() != verr.Error() {
				t.Errorf("%s [%s]: got %v, want Validate's refusal %q", c.a, c.s, err, verr)
			}
			continue
		}
		if !errors.Is(err, engine.ErrUnsupported) {
			t.Errorf("%s [%s]: got %v, want ErrUnsupported", c.a, c.s, err)
		}
	}
}

// TestConformanceTCBCMISMST runs triangle counting, betweenness centrality, MIS and MST under
// every schedule of the engine's Space (space.go) on the conformance matrix against
// engine/ref, as TestConformance does for the four traversals.
func TestConformanceTCBCMISMST(t *testing.T) {
	openGPU(t)
	enginetest.Run(t, "gpu", engine.TC, engine.BC, engine.MIS, engine.MST)
}

// TestECLVariants runs the ECL methods' other paths on the conformance matrix against
// engine/ref: MST's host rounds handing over to the cooperative tail at a small worklist (one
// and three rounds between read-backs), CC's method=ecl (auto takes it on road graphs only), and
// MIS's and CC's 64-bit kernels, each also fused.
func TestECLVariants(t *testing.T) {
	e := openGPU(t)
	ref, _ := engine.Open("ref")
	defer gpu.SetMSTECL(e, 0, 0)
	defer gpu.SetWide(e, gpu.SetWide(e, false))
	type variant struct {
		name  string
		alg   engine.Algorithm
		sched string
		set   func()
	}
	none := func() {}
	wide := func() { gpu.SetWide(e, true) }
	variants := []variant{
		{"mst look=1 tail=16", engine.MST, "method=ecl", func() { gpu.SetMSTECL(e, 1, 16) }},
		{"mst look=3 tail=64", engine.MST, "method=ecl", func() { gpu.SetMSTECL(e, 3, 64) }},
		{"mis wide", engine.MIS, "method=ecl", wide},
		{"mis wide fused", engine.MIS, "method=ecl fuse=on", wide},
		{"cc", engine.CC, "method=ecl", none},
		{"cc fused", engine.CC, "method=ecl fuse=on", none},
		{"cc wide", engine.CC, "method=ecl", wide},
		{"cc wide fused", engine.CC, "method=ecl fuse=on", wide},
	}
	for _, c := range enginetest.Graphs(t) {
		if c.G.NumVertices() == 0 || c.G.Directed {
			continue
		}
		for _, v := range variants {
			gpu.SetMSTECL(e, 0, 0)
			gpu.SetWide(e, false)
			v.set()
			req := engine.Request{Graph: c.G, GraphName: c.Name, Algorithm: v.alg, Params: engine.DefaultParams(),
				Schedule: engine.Schedule{Method: engine.ECL}}
			want, err := ref.Run(context.Background(), req)
			if err != nil {
				t.Fatalf("%s %s: ref: %v", v.name, c.Name, err)
			}
			req.Schedule = sched(t, v.sched)
			got, err := e.Run(context.Background(), req)
			if err != nil {
				t.Errorf("%s %s: %v", v.name, c.Name, err)
				continue
			}
			if err := engine.Verify(c.G, got, want); err != nil {
				t.Errorf("%s %s: %v", v.name, c.Name, err)
			}
			checkKernels(t, v.name+" "+c.Name, v.alg, got)
		}
	}
}

// TestMSTECLDirected checks that method=ecl refuses a directed graph (its worklist keeps an
// edge as one arc u->v with u < v) and that auto runs Boruvka there.
func TestMSTECLDirected(t *testing.T) {
	e := openGPU(t)
	ref, _ := engine.Open("ref")
	for _, c := range enginetest.Graphs(t) {
		if !c.G.Directed || c.G.NumVertices() == 0 {
			continue
		}
		_, err := e.Run(context.Background(), engine.Request{Graph: c.G, Algorithm: engine.MST, Params: engine.DefaultParams(), Schedule: sched(t, "method=ecl")})
		if !errors.Is(err, engine.ErrUnsupported) {
			t.Errorf("mst %s method=ecl: got %v, want ErrUnsupported", c.Name, err)
		}
		got, err := e.Run(context.Background(), engine.Request{Graph: c.G, Algorithm: engine.MST, Params: engine.DefaultParams()})
		if err != nil {
			t.Fatalf("mst %s: %v", c.Name, err)
		}
		if got.Schedule.Method != engine.Boruvka {
			t.Errorf("mst %s: auto resolved to method=%s on a directed graph, want boruvka", c.Name, got.Schedule.Method)
		}
		want, err := ref.Run(context.Background(), engine.Request{Graph: c.G, Algorithm: engine.MST, Params: engine.DefaultParams()})
		if err != nil {
			t.Fatal(err)
		}
		if err := engine.Verify(c.G, got, want); err != nil {
			t.Errorf("mst %s: %v", c.Name, err)
		}
		return
	}
	t.Skip("no directed graph in the matrix")
}
