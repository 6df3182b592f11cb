package session

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gworkbench/gworkbench/engine"
)

// preparingEngine is the CPU engine behind a preparation step that reports its progress, as
// the GPU engine does while it builds a layout.
type preparingEngine struct{}

func (preparingEngine) Name() string { return "preparing" }

func (preparingEngine) Run(ctx context.Context, req engine.Request) (*engine.Result, error) {
	for done := int64(0); done <= 4; done++ {
		req.Report(engine.Progress{What: "building the test layout", Unit: "arcs", Done: done * 250_000, Total: 1_000_000})
		time.Sleep(2 * time.Millisecond)
	}
	cpu, err := engine.Open("cpu")
	if err != nil {
		return nil, err
	}
	return cpu.Run(ctx, req)
}

func init() {
	engine.Register("preparing", func() (engine.Engine, error) { return preparingEngine{}, nil })
}

// TestPrepProgress: an engine's preparation reports reach the progress line (the TUI's, or the
// terminal's) with the step, the percentage, the amount and the rate, and the line is cleared
// before the run's output; nothing of it lands in the output.
func TestPrepProgress(t *testing.T) {
	var out, prog strings.Builder
	s := New(Options{Out: &out, Progress: &prog})
	bg := context.Background()
	for _, line := range []string{"gen k = kron scale=6 degree=4", "set live=all", "run bfs engine=preparing"} {
		if err := s.Exec(bg, line); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
	}
	p := prog.String()
	for _, want := range []string{"preparing: building the test layout 25% of 1 M arcs (", " arcs/s)", "layout 100% of 1 M arcs"} {
		if !strings.Contains(p, want) {
			t.Errorf("progress lacks %q:\n%q", want, p)
		}
	}
	if !strings.HasSuffix(p, "\r\x1b[K") {
		t.Errorf("the progress line was not cleared at the end: %q", p)
	}
	if strings.Contains(out.String(), "test layout") || !strings.Contains(out.String(), "bfs") {
		t.Errorf("output:\n%s", out.String())
	}
}

func TestFmtSI(t *testing.T) {
	for x, want := range map[float64]string{950: "950", 12_345: "12.3 k", 268_435_456: "268 M", 1.5e9: "1.5 G", 2e12: "2 T"} {
		if got := fmtSI(x); got != want {
			t.Errorf("fmtSI(%v) = %q, want %q", x, got, want)
		}
	}
}
