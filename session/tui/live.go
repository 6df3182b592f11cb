package tui

import (
	"time"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/session"
	"github.com/gworkbench/gworkbench/viz"
)

// liveRun is the run shown in the live panel: the one in progress, or the last one.
type liveRun struct {
	alg        engine.Algorithm
	engineName string
	graph      string
	vertices   int      // of the graph, for progress; 0 if unknown
	chart      viz.Live // the records so far, as the charts need them
	iters      int
	last       lastIter // the latest iteration
	reached    int64    // vertices put on a frontier so far (traversals)
	started    time.Time
	finished   time.Time // zero while running
	name       string    // the result's name once finished
	err        error
	runs       int           // runs started by the current command (compare, sweep, repeat)
	took       time.Duration // the engine's own time for the run, once finished
}

// lastIter is what the live panel's status line says of the latest iteration.
type lastIter struct {
	iter int
	dir  engine.Direction
	mode engine.Driven
	in   int64
}

func (l *liveRun) running() bool { return !l.started.IsZero() && l.finished.IsZero() }

// apply folds one session event into the live run.
func (m *model) applyEvent(e session.Event, now time.Time) {
	l := &m.live
	switch e := e.(type) {
	case session.RunStarted:
		if l.started.IsZero() {
			defer m.layout() // the live panel appears: the output gets shorter
		}
		runs := l.runs + 1
		*l = liveRun{alg: e.Algorithm, engineName: e.Engine, graph: e.Graph, started: now, runs: runs}
		l.vertices = m.graphSize(e.Graph)
		if l.vertices == 0 { // made by an earlier command of the same line: look again
			m.graphs = m.s.Graphs()
			l.vertices = m.graphSize(e.Graph)
		}
		if e.Algorithm.Traversal() {
			l.reached = 1
		}
	case session.RunRecord:
		r := e.Record
		l.chart.Add(r)
		if r.Kind == engine.IterationRecord {
			l.iters++
			l.last = lastIter{iter: r.Iter, dir: r.Direction, mode: r.Mode, in: r.InVertices}
			if l.alg.Traversal() {
				l.reached += r.OutVertices
			}
		}
	case session.RunFinished:
		l.finished = now
		l.err = e.Err
		l.name = e.Name
		if e.Result != nil {
			// Engines that count on the device deliver the counters at the end.
			if n := e.Result.Trace.Iterations(); n != l.chart.Iterations() {
				l.chart = viz.Live{}
				for _, r := range e.Result.Trace.Records {
					l.chart.Add(r)
				}
				l.iters = n
			}
			l.took = e.Result.Summary.Time
		}
		m.refresh()
	}
}

// progress returns the fraction of the graph reached by a traversal, and whether it is known.
func (l *liveRun) progress() (float64, bool) {
	if l.vertices == 0 || !l.alg.Traversal() {
		return 0, false
	}
	return min(1, float64(l.reached)/float64(l.vertices)), true
}

// graphSize returns the number of vertices of the named graph, 0 if unknown.
func (m *model) graphSize(name string) int {
	for _, g := range m.graphs {
		if g.Name == name && g.G != nil {
			return g.G.NumVertices()
		}
	}
	return 0
}
