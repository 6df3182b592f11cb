package session

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gworkbench/gworkbench/engine"
)

// Counter claims read results and graphs; they print the numbers they compared whether they
// hold or not.
func TestExpectCounters(t *testing.T) {
	s, out := newTest(t)
	do(t, s, out, "gen k = kron scale=9 degree=8")
	do(t, s, out, "run bfs direction=push driven=topology as topo")
	do(t, s, out, "run bfs direction=push driven=data as data")
	for _, c := range []struct{ line, want string }{
		{"expect topo.checked > topo.active", "✓ topo.checked > topo.active: "},
		{"expect data.checked == data.active", "✓ data.checked == data.active"},
		{"expect topo.scanned == data.scanned", "✓ topo.scanned == data.scanned"},
		{"expect topo.max_checked == k.vertices", "✓ topo.max_checked == k.vertices: 512 vs 512"},
		{"expect data.max_scanned<=100%*k.arcs", "✓ data.max_scanned <= 100% * k.arcs"},
		{"expect (topo.iterations - 1) * 2 >= 2", "✓ (topo.iterations - 1) * 2 >= 2"},
		{"expect topo.iterations in 2..30", "✓ topo.iterations in 2..30: topo.iterations is"},
		{"expect topo.switches == 0", "✓ topo.switches == 0"},
		{"expect k.avg_degree > 1e-3", "✓ k.avg_degree > 1e-3"},
	} {
		mustContain(t, c.line, do(t, s, out, c.line), c.want)
	}
	// A claim that does not hold fails with both numbers and the references read.
	err := s.Exec(context.Background(), "expect data.checked > 10 * topo.checked")
	if err == nil || !strings.Contains(err.Error(), "does not hold") || !strings.Contains(err.Error(), "data.checked = ") ||
		!strings.Contains(err.Error(), "topo.checked = ") {
		t.Errorf("a false claim: got %v, want a failure naming the numbers", err)
	}
}

// Claims that cannot be read are told apart from claims that do not hold.
func TestExpectErrors(t *testing.T) {
	s, out := newTest(t)
	do(t, s, out, "gen k = kron scale=8 degree=8")
	do(t, s, out, "run bfs direction=push as one")
	for _, c := range []struct{ line, want string }{
		{"expect", "want a claim"},
		{"expect one.scaned > 1", `a result has iterations, scanned`},
		{"expect one.time < 1", "timing claims compare repeats"},
		{"expect nosuch.scanned > 1", `no result "nosuch"`},
		{"expect one.scanned >", "ends too early"},
		{"expect one.scanned ~ 3", "is not a comparison"},
		{"expect one.scanned in 3", "want a range LO..HI"},
		{"expect one.scanned / 0 > 1", "division by zero"},
		{"expect one faster than one", "too few for a verdict"},
		{"expect one faster than one by 0.5x", "want `by Nx`"},
		{"expect one.first_switch >= 0", "never switched"},
		{"expect one fastest", "name a row of a compare"},
		{"expect one best alpha in 1..2", "no compare or sweep named one"},
	} {
		err := s.Exec(context.Background(), c.line)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want an error with %q", c.line, err, c.want)
		}
	}
}

// Timing claims take the verdict of the rows' repeats.
func TestExpectTiming(t *testing.T) {
	s, out := newTest(t)
	c := &comparison{name: "cmp9", kind: "compare", keys: []string{"direction"}}
	mk := func(v string, ms ...float64) *compareRow {
		row := &compareRow{values: []string{v}, status: "ok", verified: "ok"}
		for _, m := range ms {
			row.times = append(row.times, time.Duration(m*1e6))
		}
		row.r = fakeResult(row.times)
		return row
	}
	c.rows = []*compareRow{
		mk("push", 10, 11, 10.5, 10.2, 10.8, 10.1, 10.9),
		mk("pull", 2, 2.1, 2.05, 2.2, 1.9, 2.02, 2.15),
		mk("auto", 10.3, 10.6, 10.1, 10.9, 10.4, 10.2, 10.7),
	}
	s.comparisons = append(s.comparisons, c)
	for _, c := range []struct{ line, want string }{
		{"expect cmp9.2 faster than cmp9.1", "✓ cmp9.2 faster than cmp9.1: cmp9.2 2.05 ms vs cmp9.1 10.5 ms"},
		{"expect cmp9.2 faster than cmp9.1 by at least 4x", "✓ cmp9.2 faster than cmp9.1 by 4x"},
		{"expect cmp9.1 slower than cmp9.2", "✓ cmp9.1 slower than cmp9.2"},
		{"expect cmp9.3 same as cmp9.1", "✓ cmp9.3 same as cmp9.1"},
		{"expect cmp9.3 within 1.2x of cmp9.1", "✓ cmp9.3 within 1.2x of cmp9.1"},
		{"expect cmp9.2 fastest", "✓ cmp9.2 fastest of cmp9"},
		{"expect cmp9.best faster than cmp9.3", "✓ cmp9.2 faster than cmp9.3"},
	} {
		mustContain(t, c.line, do(t, s, out, c.line), c.want)
	}
	for _, c := range []struct{ line, want string }{
		{"expect cmp9.2 faster than cmp9.1 by 6x", "does not hold"},
		{"expect cmp9.1 faster than cmp9.2", "slower"},
		{"expect cmp9.1 fastest", "cmp9.2 (direction=pull) is faster"},
		{"expect cmp9 best direction in 1..2", "direction's values are not numbers"},
	} {
		err := s.Exec(context.Background(), c.line)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want an error with %q", c.line, err, c.want)
		}
	}
}

// A sweep's best value: the fastest row's, or a row's tied with it.
func TestExpectBest(t *testing.T) {
	s, out := newTest(t)
	c := &comparison{name: "sw", kind: "sweep", keys: []string{"alpha"}}
	for _, x := range []struct {
		v  string
		ms []float64
	}{{"1", []float64{9, 9.2, 9.1, 9.3, 9.05, 9.15, 9.25}}, {"4", []float64{3, 3.1, 3.05, 3.2, 2.9, 3.02, 3.15}},
		{"15", []float64{3.04, 3.15, 3.07, 3.21, 2.95, 3.03, 3.13}}, {"60", []float64{6, 6.1, 6.2, 6.05, 6.15, 6.3, 6.25}}} {
		row := &compareRow{values: []string{x.v}, status: "ok", verified: "ok"}
		for _, m := range x.ms {
			row.times = append(row.times, time.Duration(m*1e6))
		}
		row.r = fakeResult(row.times)
		c.rows = append(c.rows, row)
	}
	s.comparisons = append(s.comparisons, c)
	mustContain(t, "best in", do(t, s, out, "expect sw best alpha in 2..10"), "✓ sw best alpha in 2..10: the fastest is sw.2 (alpha=4)")
	mustContain(t, "tied", do(t, s, out, "expect sw best alpha in 10..100"), "sw.3 (alpha=15) inside the range is tied with it")
	if err := s.Exec(context.Background(), "expect sw best alpha in 30..100"); err == nil || !strings.Contains(err.Error(), "does not hold") {
		t.Errorf("best outside the range: got %v", err)
	}
}

// on ENGINE runs a command only on that engine; its echo keeps prose as typed.
func TestOnEngine(t *testing.T) {
	s, out := newTest(t)
	if got := do(t, s, out, "on gpu echo not here"); got != "" {
		t.Errorf("on gpu on the cpu engine printed %q", got)
	}
	if got := do(t, s, out, "on cpu echo it's here, isn't it"); got != "it's here, isn't it\n" {
		t.Errorf("on cpu echo: got %q", got)
	}
	do(t, s, out, "on cpu set direction=pull")
	if _, sc := s.Settings(); sc.Get("direction") != "pull" {
		t.Errorf("on cpu set did not set: direction=%s", sc.Get("direction"))
	}
	for _, c := range []struct{ line, want string }{
		{"on", "want an engine and a command"},
		{"on tpu echo x", "tpu"},
		{"on cpu frobnicate", "unknown command"},
		{"on cpu on cpu echo x", "one engine at a time"},
	} {
		err := s.Exec(context.Background(), c.line)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want an error with %q", c.line, err, c.want)
		}
	}
}

// A failing claim stops a script at its line, FILE:LINE: with the numbers.
func TestExpectInScript(t *testing.T) {
	s, _ := newTest(t)
	var errs bytes.Buffer
	script := "gen k = kron scale=8 degree=8\nrun bfs as a\nexpect a.iterations > 1000\necho never\n"
	err := RunScript(context.Background(), s, "lab.gw", strings.NewReader(script), &errs, false)
	if err == nil || !strings.HasPrefix(errs.String(), "lab.gw:3: expect: a.iterations > 1000 does not hold: ") {
		t.Errorf("got %v and %q, want lab.gw:3: expect: ... does not hold", err, errs.String())
	}
}

// labs lists every embedded lab with its title; lab runs one (an unknown name says which exist).
func TestLabsList(t *testing.T) {
	s, out := newTest(t)
	got := do(t, s, out, "labs")
	for _, l := range labs() {
		mustContain(t, "labs", got, l.name)
		if l.title == "" || strings.HasPrefix(l.title, "#") {
			t.Errorf("lab %s has no title line", l.name)
		}
	}
	if len(labs()) < 6 {
		t.Errorf("%d labs, want the six of the issue", len(labs()))
	}
	mustContain(t, "help labs", do(t, s, out, "help labs"), "data-vs-topology", "push-pull")
	if err := s.Exec(context.Background(), "lab push-pul"); err == nil || !strings.Contains(err.Error(), `did you mean "push-pull"`) {
		t.Errorf("lab push-pul: got %v", err)
	}
}

// The trace shows each switch at its iteration, and topology-driven's checks of every vertex.
func TestTraceActiveChecked(t *testing.T) {
	s, out := newTest(t)
	do(t, s, out, "gen k = kron scale=10 degree=16")
	do(t, s, out, "run bfs direction=auto driven=data as a")
	got := do(t, s, out, "trace a switches")
	if !strings.Contains(got, "switch") || strings.Contains(got, "\nswitch ") {
		t.Errorf("trace switches: want each switch at its iteration, got\n%s", got)
	}
	do(t, s, out, "run bfs direction=push driven=topology as topo")
	got = do(t, s, out, "trace topo")
	mustContain(t, "trace topo", got, "active", "checked", "1,024")
}

// fakeResult is a result whose time is the median of times, for timing claims on rows made
// by hand.
func fakeResult(times []time.Duration) *engine.Result {
	med, _, _ := stats(times)
	return &engine.Result{Algorithm: engine.BFS, Summary: engine.Summary{Time: med, Iterations: 3}}
}

// A lab's report reads as a notebook: its title, the narration as headings and paragraphs,
// each claim checked, each run's chart with its switches marked, and a heat map.
func TestLabReport(t *testing.T) {
	s, _ := newTest(t)
	script := `# Lab: a small lab (Somebody, Fig. 1)
echo == The claim
echo Push scans every edge,
echo pull stops at the first parent.
gen k = kron scale=10 degree=16
run bfs direction=auto driven=data as a
expect a.switches >= 1
on gpu echo never shown
sweep bfs alpha=2,15 beta=2,18 direction=auto repeat=2
`
	var errs bytes.Buffer
	if err := RunScript(context.Background(), s, "small.gw", strings.NewReader(script), &errs, false); err != nil {
		t.Fatalf("%v: %s", err, errs.String())
	}
	path := t.TempDir() + "/lab.html"
	if err := s.Exec(context.Background(), "report "+path); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	for _, want := range []string{"<title>Lab: a small lab (Somebody, Fig. 1)</title>", "<h2>The claim</h2>",
		"<p>Push scans every edge, pull stops at the first parent.</p>", `<pre class="check">expect a.switches &gt;= 1`,
		"push→pull @", "alpha \\ beta", "★"} {
		if !strings.Contains(page, want) {
			t.Errorf("the notebook lacks %q", want)
		}
	}
	if strings.Contains(page, "never shown") {
		t.Errorf("the notebook shows a command for another engine")
	}
}
