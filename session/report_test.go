package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gworkbench/gworkbench/engine"
)

// The report draws compares, sweeps and tunes as charts with tables, and heads each run with
// its name and schedule; plot of a comparison to .html tables every column.
func TestReportComparisonsAndPlotColumns(t *testing.T) {
	s, out := newTest(t)
	dir := t.TempDir()
	do(t, s, out, "set src=0; run bfs direction=push as bp; run bfs direction=pull as bq; compare bfs direction=push,pull as c; sweep bfs alpha=5,10 as sw")
	do(t, s, out, "report "+filepath.Join(dir, "r.html"))
	b, err := os.ReadFile(filepath.Join(dir, "r.html"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	for _, want := range []string{"<h2>bp: bfs on p, cpu engine, direction=push", "<h2>bq: bfs on p, cpu engine, direction=pull",
		"<h2>c: compare bfs on p: direction=push,pull</h2>", "<h2>sw: sweep bfs on p: alpha=5,10</h2>", "<th>GTEPS</th>", "<th>verified</th>"} {
		if !strings.Contains(page, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if n := strings.Count(page, "<svg"); n != 4 {
		t.Errorf("%d charts in the report, want 4 (two runs, the compare and the sweep)", n)
	}
	do(t, s, out, "plot c "+filepath.Join(dir, "c.html"))
	b, _ = os.ReadFile(filepath.Join(dir, "c.html"))
	for _, want := range []string{"<th>iterations</th>", "<th>edges</th>", "<th>GTEPS</th>", "<th>verified</th>", "<td>direction=pull</td>", "<td>ok</td>"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("c.html lacks %q", want)
		}
	}
	cs := s.Comparisons()
	if len(cs) != 2 || cs[0].Name != "c" || cs[0].Kind != "compare" || cs[0].Ran != 2 || cs[0].Best <= 0 || cs[1].Name != "sw" {
		t.Errorf("Comparisons() = %+v, want c (compare, 2 ran) and sw", cs)
	}
}

func TestInSpace(t *testing.T) {
	var sc engine.Schedule
	if !InSpace("cpu", engine.BFS, sc) {
		t.Errorf("the default schedule is out of the cpu engine's space")
	}
	// The cpu engine pulls with a bitmap or boolmap frontier, not a queue.
	for _, kv := range [][2]string{{"direction", "pull"}, {"frontier", "queue"}} {
		if err := sc.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	if InSpace("cpu", engine.BFS, sc) {
		t.Errorf("direction=pull frontier=queue is in the cpu engine's space")
	}
	if !InSpace("no-such-engine", engine.BFS, sc) {
		t.Errorf("an unknown engine refuses: it should leave it to Validate")
	}
}
