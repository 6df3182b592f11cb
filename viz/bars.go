package viz

import (
	"math"
	"strings"
	"time"

	"charm.land/lipgloss/v2"

	"github.com/gworkbench/gworkbench/engine"
)

// eighths are the partial-block glyphs for vertical bars, index = eighths of a cell filled.
var eighths = []string{" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"}

const (
	shade      = "▒" // a topology-driven iteration's bar
	lightShade = "░" // a topology-driven pull iteration's bar, without colour
	pullGlyph  = "▓" // a pull iteration's bar, without colour
)

// ChartOptions size a chart in terminal cells and pick log scale and colour. Width 0 means
// 80, Height 0 means 16. Height is the number of lines the chart occupies at most.
type ChartOptions struct {
	Width, Height int
	Log, Color    bool
}

func (o ChartOptions) size() (w, h int) {
	w, h = o.Width, o.Height
	if w <= 0 {
		w = 80
	}
	if h <= 0 {
		h = 16
	}
	return max(w, 24), max(h, 4)
}

// column is one bar: one iteration, or a bin of consecutive iterations.
type column struct {
	v, e        float64 // bar value and second-series value
	first, last int     // iteration indices covered
	push, pull  int     // iterations by direction
	data, topo  int     // iterations by mode
	mark        rune    // switch or phase label, 0 for none
}

func (c column) style() *lipgloss.Style {
	switch {
	case c.push > 0 && c.pull > 0:
		return &mixedStyle
	case c.pull > 0:
		return &pullStyle
	}
	return &pushStyle
}

func (c column) dirGlyph() string {
	switch {
	case c.push > 0 && c.pull > 0:
		return "~"
	case c.pull > 0:
		return "<"
	case c.push > 0:
		return ">"
	}
	return " "
}

// layout says how many iterations go into a column and how wide each bar is drawn.
type layout struct {
	perCol     int // iterations per column
	colW, barW int // cells per column, cells of bar
}

func makeLayout(n, plotW int) layout {
	if n <= 0 {
		return layout{perCol: 1, colW: 1, barW: 1}
	}
	if n > plotW {
		per := (n + plotW - 1) / plotW
		return layout{perCol: per, colW: 1, barW: 1}
	}
	colW := min(plotW/n, 8)
	barW := colW
	if colW >= 3 {
		barW = colW - 1
	}
	return layout{perCol: 1, colW: colW, barW: barW}
}

// scaler maps a value to a fraction of the bar height, linearly or on log10(1+v).
type scaler struct {
	max float64
	log bool
}

func (s scaler) frac(v float64) float64 {
	if s.max <= 0 || v <= 0 {
		return 0
	}
	if s.log {
		return math.Log10(1+v) / math.Log10(1+s.max)
	}
	return v / s.max
}

// inverse returns the value at fraction f of the height (for axis labels).
func (s scaler) inverse(f float64) float64 {
	if s.log {
		return math.Pow(10, f*math.Log10(1+s.max)) - 1
	}
	return f * s.max
}

// cellFill says how a column's bar is drawn: the glyph of a full cell, and whether the bar
// is drawn in whole cells (glyphs other than █ have no partial forms).
type cellFill func(c column) (full string, whole bool)

// dirFill draws bars by direction and mode. With colour, direction is the colour and
// topology-driven bars are shaded ▒; without it, the glyph carries both: █ push, ▓ pull,
// ▒ topology-driven push, ░ topology-driven pull. A bin takes its majority.
func dirFill(color bool) cellFill {
	return func(c column) (string, bool) {
		topo, pull := c.topo > c.data, c.pull > c.push && !color
		switch {
		case topo && pull:
			return lightShade, true
		case topo:
			return shade, true
		case pull:
			return pullGlyph, true
		}
		return "█", false
	}
}

// timeFill is dirFill without the modes: time bars are drawn solid.
func timeFill(color bool) cellFill {
	return func(c column) (string, bool) {
		if !color && c.pull > c.push {
			return pullGlyph, true
		}
		return "█", false
	}
}

// barRows draws the bars of cols, h rows high, top row first. Each column takes lay.colW
// cells, of which lay.barW are bar, drawn as fill says (nil: solid █).
func barRows(cols []column, val func(column) float64, sc scaler, h int, lay layout, color bool, st func(column) *lipgloss.Style, fill cellFill) []string {
	if fill == nil {
		fill = func(column) (string, bool) { return "█", false }
	}
	rows := make([]string, h)
	heights := make([]int, len(cols))
	glyphs := make([]string, len(cols))
	for i, c := range cols {
		v := val(c)
		e := int(math.Round(sc.frac(v) * float64(h*8)))
		if v > 0 && e == 0 {
			e = 1
		}
		g, whole := fill(c)
		if whole {
			e = (e + 7) / 8 * 8
		}
		heights[i], glyphs[i] = e, g
	}
	gap := strings.Repeat(" ", lay.colW-lay.barW)
	for r := 0; r < h; r++ {
		level := h - 1 - r
		row := cellRow{color: color}
		for i, c := range cols {
			fill := heights[i] - level*8
			g := " "
			switch {
			case fill >= 8:
				g = glyphs[i]
			case fill > 0:
				g = eighths[fill]
			}
			row.put(st(c), strings.Repeat(g, lay.barW))
			if gap != "" {
				row.put(nil, gap)
			}
		}
		rows[r] = row.String()
	}
	return rows
}

// yAxis returns the labels of an h-row axis: the top, middle and bottom values.
func yAxis(sc scaler, h, w int) []string {
	labels := make([]string, h)
	for i := range labels {
		labels[i] = strings.Repeat(" ", w)
	}
	put := func(row int, v float64) {
		if row >= 0 && row < h {
			labels[row] = padLeft(Human(v), w)
		}
	}
	put(0, sc.max)
	if h >= 5 {
		put(h/2, sc.inverse(float64(h-h/2)/float64(h)))
	}
	if h >= 2 {
		put(h-1, 0)
	}
	return labels
}

// xAxis draws the axis line under the bars with iteration numbers written into it, at round
// multiples (1, 2, 5, 10, 20, 50 ...) about ten cells apart.
func xAxis(cols []column, lay layout, plotW int) string {
	plotW = min(plotW, len(cols)*lay.colW+4)
	line := []rune(strings.Repeat("─", plotW))
	step := niceStep(float64(10*lay.perCol) / float64(lay.colW))
	next := 0
	for i, c := range cols {
		// The first multiple of step this column covers.
		k := (c.first + step - 1) / step * step
		if k > c.last {
			continue
		}
		x := i * lay.colW
		lbl := []rune(itoa(k))
		if x < next || x+len(lbl) > plotW {
			continue
		}
		copy(line[x:], lbl)
		next = x + len(lbl) + 2
	}
	return string(line)
}

// niceStep returns the smallest of 1, 2, 5, 10, 20, 50 ... that is at least x.
func niceStep(x float64) int {
	step := 1
	for {
		for _, f := range []int{1, 2, 5} {
			if float64(step*f) >= x {
				return step * f
			}
		}
		step *= 10
	}
}

func itoa(i int) string {
	return Human(float64(i))
}

// markRef is a switch or phase record and the index of the iteration it precedes.
type markRef struct {
	iter int
	rec  *engine.Record
}

// step is what the charts draw of one iteration.
type step struct {
	in, scanned int64
	time        time.Duration
	dir         engine.Direction
	mode        engine.Driven
	phase       string
}

func stepOf(r *engine.Record) step {
	return step{in: r.InVertices, scanned: r.EdgesScanned, time: r.Time, dir: r.Direction, mode: r.Mode, phase: r.Phase}
}

// frontierless reports whether the iterations have no frontier to draw: none counts input
// vertices, or every one is topology-driven over the same vertices (triangle counting, a
// topology-driven PageRank), so a frontier chart would be empty or a flat wall. Their charts
// show the time of each step and its phase instead.
func frontierless(s series) bool {
	if s.n == 0 {
		return false
	}
	first := s.at(0).in
	zero, flat := true, true
	for i := range s.n {
		x := s.at(i)
		zero = zero && x.in == 0
		flat = flat && x.mode == engine.Topology && x.in == first
		if !zero && !flat {
			return false
		}
	}
	return true
}

// series is the iterations a chart draws: n steps, the switches and phases between them,
// and the kernels launched.
type series struct {
	n       int
	at      func(i int) step
	marks   []markRef
	kernels func() []kernelShare
}

// traceSeries reads a trace's iteration records where they lie: the TUI draws traces of
// 50,000 iterations 20 times a second, so nothing is copied.
func traceSeries(t engine.Trace) series {
	its := make([]*engine.Record, 0, len(t.Records))
	var marks []markRef
	for i := range t.Records {
		r := &t.Records[i]
		switch r.Kind {
		case engine.IterationRecord:
			its = append(its, r)
		default:
			marks = append(marks, markRef{iter: len(its), rec: r})
		}
	}
	return series{
		n: len(its), at: func(i int) step { return stepOf(its[i]) }, marks: marks,
		kernels: func() []kernelShare { return kernelShares(its) },
	}
}

// binIterations groups the iterations into columns of perCol; v and e give a step's bar
// value and second-series value, and a column shows the largest of its steps.
func binIterations(s series, perCol int, v func(step) float64, e func(step) float64) []column {
	cols := make([]column, 0, (s.n+perCol-1)/max(perCol, 1))
	for i := 0; i < s.n; i += perCol {
		c := column{first: i, last: min(i+perCol, s.n) - 1}
		for j := c.first; j <= c.last; j++ {
			r := s.at(j)
			c.v = math.Max(c.v, v(r))
			if e != nil {
				c.e = math.Max(c.e, e(r))
			}
			if r.dir == engine.Pull {
				c.pull++
			} else {
				c.push++
			}
			if r.mode == engine.Topology {
				c.topo++
			} else {
				c.data++
			}
		}
		cols = append(cols, c)
	}
	return cols
}
