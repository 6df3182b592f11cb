package viz

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gworkbench/gworkbench/engine"
)

const axisW = 6 // cells of y-axis labels

// FrontierChart draws the input frontier of every iteration (vertices) as a vertical bar,
// coloured by direction (push blue ">", pull orange "<") and drawn solid for data-driven
// iterations and shaded "▒" for topology-driven ones; without colour the glyph tells the
// direction (█ push, ▓ pull, ▒ and ░ topology-driven push and pull). An algorithm without
// frontiers (every step over all vertices, as triangle counting) gets the time of each step
// with its phases instead. When there are more iterations than
// columns they are binned, and a bin shows its largest frontier. Switches and phases are
// lettered above the bars and explained, with their reason, below; a second series shows
// the edges scanned. It draws an empty trace and a single iteration too.
func FrontierChart(t engine.Trace, o ChartOptions) string {
	return frontierChart(traceSeries(t), o)
}

func frontierChart(s series, o ChartOptions) string {
	w, h := o.size()
	n, marks := s.n, s.marks
	plotW := w - axisW - 1
	lay := makeLayout(n, plotW)
	// An algorithm without frontiers (triangle counting) gets the time of each step, with
	// its phases, instead of an empty chart with a push/pull legend.
	noFrontier := frontierless(s)
	val := func(r step) float64 { return float64(r.in) }
	if noFrontier {
		val = func(r step) float64 { return float64(r.time) }
		o.Log = false // a few steps of similar times: a log axis only hides their difference
	}
	cols := binIterations(s, lay.perCol, val, func(r step) float64 { return float64(r.scanned) })

	var b strings.Builder
	title := "frontier (vertices)"
	if noFrontier {
		title = "no frontier: time per step"
	}
	if o.Log {
		title += " (log)"
	}
	switch {
	case n == 0:
		title += " · no iterations yet"
	case lay.perCol > 1:
		title += fmt.Sprintf(" · %d iterations, %d per bar", n, lay.perCol)
	case n == 1:
		title += " · 1 iteration"
	default:
		title += fmt.Sprintf(" · %d iterations", n)
	}
	legends := []string{legend(o.Color, false), legend(o.Color, true), ""}
	if noFrontier {
		legends = legends[2:]
	}
	for _, l := range legends {
		if l == "" || ansi.StringWidth(title)+3+ansi.StringWidth(l) <= w {
			if l != "" {
				title += "   " + l
			}
			break
		}
	}
	b.WriteString(fit(title, w))
	b.WriteByte('\n')
	if n == 0 {
		return b.String()
	}

	// Letter the switches and phases, and place each over the column where it takes effect.
	type note struct {
		letter rune
		iter   int
		rec    *engine.Record
	}
	notes := make([]note, 0, len(marks))
	for _, mk := range marks {
		notes = append(notes, note{letter: markLetter(len(notes)), iter: mk.iter, rec: mk.rec})
		col := min(mk.iter, n-1) / lay.perCol
		if cols[col].mark == 0 {
			cols[col].mark = markLetter(len(notes) - 1)
		}
	}
	hasEdges := false
	for _, c := range cols {
		hasEdges = hasEdges || c.e > 0
	}

	// Share the height. Title, axis and one row of bars always; then, while there is room,
	// the direction strip, the switch letters, the switch notes and the edges series; the
	// bars get the rest.
	rest := h - 3
	showStrip := rest >= 2 && !noFrontier
	if showStrip {
		rest--
	}
	showMarks := len(notes) > 0 && rest >= 2
	if showMarks {
		rest--
	}
	noteH := min(len(notes), max(0, rest-3), max(2, rest/2)) // reasons matter more than edges
	rest -= noteH
	edgeH := 0
	if hasEdges && rest >= 5 {
		edgeH = max(1, h/6)
		rest -= edgeH
	}
	barH := 1 + rest
	if noteH < len(notes) {
		// Too many to letter: mark the columns with a tick and list the first ones.
		for i := range cols {
			if cols[i].mark != 0 {
				cols[i].mark = '▾'
			}
		}
		for i := range notes {
			notes[i].letter = '▾'
		}
	}

	if showMarks {
		row := cellRow{color: o.Color}
		row.put(nil, strings.Repeat(" ", axisW+1))
		for _, c := range cols {
			g := " "
			if c.mark != 0 {
				g = string(c.mark)
			}
			row.put(&markStyle, g+strings.Repeat(" ", lay.colW-1))
		}
		b.WriteString(strings.TrimRight(row.String(), " "))
		b.WriteByte('\n')
	}

	sc := scaler{log: o.Log}
	for _, c := range cols {
		sc.max = max(sc.max, c.v)
	}
	style, fill, labels := column.style, dirFill(o.Color), yAxis(sc, barH, axisW)
	if noFrontier {
		style = func(column) *lipgloss.Style { return &timeStyle }
		fill = nil
		for i, l := range labels {
			if strings.TrimSpace(l) != "" {
				labels[i] = padLeft(durationLabel(sc, i, barH), axisW)
			}
		}
	}
	bars := barRows(cols, func(c column) float64 { return c.v }, sc, barH, lay, o.Color, style, fill)
	writeAxisRows(&b, labels, bars, o.Color)
	b.WriteString(paint(o.Color, axisStyle, strings.Repeat(" ", axisW)+"└"+xAxis(cols, lay, plotW)))
	b.WriteByte('\n')

	if showStrip {
		writeStrip(&b, cols, lay, o.Color)
	}
	if edgeH > 0 {
		esc := scaler{log: o.Log}
		for _, c := range cols {
			esc.max = max(esc.max, c.e)
		}
		erows := barRows(cols, func(c column) float64 { return c.e }, esc, edgeH, lay, o.Color,
			func(column) *lipgloss.Style { return &edgeStyle }, nil)
		labels := make([]string, edgeH)
		for i := range labels {
			labels[i] = strings.Repeat(" ", axisW)
		}
		labels[0] = padLeft(Human(esc.max), axisW)
		if edgeH > 1 {
			labels[edgeH-1] = padLeft("edges", axisW)
		} else {
			labels[0] = padLeft("edges", axisW)
		}
		writeAxisRows(&b, labels, erows, o.Color)
	}

	for i, n := range notes[:noteH] {
		text := paint(o.Color, markStyle, string(n.letter)) + " it " + itoa(n.iter) + "  " + describeMark(n.rec)
		if noteH == 1 && len(notes) > 1 {
			text = fmt.Sprintf("▾ %d switches and phases (the trace lists them all)", len(notes))
		} else if i == noteH-1 && noteH < len(notes) {
			text = fmt.Sprintf("… and %d more (the trace lists them all)", len(notes)-noteH+1)
		}
		b.WriteString(fit(strings.Repeat(" ", axisW+1)+text, w))
		b.WriteByte('\n')
	}
	return b.String()
}

// writeStrip writes the direction of every column: > push, < pull, ~ both.
func writeStrip(b *strings.Builder, cols []column, lay layout, color bool) {
	strip := cellRow{color: color}
	strip.put(&axisStyle, padLeft("dir", axisW)+" ")
	for _, c := range cols {
		strip.put(c.style(), strings.Repeat(c.dirGlyph(), lay.barW))
		if lay.colW > lay.barW {
			strip.put(nil, strings.Repeat(" ", lay.colW-lay.barW))
		}
	}
	b.WriteString(strings.TrimRight(strip.String(), " "))
	b.WriteByte('\n')
}

func writeAxisRows(b *strings.Builder, labels, rows []string, color bool) {
	for i, r := range rows {
		tick := "│"
		if strings.TrimSpace(labels[i]) != "" {
			tick = "┤"
		}
		b.WriteString(paint(color, axisStyle, labels[i]+tick))
		b.WriteString(strings.TrimRight(r, " "))
		b.WriteByte('\n')
	}
}

func markLetter(i int) rune {
	switch {
	case i < 26:
		return rune('a' + i)
	case i < 52:
		return rune('A' + i - 26)
	}
	return '*'
}

// describeMark says what a switch or phase record did and why.
func describeMark(r *engine.Record) string {
	if r.Kind == engine.PhaseRecord {
		if r.Note != "" {
			return "phase " + r.Phase + ": " + r.Note
		}
		return "phase " + r.Phase
	}
	if r.Switch == nil {
		return r.Kind.String() + " " + r.Note
	}
	s := r.Switch
	text := fmt.Sprintf("%s %s→%s", s.What, s.From, s.To)
	// The two quantities, when the engine gives them, read better than its sentence, which
	// may print them as 5.746e+04: counts, as the tables print them (57,460).
	switch {
	case s.Op != "" && s.Lhs.Name != "":
		text += fmt.Sprintf(": %s %s %s %s %s", s.Lhs.Name, Count(s.Lhs.Value), s.Op, s.Rhs.Name, Count(s.Rhs.Value))
	case s.Reason != "":
		text += ": " + s.Reason
	}
	return text
}

func legend(color, short bool) string {
	switch {
	case short && !color:
		return "█push ▓pull ▒░topo"
	case short:
		return pushStyle.Render("push") + " " + pullStyle.Render("pull") + " ▒topo"
	case !color:
		return "█ push  ▓ pull  ▒ topology push  ░ topology pull"
	}
	return pushStyle.Render("█ push") + "  " + pullStyle.Render("█ pull") + "  █ data  " + shade + " topology"
}
