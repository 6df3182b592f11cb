package viz

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/gworkbench/gworkbench/engine"
)

// A switch that gives its quantities is labelled with them as counts, not with the engine's
// sentence, which may print 5.746e+04.
func TestSwitchQuantitiesAsCounts(t *testing.T) {
	tr := engine.Trace{Records: []engine.Record{
		{Kind: engine.IterationRecord, Direction: engine.Push, Mode: engine.Data, InVertices: 10, EdgesScanned: 40},
		{Kind: engine.SwitchRecord, Iter: 1, Switch: &engine.Switch{What: "direction", From: "push", To: "pull",
			Reason: "frontier edges 5.746e+04 > unexplored / alpha 1.2e+04",
			Lhs:    engine.Quantity{Name: "frontier edges", Value: 57460}, Op: ">",
			Rhs: engine.Quantity{Name: "unexplored / alpha", Value: 12000.4}}},
		{Kind: engine.IterationRecord, Iter: 1, Direction: engine.Pull, Mode: engine.Data, InVertices: 900, EdgesScanned: 57460},
	}}
	out := FrontierChart(tr, ChartOptions{Width: 100, Height: 16})
	if want := "direction push→pull: frontier edges 57,460 > unexplored / alpha 12,000"; !strings.Contains(out, want) {
		t.Errorf("want %q in\n%s", want, out)
	}
	if strings.Contains(out, "e+04") {
		t.Errorf("the raw reason is echoed:\n%s", out)
	}
	_, rows := TraceRows(tr)
	if got := rows[1][9]; !strings.Contains(got, "57,460") {
		t.Errorf("trace row of the switch: got %q, want the count 57,460", got)
	}
	for _, c := range []struct {
		v    float64
		want string
	}{{57460, "57,460"}, {-1234567, "-1,234,567"}, {999, "999"}, {0.0125, "0.0125"}, {312.5, "312.5"}} {
		if got := Count(c.v); got != c.want {
			t.Errorf("Count(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}

// Without colour, push and pull bars are drawn with different glyphs.
func TestFrontierChartNoColourGlyphs(t *testing.T) {
	for _, chart := range []func(engine.Trace, ChartOptions) string{FrontierChart, TimeChart} {
		out := chart(bfsTrace(11), ChartOptions{Width: 100, Height: 20})
		var bottom string
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), "0┤") {
				bottom = l
			}
		}
		// Iterations 4 to 6 pull: three bars of 7 cells; the push bars are drawn otherwise.
		if n := strings.Count(bottom, pullGlyph); n != 3*7 {
			t.Errorf("bottom row has %d %s cells, want 21 (3 pull iterations, 7 cells each): %q", n, pullGlyph, bottom)
		}
		// With colour, the colour tells them apart and bars stay solid.
		if out := chart(bfsTrace(11), ChartOptions{Width: 100, Height: 20, Color: true}); strings.Contains(out, pullGlyph) {
			t.Errorf("with colour, pull bars should be coloured █:\n%s", ansi.Strip(out))
		}
	}
	out := FrontierChart(bfsTrace(11), ChartOptions{Width: 100, Height: 20})
	lines := strings.Split(out, "\n")
	if !strings.Contains(lines[0], "▓ pull") {
		t.Errorf("the legend does not explain ▓: %q", lines[0])
	}
	// Topology-driven pull is shaded lighter than topology-driven push.
	tr := bfsTrace(11)
	for i := range tr.Records {
		tr.Records[i].Mode = engine.Topology
	}
	out = FrontierChart(tr, ChartOptions{Width: 100, Height: 20})
	if !strings.Contains(out, shade) || !strings.Contains(out, lightShade) {
		t.Errorf("topology push ▒ and pull ░ not both drawn:\n%s", out)
	}
}

// tcTrace is triangle counting as the cpu engine reports it: two phases, each one step over
// every vertex.
func tcTrace() engine.Trace {
	return engine.Trace{Records: []engine.Record{
		{Kind: engine.PhaseRecord, Phase: "orient"},
		{Kind: engine.IterationRecord, Iter: 0, Phase: "orient", Direction: engine.Push, Mode: engine.Topology, InVertices: 4039, InEdges: 88234, Time: 2 * time.Millisecond},
		{Kind: engine.PhaseRecord, Phase: "count"},
		{Kind: engine.IterationRecord, Iter: 1, Phase: "count", Direction: engine.Push, Mode: engine.Topology, InVertices: 4039, InEdges: 44117, EdgesScanned: 1612010, Time: 9 * time.Millisecond},
	}}
}

// An algorithm without frontiers gets time per step and its phases, not a frontier chart
// with a push/pull legend.
func TestFrontierChartWithoutFrontier(t *testing.T) {
	for _, color := range []bool{false, true} {
		out := ansi.Strip(FrontierChart(tcTrace(), ChartOptions{Width: 80, Height: 16, Color: color, Log: true}))
		checkBox(t, "tc", out, 80, 16)
		for _, want := range []string{"no frontier: time per step · 2 iterations", "phase orient", "phase count", "9.00ms"} {
			if !strings.Contains(out, want) {
				t.Errorf("color=%v: want %q in\n%s", color, want, out)
			}
		}
		for _, bad := range []string{"push", "pull", "dir ", shade} {
			if strings.Contains(out, bad) {
				t.Errorf("color=%v: %q in a chart without frontiers:\n%s", color, bad, out)
			}
		}
		var l Live
		for _, r := range tcTrace().Records {
			l.Add(r)
		}
		if got := ansi.Strip(l.FrontierChart(ChartOptions{Width: 80, Height: 16, Color: color, Log: true})); got != out {
			t.Errorf("live chart differs:\n%s\nwant\n%s", got, out)
		}
	}
	// A topology-driven BFS still has frontiers that change: it keeps its frontier chart.
	tr := bfsTrace(11)
	for i := range tr.Records {
		tr.Records[i].Mode = engine.Topology
	}
	if out := FrontierChart(tr, ChartOptions{Width: 80, Height: 16}); !strings.HasPrefix(out, "frontier (vertices)") {
		t.Errorf("topology-driven BFS lost its frontier chart:\n%s", out)
	}
	// The file plot of the run draws time per step with phases, without a push/pull legend.
	r := testResult(0)
	r.Algorithm, r.Trace = engine.TC, tcTrace()
	p := filepath.Join(t.TempDir(), "tc.svg")
	if err := WriteRunPlot(p, r); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	for _, want := range []string{"no frontier, time per step", "1 count"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("tc.svg lacks %q", want)
		}
	}
	for _, bad := range []string{">push<", ">pull<", "frontier per iteration"} {
		if strings.Contains(string(b), bad) {
			t.Errorf("tc.svg has %q", bad)
		}
	}
}

// The sweep chart gives its times with three significant digits, as the table does.
func TestSeriesChartSignificantDigits(t *testing.T) {
	out := SeriesChart("time against alpha", "ms", []string{"5", "10", "15"}, []float64{0.504, 12.34, 1.5}, ChartOptions{Width: 60})
	for _, want := range []string{"0.504 ms", "12.3 ms", "1.50 ms"} {
		if !strings.Contains(out, want) {
			t.Errorf("want %q in\n%s", want, out)
		}
	}
	for _, c := range []struct {
		v    float64
		want string
	}{{0.504, "0.504"}, {0.9996, "1.00"}, {12.34, "12.3"}, {123.4, "123"}, {2, "2.00"}} {
		if got := Sig3(c.v); got != c.want {
			t.Errorf("Sig3(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}

func TestComparisonPlotColumns(t *testing.T) {
	dir := t.TempDir()
	c := &Comparison{Title: "compare bfs on demo: direction=push,pull", Labels: []string{"direction=push", "direction=pull"},
		Ms: []float64{2.5, 0.504}, Iterations: []int{11, 7}, Edges: []int64{88234, 1234567}, GTEPS: []float64{0.0353, 2.45},
		Verified: []string{"ok", "DIFFERS"}}
	p := filepath.Join(dir, "cmp.html")
	if err := WriteComparisonPlot(p, c); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	for _, want := range []string{"<th>iterations</th>", "<th>edges</th>", "<th>GTEPS</th>", "<th>verified</th>",
		"<td>0.504</td>", "<td>4.96x</td>", "<td>1,234,567</td>", "<td>2.45</td>", "<td>DIFFERS</td>", "<svg"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("cmp.html lacks %q", want)
		}
	}
	c.Iterations = c.Iterations[:1]
	if err := WriteComparisonPlot(p, c); err == nil {
		t.Errorf("a column shorter than the labels is accepted")
	}
}

// The notebook draws a comparison as a chart and a table, and heads each run with its name
// and the schedule that tells it from the others.
func TestReportComparisonsAndHeadings(t *testing.T) {
	push, pull := testResult(11), testResult(11)
	push.Schedule.Set("direction", "push")
	pull.Schedule.Set("direction", "pull")
	cmp := &Comparison{Title: "compare bfs on demo: direction=push,pull", Labels: []string{"direction=push", "direction=pull"},
		Ms: []float64{2, 1}, Iterations: []int{11, 11}, Verified: []string{"ok", "ok"}}
	p := filepath.Join(t.TempDir(), "session.html")
	err := WriteReport(p, []ReportEntry{
		{Command: "run bfs direction=push", Result: push, Name: "bfs1"},
		{Command: "run bfs direction=pull", Result: pull, Name: "bfs2"},
		{Command: "compare bfs direction=push,pull", Output: "cmp1: ...", Compare: cmp},
	})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	page := string(b)
	for _, want := range []string{"<h2>bfs1: bfs on demo, cpu engine, direction=push</h2>", "<h2>bfs2: bfs on demo, cpu engine, direction=pull</h2>",
		"<h2>compare bfs on demo: direction=push,pull</h2>", "<th>verified</th>", "<td>2.00x</td>"} {
		if !strings.Contains(page, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if n := strings.Count(page, "<svg"); n != 3 {
		t.Errorf("%d charts, want 3 (two runs and the comparison)", n)
	}
}

// A phase mark says what the phase did when the engine says (its note), not only its name.
func TestDescribePhaseMark(t *testing.T) {
	for _, c := range []struct {
		note, want string
	}{
		{"", "phase blocking"},
		{"128 bins of 8192 destinations", "phase blocking: 128 bins of 8192 destinations"},
	} {
		if got := describeMark(&engine.Record{Kind: engine.PhaseRecord, Phase: "blocking", Note: c.note}); got != c.want {
			t.Errorf("note %q: %q, want %q", c.note, got, c.want)
		}
	}
}
