package viz

import (
	"bufio"
	"bytes"
	"fmt"
	"image/color"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/internal/safefile"
)

// File plots use the terminal palette's hues.
var (
	pushRGB = color.RGBA{R: 0x00, G: 0xaf, B: 0xff, A: 0xff}
	pullRGB = color.RGBA{R: 0xff, G: 0x87, B: 0x00, A: 0xff}
	edgeRGB = color.RGBA{R: 0x00, G: 0xaf, B: 0x5f, A: 0xff}
	timeRGB = color.RGBA{R: 0x87, G: 0xaf, B: 0xd7, A: 0xff}
)

const maxFileBars = 400 // iterations are binned beyond this many bars in file plots

// WriteRunPlot writes the frontier and time-per-iteration charts of r to path: an image
// when path ends in .svg or .png, a report of the run (charts inline, summary, resolved
// schedule, kernels, trace, provenance) when it ends in .html.
func WriteRunPlot(path string, r *engine.Result) error {
	if r == nil {
		return fmt.Errorf("viz: no result to plot")
	}
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".svg", ".png":
		return writeFile(path, func(w io.Writer) error { return runImage(w, r, ext[1:]) })
	case ".html", ".htm":
		return writeFile(path, func(w io.Writer) error { return runReport(w, r) })
	default:
		return fmt.Errorf("viz: %s: unknown plot format %q (want .svg, .png or .html)", path, ext)
	}
}

// WriteComparePlot writes a bar chart of time per run (ms) labelled by run, as an image
// (.svg, .png) or a page with the chart and a table (.html). WriteComparisonPlot takes the
// other columns of the table too.
func WriteComparePlot(path, title string, labels []string, ms []float64) error {
	return WriteComparisonPlot(path, &Comparison{Title: title, Labels: labels, Ms: ms})
}

// Comparison is a compare, sweep or tune: one entry per run that ran, in the order run. Ms is
// the time of each run in milliseconds; the other columns are optional (nil: not known) and,
// when given, as long as Labels.
type Comparison struct {
	Title      string
	Labels     []string
	Ms         []float64
	Iterations []int
	Edges      []int64   // edges traversed
	GTEPS      []float64 // 0: not measured
	Verified   []string  // "ok", "DIFFERS", "-" ...
	Lo, Hi     []float64 // each run's spread in ms, min and max (nil: one run each, no spread)
	Verdicts   []string  // each run against the first: "1.52x faster (1.31-1.80)" (nil: speed-ups from Ms)
	Grid       *Grid     // a sweep over two knobs, drawn as a heat map in reports (nil: none)
}

func (c *Comparison) check() error {
	n := len(c.Labels)
	for _, l := range []struct {
		name string
		n    int
	}{{"times", len(c.Ms)}, {"iteration counts", len(c.Iterations)}, {"edge counts", len(c.Edges)},
		{"GTEPS", len(c.GTEPS)}, {"verified", len(c.Verified)}, {"spreads (min)", len(c.Lo)}, {"spreads (max)", len(c.Hi)}, {"verdicts", len(c.Verdicts)}} {
		if l.n != n && (l.n != 0 || l.name == "times") {
			return fmt.Errorf("viz: %d labels for %d %s", n, l.n, l.name)
		}
	}
	return nil
}

// WriteComparisonPlot writes a bar chart of time per run (ms) labelled by run, as an image
// (.svg, .png) or a page with the chart and a table of every column given (.html).
func WriteComparisonPlot(path string, c *Comparison) error {
	if c == nil {
		return fmt.Errorf("viz: no comparison to plot")
	}
	if err := c.check(); err != nil {
		return err
	}
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".svg", ".png":
		return writeFile(path, func(w io.Writer) error {
			p, err := comparePlot(c)
			if err != nil {
				return err
			}
			return render(w, ext[1:], 20*vg.Centimeter, 10*vg.Centimeter, [][]*plot.Plot{{p}})
		})
	case ".html", ".htm":
		return writeFile(path, func(w io.Writer) error { return compareReport(w, c) })
	default:
		return fmt.Errorf("viz: %s: unknown plot format %q (want .svg, .png or .html)", path, ext)
	}
}

func writeFile(path string, fill func(io.Writer) error) error {
	var buf bytes.Buffer
	if err := fill(&buf); err != nil {
		return fmt.Errorf("viz: %s: %w", path, err)
	}
	if err := safefile.Write(path, func(w *bufio.Writer) error { _, err := w.Write(buf.Bytes()); return err }); err != nil {
		return fmt.Errorf("viz: %w", err)
	}
	return nil
}

// render draws a grid of aligned plots onto one canvas of the given format.
func render(w io.Writer, format string, width, height vg.Length, plots [][]*plot.Plot) error {
	var c vg.CanvasWriterTo
	switch format {
	case "svg":
		c = vgsvg.New(width, height)
	case "png":
		c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(width, height), vgimg.UseDPI(144))}
	default:
		return fmt.Errorf("unknown image format %q", format)
	}
	dc := draw.New(c)
	tiles := draw.Tiles{Rows: len(plots), Cols: len(plots[0]), PadX: vg.Millimeter * 4, PadY: vg.Millimeter * 6,
		PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 4}
	canvases := plot.Align(plots, tiles, dc)
	for i := range plots {
		for j, p := range plots[i] {
			p.Draw(canvases[i][j])
		}
	}
	_, err := c.WriteTo(w)
	return err
}

func runImage(w io.Writer, r *engine.Result, format string) error {
	ps, err := runPlots(r)
	if err != nil {
		return err
	}
	return render(w, format, 22*vg.Centimeter, 24*vg.Centimeter, ps)
}

// runPlots builds the frontier plot and the time plot of a run, one above the other.
func runPlots(r *engine.Result) ([][]*plot.Plot, error) {
	its := traceSeries(r.Trace)
	per := max(1, (its.n+maxFileBars-1)/maxFileBars)
	front := binIterations(its, per,
		func(x step) float64 { return float64(x.in) },
		func(x step) float64 { return float64(x.scanned) })
	times := binIterations(its, per, func(x step) float64 { return x.time.Seconds() * 1e3 }, nil)

	xlabel := "iteration"
	if per > 1 {
		xlabel = fmt.Sprintf("iteration (bins of %d, largest shown)", per)
	}
	newPlot := func(title, ylabel string) *plot.Plot {
		p := plot.New()
		p.Title.Text = title
		p.X.Label.Text = xlabel
		p.Y.Label.Text = ylabel
		p.Y.Tick.Marker = humanTicks{}
		p.X.Tick.Marker = binTicks{per: per}
		p.Legend.Top = true
		return p
	}
	if frontierless(its) {
		// No frontier to draw (triangle counting): the time of each step, with its phase,
		// then the edges it scanned.
		tp := newPlot(fmt.Sprintf("%s on %s (%s engine): no frontier, time per step", r.Algorithm, r.Graph.Name, r.Engine), "ms")
		if err := addBars(tp, times, timeRGB); err != nil {
			return nil, err
		}
		if its.n <= 40 && per == 1 {
			tp.X.Tick.Marker = phaseTicks(its)
		}
		ep := newPlot("edges scanned per step", "edges")
		if err := addBars(ep, edgeColumns(front), edgeRGB); err != nil {
			return nil, err
		}
		return [][]*plot.Plot{{tp}, {ep}}, nil
	}
	fp := newPlot(fmt.Sprintf("%s on %s (%s engine): frontier per iteration", r.Algorithm, r.Graph.Name, r.Engine), "vertices in")
	if err := addDirectionBars(fp, front); err != nil {
		return nil, err
	}
	ep := newPlot("edges scanned per iteration", "edges")
	if err := addDirectionBars(ep, edgeColumns(front)); err != nil { // push and pull, as the frontier
		return nil, err
	}
	tp := newPlot("time per iteration", "ms")
	if err := addDirectionBars(tp, times); err != nil {
		return nil, err
	}
	for _, pc := range []struct {
		p    *plot.Plot
		cols []column
	}{{fp, front}, {ep, edgeColumns(front)}, {tp, times}} {
		if err := addSwitchMarks(pc.p, its, per, columnsTop(pc.cols)); err != nil {
			return nil, err
		}
	}
	return [][]*plot.Plot{{fp}, {ep}, {tp}}, nil
}

func barWidth(n int) vg.Length {
	return min(vg.Length(16*vg.Centimeter)/vg.Length(n+1), vg.Centimeter)
}

// humanTicks labels a count axis compactly (12k, 1.5M).
type humanTicks struct{}

func (humanTicks) Ticks(min, max float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(min, max)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = Human(ts[i].Value)
		}
	}
	return ts
}

// edgeColumns returns the columns with their second series (edges scanned) as the value.
func edgeColumns(cols []column) []column {
	out := make([]column, len(cols))
	for i, c := range cols {
		out[i] = column{v: c.e, first: c.first, last: c.last, push: c.push, pull: c.pull, data: c.data, topo: c.topo}
	}
	return out
}

// addBars adds the columns as one bar series, without a legend.
func addBars(p *plot.Plot, cols []column, col color.Color) error {
	if len(cols) == 0 {
		return nil
	}
	vs := make(plotter.Values, len(cols))
	for i, c := range cols {
		vs[i] = c.v
	}
	bc, err := plotter.NewBarChart(vs, barWidth(len(cols)))
	if err != nil {
		return err
	}
	bc.Color = col
	bc.LineStyle.Width = 0
	p.Add(bc)
	return nil
}

// phaseTicks labels each iteration with its number and phase ("0 orient", "1 count").
func phaseTicks(s series) plot.ConstantTicks {
	ts := make(plot.ConstantTicks, s.n)
	for i := range s.n {
		ts[i] = plot.Tick{Value: float64(i), Label: strings.TrimSpace(itoa(i) + " " + s.at(i).phase)}
	}
	return ts
}

// addDirectionBars adds the columns as two bar series, push and pull, at x = column index.
func addDirectionBars(p *plot.Plot, cols []column) error {
	if len(cols) == 0 {
		return nil
	}
	push := make(plotter.Values, len(cols))
	pull := make(plotter.Values, len(cols))
	for i, c := range cols {
		if c.pull > c.push {
			pull[i] = c.v
		} else {
			push[i] = c.v
		}
	}
	for _, s := range []struct {
		name string
		vs   plotter.Values
		col  color.Color
	}{{"push", push, pushRGB}, {"pull", pull, pullRGB}} {
		bc, err := plotter.NewBarChart(s.vs, barWidth(len(cols)))
		if err != nil {
			return err
		}
		bc.Color = s.col
		bc.LineStyle.Width = 0
		p.Add(bc)
		p.Legend.Add(s.name, bc)
	}
	return nil
}

// binTicks labels an axis of columns with whole iteration numbers (column x per).
type binTicks struct{ per int }

func (b binTicks) Ticks(min, max float64) []plot.Tick {
	var out []plot.Tick
	for _, t := range (plot.DefaultTicks{}).Ticks(min, max) {
		if t.Value != float64(int(t.Value)) {
			continue
		}
		if t.Label != "" {
			t.Label = Human(t.Value * float64(b.per))
		}
		out = append(out, t)
	}
	return out
}

// numericAxis reports whether the labels are one knob's numeric values ("alpha=2",
// "alpha=6", ...), as a sweep over a number gives them: the knob and the values.
func numericAxis(labels []string) (string, []float64, bool) {
	if len(labels) < 2 {
		return "", nil, false
	}
	name := ""
	xs := make([]float64, len(labels))
	for i, l := range labels {
		k, v, ok := strings.Cut(l, "=")
		if !ok || strings.ContainsAny(v, " =") || (name != "" && k != name) {
			return "", nil, false
		}
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return "", nil, false
		}
		name, xs[i] = k, x
	}
	return name, xs, true
}

// comparePlot draws each run's median time and, when the runs were repeated, its spread (min
// to max) as an error bar: over a numeric knob (a sweep of alpha, delta, ...) as a line
// against the knob's values, else as a bar per run (categories: push, pull, ...).
func comparePlot(c *Comparison) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = c.Title
	p.Y.Label.Text = "ms"
	if c.Lo != nil {
		p.Y.Label.Text = "ms (median; bars: min-max)"
	}
	if knob, xs, ok := numericAxis(c.Labels); ok {
		return sweepLine(p, c, knob, xs)
	}
	bc, err := plotter.NewBarChart(plotter.Values(c.Ms), vg.Length(14*vg.Centimeter)/vg.Length(len(c.Ms)+2))
	if err != nil {
		return nil, err
	}
	bc.Color = pushRGB
	bc.LineStyle.Width = 0
	p.Add(bc)
	if c.Lo != nil {
		pts := errorPoints{xys: make(plotter.XYs, len(c.Ms)), errs: make(plotter.YErrors, len(c.Ms))}
		for i, m := range c.Ms {
			pts.xys[i] = plotter.XY{X: float64(i), Y: m}
			pts.errs[i].Low, pts.errs[i].High = c.Lo[i]-m, c.Hi[i]-m
		}
		if err := addErrorBars(p, pts, vg.Millimeter*3); err != nil {
			return nil, err
		}
	}
	p.NominalX(c.Labels...)
	return p, nil
}

// sweepLine draws the times of a sweep over a numeric knob as a line with points at the
// knob's values, with the spread as error bars.
func sweepLine(p *plot.Plot, c *Comparison, knob string, xs []float64) (*plot.Plot, error) {
	p.X.Label.Text = knob
	pts := errorPoints{xys: make(plotter.XYs, len(c.Ms)), errs: make(plotter.YErrors, len(c.Ms))}
	for i, m := range c.Ms {
		pts.xys[i] = plotter.XY{X: xs[i], Y: m}
		if c.Lo != nil {
			pts.errs[i].Low, pts.errs[i].High = c.Lo[i]-m, c.Hi[i]-m
		}
	}
	line, points, err := plotter.NewLinePoints(pts.xys)
	if err != nil {
		return nil, err
	}
	line.Color, points.Color = pushRGB, pushRGB
	line.Width = vg.Points(1.5)
	points.Shape = draw.CircleGlyph{}
	points.Radius = vg.Points(3)
	p.Add(line, points)
	if c.Lo != nil {
		if err := addErrorBars(p, pts, vg.Millimeter*2); err != nil {
			return nil, err
		}
	}
	ticks := make(plot.ConstantTicks, len(xs))
	for i, x := range xs {
		ticks[i] = plot.Tick{Value: x, Label: strconv.FormatFloat(x, 'g', -1, 64)}
	}
	if len(xs) <= 12 {
		p.X.Tick.Marker = ticks
	}
	return p, nil
}

// addErrorBars draws each point's spread as an error bar with caps of the given width.
func addErrorBars(p *plot.Plot, pts errorPoints, capWidth vg.Length) error {
	eb, err := plotter.NewYErrorBars(pts)
	if err != nil {
		return err
	}
	eb.LineStyle.Width = vg.Points(1.2)
	eb.CapWidth = capWidth
	p.Add(eb)
	return nil
}

// errorPoints is what plotter.NewYErrorBars reads: points and their errors.
type errorPoints struct {
	xys  plotter.XYs
	errs plotter.YErrors
}

func (e errorPoints) Len() int                        { return len(e.xys) }
func (e errorPoints) XY(i int) (float64, float64)     { return e.xys.XY(i) }
func (e errorPoints) YError(i int) (float64, float64) { return e.errs.YError(i) }

// svgOf renders plots to an inline SVG string.
func svgOf(plots [][]*plot.Plot, width, height vg.Length) (string, error) {
	var buf bytes.Buffer
	if err := render(&buf, "svg", width, height, plots); err != nil {
		return "", err
	}
	s := buf.String()
	if i := strings.Index(s, "<svg"); i > 0 {
		s = s[i:] // drop the XML prolog for inlining
	}
	return s, nil
}

func msOf(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()*1e3) }
