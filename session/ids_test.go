package session

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFileVertexIDs: a 1-based DIMACS file and a SNAP file with sparse ids keep the ids of their
// file in src=, summaries, info, exports, JSON, traces and verify, and refuse an id the file
// does not have with the ids it does have.
func TestFileVertexIDs(t *testing.T) {
	s, out := newTest(t)
	dir := t.TempDir()
	do(t, s, out, "load r = ../testdata/graphs/rome99.gr")
	mustContain(t, "load rome99", out.String(), "vertex ids 1..3353 as in the file")
	got := do(t, s, out, "run bfs src=3353")
	mustContain(t, "run bfs src=3353", got, "from 3353,", "params: src=3353")
	err := s.Exec(context.Background(), "run bfs src=0")
	if err == nil || !strings.Contains(err.Error(), "src=0 is not a vertex of r: its vertices are 1..3353") {
		t.Errorf("run bfs src=0: got %v, want the refusal naming 1..3353", err)
	}
	do(t, s, out, "run bfs src=3353 as b")
	do(t, s, out, "verify b")
	values := filepath.Join(dir, "v.csv")
	do(t, s, out, "export b values "+values)
	data, err := os.ReadFile(values)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 3354 || lines[1] != "1,32" || lines[3353] != "3353,0" {
		t.Errorf("values: %d lines, first %q, last %q; want 3354 lines, 1,32 and 3353,0", len(lines), lines[1], lines[len(lines)-1])
	}
	js := filepath.Join(dir, "b.json")
	do(t, s, out, "export b json "+js)
	data, _ = os.ReadFile(js)
	var j struct {
		Params  map[string]any `json:"params"`
		Summary map[string]any `json:"summary"`
	}
	if err := json.Unmarshal(data, &j); err != nil {
		t.Fatal(err)
	}
	if j.Params["src"] != 3353.0 || j.Summary["src"] != 3353.0 {
		t.Errorf("json: params src %v, summary src %v; want 3353", j.Params["src"], j.Summary["src"])
	}
	// Trial sources are the file's ids too.
	do(t, s, out, "run bfs src=random sources=3 repeat=3 as rb")
	do(t, s, out, "export rb json "+js)
	data, _ = os.ReadFile(js)
	var jr struct {
		Sources []int64 `json:"sources"`
	}
	if err := json.Unmarshal(data, &jr); err != nil || len(jr.Sources) != 3 {
		t.Fatalf("json sources: %v %v", jr.Sources, err)
	}
	r := s.results[len(s.results)-1].r
	for _, src := range jr.Sources {
		if src < 1 || src > 3353 {
			t.Errorf("json sources %v: want ids 1..3353", jr.Sources)
		}
	}
	if last := jr.Sources[2]; uint64(last) != r.Graph.VertexID(int(r.Params.Src)) {
		t.Errorf("json sources %v: the last run's source is vertex %d, id %d", jr.Sources, r.Params.Src, r.Graph.VertexID(int(r.Params.Src)))
	}
	// A saved session keeps the file's id.
	saved := filepath.Join(dir, "s.json")
	do(t, s, out, "save "+saved)
	s2, out2 := newTest(t)
	do(t, s2, out2, "open "+saved)
	mustContain(t, "results after open", do(t, s2, out2, "export b json "+js), "wrote")
	data, _ = os.ReadFile(js)
	if !strings.Contains(string(data), `"src": 3353`) {
		t.Errorf("json after open lacks src 3353:\n%.400s", data)
	}

	do(t, s, out, "load w = ../testdata/graphs/wiki-Vote.txt")
	mustContain(t, "load wiki-Vote", out.String(), "vertex ids 3..8297 with gaps (7,115 ids) as in the file (1,183 unused ids skipped")
	mustContain(t, "info", do(t, s, out, "info w"), "7,115", "vertex ids   3..8297 with gaps")
	mustContain(t, "run bfs src=30", do(t, s, out, "run bfs src=30"), "from 30,")
	if err := s.Exec(context.Background(), "run bfs src=69"); err == nil || !strings.Contains(err.Error(), "3..8297 with gaps (7,115 ids)") {
		t.Errorf("run bfs src=69 (a gap) on wiki-Vote: got %v", err)
	}
	got = do(t, s, out, "run bc src=30")
	mustContain(t, "run bc", got, "from one source (src=30)")
	mustContain(t, "trace", do(t, s, out, "trace last"), "source 30; BFS from 30")
	do(t, s, out, "verify last")
	do(t, s, out, "run cc")
	do(t, s, out, "export last values "+values)
	data, _ = os.ReadFile(values)
	if !strings.HasPrefix(string(data), "vertex,value\n3,3\n4,3\n") || !strings.Contains(string(data), "\n8297,") {
		t.Errorf("wiki-Vote cc values start %.40q, want 3,3 then 4,3, and id 8297 listed", data)
	}
}

// TestCancelledRunKeepsTrace: a run cancelled part way is kept, marked cancelled, with the
// trace up to then; it has no values to verify or export, and says so.
func TestCancelledRunKeepsTrace(t *testing.T) {
	var out strings.Builder
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	seen := 0
	s := New(Options{Out: &out, Observer: func(e Event) {
		if _, ok := e.(RunRecord); ok {
			if seen++; seen == 5 {
				cancel()
			}
		}
	}})
	if err := s.Exec(context.Background(), "gen g = grid rows=200 cols=200"); err != nil {
		t.Fatal(err)
	}
	err := s.Exec(ctx, "run bfs src=0 as long")
	if err == nil || !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "its trace so far is kept as long (trace long)") {
		t.Fatalf("cancelled run: %v", err)
	}
	it, rerr := s.result("long")
	if rerr != nil || !it.cancelled || len(it.r.Trace.Records) < 5 {
		t.Fatalf("kept result: %v %+v", rerr, it)
	}
	bg := context.Background()
	out.Reset()
	if err := s.Exec(bg, "trace long"); err != nil || !strings.Contains(out.String(), "push") {
		t.Errorf("trace long: %v\n%s", err, out.String())
	}
	out.Reset()
	if err := s.Exec(bg, "results"); err != nil || !strings.Contains(out.String(), "cancelled") {
		t.Errorf("results: %v\n%s", err, out.String())
	}
	if err := s.Exec(bg, "verify long"); err == nil || !strings.Contains(err.Error(), "cancelled") {
		t.Errorf("verify long: %v", err)
	}
}

// TestProgressWriter: with Options.Progress set (the TUI), compare and tune report their
// rounds there, with the percent and the rate, and not in the output.
func TestProgressWriter(t *testing.T) {
	var out, prog strings.Builder
	s := New(Options{Out: &out, Progress: &prog})
	bg := context.Background()
	for _, line := range []string{"gen k = kron scale=6 degree=4", "compare bfs direction=push,pull repeat=2", "tune bfs direction=push,pull repeat=2"} {
		if err := s.Exec(bg, line); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
	}
	p := prog.String()
	for _, want := range []string{"compare: round 1 of ", "%, starting)", " rounds/s)", "tune: pass 1, knob 1 of ", "schedules/s"} {
		if !strings.Contains(p, want) && !(strings.HasSuffix(want, "/s)") && strings.Contains(p, " s/round)")) && !(want == "schedules/s" && strings.Contains(p, " s/schedule")) {
			t.Errorf("progress lacks %q:\n%q", want, p)
		}
	}
	if strings.Contains(out.String(), "\r") {
		t.Errorf("progress went to the output: %q", out.String())
	}
}

// TestTraceSwitchesWrap: at a narrow width (the TUI's panel) `trace NAME switches` wraps each
// switch's reason instead of cutting it, and keeps its iteration.
func TestTraceSwitchesWrap(t *testing.T) {
	var out strings.Builder
	s := New(Options{Out: &out, Width: 50})
	bg := context.Background()
	for _, line := range []string{"gen k = kron scale=10 degree=8", "set live=off", "run bfs as a"} {
		if err := s.Exec(bg, line); err != nil {
			t.Fatal(err)
		}
	}
	out.Reset()
	if err := s.Exec(bg, "trace a switches"); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, l := range strings.Split(strings.TrimRight(got, "\n"), "\n") {
		if len([]rune(l)) > 50 || strings.Contains(l, "…") {
			t.Errorf("line cut or too wide: %q", l)
		}
	}
	joined := strings.Join(strings.Fields(got), " ")
	if !strings.Contains(joined, "it 1 switch direction push -> pull: scoutCount (frontier edges)") || !strings.Contains(joined, "/ alpha") {
		t.Errorf("the whole reason, at its iteration:\n%s", got)
	}
}
