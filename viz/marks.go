package viz

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/gworkbench/gworkbench/engine"
)

var markRGB = color.RGBA{R: 0xd7, G: 0x87, B: 0x00, A: 0xff}

// addSwitchMarks draws each switch of s on p as a dashed vertical line before the iteration
// it precedes, labelled with what switched and the iteration ("push→pull @1"), so that a
// report's chart shows where a run changed direction or mode. per is the iterations a column
// holds; top the height the lines reach.
func addSwitchMarks(p *plot.Plot, s series, per int, top float64) error {
	if top <= 0 {
		top = 1
	}
	var labels plotter.XYLabels
	for _, m := range s.marks {
		if m.rec.Kind != engine.SwitchRecord || m.rec.Switch == nil {
			continue
		}
		x := float64(m.iter)/float64(per) - 0.5
		ln, err := plotter.NewLine(plotter.XYs{{X: x, Y: 0}, {X: x, Y: top}})
		if err != nil {
			return err
		}
		ln.Color = markRGB
		ln.Width = vg.Points(1.2)
		ln.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		p.Add(ln)
		sw := m.rec.Switch
		labels.XYs = append(labels.XYs, plotter.XY{X: x, Y: top})
		labels.Labels = append(labels.Labels, fmt.Sprintf("%s→%s @%d", sw.From, sw.To, m.rec.Iter))
	}
	if len(labels.XYs) == 0 {
		return nil
	}
	lb, err := plotter.NewLabels(labels)
	if err != nil {
		return err
	}
	for i := range lb.TextStyle {
		lb.TextStyle[i].Color = markRGB
	}
	p.Add(lb)
	return nil
}

// columnsTop is the largest value of the columns.
func columnsTop(cols []column) float64 {
	top := 0.0
	for _, c := range cols {
		top = max(top, c.v)
	}
	return top
}
