package viz

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/gworkbench/gworkbench/engine"
)

// TimeChart draws the time of every iteration as a vertical bar coloured by direction
// (binned as in FrontierChart, a bin showing its slowest iteration) and, for runs that
// launched GPU kernels, a table of each kernel's launches, total time and share of the
// kernel time.
func TimeChart(t engine.Trace, o ChartOptions) string {
	return timeChart(traceSeries(t), o)
}

func timeChart(s series, o ChartOptions) string {
	w, h := o.size()
	n := s.n
	plotW := w - axisW - 1
	lay := makeLayout(n, plotW)
	cols := binIterations(s, lay.perCol, func(r step) float64 { return float64(r.time) }, nil)

	var total time.Duration
	for i := range n {
		total += s.at(i).time
	}
	var b strings.Builder
	title := "time per iteration"
	if o.Log {
		title += " (log)"
	}
	if n == 0 {
		b.WriteString(fit(title+" · no iterations yet", w) + "\n")
		return b.String()
	}
	title += fmt.Sprintf(" · %d iterations, %s in all", n, Duration(total))
	if lay.perCol > 1 {
		title += fmt.Sprintf(", %d per column", lay.perCol)
	}
	b.WriteString(fit(title, w) + "\n")

	kernels := s.kernels()
	kernH := 0
	if len(kernels) > 0 {
		kernH = min(len(kernels)+2, max(0, h-6))
	}
	barH := max(h-2-kernH, 1)
	sc := scaler{log: o.Log}
	for _, c := range cols {
		sc.max = max(sc.max, c.v)
	}
	bars := barRows(cols, func(c column) float64 { return c.v }, sc, barH, lay, o.Color, column.style, timeFill(o.Color))
	labels := yAxis(sc, barH, axisW)
	for i, l := range labels {
		if strings.TrimSpace(l) != "" {
			labels[i] = padLeft(durationLabel(sc, i, barH), axisW)
		}
	}
	writeAxisRows(&b, labels, bars, o.Color)
	b.WriteString(paint(o.Color, axisStyle, strings.Repeat(" ", axisW)+"└"+xAxis(cols, lay, plotW)) + "\n")

	if kernH > 0 {
		rows := make([][]string, 0, len(kernels))
		for _, k := range kernels[:kernH-2] {
			rows = append(rows, []string{k.name, fmt.Sprint(k.launches), Duration(k.time), fmt.Sprintf("%.1f%%", k.share*100), shareBar(k.share, 20)})
		}
		b.WriteString(Table([]string{"kernel", "launches", "time", "share", ""}, rows, Style{Color: o.Color, Width: w}))
	}
	return b.String()
}

// durationLabel labels row i of an h-row time axis (top, middle, bottom).
func durationLabel(sc scaler, i, h int) string {
	switch i {
	case 0:
		return Duration(time.Duration(sc.max))
	case h - 1:
		return "0"
	}
	return Duration(time.Duration(sc.inverse(float64(h-i) / float64(h))))
}

type kernelShare struct {
	name     string
	launches int
	time     time.Duration
	share    float64
}

// kernelShares sums kernel launches by name, largest total time first.
func kernelShares(its []*engine.Record) []kernelShare {
	byName := map[string]*kernelShare{}
	for _, r := range its {
		addKernels(byName, r.Kernels)
	}
	return sortShares(byName)
}

// addKernels adds launches to the per-kernel sums.
func addKernels(byName map[string]*kernelShare, ks []engine.Kernel) {
	for _, k := range ks {
		s := byName[k.Name]
		if s == nil {
			s = &kernelShare{name: k.Name}
			byName[k.Name] = s
		}
		s.launches++
		s.time += k.Time
	}
}

// sortShares computes each kernel's share and orders them, largest total time first.
func sortShares(byName map[string]*kernelShare) []kernelShare {
	var total time.Duration
	for _, s := range byName {
		total += s.time
	}
	out := make([]kernelShare, 0, len(byName))
	for _, s := range byName {
		if total > 0 {
			s.share = float64(s.time) / float64(total)
		}
		out = append(out, *s)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].time != out[j].time {
			return out[i].time > out[j].time
		}
		return out[i].name < out[j].name
	})
	return out
}

// shareBar draws a fraction as a horizontal bar of w cells with eighth-cell resolution.
func shareBar(f float64, w int) string {
	e := int(f*float64(w*8) + 0.5)
	full, part := e/8, e%8
	s := strings.Repeat("█", full)
	if part > 0 {
		s += hEighths[part]
	}
	return s
}

var hEighths = []string{"", "▏", "▎", "▍", "▌", "▋", "▊", "▉", "█"}
