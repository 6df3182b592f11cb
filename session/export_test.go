package session

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gworkbench/gworkbench/engine"
)

// resultKeys are the keys of a result's JSON that other tools rely on.
var resultKeys = []string{"algorithm", "engine", "params", "schedule", "graph", "iterations", "time_ms", "times_ms",
	"warmup", "edges_scanned", "teps_edges", "teps", "gteps", "summary", "trace", "provenance"}

func checkResultJSON(t *testing.T, what string, m map[string]any) {
	t.Helper()
	for _, k := range resultKeys {
		if _, ok := m[k]; !ok {
			t.Errorf("%s: key %q missing", what, k)
		}
	}
	g, _ := m["graph"].(map[string]any)
	for _, k := range []string{"name", "fingerprint", "vertices", "edges", "directed"} {
		if _, ok := g[k]; !ok {
			t.Errorf("%s: graph.%s missing", what, k)
		}
	}
	p, _ := m["provenance"].(map[string]any)
	for _, k := range []string{"version", "commit", "machine", "gpu"} {
		if _, ok := p[k]; !ok {
			t.Errorf("%s: provenance.%s missing", what, k)
		}
	}
	sc, _ := m["schedule"].(map[string]any)
	if _, ok := sc["direction"]; !ok || len(sc) < 5 || sc["split"] == "auto" || sc["chunk"] == "auto" {
		t.Errorf("%s: schedule is not every knob that shaped the run, resolved: %v", what, sc)
	}
	// Numbers are JSON numbers: a resolved source, a worker count, the times and TEPS.
	if w, ok := sc["workers"]; ok && w != "auto" {
		if _, isNum := w.(float64); !isNum {
			t.Errorf("%s: schedule.workers = %#v, want a number", what, w)
		}
	}
	ps, _ := m["params"].(map[string]any)
	if src, ok := ps["src"]; ok {
		if _, isNum := src.(float64); !isNum {
			t.Errorf("%s: params.src = %#v, want a number", what, src)
		}
	}
	for _, k := range []string{"warmup", "edges_scanned", "teps", "time_ms"} {
		if _, isNum := m[k].(float64); !isNum {
			t.Errorf("%s: %s = %#v, want a number", what, k, m[k])
		}
	}
}

func TestExport(t *testing.T) {
	s, out := newTest(t)
	dir := t.TempDir()
	do(t, s, out, "run bfs src=0 repeat=2 as b")
	p := func(f string) string { return filepath.Join(dir, f) }
	mustContain(t, "values", do(t, s, out, "export b values "+p("v.csv")), "wrote ")
	data, _ := os.ReadFile(p("v.csv"))
	if want := "vertex,value\n0,0\n1,1\n2,2\n3,3\n4,-1\n"; string(data) != want {
		t.Errorf("values CSV: got %q want %q", data, want)
	}
	do(t, s, out, "export b trace "+p("t.csv"))
	data, _ = os.ReadFile(p("t.csv"))
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if !strings.HasPrefix(lines[0], "iter,kind,phase,direction,mode,in_vertices") || len(lines) < 4 {
		t.Errorf("trace CSV: %q", data)
	}
	do(t, s, out, "export b trace "+p("t.json"))
	var recs []map[string]any
	data, _ = os.ReadFile(p("t.json"))
	if err := json.Unmarshal(data, &recs); err != nil || len(recs) < 3 || recs[len(recs)-1]["kind"] != "iteration" {
		t.Errorf("trace JSON: %v %s", err, data)
	}
	do(t, s, out, "export last json "+p("r.json"))
	var m map[string]any
	data, _ = os.ReadFile(p("r.json"))
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	checkResultJSON(t, "export json", m)
	if ts, _ := m["times_ms"].([]any); len(ts) != 2 {
		t.Errorf("times_ms: got %v, want the 2 counted repeats", m["times_ms"])
	}
	if sm, _ := m["summary"].(map[string]any); sm["reached"] != 4.0 || sm["max_depth"] != 3.0 {
		t.Errorf("summary: %v", m["summary"])
	}
	if err := s.Exec(context.Background(), "export b values "+p("no/such/dir/x.csv")); err == nil {
		t.Errorf("export into a missing directory: no error")
	}
	do(t, s, out, "run tc as t")
	if err := s.Exec(context.Background(), "export t values "+p("t.csv")); err == nil || !strings.Contains(err.Error(), "no per-vertex values") {
		t.Errorf("tc values: %v", err)
	}
}

func TestJSONFormat(t *testing.T) {
	var out bytes.Buffer
	s := New(Options{Out: &out, Format: "json"})
	for _, l := range []string{"gen k = kron scale=6 degree=4", "set src=0", "run bfs", "compare bfs direction=push,pull", "sweep bfs alpha=5,10 direction=auto"} {
		if err := s.Exec(context.Background(), l); err != nil {
			t.Fatalf("%s: %v", l, err)
		}
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("want 3 JSON lines (run, compare, sweep), got %d:\n%s", len(lines), out.String())
	}
	var run map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &run); err != nil {
		t.Fatal(err)
	}
	checkResultJSON(t, "run", run)
	for i, kind := range []string{"compare", "sweep"} {
		var c struct {
			Kind string
			Rows []struct {
				Label    string
				Status   string
				Verified string
				Result   map[string]any
			}
		}
		if err := json.Unmarshal([]byte(lines[i+1]), &c); err != nil {
			t.Fatal(err)
		}
		if c.Kind != kind || len(c.Rows) != 2 {
			t.Fatalf("%s: %s", kind, lines[i+1])
		}
		for _, r := range c.Rows {
			if r.Status != "ok" || r.Verified != "ok" {
				t.Errorf("%s %s: status %s verified %s", kind, r.Label, r.Status, r.Verified)
			}
			checkResultJSON(t, kind+" "+r.Label, r.Result)
		}
	}
}

func TestCompareAndSweep(t *testing.T) {
	s, out := newTest(t)
	do(t, s, out, "gen k = kron scale=7 degree=4")
	o := do(t, s, out, "compare bfs direction=push,pull engine=cpu,ref update=rmw,rw")
	mustContain(t, "compare", o, "cmp1: compare bfs on k", "direction", "engine", "update", "spread", "verdict", "baseline", "ref (serial)", "verified")
	if n := strings.Count(o, " ok"); n != 8 {
		t.Errorf("compare: %d verified rows, want 8:\n%s", n, o)
	}
	// An invalid combination is a row with its reason, not an abort.
	o = do(t, s, out, "compare pr update=rmw,rw")
	mustContain(t, "compare invalid", o, "update=rw: invalid: update=rw needs a monotonic algorithm")
	if _, err := engine.Open("gpu"); err != nil {
		o = do(t, s, out, "compare bfs engine=cpu,gpu")
		mustContain(t, "compare unavailable", o, "engine=gpu: unavailable: ", err.Error())
	}
	o = do(t, s, out, "sweep bfs alpha=5:25:10 repeat=2 as sw")
	mustContain(t, "sweep", o, "sw: sweep bfs on k", "alpha", "time against alpha", "min-max", "same")
	if n := strings.Count(o, " ok"); n != 3 {
		t.Errorf("sweep: %d verified rows, want 3:\n%s", n, o)
	}
	mustContain(t, "plot sweep", do(t, s, out, "plot sw"), "alpha=5", "alpha=25")
	mustContain(t, "results", do(t, s, out, "results"), "cmp1", "sw: sweep")
	o = do(t, s, out, "tune bfs repeat=1 workers=1")
	mustContain(t, "tune", o, "tune1: tune bfs on k [cpu]", "schedules tried", "vs the best so far", "best: ")
	if strings.Contains(o, "DIFFERS") || strings.Contains(o, "workers=") && !strings.Contains(o, "workers=1") {
		t.Errorf("tune:\n%s", o)
	}
	// A session default the tuner moves away from is really moved away from.
	do(t, s, out, "set direction=pull")
	o = do(t, s, out, "tune bfs repeat=1 as t2")
	for _, ent := range s.comparisonNamed("t2").rows {
		if ent.r != nil && ent.r.Schedule.Direction.String() != "pull" && strings.Contains(ent.values[0], "direction=pull") {
			t.Errorf("row %q ran direction=%s", ent.values[0], ent.r.Schedule.Direction)
		}
		if !strings.Contains(ent.values[0], "direction=") && !slices.Contains(ent.settings, setting{"direction", "auto"}) {
			t.Errorf("row %q does not ask for direction=auto: %v", ent.values[0], ent.settings)
		}
		if ent.r != nil && strings.Contains(ent.values[0], "direction=push") && ent.r.Schedule.Direction.String() != "push" {
			t.Errorf("row %q ran direction=%s", ent.values[0], ent.r.Schedule.Direction)
		}
	}
	do(t, s, out, "set direction=auto")
	if err := s.Exec(context.Background(), "tune bfs src=0,1"); err == nil {
		t.Errorf("tune with a list of a parameter: no error")
	}
	// A knob given a list is the only one tuned, over those values.
	o = do(t, s, out, "tune bfs direction=push,pull repeat=2 as t3")
	mustContain(t, "tune with a list", o, "t3: tune bfs on k [cpu]: 3 schedules tried")
}

func TestFilesSaveOpenReport(t *testing.T) {
	s, out := newTest(t)
	dir := t.TempDir()
	p := func(f string) string { return filepath.Join(dir, f) }
	do(t, s, out, "gen k = kron scale=6 degree=4; set direction=push src=0; run bfs as b; compare bfs direction=push,pull as c")
	for _, f := range []string{"b.svg", "b.html", "c.svg"} {
		name := strings.TrimSuffix(f, filepath.Ext(f))
		do(t, s, out, "plot "+name+" "+p(f))
		if st, err := os.Stat(p(f)); err != nil || st.Size() == 0 {
			t.Errorf("plot %s: %v", f, err)
		}
	}
	do(t, s, out, "report "+p("r.html"))
	data, _ := os.ReadFile(p("r.html"))
	if !strings.Contains(string(data), "run bfs as b") {
		t.Errorf("report lacks the commands")
	}
	do(t, s, out, "save "+p("s.json"))

	var out2 bytes.Buffer
	s2 := New(Options{Out: &out2})
	if err := s2.Exec(context.Background(), "open "+p("s.json")); err != nil {
		t.Fatalf("open: %v\n%s", err, out2.String())
	}
	mustContain(t, "open", out2.String(), "opened", "1 graph, 1 result, 1 comparison (")
	if gs := s2.Graphs(); len(gs) != 1 || gs[0].Name != "k" || !gs[0].Current {
		t.Errorf("graphs after open: %+v", gs)
	}
	if e, sc := s2.Settings(); e != "cpu" || sc.Get("direction") != "push" {
		t.Errorf("settings after open: %s %s", e, sc.Get("direction"))
	}
	rs := s2.Results()
	if len(rs) != 1 || rs[0].Name != "b" || rs[0].R.Summary.Reached != s.Results()[0].R.Summary.Reached || len(rs[0].R.Trace.Records) == 0 {
		t.Errorf("results after open: %+v", rs)
	}
	out2.Reset()
	if err := s2.Exec(context.Background(), "trace b; results; plot c"); err != nil {
		t.Errorf("restored results: %v", err)
	}
	if err := s2.Exec(context.Background(), "verify b"); err == nil || !strings.Contains(err.Error(), "run it again") {
		t.Errorf("verify restored: %v", err)
	}
	os.WriteFile(p("bad.json"), []byte(`{"format":"other"}`), 0o644)
	if err := s2.Exec(context.Background(), "open "+p("bad.json")); err == nil {
		t.Errorf("open of a foreign file: no error")
	}
}

func TestOpenMovedGraph(t *testing.T) {
	s, out := newTest(t)
	dir, other := t.TempDir(), t.TempDir()
	data, _ := os.ReadFile("testdata/tiny.el")
	os.WriteFile(filepath.Join(dir, "tiny.el"), data, 0o644)
	do(t, s, out, "load t = "+filepath.Join(dir, "tiny.el")+" undirected; run bfs src=0")
	do(t, s, out, "save "+filepath.Join(other, "s.json"))
	// Share the session as a folder: the session file and the graph side by side, elsewhere.
	os.WriteFile(filepath.Join(other, "tiny.el"), data, 0o644)
	os.Remove(filepath.Join(dir, "tiny.el"))
	var out2 bytes.Buffer
	s2 := New(Options{Out: &out2})
	if err := s2.Exec(context.Background(), "open "+filepath.Join(other, "s.json")); err != nil {
		t.Fatalf("open: %v\n%s", err, out2.String())
	}
	if gs := s2.Graphs(); len(gs) != 1 || gs[0].G.NumVertices() != 4 || gs[0].G.Directed {
		t.Errorf("graphs: %+v", gs)
	}
	if strings.Contains(out2.String(), "differs") {
		t.Errorf("open: %s", out2.String())
	}
}

func TestComparisonRows(t *testing.T) {
	s, out := newTest(t)
	do(t, s, out, "compare bfs direction=push,pull src=0")
	mustContain(t, "trace row", do(t, s, out, "trace cmp1.2"), "cmp1.2: bfs on p [cpu]", "pull")
	mustContain(t, "verify row", do(t, s, out, "verify cmp1.1"), "cmp1.1: bfs agrees")
	for line, want := range map[string]string{
		"trace cmp1":   "cmp1 is a compare of 2 runs: name one of them, cmp1.1 to cmp1.2",
		"trace cmp1.3": "cmp1 has rows cmp1.1 to cmp1.2",
	} {
		if err := s.Exec(context.Background(), line); err == nil || err.Error() != "trace: "+want {
			t.Errorf("%s: got %v, want %q", line, err, want)
		}
	}
}
