package session

import (
	"github.com/gworkbench/gworkbench/viz"
)

// table renders a table for the session's output (cut to the width on a terminal).
func (s *Session) table(headers []string, rows [][]string) string {
	return viz.Table(headers, rows, viz.Style{Color: s.opts.Color, Width: s.lineWidth()})
}

// chartOpts are the options of the charts the session prints.
func (s *Session) chartOpts(height int) viz.ChartOptions {
	w := s.lineWidth()
	if w <= 0 {
		w = 100
	}
	return viz.ChartOptions{Width: min(w, 120), Height: height, Color: s.opts.Color}
}

// histogram renders labelled counts as bars.
func (s *Session) histogram(labels []string, counts []int64) string {
	o := s.chartOpts(0)
	o.Width = min(o.Width, 80)
	return viz.Histogram(labels, counts, o)
}
