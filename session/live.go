package session

import (
	"fmt"
	"math"
	"strconv"
	"sync"
	"time"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/viz"
)

// livePrinter prints iteration lines as records arrive.
type livePrinter struct {
	s        *Session
	mode     string // some, all, off
	header   bool
	shown    int
	skipped  int
	switches int
	iters    int   // iteration records seen
	vertices int64 // the graph's, for the vertices an iteration checked
}

func (lp *livePrinter) record(rec engine.Record) {
	if rec.Kind == engine.IterationRecord {
		lp.iters++
	}
	if lp.mode == "off" {
		return
	}
	s := lp.s
	show := lp.mode == "all"
	switch rec.Kind {
	case engine.IterationRecord:
		show = show || rec.Iter < 20 || rec.Iter%liveStep(rec.Iter) == 0
	case engine.SwitchRecord:
		show = show || lp.switches < 20
		lp.switches++
	case engine.PhaseRecord:
		show = true
	}
	if !show {
		if rec.Kind == engine.IterationRecord {
			lp.skipped++
		}
		return
	}
	if !lp.header {
		lp.header = true
		s.printf("%s\n", s.paint(ansiDim, fmt.Sprintf("  %5s  %-4s  %-8s  %9s  %9s  %9s  %11s  %9s", "iter", "dir", "mode", "frontier", "out", "checked", "scanned", "time")))
	}
	if rec.Kind == engine.SwitchRecord {
		for _, l := range wrapWords(s.switchText(rec), s.lineWidth()-4) {
			s.printf("  %s\n", s.paint(ansiYellow, l))
		}
	} else {
		s.printf("%s\n", s.recordLineOf(rec, lp.vertices))
	}
	lp.shown++
}

func (lp *livePrinter) finish(err error) {
	switch {
	case lp.skipped > 0 && err == nil:
		lp.s.printf("  %s\n", lp.s.paint(ansiDim, fmt.Sprintf("... %s not shown (trace lists them all)", plural(int64(lp.skipped), "iteration", "iterations"))))
	case lp.skipped > 0:
		lp.s.printf("\n  %s\n", lp.s.paint(ansiDim, fmt.Sprintf("... %s not shown", plural(int64(lp.skipped), "iteration", "iterations"))))
	}
}

// liveStep thins the live lines of long runs: every 10th from 20, every 100th from 100 ...
func liveStep(iter int) int {
	step := 1
	for n := iter; n >= 10; n /= 10 {
		step *= 10
	}
	return step
}

// recordLine formats one trace record as a live line.
func (s *Session) recordLine(rec engine.Record) string { return s.recordLineOf(rec, 0) }

// recordLineOf formats one trace record of a run on a graph of v vertices as a live line.
func (s *Session) recordLineOf(rec engine.Record, v int64) string {
	switch rec.Kind {
	case engine.SwitchRecord:
		return "  " + s.paint(ansiYellow, s.switchText(rec))
	case engine.PhaseRecord:
		return "  " + s.paint(ansiCyan, "phase "+phaseText(rec))
	}
	dir := rec.Direction.String()
	switch rec.Direction {
	case engine.Push:
		dir = s.paint(ansiBlue, fmt.Sprintf("%-4s", dir))
	case engine.Pull:
		dir = s.paint(ansiMagenta, fmt.Sprintf("%-4s", dir))
	default:
		dir = fmt.Sprintf("%-4s", dir)
	}
	// 80 columns: the frontier's edges are in the trace.
	line := fmt.Sprintf("  %5d  %s  %-8s  %9s  %9s  %9s  %11s  %9s", rec.Iter, dir, rec.Mode.String(), fmtCounter(rec.InVertices),
		fmtCounter(rec.OutVertices), fmtCounter(viz.Checked(&rec, v)), fmtCounter(rec.EdgesScanned), fmtMS(rec.Time))
	note := rec.Note
	if len(rec.Kernels) > 0 {
		if note != "" {
			note += "; "
		}
		note += kernelsText(rec.Kernels)
	}
	if note != "" {
		line += "  " + s.paint(ansiDim, note)
	}
	return line
}

func switchReason(sw *engine.Switch) string {
	// The two quantities, when the engine gives them, read better than its sentence: counts
	// as the tables print them (57,460, not 5.746e+04).
	if sw.Lhs.Name != "" && sw.Op != "" {
		return fmt.Sprintf("%s %s %s %s %s", sw.Lhs.Name, fmtQuantity(sw.Lhs.Value), sw.Op, sw.Rhs.Name, fmtQuantity(sw.Rhs.Value))
	}
	return sw.Reason
}

// fmtQuantity formats a quantity of a switch: large ones as rounded counts, small ones with
// four significant digits.
func fmtQuantity(v float64) string {
	switch {
	case math.IsInf(v, 0) || math.IsNaN(v):
		return fmt.Sprint(v)
	case math.Abs(v) >= 1000:
		return fmtCount(int64(math.Round(v)))
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// switchText describes a switch record in one line.
func (s *Session) switchText(rec engine.Record) string {
	sw := rec.Switch
	if sw == nil {
		return "switch " + rec.Note
	}
	return fmt.Sprintf("switch %s %s -> %s: %s", sw.What, sw.From, sw.To, switchReason(sw))
}

// prepLine shows a run's long preparation (an engine building the layout its schedule needs)
// on the progress line: the step, how much of it is done and how fast. The run's first record,
// or its end, clears the line. Engines report from their own goroutines, so it locks.
type prepLine struct {
	s      *Session
	engine string
	mu     sync.Mutex
	what   string    // the step being shown
	start  time.Time // when it was first reported
	shown  bool
}

func (p *prepLine) report(pr engine.Progress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if pr.What != p.what {
		p.what, p.start = pr.What, time.Now()
	}
	pct := int64(100)
	if pr.Total > 0 && pr.Done < pr.Total {
		pct = pr.Done * 100 / pr.Total
	}
	line := fmt.Sprintf("  %s: %s %d%% of %s %s", p.engine, pr.What, pct, fmtSI(float64(pr.Total)), pr.Unit)
	if sec := time.Since(p.start).Seconds(); sec > 0 && pr.Done > 0 {
		line += fmt.Sprintf(" (%s %s/s)", fmtSI(float64(pr.Done)/sec), pr.Unit)
	}
	p.s.progressf("%s", line)
	p.shown = true
}

// clear removes the line, if it was drawn.
func (p *prepLine) clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		p.s.progressf("")
		p.shown = false
	}
}
