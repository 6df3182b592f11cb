package viz

import (
	"fmt"
	"math"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Histogram draws one horizontal bar per label with its count at the end (the degree
// histogram of `info`). o.Height is ignored: there is one line per label.
func Histogram(labels []string, counts []int64, o ChartOptions) string {
	w, _ := o.size()
	n := min(len(labels), len(counts))
	if n == 0 {
		return "(empty)\n"
	}
	labW, cntW := 0, 0
	var peak float64
	for i := range n {
		labW = max(labW, ansi.StringWidth(labels[i]))
		cntW = max(cntW, len(fmt.Sprint(counts[i])))
		peak = max(peak, float64(counts[i]))
	}
	barW := max(w-labW-cntW-4, 4)
	sc := scaler{max: peak, log: o.Log}
	var b strings.Builder
	for i := range n {
		bar := hbar(sc.frac(float64(counts[i])), barW, counts[i] > 0)
		b.WriteString(fit(padLeft(labels[i], labW)+" "+paint(o.Color, axisStyle, "│")+
			paint(o.Color, pushStyle, bar)+" "+fmt.Sprint(counts[i]), w))
		b.WriteByte('\n')
	}
	return b.String()
}

// hbar draws fraction f of w cells; a nonzero value gets at least a sliver.
func hbar(f float64, w int, nonzero bool) string {
	e := int(math.Round(f * float64(w*8)))
	if nonzero && e == 0 {
		e = 1
	}
	return strings.Repeat("█", e/8) + hEighths[e%8]
}

// SpreadChart draws one horizontal bar per x value with its median y and its spread lo..hi:
// solid up to lo, shaded from lo to the median, a whisker from the median to hi (▒▒──┤), then
// the values. best (-1: none) is the row marked best: the caller decides, from a verdict, that
// the difference is real.
func SpreadChart(title, unit string, xs []string, ys, lo, hi []float64, best int, o ChartOptions) string {
	w, _ := o.size()
	n := min(len(xs), len(ys), len(lo), len(hi))
	var b strings.Builder
	if title != "" {
		b.WriteString(fit(paint(o.Color, headStyle, title), w) + "\n")
	}
	if n == 0 {
		b.WriteString("(no values)\n")
		return b.String()
	}
	labW, valW := 0, 0
	var peak float64
	vals := make([]string, n)
	for i := range n {
		labW = max(labW, ansi.StringWidth(xs[i]))
		vals[i] = Sig3(ys[i])
		if unit != "" {
			vals[i] += " " + unit
		}
		if hi[i] > lo[i] {
			vals[i] += " (" + Sig3(lo[i]) + "-" + Sig3(hi[i]) + ")"
		}
		valW = max(valW, len(vals[i]))
		peak = max(peak, hi[i], ys[i])
	}
	barW := max(w-labW-valW-10, 4)
	sc := scaler{max: peak, log: o.Log}
	cell := func(v float64) int { return min(int(math.Round(sc.frac(v)*float64(barW))), barW) }
	for i := range n {
		l, m, h := cell(lo[i]), cell(ys[i]), cell(hi[i])
		l = min(l, m)
		solid := strings.Repeat("█", l)
		shade := strings.Repeat("▒", m-l)
		whisk := ""
		if h > m {
			whisk = strings.Repeat("─", h-m-1) + "┤"
		}
		if l == 0 && m == 0 && ys[i] > 0 {
			solid = "▏"
		}
		st, tail := pushStyle, ""
		if i == best && n > 1 {
			st, tail = bestStyle, paint(o.Color, bestStyle, " ◀ best")
		}
		bar := paint(o.Color, st, solid+shade) + paint(o.Color, axisStyle, whisk) +
			strings.Repeat(" ", max(barW-ansi.StringWidth(solid+shade+whisk), 0))
		b.WriteString(fit(padLeft(xs[i], labW)+" "+paint(o.Color, axisStyle, "│")+bar+" "+padLeft(vals[i], valW)+tail, w))
		b.WriteByte('\n')
	}
	return b.String()
}

// SeriesChart draws one horizontal bar per x value (a sweep's knob values or a compare's
// runs) with its y value (three significant digits, as the tables) and unit, and marks the
// smallest y as best.
func SeriesChart(title, unit string, xs []string, ys []float64, o ChartOptions) string {
	w, _ := o.size()
	n := min(len(xs), len(ys))
	var b strings.Builder
	if title != "" {
		b.WriteString(fit(paint(o.Color, headStyle, title), w) + "\n")
	}
	if n == 0 {
		b.WriteString("(no values)\n")
		return b.String()
	}
	labW, valW, best := 0, 0, 0
	var peak float64
	vals := make([]string, n)
	for i := range n {
		labW = max(labW, ansi.StringWidth(xs[i]))
		vals[i] = Sig3(ys[i]) // as the tables print times: 0.504 ms, not 0.5 ms
		if unit != "" {
			vals[i] += " " + unit
		}
		valW = max(valW, len(vals[i]))
		peak = max(peak, ys[i])
		if ys[i] < ys[best] {
			best = i
		}
	}
	barW := max(w-labW-valW-10, 4)
	sc := scaler{max: peak, log: o.Log}
	for i := range n {
		bar := pad(hbar(sc.frac(ys[i]), barW, ys[i] > 0), barW)
		st := pushStyle
		tail := ""
		if i == best && n > 1 {
			st, tail = bestStyle, paint(o.Color, bestStyle, " ◀ best")
		}
		b.WriteString(fit(padLeft(xs[i], labW)+" "+paint(o.Color, axisStyle, "│")+
			paint(o.Color, st, bar)+" "+padLeft(vals[i], valW)+tail, w))
		b.WriteByte('\n')
	}
	return b.String()
}
