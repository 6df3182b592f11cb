package viz

import "github.com/gworkbench/gworkbench/engine"

// Live gathers the records of a run as they arrive, so that its charts can be drawn while it
// runs. It keeps a few numbers per iteration rather than whole records: a view that redraws
// a 50,000-iteration run 20 times a second should not copy megabytes to do it. The zero
// value is empty and ready.
type Live struct {
	steps   []step
	marks   []engine.Record // switches and phases
	markAt  []int           // the iteration each mark precedes
	kernels map[string]*kernelShare
}

// Add appends one record of the run.
func (l *Live) Add(r engine.Record) {
	if r.Kind != engine.IterationRecord {
		l.marks = append(l.marks, r)
		l.markAt = append(l.markAt, len(l.steps))
		return
	}
	l.steps = append(l.steps, stepOf(&r))
	if len(r.Kernels) > 0 {
		if l.kernels == nil {
			l.kernels = map[string]*kernelShare{}
		}
		addKernels(l.kernels, r.Kernels)
	}
}

// Iterations returns the number of iteration records added.
func (l *Live) Iterations() int { return len(l.steps) }

// FrontierChart draws what has arrived as FrontierChart draws a trace.
func (l *Live) FrontierChart(o ChartOptions) string { return frontierChart(l.series(), o) }

// TimeChart draws what has arrived as TimeChart draws a trace.
func (l *Live) TimeChart(o ChartOptions) string { return timeChart(l.series(), o) }

func (l *Live) series() series {
	marks := make([]markRef, len(l.marks))
	for i := range l.marks {
		marks[i] = markRef{iter: l.markAt[i], rec: &l.marks[i]}
	}
	return series{
		n: len(l.steps), at: func(i int) step { return l.steps[i] }, marks: marks,
		kernels: func() []kernelShare {
			shares := map[string]*kernelShare{}
			for name, k := range l.kernels {
				c := *k
				shares[name] = &c
			}
			return sortShares(shares)
		},
	}
}
