package gpu

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/gworkbench/gworkbench/engine"
)

// progressEvery is how often a meter reports a step's progress.
const progressEvery = 150 * time.Millisecond

// meter counts a preparation step's work (the arcs a layout builder has walked) from many
// workers and reports it to the request's Progress at most every progressEvery, and once at the
// end. A nil meter counts nothing, so builders call it unconditionally; tests pass nil.
type meter struct {
	req   *engine.Request
	what  string
	total int64
	done  atomic.Int64
	next  atomic.Int64 // unix nanoseconds of the next report
	mu    sync.Mutex   // one report at a time
}

// newMeter returns a meter for req's step what of total arcs, or nil when nobody listens.
func newMeter(req *engine.Request, what string, total int64) *meter {
	if req == nil || req.Progress == nil || total <= 0 {
		return nil
	}
	m := &meter{req: req, what: what, total: total}
	m.next.Store(time.Now().Add(progressEvery).UnixNano())
	return m
}

// add records n more arcs done and reports when a report is due.
func (m *meter) add(n int64) {
	if m == nil {
		return
	}
	m.done.Add(n)
	now := time.Now().UnixNano()
	next := m.next.Load()
	if now < next || !m.next.CompareAndSwap(next, now+int64(progressEvery)) {
		return
	}
	m.report(false)
}

// finish reports the step done.
func (m *meter) finish() {
	if m != nil {
		m.report(true)
	}
}

// report sends the count so far (all of it when last), read under the lock so that reports
// never go backwards.
func (m *meter) report(last bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	done := min(m.done.Load(), m.total)
	if last {
		done = m.total
	}
	m.req.Report(engine.Progress{What: m.what, Unit: "arcs", Done: done, Total: m.total})
}
