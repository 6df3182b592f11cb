package viz

import (
	"fmt"
	"html/template"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/gworkbench/gworkbench/engine"
)

// ReportEntry is one command of a session with its printed output and, for runs, its result
// and the name it was kept under, for compares, sweeps and tunes, the comparison.
type ReportEntry struct {
	Command, Output string
	Result          *engine.Result
	Name            string      // the result's name ("" : none)
	Compare         *Comparison // a compare, sweep or tune (nil: none)
	Prose           bool        // an echo: its output is text to read, not a command's output
	Check           bool        // an expect: its output is a checked claim
}

// WriteReport writes a whole session as one HTML notebook: every command in order with its
// output, and for each run its charts, summary and resolved schedule.
func WriteReport(path string, entries []ReportEntry) error {
	return WriteNotebook(path, "gworkbench session", entries)
}

// WriteNotebook is WriteReport with a title: a lab's, say.
func WriteNotebook(path, title string, entries []ReportEntry) error {
	return writeFile(path, func(w io.Writer) error {
		page := reportPage{Title: title, Generated: time.Now().UTC().Format(time.RFC3339)}
		shown := map[string]*engine.Result{}
		for _, e := range entries {
			if e.Prose {
				addProse(&page, ansi.Strip(e.Output))
				continue
			}
			ce := cellEntry{Command: e.Command, Output: ansi.Strip(e.Output), Check: e.Check}
			// A result's charts and tables come once, where it first appears: a trace or a
			// plot of it later shows its own output only.
			if e.Result != nil && e.Name != "" && shown[e.Name] == e.Result {
				e.Result = nil
			}
			if e.Result != nil && e.Name != "" {
				shown[e.Name] = e.Result
			}
			if e.Result != nil {
				rs, err := newRunSection(e.Result, false)
				if err != nil {
					return err
				}
				if e.Name != "" {
					rs.Heading = e.Name + ": " + rs.Heading
				}
				ce.Run = &rs
			}
			if e.Compare != nil && len(e.Compare.Labels) > 0 {
				cs, err := newCompareSection(e.Compare)
				if err != nil {
					return err
				}
				ce.Compare = &cs
			}
			page.Cells = append(page.Cells, ce)
		}
		return pageTmpl.ExecuteTemplate(w, "notebook", page)
	})
}

func runReport(w io.Writer, r *engine.Result) error {
	rs, err := newRunSection(r, true)
	if err != nil {
		return err
	}
	page := reportPage{Title: rs.Heading, Generated: time.Now().UTC().Format(time.RFC3339), Run: &rs}
	return pageTmpl.ExecuteTemplate(w, "run", page)
}

func compareReport(w io.Writer, c *Comparison) error {
	cs, err := newCompareSection(c)
	if err != nil {
		return err
	}
	page := reportPage{Title: c.Title, Generated: time.Now().UTC().Format(time.RFC3339), Compare: &cs}
	return pageTmpl.ExecuteTemplate(w, "compare", page)
}

// newCompareSection draws the time of each run and tables every column the comparison has:
// run, time, speed-up against the first run, then iterations, edges, GTEPS and verified.
func newCompareSection(c *Comparison) (compareSection, error) {
	if err := c.check(); err != nil {
		return compareSection{}, err
	}
	p, err := comparePlot(c)
	if err != nil {
		return compareSection{}, err
	}
	svg, err := svgOf([][]*plot.Plot{{p}}, 20*vg.Centimeter, 10*vg.Centimeter)
	if err != nil {
		return compareSection{}, err
	}
	t := htmlTable{Headers: []string{"run", "time (ms)", "speed-up"}}
	if c.Lo != nil {
		t.Headers = []string{"run", "time (ms, median)", "spread (min-max)", "verdict"}
	}
	for _, col := range []struct {
		name string
		n    int
	}{{"iterations", len(c.Iterations)}, {"edges", len(c.Edges)}, {"GTEPS", len(c.GTEPS)}, {"verified", len(c.Verified)}} {
		if col.n > 0 {
			t.Headers = append(t.Headers, col.name)
		}
	}
	for i := range c.Labels {
		up := "-"
		if c.Ms[i] > 0 && c.Ms[0] > 0 {
			up = fmt.Sprintf("%.2fx", c.Ms[0]/c.Ms[i])
		}
		if c.Verdicts != nil {
			up = c.Verdicts[i]
		}
		row := []string{c.Labels[i], Sig3(c.Ms[i]), up}
		if c.Lo != nil {
			row = []string{c.Labels[i], Sig3(c.Ms[i]), Sig3(c.Lo[i]) + "-" + Sig3(c.Hi[i]), up}
		}
		if c.Iterations != nil {
			row = append(row, fmt.Sprint(c.Iterations[i]))
		}
		if c.Edges != nil {
			row = append(row, Count(float64(c.Edges[i])))
		}
		if c.GTEPS != nil {
			g := "-"
			if c.GTEPS[i] > 0 {
				g = strconv.FormatFloat(c.GTEPS[i], 'g', 3, 64)
			}
			row = append(row, g)
		}
		if c.Verified != nil {
			row = append(row, c.Verified[i])
		}
		t.Rows = append(t.Rows, row)
	}
	return compareSection{Title: c.Title, SVG: template.HTML(svg), Table: t, Heat: newHeatTable(c.Grid)}, nil
}

type reportPage struct {
	Title, Generated string
	Run              *runSection
	Compare          *compareSection
	Cells            []cellEntry
}

// addProse adds an echo's text to the page: a line that starts with "== " is a heading, other
// lines join the paragraph before them, so a lab's narration reads as text.
func addProse(page *reportPage, text string) {
	text = strings.TrimSpace(text)
	if text == "" {
		return
	}
	if h, ok := strings.CutPrefix(text, "== "); ok {
		page.Cells = append(page.Cells, cellEntry{Heading: h})
		return
	}
	if n := len(page.Cells); n > 0 && page.Cells[n-1].Text != "" {
		page.Cells[n-1].Text += " " + text
		return
	}
	page.Cells = append(page.Cells, cellEntry{Text: text})
}

type cellEntry struct {
	Heading, Text   string // narration: a heading, or a paragraph
	Check           bool   // an expect: a claim checked as the session ran
	Command, Output string
	Run             *runSection
	Compare         *compareSection
}

type compareSection struct {
	Title string
	SVG   template.HTML
	Table htmlTable
	Heat  *heatTable
}

type runSection struct {
	Heading  string
	SVG      template.HTML
	Summary  htmlTable
	Schedule htmlTable
	Kernels  htmlTable
	Trace    htmlTable
	Prov     htmlTable
	Elided   int // trace rows left out
}

type htmlTable struct {
	Headers []string
	Rows    [][]string
}

const maxTraceRows = 2000

func newRunSection(r *engine.Result, full bool) (runSection, error) {
	ps, err := runPlots(r)
	if err != nil {
		return runSection{}, err
	}
	svg, err := svgOf(ps, 22*vg.Centimeter, 22*vg.Centimeter)
	if err != nil {
		return runSection{}, err
	}
	s := runSection{
		Heading: fmt.Sprintf("%s on %s, %s engine, %s", r.Algorithm, r.Graph.Name, r.Engine, scheduleText(r)),
		SVG:     template.HTML(svg),
	}
	kv := func(t *htmlTable, k, v string) { t.Rows = append(t.Rows, []string{k, v}) }
	s.Summary.Headers = []string{"", ""}
	kv(&s.Summary, "graph", fmt.Sprintf("%s: %d vertices, %d edges, directed=%v, fingerprint %s",
		r.Graph.Name, r.Graph.Vertices, r.Graph.Edges, r.Graph.Directed, r.Graph.Fingerprint))
	kv(&s.Summary, "iterations", fmt.Sprint(r.Summary.Iterations))
	kv(&s.Summary, "time", Duration(r.Summary.Time))
	kv(&s.Summary, "edges traversed", fmt.Sprint(r.Summary.EdgesTraversed))
	kv(&s.Summary, "GTEPS", fmt.Sprintf("%.3f", r.Summary.GTEPS))
	for _, f := range summaryFields(r.Summary) {
		kv(&s.Summary, f[0], f[1])
	}
	for name, v := range r.ParamsShown() {
		kv(&s.Summary, "param "+name, v)
	}
	sort.SliceStable(s.Summary.Rows[5:], func(i, j int) bool { return s.Summary.Rows[5+i][0] < s.Summary.Rows[5+j][0] })

	s.Schedule.Headers = []string{"knob", "value"}
	for _, kv := range r.Schedule.Resolved(r.Algorithm, r.Engine) {
		s.Schedule.Rows = append(s.Schedule.Rows, []string{kv.Name, kv.Value})
	}

	if ks := traceSeries(r.Trace).kernels(); len(ks) > 0 {
		s.Kernels.Headers = []string{"kernel", "launches", "time", "share"}
		for _, k := range ks {
			s.Kernels.Rows = append(s.Kernels.Rows, []string{k.name, fmt.Sprint(k.launches), Duration(k.time), fmt.Sprintf("%.1f%%", k.share*100)})
		}
	}
	if full {
		s.Trace.Headers, s.Trace.Rows = runTraceRows(r)
		if len(s.Trace.Rows) > maxTraceRows {
			s.Elided = len(s.Trace.Rows) - maxTraceRows
			s.Trace.Rows = s.Trace.Rows[:maxTraceRows]
		}
	}
	p := r.Provenance
	s.Prov.Headers = []string{"", ""}
	for _, f := range [][2]string{{"version", p.Version}, {"commit", p.Commit}, {"machine", p.Machine},
		{"GPU", p.GPU}, {"Go", p.GoVersion}, {"started", p.Started.UTC().Format(time.RFC3339)}} {
		if f[1] != "" {
			kv(&s.Prov, f[0], f[1])
		}
	}
	return s, nil
}

// scheduleText lists the knobs of r's resolved schedule that apply to its algorithm on its
// engine and differ from their defaults, engine knobs aside ("direction=pull driven=data"), so that a push run
// and a pull run are told apart at a glance; "default schedule" when none does.
func scheduleText(r *engine.Result) string {
	var parts []string
	for _, k := range engine.Knobs() {
		if slices.Contains(engine.EngineKnobs(), k.Name) {
			continue // workers, chunk, split: how fast, not which algorithm; the table has them
		}
		if v := r.Schedule.Get(k.Name); v != k.Default && k.AppliesTo(r.Algorithm, r.Engine) {
			parts = append(parts, k.Name+"="+v)
		}
	}
	if len(parts) == 0 {
		return "default schedule"
	}
	return strings.Join(parts, " ")
}

// TraceRows returns the per-iteration table of a trace (the `trace` command's columns):
// switches and phases appear as rows of their own.
func TraceRows(t engine.Trace) (headers []string, rows [][]string) {
	headers = []string{"iter", "dir", "mode", "in_v", "in_e", "out_v", "dups", "scanned", "time", "note"}
	for _, r := range t.Records {
		switch r.Kind {
		case engine.IterationRecord:
			note := r.Note
			if r.Phase != "" {
				note = strings.TrimSpace(r.Phase + " " + note)
			}
			rows = append(rows, []string{fmt.Sprint(r.Iter), r.Direction.String(), r.Mode.String(),
				fmt.Sprint(r.InVertices), fmt.Sprint(r.InEdges), fmt.Sprint(r.OutVertices), fmt.Sprint(r.Duplicates),
				fmt.Sprint(r.EdgesScanned), Duration(r.Time), note})
		default:
			rows = append(rows, []string{"", "", "", "", "", "", "", "", "", "» " + describeMark(&r)})
		}
	}
	return headers, rows
}

// summaryFields lists the algorithm-specific summary numbers that are set.
func summaryFields(s engine.Summary) [][2]string {
	var out [][2]string
	add := func(k string, set bool, v any) {
		if set {
			out = append(out, [2]string{k, fmt.Sprint(v)})
		}
	}
	add("reached", s.Reached != 0, s.Reached)
	add("max depth", s.MaxDepth != 0, s.MaxDepth)
	add("max distance", s.MaxDist != 0, s.MaxDist)
	add("components", s.Components != 0, s.Components)
	add("largest component", s.LargestComp != 0, s.LargestComp)
	add("rank sum", s.RankSum != 0, s.RankSum)
	add("triangles", s.Triangles != 0, s.Triangles)
	add("set size", s.SetSize != 0, s.SetSize)
	add("total weight", s.TotalWeight != 0, s.TotalWeight)
	add("forest edges", s.ForestEdges != 0, s.ForestEdges)
	return out
}

var pageTmpl = template.Must(template.New("page").Parse(`
{{define "head"}}<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Title}}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
h1{font-size:1.5rem} h2{font-size:1.2rem;margin-top:2rem} h3{font-size:1rem}
pre{background:#f6f6f6;padding:.6rem;overflow-x:auto;font-size:.85rem}
pre.cmd{background:#1e2430;color:#e6e6e6}
pre.check{background:#eef8ee;border-left:4px solid #3a3}
p{line-height:1.45}
table{border-collapse:collapse;font-size:.85rem;margin:.5rem 0}
td,th{padding:.15rem .6rem;border-bottom:1px solid #ddd;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums}
svg{max-width:100%;height:auto}
footer{color:#888;font-size:.8rem;margin-top:3rem}
</style></head><body>{{end}}
{{define "foot"}}<footer>written by gworkbench · {{.Generated}}</footer></body></html>{{end}}
{{define "table"}}{{if .Rows}}<table>{{if .Headers}}<tr>{{range .Headers}}<th>{{.}}</th>{{end}}</tr>{{end}}
{{range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>{{end}}{{end}}
{{define "runbody"}}{{.SVG}}
<h3>Summary</h3>{{template "table" .Summary}}
{{if .Kernels.Rows}}<h3>Kernels</h3>{{template "table" .Kernels}}{{end}}
<details><summary>Resolved schedule</summary>{{template "table" .Schedule}}</details>
{{if .Trace.Rows}}<details><summary>Trace</summary>{{template "table" .Trace}}{{if .Elided}}<p>… {{.Elided}} more rows (export the trace for all of them)</p>{{end}}</details>{{end}}
{{if .Prov.Rows}}<h3>Provenance</h3>{{template "table" .Prov}}{{end}}{{end}}
{{define "heat"}}{{if .}}<table><tr><th>{{.RowKey}} \ {{.ColKey}}</th>{{range .Cols}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr><th>{{.Label}}</th>{{range .Cells}}<td style="{{.Style}}">{{.Text}}</td>{{end}}</tr>
{{end}}</table><p>time in ms: green fast, red slow; ★ the fastest</p>{{end}}{{end}}
{{define "run"}}{{template "head" .}}<h1>{{.Title}}</h1>{{template "runbody" .Run}}{{template "foot" .}}{{end}}
{{define "compare"}}{{template "head" .}}<h1>{{.Title}}</h1>{{template "heat" .Compare.Heat}}{{.Compare.SVG}}{{template "table" .Compare.Table}}{{template "foot" .}}{{end}}
{{define "notebook"}}{{template "head" .}}<h1>{{.Title}}</h1>
{{range .Cells}}{{if .Heading}}<h2>{{.Heading}}</h2>
{{else if .Text}}<p>{{.Text}}</p>
{{else if .Check}}<pre class="check">{{.Command}}
{{.Output}}</pre>
{{else}}<pre class="cmd">&gt; {{.Command}}</pre>
{{if .Output}}<pre>{{.Output}}</pre>{{end}}
{{if .Run}}<h2>{{.Run.Heading}}</h2>{{template "runbody" .Run}}{{end}}
{{if .Compare}}<h2>{{.Compare.Title}}</h2>{{template "heat" .Compare.Heat}}{{.Compare.SVG}}{{template "table" .Compare.Table}}{{end}}
{{end}}{{end}}{{template "foot" .}}{{end}}
`))
