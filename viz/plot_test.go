package viz

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/gworkbench/gworkbench/engine"
)

func testResult(n int) *engine.Result {
	r := &engine.Result{Algorithm: engine.BFS, Engine: "cpu", Graph: engine.GraphInfo{Name: "demo", Vertices: 4039, Edges: 88234}, Trace: bfsTrace(n)}
	r.Summary.Reached = 4039
	r.Provenance.Version = "test"
	return r
}

func TestWritePlots(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		file string
		want string
	}{
		{"run.svg", "<svg"}, {"run.png", "\x89PNG"}, {"run.html", "Resolved schedule"},
	} {
		p := filepath.Join(dir, c.file)
		if err := WriteRunPlot(p, testResult(11)); err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		b, err := os.ReadFile(p)
		if err != nil || !strings.Contains(string(b), c.want) {
			t.Errorf("%s: want %q in the file (err %v)", c.file, c.want, err)
		}
	}
	if err := WriteRunPlot(filepath.Join(dir, "big.svg"), testResult(3000)); err != nil {
		t.Errorf("binned plot: %v", err)
	}
	if err := WriteRunPlot(filepath.Join(dir, "run.pdf"), testResult(3)); err == nil || !strings.Contains(err.Error(), ".svg, .png or .html") {
		t.Errorf("unknown extension: got %v", err)
	}
	if err := WriteComparePlot(filepath.Join(dir, "cmp.html"), "bfs: push vs pull", []string{"push", "pull"}, []float64{2, 1}); err != nil {
		t.Errorf("compare: %v", err)
	}
	if err := WriteComparePlot(filepath.Join(dir, "cmp.svg"), "bfs", []string{"push", "pull"}, []float64{2, 1}); err != nil {
		t.Errorf("compare svg: %v", err)
	}
	rep := filepath.Join(dir, "session.html")
	err := WriteReport(rep, []ReportEntry{{Command: "gen g = kron scale=10", Output: "\x1b[1mg\x1b[0m: 1024 vertices"}, {Command: "run bfs", Output: "bfs1 ...", Result: testResult(11)}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(rep)
	for _, want := range []string{"&gt; gen g = kron scale=10", "g: 1024 vertices", "bfs on demo, cpu engine", "<svg"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("report lacks %q", want)
		}
	}
}

// TestPlotsByKind: the edges chart is coloured by direction as the frontier chart is; a sweep
// over a numeric knob is a line over the knob's values, categories stay bars.
func TestPlotsByKind(t *testing.T) {
	ps, err := runPlots(testResult(11)) // bfsTrace has push and pull iterations
	if err != nil {
		t.Fatal(err)
	}
	edges, err := svgOf([][]*plot.Plot{{ps[1][0]}}, 10*vg.Centimeter, 6*vg.Centimeter)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(edges, "#FF8700") || !strings.Contains(edges, "#00AFFF") || strings.Contains(edges, "#00AF5F") {
		t.Errorf("the edges chart is not coloured push/pull")
	}

	// Each switch is marked on the charts with what switched and where.
	front, err := svgOf([][]*plot.Plot{{ps[0][0]}}, 10*vg.Centimeter, 6*vg.Centimeter)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(front, "push→pull @") {
		t.Errorf("the frontier chart marks no switch")
	}

	knob, xs, ok := numericAxis([]string{"alpha=2", "alpha=6", "alpha=10.5"})
	if !ok || knob != "alpha" || len(xs) != 3 || xs[2] != 10.5 {
		t.Errorf("numericAxis(alpha=...) = %q %v %v", knob, xs, ok)
	}
	for _, labels := range [][]string{{"direction=push", "direction=pull"}, {"alpha=2 beta=3", "alpha=4 beta=3"}, {"alpha=2", "beta=3"}, {"alpha=2"}} {
		if _, _, ok := numericAxis(labels); ok {
			t.Errorf("numericAxis(%q) says numeric", labels)
		}
	}
	sweep := &Comparison{Title: "sweep", Labels: []string{"alpha=2", "alpha=6", "alpha=10"}, Ms: []float64{3, 2, 4}, Lo: []float64{2.5, 1.5, 3}, Hi: []float64{3.5, 2.5, 5}}
	sp, err := comparePlot(sweep)
	if err != nil {
		t.Fatal(err)
	}
	cp, err := comparePlot(&Comparison{Title: "cmp", Labels: []string{"direction=push", "direction=pull"}, Ms: []float64{3, 2}})
	if err != nil {
		t.Fatal(err)
	}
	if sp.X.Label.Text != "alpha" || cp.X.Label.Text != "" {
		t.Errorf("x axes: sweep %q, compare %q; want alpha and none", sp.X.Label.Text, cp.X.Label.Text)
	}
	// The sweep's x axis is numeric: 10 lies twice as far from 2 as 6 does.
	if sp.X.Min > 2 || sp.X.Max < 10 {
		t.Errorf("sweep x range %g..%g, want 2..10", sp.X.Min, sp.X.Max)
	}
	for _, p := range []*plot.Plot{sp, cp} {
		if _, err := svgOf([][]*plot.Plot{{p}}, 10*vg.Centimeter, 6*vg.Centimeter); err != nil {
			t.Error(err)
		}
	}
}
