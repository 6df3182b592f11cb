package viz

import (
	"fmt"
	"html/template"
	"math"
	"strings"
)

// Grid is a sweep over two knobs: Ms[i][j] is the time of Rows[i] x Cols[j] in milliseconds,
// NaN where that combination did not run.
type Grid struct {
	RowKey, ColKey string
	Rows, Cols     []string
	Ms             [][]float64
}

// best returns the cell with the smallest time (-1, -1 when none ran).
func (g *Grid) best() (bi, bj int) {
	bi, bj = -1, -1
	for i := range g.Ms {
		for j, v := range g.Ms[i] {
			if !math.IsNaN(v) && (bi < 0 || v < g.Ms[bi][bj]) {
				bi, bj = i, j
			}
		}
	}
	return bi, bj
}

// span returns the smallest and largest time that ran.
func (g *Grid) span() (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, r := range g.Ms {
		for _, v := range r {
			if !math.IsNaN(v) {
				lo, hi = min(lo, v), max(hi, v)
			}
		}
	}
	return lo, hi
}

// heatShades go from fast (light) to slow (dark).
var heatShades = []string{" ", "░", "▒", "▓", "█"}

// HeatMap draws a two-knob sweep as a table: one line per value of the row knob, one column
// per value of the column knob, each cell its time with a shade from light (fast) to dark
// (slow); the fastest cell is marked *.
func HeatMap(title string, g *Grid, o ChartOptions) string {
	w, _ := o.size()
	var b strings.Builder
	if title != "" {
		b.WriteString(fit(paint(o.Color, headStyle, title), w) + "\n")
	}
	bi, bj := g.best()
	if bi < 0 {
		b.WriteString("(nothing ran)\n")
		return b.String()
	}
	lo, hi := g.span()
	lab := len(g.RowKey)
	for _, r := range g.Rows {
		lab = max(lab, len(g.RowKey)+1+len(r))
	}
	cell := 9
	for _, c := range g.Cols {
		cell = max(cell, len(g.ColKey)+1+len(c)+1)
	}
	b.WriteString(strings.Repeat(" ", lab))
	for _, c := range g.Cols {
		b.WriteString(padLeft(g.ColKey+"="+c, cell+1))
	}
	b.WriteString("\n")
	for i, r := range g.Rows {
		b.WriteString(pad(g.RowKey+"="+r, lab))
		for j := range g.Cols {
			v := g.Ms[i][j]
			if math.IsNaN(v) {
				b.WriteString(padLeft("-", cell+1))
				continue
			}
			f := 0.0
			if hi > lo {
				f = (v - lo) / (hi - lo)
			}
			sh := heatShades[min(int(f*float64(len(heatShades)-1)+0.5), len(heatShades)-1)]
			mark := " "
			if i == bi && j == bj {
				mark = "*"
			}
			txt := Sig3(v) + mark
			st := timeStyle
			if mark == "*" {
				st = bestStyle
			}
			b.WriteString(" " + paint(o.Color, st, sh+padLeft(txt, cell-1)))
		}
		b.WriteString("\n")
	}
	b.WriteString(fmt.Sprintf("ms; shade: light fast, dark slow (%s to %s ms); * the fastest, %s=%s %s=%s\n",
		Sig3(lo), Sig3(hi), g.RowKey, g.Rows[bi], g.ColKey, g.Cols[bj]))
	return b.String()
}

// heatTable is a Grid as an HTML table whose cells are shaded from light (fast) to dark
// (slow), for reports.
type heatTable struct {
	RowKey, ColKey string
	Cols           []string
	Rows           []heatRow
}

type heatRow struct {
	Label string
	Cells []heatCell
}

type heatCell struct {
	Text  string
	Style template.CSS
}

func newHeatTable(g *Grid) *heatTable {
	if g == nil {
		return nil
	}
	lo, hi := g.span()
	bi, bj := g.best()
	t := &heatTable{RowKey: g.RowKey, ColKey: g.ColKey, Cols: g.Cols}
	for i, r := range g.Rows {
		hr := heatRow{Label: r}
		for j, v := range g.Ms[i] {
			if math.IsNaN(v) {
				hr.Cells = append(hr.Cells, heatCell{Text: "-"})
				continue
			}
			f := 0.0
			if hi > lo {
				f = (v - lo) / (hi - lo)
			}
			// From a pale green (fast) to a deep red (slow).
			light := 90 - 45*f
			hue := 120 - 120*f
			style := fmt.Sprintf("background:hsl(%.0f,70%%,%.0f%%);text-align:right", hue, light)
			txt := Sig3(v)
			if i == bi && j == bj {
				txt += " ★"
				style += ";font-weight:bold"
			}
			hr.Cells = append(hr.Cells, heatCell{Text: txt, Style: template.CSS(style)})
		}
		t.Rows = append(t.Rows, hr)
	}
	return t
}
