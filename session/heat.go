package session

import (
	"math"

	"github.com/gworkbench/gworkbench/viz"
)

// grid returns a sweep over two knobs as a heat map's grid (nil for anything else): rows
// the first knob's values, columns the second's, each cell a row's median time.
func (c *comparison) grid() *viz.Grid {
	if c.kind != "sweep" || len(c.keys) != 2 {
		return nil
	}
	g := &viz.Grid{RowKey: c.keys[0], ColKey: c.keys[1]}
	ri, ci := map[string]int{}, map[string]int{}
	for _, row := range c.rows {
		if _, ok := ri[row.values[0]]; !ok {
			ri[row.values[0]] = len(g.Rows)
			g.Rows = append(g.Rows, row.values[0])
		}
		if _, ok := ci[row.values[1]]; !ok {
			ci[row.values[1]] = len(g.Cols)
			g.Cols = append(g.Cols, row.values[1])
		}
	}
	g.Ms = make([][]float64, len(g.Rows))
	for i := range g.Ms {
		g.Ms[i] = make([]float64, len(g.Cols))
		for j := range g.Ms[i] {
			g.Ms[i][j] = math.NaN()
		}
	}
	for _, row := range c.rows {
		if row.r != nil {
			g.Ms[ri[row.values[0]]][ci[row.values[1]]] = ms(row.r.Summary.Time)
		}
	}
	return g
}
