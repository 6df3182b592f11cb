package viz

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/gworkbench/gworkbench/engine"
)

// checkBox fails when out has a line wider than w or more than h lines.
func checkBox(t *testing.T, name, out string, w, h int) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if h > 0 && len(lines) > h {
		t.Errorf("%s: %d lines, want at most %d:\n%s", name, len(lines), h, out)
	}
	for i, l := range lines {
		if got := ansi.StringWidth(l); got > w {
			t.Errorf("%s: line %d is %d cells wide, want at most %d: %q", name, i, got, w, l)
		}
	}
}

func TestFrontierChartFits(t *testing.T) {
	for _, n := range []int{0, 1, 2, 11, 73, 5000, 50000} {
		for _, size := range [][2]int{{24, 4}, {40, 8}, {80, 16}, {132, 40}} {
			for _, color := range []bool{false, true} {
				o := ChartOptions{Width: size[0], Height: size[1], Log: n%2 == 0, Color: color}
				name := fmt.Sprintf("n=%d %dx%d color=%v", n, size[0], size[1], color)
				out := FrontierChart(bfsTrace(n), o)
				checkBox(t, name, out, size[0], size[1])
				if !color && strings.Contains(out, "\x1b[") {
					t.Errorf("%s: ANSI codes without colour", name)
				}
				if color && n > 0 && !strings.Contains(out, "\x1b[") {
					t.Errorf("%s: no ANSI codes with colour", name)
				}
			}
		}
	}
}

func TestFrontierChartEmptyAndSingle(t *testing.T) {
	out := FrontierChart(engine.Trace{}, ChartOptions{Width: 60, Height: 10})
	if !strings.Contains(out, "no iterations") || strings.Count(out, "\n") != 1 {
		t.Errorf("empty trace: got %q, want one line saying there are no iterations", out)
	}
	one := engine.Trace{Records: []engine.Record{{Kind: engine.IterationRecord, Direction: engine.Push, Mode: engine.Data, InVertices: 1, EdgesScanned: 3}}}
	out = FrontierChart(one, ChartOptions{Width: 60, Height: 10})
	if !strings.Contains(out, "1 iterations") && !strings.Contains(out, "1 iteration") {
		t.Errorf("single iteration: title does not count it:\n%s", out)
	}
	if !strings.Contains(out, "█") {
		t.Errorf("single iteration: no bar drawn:\n%s", out)
	}
}

func TestFrontierChartBinning(t *testing.T) {
	out := FrontierChart(bfsTrace(5000), ChartOptions{Width: 60, Height: 12})
	// 60 cells less the 7-cell axis: 53 columns, so 5000 iterations bin by ceil(5000/53) = 95.
	if !strings.Contains(out, "5000 iterations, 95 per bar") {
		t.Errorf("title does not give the binning:\n%s", out)
	}
	// A bin holds both directions: the direction strip marks it mixed.
	if !strings.Contains(out, "~") {
		t.Errorf("no mixed-direction bin marked:\n%s", out)
	}
	// Few iterations: wide bars, one per iteration, each labelled on the axis.
	out = FrontierChart(bfsTrace(5), ChartOptions{Width: 80, Height: 12})
	for _, want := range []string{"└0", "1", "4"} {
		if !strings.Contains(out, want) {
			t.Errorf("axis lacks %q:\n%s", want, out)
		}
	}
}

func TestFrontierChartLogScale(t *testing.T) {
	// Iteration 0 has a frontier of 1 against a peak of 410,000: a sliver on a linear axis,
	// about a sixth of the height on a log axis.
	tr := bfsTrace(11)
	lin := FrontierChart(tr, ChartOptions{Width: 80, Height: 20})
	lg := FrontierChart(tr, ChartOptions{Width: 80, Height: 20, Log: true})
	if !strings.Contains(lg, "(log)") || strings.Contains(lin, "(log)") {
		t.Errorf("title does not say which scale")
	}
	if a, b := strings.Count(lin, "█"), strings.Count(lg, "█"); b <= a {
		t.Errorf("log scale should fill more cells than linear: linear %d, log %d", a, b)
	}
}

func TestFrontierChartSwitches(t *testing.T) {
	out := FrontierChart(bfsTrace(11), ChartOptions{Width: 100, Height: 20})
	for _, want := range []string{"a it 4  direction push→pull: frontier edges 1.2M > unexplored edges / alpha 0.9M",
		"b it 7  direction pull→push: frontier 3,100 < V/beta 35,000", ">>>>", "<<<<", "edges"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	// Topology-driven iterations are shaded.
	tr := bfsTrace(11)
	for i := range tr.Records {
		tr.Records[i].Mode = engine.Topology
	}
	if out := FrontierChart(tr, ChartOptions{Width: 80, Height: 16}); !strings.Contains(out, shade) {
		t.Errorf("topology-driven iterations not shaded:\n%s", out)
	}
}

func TestTimeChart(t *testing.T) {
	tr := bfsTrace(11)
	for i := range tr.Records {
		if tr.Records[i].Kind == engine.IterationRecord {
			tr.Records[i].Kernels = []engine.Kernel{{Name: "bfs_push_twc", Time: 3 * time.Microsecond}, {Name: "filter", Time: time.Microsecond}}
		}
	}
	out := TimeChart(tr, ChartOptions{Width: 70, Height: 16})
	checkBox(t, "time", out, 70, 16)
	for _, want := range []string{"time per iteration · 11 iterations", "bfs_push_twc", "75.0%", "filter", "25.0%"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if out := TimeChart(engine.Trace{}, ChartOptions{}); !strings.Contains(out, "no iterations") {
		t.Errorf("empty trace: %q", out)
	}
}

func TestHistogramAndSeries(t *testing.T) {
	out := Histogram([]string{"0", "1", "2-3"}, []int64{0, 100, 50}, ChartOptions{Width: 40})
	checkBox(t, "histogram", out, 40, 3)
	lines := strings.Split(out, "\n")
	if n0, n1, n2 := strings.Count(lines[0], "█"), strings.Count(lines[1], "█"), strings.Count(lines[2], "█"); n0 != 0 || n1 <= n2 || n2 == 0 {
		t.Errorf("bars not proportional: %d %d %d\n%s", n0, n1, n2, out)
	}
	out = SeriesChart("bfs vs alpha", "ms", []string{"5", "10", "15"}, []float64{3, 1.5, 2}, ChartOptions{Width: 50})
	checkBox(t, "series", out, 50, 4)
	if !strings.Contains(out, "10 │") || !strings.Contains(strings.Split(out, "\n")[2], "best") {
		t.Errorf("best value not marked on its row:\n%s", out)
	}
}

func TestTable(t *testing.T) {
	out := Table([]string{"run", "time", "note"}, [][]string{{"a", "1.5ms", "x"}, {"bbb", "12.25ms", "longer"}}, Style{})
	want := "" +
		"run     time  note\n" +
		"───  ───────  ──────\n" +
		"a      1.5ms  x\n" +
		"bbb  12.25ms  longer\n"
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	if out := Table([]string{"a"}, [][]string{{strings.Repeat("x", 50)}}, Style{Width: 20}); !strings.Contains(out, "…") {
		t.Errorf("a line wider than Width is not cut: %q", out)
	}
}

func ExampleTable() {
	fmt.Print(Table([]string{"engine", "time", "GTEPS"}, [][]string{{"cpu", "12.4ms", "0.71"}, {"gpu", "0.9ms", "9.8"}}, Style{}))
	// Output:
	// engine    time  GTEPS
	// ──────  ──────  ─────
	// cpu     12.4ms   0.71
	// gpu      0.9ms    9.8
}

// BenchmarkFrontierChart50k is one frame of the TUI's live panel late in a road-graph run.
func BenchmarkFrontierChart50k(b *testing.B) {
	tr := bfsTrace(50000)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		FrontierChart(tr, ChartOptions{Width: 100, Height: 16, Log: true, Color: true})
	}
}

func TestLiveMatchesTrace(t *testing.T) {
	for _, n := range []int{0, 1, 11, 5000} {
		tr := bfsTrace(n)
		if n == 11 {
			for i := range tr.Records {
				tr.Records[i].Kernels = []engine.Kernel{{Name: "k", Time: time.Microsecond}}
			}
		}
		var l Live
		for _, r := range tr.Records {
			l.Add(r)
		}
		o := ChartOptions{Width: 90, Height: 18, Log: true}
		if got, want := l.FrontierChart(o), FrontierChart(tr, o); got != want {
			t.Errorf("n=%d: live frontier chart\n%s\nwant\n%s", n, got, want)
		}
		if got, want := l.TimeChart(o), TimeChart(tr, o); got != want {
			t.Errorf("n=%d: live time chart\n%s\nwant\n%s", n, got, want)
		}
		if l.Iterations() != tr.Iterations() {
			t.Errorf("n=%d: %d iterations, want %d", n, l.Iterations(), tr.Iterations())
		}
	}
}

// BenchmarkLiveFrontierChart50k is the same frame drawn from a Live.
func BenchmarkLiveFrontierChart50k(b *testing.B) {
	var l Live
	for _, r := range bfsTrace(50000).Records {
		l.Add(r)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		l.FrontierChart(ChartOptions{Width: 100, Height: 16, Log: true, Color: true})
	}
}
