package viz

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

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
