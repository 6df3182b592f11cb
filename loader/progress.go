package loader

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// progress shows what a long load is doing, on one terminal line rewritten in place (phase,
// amount done, total). A nil *progress is quiet, and every method is safe on it, so the
// loading code calls it unconditionally.
type progress struct {
	w     io.Writer
	name  string
	mu    sync.Mutex
	ph    string
	bytes bool // the phase counts bytes, not items
	total atomic.Int64
	done  atomic.Int64
	stop  chan struct{}
	wg    sync.WaitGroup
	shown bool
	start time.Time
	at    time.Time // start of the current phase
	times []string  // "phase 1.23s" per finished phase, for GWLOADER_TRACE
}

// traceTimes prints each phase's duration to stderr when GWLOADER_TRACE is set.
var traceTimes = os.Getenv("GWLOADER_TRACE") != ""

// progressEvery is how often the line is redrawn.
const progressEvery = 150 * time.Millisecond

// newProgress returns a progress line on w, or nil (quiet) when w is nil.
func newProgress(w io.Writer, name string) *progress {
	if w == nil && !traceTimes {
		return nil
	}
	p := &progress{w: w, name: name, stop: make(chan struct{}), start: time.Now(), at: time.Now()}
	if w == nil {
		return p
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		t := time.NewTicker(progressEvery)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-t.C:
				p.draw()
			}
		}
	}()
	return p
}

// phase starts a phase that counts items up to total (0: unknown).
func (p *progress) phase(name string, total int64) { p.setPhase(name, total, false) }

// phaseBytes starts a phase that counts bytes up to total (0: unknown).
func (p *progress) phaseBytes(name string, total int64) { p.setPhase(name, total, true) }

func (p *progress) setPhase(name string, total int64, bytes bool) {
	if p == nil {
		return
	}
	p.mu.Lock()
	if p.ph == name && name != "" { // the same phase, now with a total
		p.bytes = bytes
		p.mu.Unlock()
		p.total.Store(total)
		return
	}
	if p.ph != "" {
		p.times = append(p.times, fmt.Sprintf("%s %.2fs", p.ph, time.Since(p.at).Seconds()))
	}
	p.ph, p.bytes, p.at = name, bytes, time.Now()
	p.mu.Unlock()
	p.total.Store(total)
	p.done.Store(0)
}

// add records n more items (or bytes) done in the current phase.
func (p *progress) add(n int64) {
	if p == nil {
		return
	}
	p.done.Add(n)
}

func (p *progress) draw() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if time.Since(p.start) < 300*time.Millisecond {
		return // short loads stay quiet
	}
	done, total := p.done.Load(), p.total.Load()
	sec := time.Since(p.at).Seconds()
	var s string
	switch {
	case p.bytes && total > 0:
		s = fmt.Sprintf("%s: %s %s / %s (%d%%, %s/s)", p.name, p.ph, fmtBytes(done), fmtBytes(total), pct(done, total), fmtBytes(int64(float64(done)/sec)))
	case p.bytes:
		s = fmt.Sprintf("%s: %s %s (%s/s)", p.name, p.ph, fmtBytes(done), fmtBytes(int64(float64(done)/sec)))
	case total > 0:
		s = fmt.Sprintf("%s: %s %d%% (%s/s)", p.name, p.ph, pct(done, total), fmtCount(float64(done)/sec))
	default:
		s = fmt.Sprintf("%s: %s", p.name, p.ph)
	}
	fmt.Fprintf(p.w, "\r\x1b[K%s", s)
	p.shown = true
}

func pct(done, total int64) int64 {
	if total <= 0 {
		return 0
	}
	if done > total {
		done = total
	}
	return done * 100 / total
}

// finish stops the redraws and clears the line.
func (p *progress) finish() {
	if p == nil {
		return
	}
	p.setPhase("", 0, false)
	if traceTimes {
		fmt.Fprintf(os.Stderr, "%s: %s, total %.2fs\n", p.name, strings.Join(p.times, ", "), time.Since(p.start).Seconds())
	}
	if p.w == nil {
		return
	}
	close(p.stop)
	p.wg.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}

// fmtCount formats a rate of items compactly: 950, 12.3k, 4.5M.
func fmtCount(x float64) string {
	switch {
	case x >= 1e9:
		return fmt.Sprintf("%.1fG", x/1e9)
	case x >= 1e6:
		return fmt.Sprintf("%.1fM", x/1e6)
	case x >= 1e3:
		return fmt.Sprintf("%.1fk", x/1e3)
	}
	return fmt.Sprintf("%.0f", x)
}

// fmtBytes formats a byte count with a binary-free, human unit (kB, MB, GB as powers of 1000).
func fmtBytes(b int64) string {
	switch {
	case b >= 1e12:
		return fmt.Sprintf("%.1f TB", float64(b)/1e12)
	case b >= 1e9:
		return fmt.Sprintf("%.1f GB", float64(b)/1e9)
	case b >= 1e6:
		return fmt.Sprintf("%.1f MB", float64(b)/1e6)
	case b >= 1e3:
		return fmt.Sprintf("%.1f kB", float64(b)/1e3)
	}
	return fmt.Sprintf("%d B", b)
}
