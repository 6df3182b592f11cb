package session

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/loader"
)

// Tests for what a new user ran into: each one would have caught the problem it names.

// The first run on a new graph used to count the graph's properties (degrees and a diameter
// estimate, which src=auto needs) in its time: on kron scale=18 a 8 ms BFS showed as 450 ms.
func TestFirstRunTimeExcludesGraphProperties(t *testing.T) {
	if testing.Short() {
		t.Skip("generates kron graphs")
	}
	s, out := newTest(t)
	twin, err := loader.Generate(context.Background(), "kron", map[string]string{"scale": "15", "degree": "16"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	twin.Properties()
	props := time.Since(start)
	// On a loaded machine one run can stall for as long as the properties take: the first run
	// counts them only if it is slow on every one of three fresh graphs.
	var msgs []string
	for try := 1; try <= 3; try++ {
		do(t, s, out, fmt.Sprintf("gen k = kron scale=15 degree=16 seed=%d; set live=off; run bfs as first; run bfs repeat=3 as later", try))
		first, _ := s.result("first")
		later, _ := s.result("later")
		extra := first.r.Summary.Time - later.r.Summary.Time // later: the median of 3 runs
		if extra <= props/2 {
			return
		}
		msgs = append(msgs, fmt.Sprintf("first %v, later %v", first.r.Summary.Time, later.r.Summary.Time))
	}
	t.Errorf("computing the graph's properties takes %v, and the first BFS on a new graph is slower by more than half that: %s",
		props, strings.Join(msgs, "; "))
}

// A src beyond the graph is refused before anything runs, with the command's name.
func TestSrcOutsideGraph(t *testing.T) {
	s, out := newTest(t)
	err := s.Exec(context.Background(), "run bfs src=5")
	if err == nil || !strings.HasPrefix(err.Error(), "run bfs: src=5 is not a vertex of p: its vertices are 0..4") {
		t.Errorf("run bfs src=5: %v", err)
	}
	do(t, s, out, "set src=7")
	err = s.Exec(context.Background(), "compare bfs direction=push,pull")
	if err == nil || !strings.Contains(err.Error(), "none of the 2 combinations could run") {
		t.Errorf("compare with src=7 on a 5-vertex graph: %v", err)
	}
	mustContain(t, "compare rows", out.String(), "  cmp1.1, cmp1.2: invalid: src=7 is not a vertex of p")
	err = s.Exec(context.Background(), "sweep bfs alpha=1,2 direction=auto")
	if err == nil || !strings.Contains(err.Error(), "sweep: none of the 2 combinations could run") {
		t.Errorf("sweep with src=7: %v", err)
	}
	err = s.Exec(context.Background(), "compare bfs direction=push")
	if err == nil || err.Error() != "compare: the combination could not run (the table above says why)" {
		t.Errorf("compare of one invalid combination: %v", err)
	}
	if len(s.Results()) != 0 {
		t.Errorf("results: %+v", s.Results())
	}
}

// A compare or sweep whose run disagrees with the reference engine fails (after its table),
// so a lab script run in CI stops there instead of printing DIFFERS and exiting 0.
func TestCompareFailsWhenARowDiffers(t *testing.T) {
	s, out := newTest(t)
	do(t, s, out, "compare bfs direction=push,pull src=0")
	// Poison the reference: the next comparison's rows disagree with it.
	g, _ := s.graph("p")
	p := engine.DefaultParams()
	p.Src = 0
	ref, _ := engine.Open("ref")
	want, err := ref.Run(context.Background(), engine.Request{Graph: g, GraphName: "p", Algorithm: engine.BFS, Params: p})
	if err != nil {
		t.Fatal(err)
	}
	want.Depth[3] = 1
	s.mu.Lock()
	s.refCache[refKey{graph: g, alg: engine.BFS, params: want.Params}] = want
	s.mu.Unlock()

	out.Reset()
	err = s.Exec(context.Background(), "compare bfs direction=push,pull src=0")
	if err == nil || !strings.Contains(err.Error(), "cmp2.1 differs from the reference engine, cmp2.2 differs") {
		t.Errorf("compare with wrong rows: %v\n%s", err, out)
	}
	mustContain(t, "compare table", out.String(), "DIFFERS", "vertex 3")
	if s.comparisonNamed("cmp2") == nil {
		t.Errorf("the comparison is not kept")
	}
	err = s.Exec(context.Background(), "sweep bfs alpha=1,2 src=0 direction=auto")
	if err == nil || !strings.Contains(err.Error(), "sweep: sweep1.1 differs") {
		t.Errorf("sweep with wrong rows: %v", err)
	}
	out.Reset()
	if err := s.Exec(context.Background(), "compare bfs src=0"); err == nil {
		t.Errorf("compare of one wrong row: no error")
	}
	mustContain(t, "compare of one row", out.String(), "\n  cmp3.1: DIFFERS: bfs depth of vertex 3: got 3, want 1")
	err = s.Exec(context.Background(), "tune bfs src=0 repeat=1")
	if err == nil || !strings.HasPrefix(err.Error(), "tune bfs: the starting schedule (auto) disagrees with the reference engine: bfs depth of vertex 3") {
		t.Errorf("tune from a wrong start: %v", err)
	}
}

// Errors from the layers below start with the command, not with a Go package name.
func TestErrorsNameTheCommand(t *testing.T) {
	s, out := newTest(t)
	cases := []struct{ line, want string }{
		{"set direction=sideways", "set: direction=sideways is not a value of direction"},
		{"set src=-5", "set: src=-5: want a vertex id"},
		{"knobs frob", `knobs: unknown algorithm "frob"`},
		{"load x = /no/such/file.el", "load: open /no/such/file.el: no such file"},
		{"load x = testdata/bad.mtx", "load: testdata/bad.mtx:"},
		{"load x = testdata/tiny.el format=frob", "load: format=frob: expected one of"},
		{"load x = testdata/tiny.el bogus", `load: unknown flag "bogus"`},
		{"gen x = kron scale=abc", `gen: kron: scale="abc"`},
		{"gen x = kron scael=3", `gen: kron: unknown parameter "scael"`},
		{"gen x = kron scale=3 weights=uniform:1:9 weights=drop", "gen: weights is given twice (weights=uniform:1:9 and weights=drop)"},
		{"load x = testdata/tiny.el base=0 base=1", "load: base is given twice"},
		{"gen x =", "gen: want a generator: gen NAME = KIND"},
		{"load x =", "load: want a file: load NAME = PATH"},
		{"run bfs sync=async", "bfs on the cpu engine: sync=async: the CPU BFS is level-synchronous"},
	}
	for _, c := range cases {
		err := s.Exec(context.Background(), c.line)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: got %v, want it to start with %q", c.line, err, c.want)
			continue
		}
		for _, pkg := range []string{": engine: ", ": loader: ", ": viz: ", "not supported by this engine"} {
			if strings.Contains(": "+err.Error(), pkg) {
				t.Errorf("%q: %q says %q", c.line, err, pkg)
			}
		}
	}
	do(t, s, out, "run bfs src=0")
	err := s.Exec(context.Background(), "plot last /no/such/dir/x.svg")
	if err == nil || !strings.HasPrefix(err.Error(), "plot: open /no/such/dir/x.svg") {
		t.Errorf("plot to a missing directory: %v", err)
	}
	err = s.Exec(context.Background(), "report /no/such/dir/x.html")
	if err == nil || !strings.HasPrefix(err.Error(), "report: open /no/such/dir/x.html") {
		t.Errorf("report to a missing directory: %v", err)
	}
}

// load says what the loader did (format, id base, direction and why, what it removed) on the
// line it prints, not only in info: a user who loads an undirected file as directed, or whose
// file has self-loops, sees it at once.
func TestLoadSaysWhatTheLoaderDid(t *testing.T) {
	s, out := newTest(t)
	mustContain(t, "load", do(t, s, out, "load x = testdata/tiny.el"),
		"x: 4 vertices, 4 edges, directed\n", "  el, vertex ids 0..3 as in the file; ", "removed 1 self-loop")
	mustContain(t, "load undirected", do(t, s, out, "load y = testdata/tiny.el undirected weights=uniform:1:9"),
		"told: undirected", "weights generated uniform:1:9")
	if o := do(t, s, out, "gen k = kron scale=4 degree=2"); strings.Count(o, "\n") != 1 {
		t.Errorf("gen prints one line:\n%s", o)
	}
}

// SSSP and MST on a graph without weights say that every edge weighs 1 (a distance of 5 on
// the demo graph is otherwise a puzzle).
func TestUnweightedNote(t *testing.T) {
	s, out := newTest(t) // p is weighted
	const note = "the graph has no weights: every edge weighs 1"
	if o := do(t, s, out, "run sssp src=0"); strings.Contains(o, note) {
		t.Errorf("weighted graph:\n%s", o)
	}
	do(t, s, out, "gen g = grid rows=3 cols=3")
	mustContain(t, "sssp", do(t, s, out, "run sssp src=0"), "max distance 4 ("+note+")")
	mustContain(t, "mst", do(t, s, out, "run mst"), "total weight 8 ("+note+")")
	if o := do(t, s, out, "run bfs src=0"); strings.Contains(o, note) {
		t.Errorf("bfs:\n%s", o)
	}
}

// export refuses a file whose extension says the other format, and a compare exports as csv.
func TestExportFormatMatchesFile(t *testing.T) {
	s, out := newTest(t)
	dir := t.TempDir()
	do(t, s, out, "run bfs src=0 as b; compare bfs direction=push,pull src=0")
	for _, c := range []struct{ line, want string }{
		{"export b json " + dir + "/x.csv", "export b json: " + dir + "/x.csv: JSON goes to a .json file"},
		{"export b values " + dir + "/x.json", "export b values: " + dir + "/x.json: this writes CSV"},
		{"export cmp1 csv " + dir + "/x.json", "this writes CSV"},
		{"export cmp1 values " + dir + "/x.csv", "export: cmp1 is a compare: export cmp1 json|csv PATH (or one of its rows: export cmp1.1 values PATH)"},
	} {
		err := s.Exec(context.Background(), c.line)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.line, err, c.want)
		}
	}
	mustContain(t, "export cmp1 csv", do(t, s, out, "export cmp1 csv "+dir+"/c.csv"), "wrote "+dir+"/c.csv")
	mustContain(t, "help export", do(t, s, out, "help export"), "export CMP json|csv PATH", "export cmp1 csv cmp1.csv")
}

// Counts read as English, and a knob without restrictions says where it applies.
func TestOpenCountsAndKnobScope(t *testing.T) {
	s, out := newTest(t)
	dir := t.TempDir()
	do(t, s, out, "gen k = kron scale=4 degree=2; run bfs src=0; compare bfs direction=push,pull src=0; save "+dir+"/s.json")
	mustContain(t, "open", do(t, s, out, "open "+dir+"/s.json"), ": 1 graph, 1 result, 1 comparison (")
	mustContain(t, "help lb", do(t, s, out, "help lb"), "applies to: every algorithm")
	do(t, s, out, "compare bfs direction=push src=0")
	mustContain(t, "results", do(t, s, out, "results"), "cmp2: compare bfs on k: direction=push src=0 (1 run)\n")
	mustContain(t, "show settings", do(t, s, out, "show settings"), "lb         auto       every algorithm")
}

// Ctrl-C during gen or load says what was cancelled, not "context canceled".
func TestCancelGenAndLoad(t *testing.T) {
	s, out := newTest(t)
	do(t, s, out, "run bfs src=0 as b")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct{ line, want string }{
		{"gen big = kron scale=16", "gen big cancelled; the session is as it was"},
		{"load t = testdata/tiny.el", "load t cancelled; the session is as it was"},
		{"verify b", "verify b cancelled"},
	} {
		err := s.Exec(ctx, c.line)
		if err == nil {
			t.Errorf("%q with a cancelled context: no error", c.line)
			continue
		}
		if err.Error() != c.want || !errors.Is(err, context.Canceled) {
			t.Errorf("%q: %v, want %q", c.line, err, c.want)
		}
	}
	if len(s.Graphs()) != 1 {
		t.Errorf("graphs: %+v", s.Graphs())
	}
}

// echo keeps a double-quoted ';' or '#' in its text (an apostrophe stays prose); a script's
// last line may end in a backslash; a byte-order mark goes even on a continued first line.
func TestEchoQuotesAndScriptEdges(t *testing.T) {
	s, out := newTest(t)
	if got := do(t, s, out, `echo "step 1; then # 2"; echo it's "fine" here`); got != "step 1; then # 2\nit's \"fine\" here\n" {
		t.Errorf("echo: %q", got)
	}
	var errs strings.Builder
	for name, script := range map[string]string{
		"tail.gw": "gen k = kron scale=3 \\",
		"bom.gw":  "\ufeffgen k = kron \\\n scale=3\n",
	} {
		errs.Reset()
		if err := RunScript(context.Background(), s, name, strings.NewReader(script), &errs, false); err != nil {
			t.Errorf("%s: %v %s", name, err, errs.String())
		}
	}
}

// A trace range outside the run says which iterations there are.
func TestTraceRangeOutside(t *testing.T) {
	s, out := newTest(t)
	do(t, s, out, "run bfs src=0 direction=push as b")
	mustContain(t, "trace", do(t, s, out, "trace b 100:"), "(b has iterations 0..3, none in 100:)")
}

// A run may not take the name of a comparison or of one of its rows, nor a comparison the
// name of a run: `trace cmp1.1` and `plot cmp1` must each mean one thing.
func TestRunAndComparisonNamesDoNotClash(t *testing.T) {
	s, out := newTest(t)
	do(t, s, out, "compare bfs direction=push,pull src=0; run bfs src=0 as b; run bfs src=0 as x.1")
	for _, c := range []struct{ line, want string }{
		{"run bfs src=0 as cmp1", `run: "cmp1" names a compare or one of its rows; pick another name (or drop cmp1)`},
		{"run bfs src=0 as cmp1.2", `run: "cmp1.2" names a compare or one of its rows`},
		{"compare bfs direction=push,pull src=0 as b", `compare: "b" would clash with the result b`},
		{"sweep bfs alpha=1,2 src=0 direction=auto as x", `sweep: "x" would clash with the result x.1`},
	} {
		err := s.Exec(context.Background(), c.line)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.line, err, c.want)
		}
	}
	do(t, s, out, "run bfs src=0 as cmp1.x; run bfs src=0 as b; compare bfs direction=push src=0 as cmp1")
	err := s.Exec(context.Background(), "trace cmp1")
	if err == nil || err.Error() != "trace: cmp1 is a compare of 1 run: name it cmp1.1" {
		t.Errorf("trace cmp1: %v", err)
	}
}

// Rows refused for the same reason share one note instead of repeating it.
func TestCompareGroupsReasons(t *testing.T) {
	s, out := newTest(t)
	o := do(t, s, out, "compare bfs driven=topology,data dedup=atomic frontier=bitmap,boolmap src=0")
	if n := strings.Count(o, "dedup=atomic only means something for a data-driven run"); n != 1 {
		t.Errorf("the reason is printed %d times:\n%s", n, o)
	}
	mustContain(t, "compare", o, "  cmp1.1, cmp1.2: invalid: ")
}

// A cancelled tune clears its progress line before the error is printed, from its first run on.
func TestTuneCancelClearsProgress(t *testing.T) {
	var out strings.Builder
	ctx, cancel := context.WithCancel(context.Background())
	s := New(Options{Out: &out, Interactive: true, Width: 80, Observer: func(e Event) {
		if _, ok := e.(RunRecord); ok {
			cancel()
		}
	}})
	g, _ := loader.FromEdges(3, []loader.Edge{{U: 0, V: 1}, {U: 1, V: 2}}, false, false)
	s.AddGraph("p", g, "")
	err := s.Exec(ctx, "tune bfs src=0")
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("tune: %v", err)
	}
	if o := out.String(); !strings.HasSuffix(o, "\r\x1b[K") {
		t.Errorf("the progress line stays: %q", o)
	}
}

// The last run of each compare row finishes under the row's name, so a view can say
// "cmp1.2" rather than a bare algorithm; every RunStarted still gets one RunFinished.
func TestCompareRowEventsAreNamed(t *testing.T) {
	var names []string
	started, finished := 0, 0
	s := New(Options{Observer: func(e Event) {
		switch e := e.(type) {
		case RunStarted:
			started++
		case RunFinished:
			finished++
			if e.Name != "" {
				names = append(names, e.Name)
				if e.Result == nil || e.Err != nil {
					t.Errorf("named finish: %#v", e)
				}
			}
		}
	}})
	g, _ := loader.FromEdges(3, []loader.Edge{{U: 0, V: 1}, {U: 1, V: 2}}, false, false)
	s.AddGraph("p", g, "")
	if err := s.Exec(context.Background(), "compare bfs direction=push,pull src=0 repeat=2"); err != nil {
		t.Fatal(err)
	}
	if started != 6 || finished != 6 || strings.Join(names, " ") != "cmp1.1 cmp1.2" {
		t.Errorf("%d started, %d finished, named %q; want 6, 6, cmp1.1 cmp1.2", started, finished, names)
	}
}

// Completion offers what each name can be exported as, and no value twice in a list.
func TestCompleteExportKindsAndLists(t *testing.T) {
	s, out := newTest(t)
	do(t, s, out, "run bfs src=0 as b1; compare bfs direction=push,pull src=0")
	for line, want := range map[string]string{
		"export cmp1 ":                      "json csv",
		"export b1 ":                        "values trace json",
		"compare bfs direction=push,pull,":  "direction=push,pull,auto",
		"sweep bfs frontier=queue,bitmap,b": "frontier=queue,bitmap,boolmap",
	} {
		if got := strings.Join(s.Complete(line), " "); got != want {
			t.Errorf("%q: got %q want %q", line, got, want)
		}
	}
}

// Times keep three significant digits across a decade boundary, and a compare over graph=
// names the graphs it ran on, not the current one.
func TestTimesAndCompareGraphTitle(t *testing.T) {
	for ms, want := range map[float64]string{0.99951: "1.00 ms", 0.9994: "0.999 ms", 9.9951: "10.0 ms", 99.951: "100 ms", 12.34: "12.3 ms"} {
		if got := fmtMSf(ms); got != want {
			t.Errorf("fmtMSf(%v) = %q, want %q", ms, got, want)
		}
	}
	s, out := newTest(t)
	do(t, s, out, "gen k = kron scale=4 degree=2")
	mustContain(t, "compare", do(t, s, out, "compare bfs graph=p,k direction=push src=0"), "cmp1: compare bfs on p,k: graph=p,k direction=push")
	mustContain(t, "compare", do(t, s, out, "compare bfs graph=p direction=push,pull src=0"), "cmp2: compare bfs on p: graph=p direction=push,pull")
}

// tune tries only schedules inside the space the engine says it runs (engine.Spacer): it used
// to time lb=warp, lb=cta, ... on a CPU BFS, which ignores lb, and recommend one of them.
func TestTuneStaysInTheEngineSpace(t *testing.T) {
	s, out := newTest(t)
	do(t, s, out, "gen k = kron scale=6 degree=4; tune bfs repeat=1 src=0")
	c := s.comparisonNamed("tune1")
	if c == nil {
		t.Fatal("no tune1")
	}
	for i, row := range c.rows {
		if !inSpace("cpu", engine.BFS, mustSchedule(t, row), engine.Schedule{}, nil) {
			t.Errorf("tune1.%d %s is outside the cpu engine's bfs space", i+1, row.values[0])
		}
		if strings.Contains(row.values[0], "lb=") || row.r == nil {
			t.Errorf("tune1.%d %s: %s", i+1, row.values[0], row.status)
		}
	}
	// A schedule the engine does not list is outside; auto fits anything.
	var sc engine.Schedule
	if !inSpace("cpu", engine.BFS, sc, sc, nil) {
		t.Errorf("the all-auto schedule is outside")
	}
	sc.Set("direction", "pull")
	sc.Set("frontier", "queue")
	if inSpace("cpu", engine.BFS, sc, engine.Schedule{}, nil) {
		t.Errorf("bfs direction=pull frontier=queue is inside, though the cpu engine refuses it")
	}
	if !inSpace("cpu", engine.BFS, sc, engine.Schedule{}, map[string]bool{"frontier": true}) {
		t.Errorf("a fixed knob is checked")
	}
	if !inSpace("cpu", engine.BFS, sc, sc, nil) {
		t.Errorf("a knob left as the start has it is checked")
	}
	// A session default the engine refuses (the cpu engine runs no GPU thread mapping) stops
	// tune at once, saying so, rather than timing schedules it does not run.
	err := s.Exec(context.Background(), "set lb=warp; tune bfs repeat=1 src=0 as t2")
	if err == nil || !strings.Contains(err.Error(), "the starting schedule (lb=warp) does not run") {
		t.Errorf("tune from lb=warp: %v, want that the starting schedule does not run", err)
	}
}

// mustSchedule rebuilds a tune row's schedule from its settings.
func mustSchedule(t *testing.T, row *compareRow) engine.Schedule {
	t.Helper()
	var sc engine.Schedule
	for _, st := range row.settings {
		if isKnob(st.key) {
			if err := sc.Set(st.key, st.value); err != nil {
				t.Fatal(err)
			}
		}
	}
	return sc
}

// On a narrow terminal a compare's title and notes wrap at spaces; no line is wider.
func TestCompareFitsNarrowTerminal(t *testing.T) {
	var out strings.Builder
	s := New(Options{Out: &out, Width: 50})
	g, _ := loader.FromEdges(3, []loader.Edge{{U: 0, V: 1}, {U: 1, V: 2}}, false, false)
	s.AddGraph("p", g, "")
	s.Exec(context.Background(), "compare bfs driven=topology,data dedup=atomic lb=thread,warp src=0")
	for _, l := range strings.Split(out.String(), "\n") {
		if w := len([]rune(l)); w > 50 {
			t.Errorf("line of %d columns: %q", w, l)
		}
	}
	mustContain(t, "compare", out.String(), "  cmp1.1, cmp1.2: invalid: ")
}

// After a compare, `last` is its last row that ran, not the run before the compare.
func TestLastAfterCompare(t *testing.T) {
	s, out := newTest(t)
	do(t, s, out, "run sssp src=0 as before; compare bfs direction=push,pull src=0")
	mustContain(t, "trace last", do(t, s, out, "trace last"), "cmp1.2: bfs on p [cpu]")
	mustContain(t, "verify", do(t, s, out, "verify"), "cmp1.2: bfs agrees")
	do(t, s, out, "run cc as after")
	mustContain(t, "trace last", do(t, s, out, "trace last"), "after: cc on p")
	do(t, s, out, "tune bfs src=0 repeat=1")
	mustContain(t, "trace last after tune", do(t, s, out, "trace last"), "after: cc on p")
}

// Without a reference engine a row is unverified, not DIFFERS: a compare does not fail for
// it, and verify says what is missing rather than that the result is wrong.
func TestNoReferenceIsNotADifference(t *testing.T) {
	s, out := newTest(t)
	old := referenceEngine
	referenceEngine = "nope"
	defer func() { referenceEngine = old }()
	o := do(t, s, out, "compare bfs direction=push,pull src=0")
	if strings.Contains(o, "DIFFERS") {
		t.Errorf("a missing reference shows as a difference:\n%s", o)
	}
	mustContain(t, "compare", o, "  cmp1.1, cmp1.2: unverified: no reference to compare with: ")
	do(t, s, out, "run bfs src=0 as b")
	err := s.Exec(context.Background(), "verify b")
	if err == nil || !strings.HasPrefix(err.Error(), "verify b: no reference to compare with: ") {
		t.Errorf("verify without a reference: %v", err)
	}
	err = s.Exec(context.Background(), "tune bfs src=0 repeat=1")
	if err == nil || !strings.HasPrefix(err.Error(), "tune bfs: tune keeps only verified schedules, and there is no reference to compare with: ") {
		t.Errorf("tune without a reference: %v", err)
	}
}

// A run's summary wraps at spaces to the width, its name still in colour.
func TestSummaryWraps(t *testing.T) {
	var out strings.Builder
	s := New(Options{Out: &out, Width: 40, Color: true})
	g, _ := loader.FromEdges(3, []loader.Edge{{U: 0, V: 1}, {U: 1, V: 2}}, false, false)
	s.AddGraph("p", g, "")
	if err := s.Exec(context.Background(), "set live=off; run sssp src=0 as s"); err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(out.String(), "\n") {
		if w := len([]rune(ansiRE.ReplaceAllString(l, ""))); w > 40 {
			t.Errorf("line of %d columns: %q", w, l)
		}
	}
	if !strings.Contains(out.String(), "\x1b[1;32ms\x1b[0m sssp on p [cpu]: reached 3 of 3") && !strings.Contains(out.String(), "s\x1b[0m sssp on p") {
		t.Errorf("summary:\n%q", out.String())
	}
}

// help wraps at spaces to the width, with a hanging indent in the list.
func TestHelpWraps(t *testing.T) {
	var out strings.Builder
	s := New(Options{Out: &out, Width: 60})
	for _, line := range []string{"help", "help compare"} {
		out.Reset()
		if err := s.Exec(context.Background(), line); err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(out.String(), "\n") {
			if w := len([]rune(l)); w > 60 && !strings.HasPrefix(l, "usage: ") && !strings.HasPrefix(l, "  compare ") {
				t.Errorf("%s: line of %d columns: %q", line, w, l)
			}
		}
	}
	out.Reset()
	s.Exec(context.Background(), "help")
	mustContain(t, "help", out.String(), "  gen         generate a synthetic graph (kron, urand, grid,\n              road, rgg)")
}

// After opening a session of comparisons only, last is the newest comparison's last row.
func TestLastAfterOpeningComparisons(t *testing.T) {
	s, out := newTest(t)
	dir := t.TempDir()
	do(t, s, out, "gen k = kron scale=4 degree=2; compare bfs direction=push,pull src=0; save "+dir+"/c.json")
	s2, out2 := newTest(t)
	do(t, s2, out2, "open "+dir+"/c.json")
	mustContain(t, "trace last", do(t, s2, out2, "trace last"), "cmp1.2: bfs on k [cpu]")
	mustContain(t, "plot last", do(t, s2, out2, "plot last"), "cmp1: compare bfs on k")
}

// A switch reads its quantities as the tables print counts, not in exponent notation.
func TestSwitchQuantities(t *testing.T) {
	sw := &engine.Switch{What: "direction", From: "push", To: "pull", Reason: "scoutCount 5.746e+04 > unexplored edges / alpha 1.169e+04",
		Lhs: engine.Quantity{Name: "scoutCount", Value: 57460}, Op: ">", Rhs: engine.Quantity{Name: "unexplored edges / alpha", Value: 11694.53}}
	if got, want := switchReason(sw), "scoutCount 57,460 > unexplored edges / alpha 11,695"; got != want {
		t.Errorf("got %q want %q", got, want)
	}
	sw = &engine.Switch{Lhs: engine.Quantity{Name: "awakeCount", Value: 117}, Op: "<", Rhs: engine.Quantity{Name: "V / beta", Value: 224.3889}}
	if got, want := switchReason(sw), "awakeCount 117 < V / beta 224.4"; got != want {
		t.Errorf("got %q want %q", got, want)
	}
	if got := switchReason(&engine.Switch{Reason: "frontier 5 < V 100 / beta 18"}); got != "frontier 5 < V 100 / beta 18" {
		t.Errorf("a sentence alone: %q", got)
	}
}

// A phase record's note (the GPU's blocked layout: its shape and build time) was dropped by
// the live line and the trace table, which showed only the phase's name.
func TestPhaseNoteShows(t *testing.T) {
	s, _ := newTest(t)
	rec := engine.Record{Kind: engine.PhaseRecord, Phase: "blocking", Note: "128 bins of 8192 destinations"}
	want := "blocking: 128 bins of 8192 destinations"
	if got := s.recordLine(rec); !strings.Contains(got, want) {
		t.Errorf("live line %q lacks %q", got, want)
	}
	if got := traceText(s, rec); !strings.Contains(got, want) {
		t.Errorf("trace table %q lacks %q", got, want)
	}
	rec.Note = ""
	if got := traceText(s, rec); strings.Contains(got, "blocking:") {
		t.Errorf("trace table %q: a phase without a note reads as one with an empty note", got)
	}
}

func traceText(s *Session, rec engine.Record) string {
	out, _ := s.traceTable(&engine.Result{Trace: engine.Trace{Records: []engine.Record{rec}}}, func(engine.Record) bool { return true })
	return out
}
