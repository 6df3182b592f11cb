package session

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gworkbench/gworkbench/engine"
	_ "github.com/gworkbench/gworkbench/engine/cpu"
	_ "github.com/gworkbench/gworkbench/engine/gpu"
	_ "github.com/gworkbench/gworkbench/engine/ref"
	"github.com/gworkbench/gworkbench/loader"
)

// newTest returns a session on the cpu engine with a small path graph "p" (0-1-2-3, 4 isolated).
func newTest(t *testing.T) (*Session, *bytes.Buffer) {
	t.Helper()
	var out bytes.Buffer
	s := New(Options{Out: &out})
	g, err := loader.FromEdges(5, []loader.Edge{{U: 0, V: 1, W: 2}, {U: 1, V: 2, W: 3}, {U: 2, V: 3, W: 1}}, false, true)
	if err != nil {
		t.Fatal(err)
	}
	s.AddGraph("p", g, "")
	return s, &out
}

// do runs line and fails the test on an error; it returns what the line printed.
func do(t *testing.T, s *Session, out *bytes.Buffer, line string) string {
	t.Helper()
	out.Reset()
	if err := s.Exec(context.Background(), line); err != nil {
		t.Fatalf("%q: unexpected error: %v\noutput:\n%s", line, err, out.String())
	}
	return out.String()
}

func mustContain(t *testing.T, what, got string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Errorf("%s: output lacks %q; got:\n%s", what, w, got)
		}
	}
}

// needEngine skips a test whose engine does not yet implement alg.
func needEngine(t *testing.T, name string, alg engine.Algorithm) {
	t.Helper()
	e, err := engine.Open(name)
	if err != nil {
		t.Skip(err)
	}
	g, _ := loader.FromEdges(2, []loader.Edge{{U: 0, V: 1, W: 1}}, false, true)
	_, err = e.Run(context.Background(), engine.Request{Graph: g, Algorithm: alg, Params: engine.DefaultParams()})
	if errors.Is(err, engine.ErrUnsupported) {
		t.Skipf("%s engine: %v", name, err)
	}
}

func TestGraphCommands(t *testing.T) {
	s, out := newTest(t)
	mustContain(t, "gen", do(t, s, out, "gen k = kron scale=6 degree=4"), "k: 64 vertices")
	mustContain(t, "graphs", do(t, s, out, "graphs"), "*k", "p", "undirected")
	mustContain(t, "use", do(t, s, out, "use p"), "using p")
	mustContain(t, "info", do(t, s, out, "info"), "vertices     5", "isolated     1", "out-degree histogram")
	mustContain(t, "info k", do(t, s, out, "info k"), "made by      gen kron")
	mustContain(t, "gen auto name", do(t, s, out, "gen grid rows=3 cols=4"), "grid: 12 vertices")
	mustContain(t, "drop", do(t, s, out, "drop grid"), "dropped graph grid", "current graph: k")
	if got := len(s.Graphs()); got != 2 {
		t.Errorf("graphs after drop: got %d want 2", got)
	}
	for _, g := range s.Graphs() {
		if g.Current != (g.Name == "k") {
			t.Errorf("graph %s: Current=%v", g.Name, g.Current)
		}
	}
}

func TestSetAndShow(t *testing.T) {
	s, out := newTest(t)
	mustContain(t, "set", do(t, s, out, "set direction=pull engine=ref src=1"), "direction=pull engine=ref src=1")
	e, sc := s.Settings()
	if e != "ref" || sc.Direction != engine.Pull {
		t.Errorf("settings: got %s %v, want ref pull", e, sc.Direction)
	}
	mustContain(t, "show", do(t, s, out, "show settings"), "engine  ref", "*direction", "*src")
	if err := s.Set("direction", "auto"); err != nil {
		t.Fatal(err)
	}
	if _, sc := s.Settings(); sc.Direction != engine.DirAuto {
		t.Errorf("Set direction=auto: got %v", sc.Direction)
	}
	mustContain(t, "reset", do(t, s, out, "reset"), "every knob auto")
	if e, sc := s.Settings(); e != "cpu" || sc != (engine.Schedule{}) {
		t.Errorf("after reset: %s %v", e, sc)
	}
	// A session default that does not apply to an algorithm is dropped for it, not refused.
	do(t, s, out, "set engine=ref direction=pull")
	mustContain(t, "tc with direction=pull default", do(t, s, out, "run tc"), "tc1 tc on p [ref, serial]")
}

func TestRunParamsAndKnobs(t *testing.T) {
	s, out := newTest(t)
	o := do(t, s, out, "run bfs src=0 direction=push as b")
	mustContain(t, "run", o, "b bfs on p [cpu]: reached 4 of 5 vertices from 0, max depth 3", "iter", "schedule:", "params: src=0")
	rs := s.Results()
	if len(rs) != 1 || rs[0].Name != "b" {
		t.Fatalf("results: %+v", rs)
	}
	r := rs[0].R
	if r.Params.Src != 0 || r.Schedule.Direction != engine.Push {
		t.Errorf("dispatch: src=%d direction=%v, want 0 push", r.Params.Src, r.Schedule.Direction)
	}
	if s.LastAlgorithm() != engine.BFS {
		t.Errorf("LastAlgorithm: %q", s.LastAlgorithm())
	}
	do(t, s, out, "run bfs")
	if rs := s.Results(); rs[len(rs)-1].Name != "bfs1" {
		t.Errorf("auto name: got %s want bfs1", rs[len(rs)-1].Name)
	}
	o = do(t, s, out, "run bfs repeat=3 src=0")
	mustContain(t, "repeat", o, "after 1 warm-up", "3 runs", "median")
	mustContain(t, "verify", do(t, s, out, "verify b"), "b: bfs agrees with the reference engine")
	mustContain(t, "trace", do(t, s, out, "trace b"), "iter", "push", "scanned")
	o = do(t, s, out, "trace b 1:2")
	if n := strings.Count(o, "  push  "); n != 2 {
		t.Errorf("trace b 1:2: %d rows, want 2:\n%s", n, o)
	}
	mustContain(t, "trace switches", do(t, s, out, "trace b switches"), "(no switches or phases: the run kept one direction and mode)")
	if err := s.Exec(context.Background(), "trace b 5:1"); err == nil {
		t.Errorf("trace b 5:1: no error")
	}
	mustContain(t, "results", do(t, s, out, "results"), "b ", "bfs1", "bfs2", "ok")
	mustContain(t, "plot", do(t, s, out, "plot b"), "b: bfs on p")
	mustContain(t, "drop result", do(t, s, out, "drop b"), "dropped result b")
}

func TestErrorsChangeNothing(t *testing.T) {
	s, out := newTest(t)
	do(t, s, out, "run bfs src=0 as keep")
	do(t, s, out, "set direction=push")
	cases := []struct{ line, want string }{
		{"frobnicate", `unknown command "frobnicate"`},
		{"rnu bfs", `did you mean "run"?`},
		{"run", "want an algorithm"},
		{"run bfss", `did you mean "bfs"?`},
		{"run bfs dirction=pull", `did you mean "direction"?`},
		{"run bfs direction=sideways", "not a value of direction"},
		{"run bfs damping=0.5", "damping is a parameter of pr, not of bfs"},
		{"run bfs update=rw driven=topology dedup=atomic", "dedup=atomic only means something for a data-driven run"},
		{"run pr update=rw", "update=rw needs a monotonic algorithm"},
		{"run bfs src=99", "src=99 is not a vertex"},
		{"run bfs engine=gpx", `did you mean "gpu"?`},
		{"run bfs engine=gpu", gpuErr()},
		{"run bfs repeat=0", "repeat=0"},
		{"run bfs as last", "reserved"},
		{"run bfs as p", "names a graph"},
		{"run bfs stray", `"stray": want key=value`},
		{"set as x", "want KNOB=VALUE"},
		{"set direction=pull bogus=1", `unknown knob or parameter "bogus"`},
		{"set warmup=0", `warmup= is an option of each run, compare, sweep and tune (run bfs warmup=3), not a session setting`},
		{"set engine=gpu", gpuErr()},
		{"use nothere", `no graph "nothere"`},
		{"info a b", "at most one"},
		{"drop nothere", `no graph or result "nothere"`},
		{"verify nothere", `no result "nothere"`},
		{"trace kep", `did you mean "keep"?`},
		{"gen x = kronn", `did you mean "kron"?`},
		{"gen x = kron scale=abc", "scale"},
		{"load x = /no/such/file.el", "no/such/file.el"},
		{"compare bfs direction=push,sidewayz", "not a value of direction"},
		{"compare bfs direction=push direction=pull", "given twice"},
		{"sweep bfs direction=push", "no range"},
		{"sweep bfs alpha=10:5:1", "runs from a up to b"},
		{"sweep bfs alpha=1:2:0", "step must be positive"},
		{"sweep bfs alpha=1:5:1 beta=2,3 delta=1,2", "at most two knobs at a time"},
		{"export keep values", "want export NAME"},
		{"export keep vals x.csv", `did you mean "values"?`},
		{"export keep trace x.txt", "want a .csv or .json file"},
		{"plot keep x.pdf", "want a .svg, .png or .html"},
		{"report x.txt", "want an .html file"},
		{"open /no/such/session.json", "no such file"},
		{"help frobnicate", "no command, algorithm or knob"},
		{`run bfs "src=0`, "unterminated"},
	}
	for _, c := range cases {
		if c.want == "" {
			continue // engine=gpu works in this build
		}
		out.Reset()
		err := s.Exec(context.Background(), c.line)
		if err == nil {
			t.Errorf("%q: no error; output:\n%s", c.line, out.String())
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %q does not say %q", c.line, err, c.want)
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: error is more than one line: %q", c.line, err)
		}
		rs := s.Results()
		if len(rs) != 1 || rs[0].Name != "keep" {
			t.Fatalf("%q: results changed: %+v", c.line, rs)
		}
		if len(s.Graphs()) != 1 {
			t.Fatalf("%q: graphs changed", c.line)
		}
		if e, sc := s.Settings(); e != "cpu" || sc.Direction != engine.Push {
			t.Fatalf("%q: settings changed: %s %v", c.line, e, sc)
		}
	}
}

func TestLineSyntax(t *testing.T) {
	s, out := newTest(t)
	o := do(t, s, out, "set src=0; run bfs as a # a comment; run bfs as never")
	mustContain(t, "two commands", o, "src=0", "a bfs on p")
	if rs := s.Results(); len(rs) != 1 {
		t.Errorf("the comment ran: %d results", len(rs))
	}
	// The first failing command stops the line.
	err := s.Exec(context.Background(), "run bfs as b; run nope; run bfs as c")
	if err == nil || len(s.Results()) != 2 {
		t.Errorf("stop at first error: err=%v results=%d", err, len(s.Results()))
	}
	if err := s.Exec(context.Background(), "quit"); !errors.Is(err, ErrQuit) {
		t.Errorf("quit: got %v", err)
	}
	if err := s.Exec(context.Background(), "   # only a comment"); err != nil {
		t.Errorf("comment line: %v", err)
	}
}

func TestHelp(t *testing.T) {
	s, out := newTest(t)
	o := do(t, s, out, "help")
	for _, c := range commands {
		mustContain(t, "help", o, c.name)
		h := do(t, s, out, "help "+c.name)
		mustContain(t, "help "+c.name, h, "usage: "+c.usage, "example")
	}
	mustContain(t, "help knob", do(t, s, out, "help direction"), "direction:", "values: auto, push, pull", "example: run")
	mustContain(t, "help alg", do(t, s, out, "help sssp"), "sssp: single-source", "delta")
	mustContain(t, "knobs", do(t, s, out, "knobs"), "direction", "workers")
	mustContain(t, "algorithms", do(t, s, out, "algorithms"), "bfs", "mst", "src=auto")
	mustContain(t, "show engines", do(t, s, out, "show engines"), "cpu", "ref", "available")
	mustContain(t, "show knobs", do(t, s, out, "show knobs"), "direction", "split")
	mustContain(t, "set alone", do(t, s, out, "set"), "engine  cpu", "schedule")
	if got := do(t, s, out, "echo it's a 'lab'  today"); got != "it's a 'lab'  today\n" {
		t.Errorf("echo: got %q", got)
	}
}

func TestRunOnAnotherGraph(t *testing.T) {
	s, out := newTest(t)
	do(t, s, out, "gen k = kron scale=5 degree=4; use p")
	mustContain(t, "graph=", do(t, s, out, "run bfs graph=k"), "bfs1 bfs on k [cpu]")
	if s.currentName() != "p" {
		t.Errorf("graph= changed the current graph")
	}
}

func TestEvents(t *testing.T) {
	var events []Event
	var out bytes.Buffer
	s := New(Options{Out: &out, Observer: func(e Event) { events = append(events, e) }})
	g, _ := loader.FromEdges(3, []loader.Edge{{U: 0, V: 1}, {U: 1, V: 2}}, false, false)
	s.AddGraph("p", g, "")
	if err := s.Exec(context.Background(), "run bfs src=0 as x"); err != nil {
		t.Fatal(err)
	}
	if len(events) < 3 {
		t.Fatalf("got %d events", len(events))
	}
	st, ok := events[0].(RunStarted)
	if !ok || st.Algorithm != engine.BFS || st.Engine != "cpu" || st.Graph != "p" {
		t.Errorf("first event: %#v", events[0])
	}
	if _, ok := events[1].(RunRecord); !ok {
		t.Errorf("second event: %#v", events[1])
	}
	fin, ok := events[len(events)-1].(RunFinished)
	if !ok || fin.Name != "x" || fin.Result == nil || fin.Err != nil {
		t.Errorf("last event: %#v", events[len(events)-1])
	}
	// With repeats: every RunStarted has its RunFinished; only the last is named.
	events = nil
	if err := s.Exec(context.Background(), "run bfs src=0 repeat=2 as y"); err != nil {
		t.Fatal(err)
	}
	var started, finished, named int
	for _, e := range events {
		switch e := e.(type) {
		case RunStarted:
			started++
		case RunFinished:
			finished++
			if e.Name != "" {
				named++
				if e.Name != "y" || e.Result.Summary.Time == 0 {
					t.Errorf("named finish: %#v", e)
				}
			}
		}
	}
	if started != 3 || finished != 3 || named != 1 {
		t.Errorf("repeat=2: %d started, %d finished, %d named; want 3, 3, 1", started, finished, named)
	}
	if _, ok := events[len(events)-1].(RunFinished); !ok {
		t.Errorf("the named finish is not last")
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var out bytes.Buffer
	s := New(Options{Out: &out, Observer: func(e Event) {
		if _, ok := e.(RunRecord); ok {
			cancel()
		}
	}})
	if err := s.Exec(context.Background(), "gen r = road vertices=3000 seed=2"); err != nil {
		t.Fatal(err)
	}
	err := s.Exec(ctx, "run bfs repeat=50")
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want a cancellation", err)
	}
	// The trace so far is kept, marked cancelled (TestCancelledRunKeepsTrace).
	if len(s.Results()) != 1 || !s.results[0].cancelled {
		t.Errorf("a cancelled run left %d results, want one marked cancelled", len(s.Results()))
	}
	if err := s.Exec(context.Background(), "run bfs"); err != nil {
		t.Errorf("the session did not go on after a cancel: %v", err)
	}
}

func TestLoad(t *testing.T) {
	s, out := newTest(t)
	o := do(t, s, out, "load t = testdata/tiny.el")
	mustContain(t, "load", o, "t: 4 vertices, 4 edges, directed")
	mustContain(t, "info", do(t, s, out, "info t"), "testdata/tiny.el", "self-loops", "vertex ids   0..3 as in the file")
	mustContain(t, "load undirected", do(t, s, out, "load testdata/tiny.el undirected"), "tiny: 4 vertices", "undirected")
	mustContain(t, "run on loaded", do(t, s, out, "run bfs src=0; verify"), "reached 4 of 4")
	for _, c := range []struct{ line, want string }{
		{"load b = testdata/bad.mtx", "bad.mtx:5"},
		{"load b = testdata/tiny.el formt=el", `did you mean "format"?`},
		{"load b = testdata/tiny.el as x", "not `as`"},
		{"load", "want a file"},
	} {
		err := s.Exec(context.Background(), c.line)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.line, err, c.want)
		}
	}
	if len(s.Graphs()) != 3 {
		t.Errorf("a failed load changed the graphs: %d", len(s.Graphs()))
	}
}

// gpuErr is what engine=gpu answers in this build ("" where it works, which every error contains).
func gpuErr() string {
	if _, err := engine.Open("gpu"); err != nil {
		return err.Error()
	}
	return ""
}

func TestNames(t *testing.T) {
	s, out := newTest(t)
	do(t, s, out, "run bfs")
	if err := s.Exec(context.Background(), "run bfs src=77"); err == nil {
		t.Fatal("src=77: no error")
	}
	do(t, s, out, "run bfs; run bfs as mine; run bfs; compare bfs direction=push,pull; compare bfs direction=push,pull")
	var names []string
	for _, r := range s.Results() {
		names = append(names, r.Name)
	}
	if got := strings.Join(names, " "); got != "bfs1 bfs2 mine bfs3" {
		t.Errorf("result names: got %q", got)
	}
	mustContain(t, "comparison names", do(t, s, out, "results"), "cmp1:", "cmp2:")
}

// TestAccessorsDuringExec: a view reads the session while a command runs (run with -race).
func TestAccessorsDuringExec(t *testing.T) {
	s, out := newTest(t)
	do(t, s, out, "gen k = kron scale=7 degree=4")
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
				_ = s.Graphs()
				_ = s.Results()
				_, _ = s.Settings()
				_ = s.LastAlgorithm()
				_ = s.Complete("run bfs dir")
			}
		}
	}()
	do(t, s, out, "run bfs; compare bfs direction=push,pull; sweep bfs alpha=5,10; set direction=push")
	close(stop)
	<-done
}

func TestColorAndProgress(t *testing.T) {
	var out bytes.Buffer
	s := New(Options{Out: &out, Color: true, Interactive: true, Width: 80})
	g, _ := loader.FromEdges(3, []loader.Edge{{U: 0, V: 1}, {U: 1, V: 2}}, false, false)
	s.AddGraph("p", g, "")
	if err := s.Exec(context.Background(), "run bfs src=0; compare bfs direction=push,pull"); err != nil {
		t.Fatal(err)
	}
	o := out.String()
	if !strings.Contains(o, "\x1b[1;32mbfs1") && !strings.Contains(o, "\x1b[1m\x1b[32mbfs1") {
		t.Errorf("no colour on a terminal:\n%q", o)
	}
	if !strings.Contains(o, "\r\x1b[K  compare: round 2 of 7") {
		t.Errorf("no progress line on a terminal:\n%q", o)
	}
	for _, l := range strings.Split(o, "\n") {
		if i := strings.LastIndexByte(l, '\r'); i >= 0 {
			l = l[i+1:]
		}
		if w := len([]rune(ansiRE.ReplaceAllString(l, ""))); w > 80 {
			t.Errorf("line wider than 80 (%d): %q", w, l)
		}
	}
	// Not a terminal: no escapes at all.
	s2, out2 := newTest(t)
	do(t, s2, out2, "run bfs src=0; compare bfs direction=push,pull; help")
	if strings.Contains(out2.String(), "\x1b") {
		t.Errorf("escapes in plain output")
	}
}
