package tui

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/graph"
	"github.com/gworkbench/gworkbench/loader"
	"github.com/gworkbench/gworkbench/session"
	"github.com/gworkbench/gworkbench/viz"
)

// fakeSession runs scripted commands: `run ALGO` streams a fixed direction-optimizing BFS
// trace through the feed, waiting on gate before each iteration when gate is set.
type fakeSession struct {
	feed *Feed
	gate chan struct{}
	g    *graph.CSR

	mu      sync.Mutex
	eng     string
	sched   engine.Schedule
	alg     engine.Algorithm
	results []session.ResultEntry
	comps   []session.ComparisonEntry
}

func newFake(feed *Feed) *fakeSession {
	// A 9-vertex graph: the size shows in the header and the side panel.
	var edges []loader.Edge
	for v := uint32(1); v < 9; v++ {
		edges = append(edges, loader.Edge{U: v - 1, V: v})
	}
	g, err := loader.FromEdges(9, edges, false, false)
	if err != nil {
		panic(err)
	}
	return &fakeSession{feed: feed, g: g, eng: "cpu"}
}

// fakeTrace is a BFS that goes push, switches to pull at level 2 and back at level 4.
func fakeTrace() engine.Trace {
	var t engine.Trace
	sizes := []int64{1, 40, 900, 5200, 700, 30, 2}
	for i, v := range sizes {
		dir := engine.Push
		if i >= 2 && i < 4 {
			dir = engine.Pull
		}
		if i == 2 {
			t.Records = append(t.Records, engine.Record{Kind: engine.SwitchRecord, Iter: i, Switch: &engine.Switch{
				What: "direction", From: "push", To: "pull", Reason: "frontier edges 7.2k > unexplored edges / alpha 4.1k"}})
		}
		if i == 4 {
			t.Records = append(t.Records, engine.Record{Kind: engine.SwitchRecord, Iter: i, Switch: &engine.Switch{
				What: "direction", From: "pull", To: "push", Reason: "frontier vertices 700 < V / beta 900"}})
		}
		t.Records = append(t.Records, engine.Record{Kind: engine.IterationRecord, Iter: i, Direction: dir, Mode: engine.Data,
			InVertices: v, InEdges: 8 * v, OutVertices: v * 2, EdgesScanned: 6 * v, Time: time.Duration(v+100) * time.Microsecond})
	}
	return t
}

func (f *fakeSession) Exec(ctx context.Context, line string) error {
	w := strings.Fields(line)
	switch w[0] {
	case "quit":
		return session.ErrQuit
	case "set":
		for _, kv := range w[1:] {
			k, v, _ := strings.Cut(kv, "=")
			if err := f.Set(k, v); err != nil {
				return err
			}
		}
		return nil
	case "trace":
		h, rows := viz.TraceRows(fakeTrace())
		for range 6 { // long enough to open the pager
			fmt.Fprint(f.feed, viz.Table(h, rows, viz.Style{}))
		}
		return nil
	case "run":
		return f.run(ctx, engine.Algorithm(w[1]))
	case "compare", "sweep", "tune": // runs nothing: a comparison of three rows, two ran
		f.mu.Lock()
		name := fmt.Sprintf("%s%d", map[string]string{"compare": "cmp", "sweep": "sweep", "tune": "tune"}[w[0]], len(f.comps)+1)
		f.comps = append(f.comps, session.ComparisonEntry{Name: name, Kind: w[0], Title: line, Rows: 3, Ran: 2, Best: 1500 * time.Microsecond})
		f.mu.Unlock()
		fmt.Fprintf(f.feed, "%s: %s\n", name, line)
		return nil
	case "load": // progress lines as the loader draws them, then waits for the gate
		w := progressWriter{f.feed}
		fmt.Fprint(w, "\r\x1b[Kload big.el: parse 50.0 MB / 200.0 MB (25%, 120.0 MB/s)")
		select {
		case <-f.gate:
		case <-ctx.Done():
		}
		fmt.Fprint(w, "\r\x1b[K")
		return nil
	case "echo":
		fmt.Fprintln(f.feed, strings.TrimPrefix(line, "echo "))
		return nil
	case "flood": // many lines, as fast as they come, until cancelled or N lines
		n, _ := strconv.Atoi(w[1])
		for i := 0; i < n; i++ {
			if ctx.Err() != nil {
				return fmt.Errorf("flood cancelled after %d lines: %w", i, ctx.Err())
			}
			fmt.Fprintf(f.feed, "  line %d\n", i)
		}
		return nil
	}
	return fmt.Errorf("unknown command %q", w[0])
}

func (f *fakeSession) run(ctx context.Context, alg engine.Algorithm) error {
	f.mu.Lock()
	eng, sched := f.eng, f.sched
	name := fmt.Sprintf("%s%d", alg, len(f.results)+1)
	f.mu.Unlock()
	f.feed.Observer(session.RunStarted{Algorithm: alg, Engine: eng, Graph: "path9", Schedule: sched})
	tr := fakeTrace()
	for _, r := range tr.Records {
		if f.gate != nil && r.Kind == engine.IterationRecord {
			select {
			case <-f.gate:
			case <-ctx.Done():
				err := fmt.Errorf("%s on path9 cancelled: %w", alg, ctx.Err())
				f.feed.Observer(session.RunFinished{Name: name, Err: err})
				return err
			}
		}
		f.feed.Observer(session.RunRecord{Record: r})
	}
	res := &engine.Result{Algorithm: alg, Engine: eng, Schedule: sched, Trace: tr}
	res.Summary.Iterations = tr.Iterations()
	res.Summary.Time = 3210 * time.Microsecond
	f.mu.Lock()
	f.alg = alg
	f.results = append(f.results, session.ResultEntry{Name: name, R: res})
	f.mu.Unlock()
	f.feed.Observer(session.RunFinished{Name: name, Result: res})
	fmt.Fprintf(f.feed, "%s: %d iterations, 3.21 ms\n", name, res.Summary.Iterations)
	return nil
}

func (f *fakeSession) Complete(line string) []string {
	var out []string
	for _, c := range []string{"run", "results", "set", "trace", "quit"} {
		if strings.HasPrefix(c, line) {
			out = append(out, c)
		}
	}
	return out
}

func (f *fakeSession) Comparisons() []session.ComparisonEntry {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]session.ComparisonEntry(nil), f.comps...)
}

func (f *fakeSession) Graphs() []session.GraphEntry {
	return []session.GraphEntry{{Name: "path9", G: f.g, Current: true}}
}

func (f *fakeSession) Results() []session.ResultEntry {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]session.ResultEntry(nil), f.results...)
}

func (f *fakeSession) Settings() (string, engine.Schedule) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.eng, f.sched
}

func (f *fakeSession) Set(knob, value string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if knob == "engine" {
		f.eng = value
		return nil
	}
	return f.sched.Set(knob, value)
}

func (f *fakeSession) LastAlgorithm() engine.Algorithm {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.alg
}
