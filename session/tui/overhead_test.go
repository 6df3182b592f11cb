package tui

import (
	"context"
	"io"
	"os"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/gworkbench/gworkbench/engine"
	_ "github.com/gworkbench/gworkbench/engine/cpu"
	"github.com/gworkbench/gworkbench/graph"
	"github.com/gworkbench/gworkbench/loader"
	"github.com/gworkbench/gworkbench/session"
)

// pathLen is the length of the path graph: BFS from one end runs pathLen iterations, the
// road-graph extreme the issue asks about.
const pathLen = 50000

var (
	pathOnce sync.Once
	pathG    *graph.CSR
)

func pathGraph(tb testing.TB) *graph.CSR {
	pathOnce.Do(func() {
		edges := make([]loader.Edge, pathLen-1)
		for i := range edges {
			edges[i] = loader.Edge{U: uint32(i), V: uint32(i + 1)}
		}
		var err error
		if pathG, err = loader.FromEdges(pathLen, edges, false, false); err != nil {
			tb.Fatal(err)
		}
	})
	return pathG
}

const pathRun = "run bfs src=0 direction=push"

// bareSession is a session with no view attached.
func bareSession(tb testing.TB) *session.Session {
	s := session.New(session.Options{Out: io.Discard})
	s.AddGraph("path", pathGraph(tb), "")
	return s
}

// tuiSession is a session feeding a running TUI that draws to nowhere, as the real one does.
func tuiSession(tb testing.TB) (*session.Session, func()) {
	feed := NewFeed()
	s := session.New(feed.Options(session.Options{Width: 120}))
	s.AddGraph("path", pathGraph(tb), "")
	ctx, cancel := context.WithCancel(context.Background())
	m := newModel(ctx, s, feed)
	p := tea.NewProgram(m, tea.WithContext(ctx), tea.WithInput(nil), tea.WithOutput(io.Discard),
		tea.WithWindowSize(120, 40), tea.WithoutSignals(), tea.WithColorProfile(colorprofile.ANSI256))
	done := make(chan struct{})
	go func() { p.Run(); close(done) }()
	return s, func() { cancel(); <-done }
}

func runPath(tb testing.TB, s *session.Session) time.Duration {
	wall, _ := runPathCPU(tb, s)
	return wall
}

// runPathCPU returns the wall time of the run and the CPU time the whole process spent
// meanwhile (the engine's workers and, when attached, the TUI).
func runPathCPU(tb testing.TB, s *session.Session) (wall, cpu time.Duration) {
	c0 := cpuTime()
	t0 := time.Now()
	if err := s.Exec(context.Background(), pathRun); err != nil {
		tb.Fatal(err)
	}
	return time.Since(t0), cpuTime() - c0
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkPathBFS runs a 50,000-iteration BFS with and without the TUI attached.
func BenchmarkPathBFS(b *testing.B) {
	if _, err := engine.Open("cpu"); err != nil {
		b.Skip(err)
	}
	b.Run("bare", func(b *testing.B) {
		s := bareSession(b)
		b.ResetTimer()
		for range b.N {
			runPath(b, s)
		}
	})
	b.Run("tui", func(b *testing.B) {
		s, stop := tuiSession(b)
		defer stop()
		b.ResetTimer()
		for range b.N {
			runPath(b, s)
		}
	})
}

// TestTUIOverhead compares the median time of the 50,000-iteration BFS with the TUI attached
// against without, interleaving the runs. It takes a few seconds, so it runs only when
// GW_OVERHEAD is set; the bar is 5%.
func TestTUIOverhead(t *testing.T) {
	if os.Getenv("GW_OVERHEAD") == "" {
		t.Skip("set GW_OVERHEAD=1 to measure the TUI's overhead")
	}
	bare := bareSession(t)
	if os.Getenv("GW_OVERHEAD") == "noop" {
		// Only the session's own cost of having an observer.
		bare = session.New(session.Options{Out: io.Discard, Observer: func(session.Event) {}})
		bare.AddGraph("path", pathGraph(t), "")
	}
	withTUI, stop := tuiSession(t)
	defer stop()
	if os.Getenv("GW_OVERHEAD") == "feed" {
		// The feed alone, drained every frame, and nothing drawn.
		feed := NewFeed()
		withTUI = session.New(feed.Options(session.Options{}))
		withTUI.AddGraph("path", pathGraph(t), "")
		go func() {
			for {
				feed.wait()()
			}
		}()
	}
	runPath(t, bare)
	runPath(t, withTUI)
	var a, b, ca, cb []time.Duration
	for range 25 {
		// Let the TUI catch up between runs, so that its drawing of one run does not land in
		// the next one.
		time.Sleep(150 * time.Millisecond)
		w, c := runPathCPU(t, bare)
		a, ca = append(a, w), append(ca, c)
		time.Sleep(150 * time.Millisecond)
		w, c = runPathCPU(t, withTUI)
		b, cb = append(b, w), append(cb, c)
	}
	med := func(x []time.Duration) time.Duration { slices.Sort(x); return x[len(x)/2] }
	ma, mb := med(a), med(b)
	t.Logf("fastest run: %v bare, %v with the TUI (%+.1f%%)", a[0], b[0], (float64(b[0])-float64(a[0]))/float64(a[0])*100)
	over := (float64(mb) - float64(ma)) / float64(ma) * 100
	mca, mcb := med(ca), med(cb)
	t.Logf("50,000-iteration BFS, median of 25: wall %v bare, %v with the TUI attached (%+.1f%%); CPU %v bare, %v with the TUI (%+.1f%%)",
		ma.Round(time.Millisecond), mb.Round(time.Millisecond), over,
		mca.Round(time.Millisecond), mcb.Round(time.Millisecond), (float64(mcb)-float64(mca))/float64(mca)*100)
	if over > 5 {
		t.Errorf("the TUI costs %.1f%% (more than 5%%)", over)
	}
}

// BenchmarkFeedObserver is the cost the feed adds to each iteration of an engine.
func BenchmarkFeedObserver(b *testing.B) {
	feed := NewFeed()
	stop := make(chan struct{})
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(frameInterval):
				feed.drain()
			}
		}
	}()
	defer close(stop)
	ev := session.Event(session.RunRecord{Record: engine.Record{Kind: engine.IterationRecord, InVertices: 1}})
	b.ResetTimer()
	for range b.N {
		feed.Observer(ev)
	}
}
