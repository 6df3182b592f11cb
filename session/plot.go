package session

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/gworkbench/gworkbench/viz"
)

func cmdPlot(ec *execCtx) error {
	s := ec.s
	if len(ec.args) == 0 || len(ec.args) > 2 {
		return fmt.Errorf("plot: want plot NAME|last [PATH.svg|.png|.html]")
	}
	name := ec.args[0]
	path := ""
	if len(ec.args) == 2 {
		path = ec.args[1]
		switch strings.ToLower(filepath.Ext(path)) {
		case ".svg", ".png", ".html":
		default:
			return fmt.Errorf("plot: %s: want a .svg, .png or .html file", path)
		}
	}
	if name == "last" {
		s.mu.Lock()
		name = s.lastName
		s.mu.Unlock()
		if name == "" {
			return fmt.Errorf("plot: nothing to plot yet: run, compare or sweep first")
		}
	}
	if c := s.comparisonNamed(name); c != nil {
		vc := c.toViz()
		if path == "" && vc.Grid != nil {
			s.printf("%s", viz.HeatMap(c.name+": "+c.title, vc.Grid, s.chartOpts(0)))
			return nil
		}
		if path == "" {
			s.printf("%s", viz.SpreadChart(c.name+": "+c.title+" (median, | min-max)", "ms", vc.Labels, vc.Ms, vc.Lo, vc.Hi, c.vizBest(), s.chartOpts(0)))
			return nil
		}
		if err := viz.WriteComparisonPlot(path, vc); err != nil {
			return fmt.Errorf("plot: %v", trimPkg(err))
		}
		s.note("wrote %s\n", path)
		return nil
	}
	it, err := s.result(name)
	if err != nil {
		return fmt.Errorf("plot: %v", err)
	}
	*ec.result, ec.name = it.r, it.name
	if path == "" {
		s.printf("%s: %s on %s [%s]\n", it.name, it.r.Algorithm, it.r.Graph.Name, it.r.Engine)
		s.printf("%s", viz.FrontierChart(it.r.Trace, s.chartOpts(12)))
		s.printf("%s", viz.TimeChart(it.r.Trace, s.chartOpts(8)))
		return nil
	}
	if err := viz.WriteRunPlot(path, it.r); err != nil {
		return fmt.Errorf("plot: %v", trimPkg(err))
	}
	s.note("wrote %s\n", path)
	return nil
}

// toViz returns the rows of c that ran, as the charts and tables of plot files and reports
// draw them: label, time, iterations, edges, GTEPS and verified.
func (c *comparison) toViz() *viz.Comparison {
	vc := &viz.Comparison{Title: c.name + ": " + c.title, Grid: c.grid()}
	for i, row := range c.rows {
		if row.r == nil {
			continue
		}
		label := c.label(i)
		if c.kind == "tune" { // one key, the schedule: its value says it all
			label = row.values[0]
		}
		v := row.verified
		switch {
		case v == "":
			v = "-"
		case strings.HasPrefix(v, "unverified"):
			v = "unverified"
		case strings.HasPrefix(v, "DIFFERS"):
			v = "DIFFERS"
		}
		sm := row.r.Summary
		vc.Labels = append(vc.Labels, label)
		vc.Ms = append(vc.Ms, ms(sm.Time))
		vc.Iterations = append(vc.Iterations, sm.Iterations)
		vc.Edges = append(vc.Edges, sm.EdgesTraversed)
		vc.GTEPS = append(vc.GTEPS, sm.GTEPS)
		vc.Verified = append(vc.Verified, v)
		_, lo, hi := stats(row.times)
		vc.Lo, vc.Hi = append(vc.Lo, ms(lo)), append(vc.Hi, ms(hi))
		vc.Verdicts = append(vc.Verdicts, row.verdict.String())
	}
	return vc
}

// vizBest is the index, among the rows toViz returns, of the row a chart may call best
// (comparison.best); -1 when none is.
func (c *comparison) vizBest() int {
	best, _ := c.best()
	k := 0
	for i, row := range c.rows {
		if i == best {
			return k
		}
		if row.r != nil {
			k++
		}
	}
	return -1
}

var ansiRE = regexp.MustCompile("\x1b\\[[0-9;]*[A-Za-z]|\r")

func cmdReport(ec *execCtx) error {
	s := ec.s
	if len(ec.args) != 1 {
		return fmt.Errorf("report: want report PATH.html")
	}
	path := ec.args[0]
	if ext := strings.ToLower(filepath.Ext(path)); ext != ".html" && ext != ".htm" {
		return fmt.Errorf("report: %s: want an .html file", path)
	}
	s.mu.Lock()
	var entries []viz.ReportEntry
	for _, h := range s.history {
		if h.report {
			continue
		}
		e := viz.ReportEntry{Command: h.cmd, Output: ansiRE.ReplaceAllString(h.output, ""), Result: h.result, Name: h.name}
		switch verb := reportVerb(h.cmd); {
		case strings.HasPrefix(strings.ToLower(h.cmd), "on ") && h.output == "":
			continue // a command for another engine: it did nothing
		case verb == "echo":
			e.Prose = true
		case verb == "expect":
			e.Check = true
		}
		if h.comp != nil {
			e.Compare = h.comp.toViz()
		}
		entries = append(entries, e)
	}
	title := s.title
	s.mu.Unlock()
	if len(entries) == 0 {
		return fmt.Errorf("report: the session has no commands yet")
	}
	if title == "" {
		title = "gworkbench session"
	}
	if err := viz.WriteNotebook(path, title, entries); err != nil {
		return fmt.Errorf("report: %v", trimPkg(err))
	}
	s.note("wrote %s (%d commands)\n", path, len(entries))
	return nil
}

// reportVerb is the command of a history line as the report sees it: `on ENGINE CMD` is CMD.
func reportVerb(cmd string) string {
	f := strings.Fields(cmd)
	if len(f) == 0 {
		return ""
	}
	v := strings.ToLower(f[0])
	if v == "on" && len(f) >= 3 {
		return strings.ToLower(f[2])
	}
	return v
}
