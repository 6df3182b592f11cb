package session

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/viz"
)

func cmdResults(ec *execCtx) error {
	s := ec.s
	s.mu.Lock()
	items := append([]*resultItem(nil), s.results...)
	comps := append([]*comparison(nil), s.comparisons...)
	s.mu.Unlock()
	if len(items) == 0 && len(comps) == 0 {
		s.printf("no results yet: run one (run bfs)\n")
		return nil
	}
	var rows [][]string
	for _, it := range items {
		r := it.r
		v := it.verified
		if v == "" {
			v = "-"
		}
		if it.cancelled {
			v = "cancelled"
		}
		rows = append(rows, []string{it.name, string(r.Algorithm), r.Graph.Name, engineLabel(r.Engine), fmtMS(r.Summary.Time), fmt.Sprint(r.Summary.Iterations), fmtGTEPS(r.Summary.GTEPS), v, r.Schedule.String()})
	}
	if len(rows) > 0 {
		s.printf("%s", s.table([]string{"name", "algorithm", "graph", "engine", "time", "iterations", "GTEPS", "verified", "schedule"}, rows))
	}
	for _, c := range comps {
		s.printf("%s: %s (%s)\n", c.name, c.title, plural(int64(len(c.rows)), "run", "runs"))
	}
	return nil
}

// result returns the named result ("" or "last" = the most recent: after a compare or sweep,
// its last row that ran). A row of a comparison is named NAME.N (cmp1.2 is the second row of
// cmp1).
func (s *Session) result(name string) (*resultItem, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if name == "" || name == "last" {
		// The newest result: after a compare or sweep, its last row that ran.
		for _, c := range s.comparisons {
			if c.name != s.lastName || c.kind == "tune" {
				continue
			}
			for i := len(c.rows) - 1; i >= 0; i-- {
				if row := c.rows[i]; row.r != nil {
					return &resultItem{name: fmt.Sprintf("%s.%d", c.name, i+1), r: row.r, measured: row.measured, g: row.g, verified: row.verified, restored: row.g == nil}, nil
				}
			}
		}
		if len(s.results) == 0 {
			return nil, fmt.Errorf("no results yet: run one first (run bfs)")
		}
		return s.results[len(s.results)-1], nil
	}
	var names []string
	for _, r := range s.results {
		if r.name == name {
			return r, nil
		}
		names = append(names, r.name)
	}
	for _, c := range s.comparisons {
		if c.name == name {
			if len(c.rows) == 1 {
				return nil, fmt.Errorf("%s is a %s of 1 run: name it %s.1", name, c.kind, name)
			}
			return nil, fmt.Errorf("%s is a %s of %d runs: name one of them, %s.1 to %s.%d", name, c.kind, len(c.rows), name, name, len(c.rows))
		}
		if rest, ok := strings.CutPrefix(name, c.name+"."); ok {
			i, err := strconv.Atoi(rest)
			if err != nil || i < 1 || i > len(c.rows) {
				return nil, fmt.Errorf("%s has rows %s.1 to %s.%d", c.name, c.name, c.name, len(c.rows))
			}
			row := c.rows[i-1]
			if row.r == nil {
				return nil, fmt.Errorf("%s did not run: %s", name, row.status)
			}
			return &resultItem{name: name, r: row.r, measured: row.measured, g: row.g, verified: row.verified, restored: row.g == nil}, nil
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("no results yet: run one first (run bfs)")
	}
	return nil, fmt.Errorf("no result %q%s (results: %s)", name, engine.DidYouMean(name, names), listOrNone(names))
}

func oneName(cmd string, args []string) (string, error) {
	switch len(args) {
	case 0:
		return "last", nil
	case 1:
		return args[0], nil
	}
	return "", fmt.Errorf("%s: want at most one result name: %s [NAME|last]", cmd, cmd)
}

func cmdTrace(ec *execCtx) error {
	s := ec.s
	args := ec.args
	filter := ""
	if n := len(args); n > 0 && (args[n-1] == "switches" || strings.Contains(args[n-1], ":")) {
		filter, args = args[n-1], args[:n-1]
	}
	name, err := oneName("trace", args)
	if err != nil {
		return fmt.Errorf("trace: want trace [NAME|last] [FROM:TO|switches]")
	}
	it, err := s.result(name)
	if err != nil {
		return fmt.Errorf("trace: %v", err)
	}
	keep := func(engine.Record) bool { return true }
	switch {
	case filter == "switches":
		keep = func(rec engine.Record) bool { return rec.Kind != engine.IterationRecord }
	case filter != "":
		a, b, _ := strings.Cut(filter, ":")
		from, err1 := strconv.Atoi(a)
		to, err2 := strconv.Atoi(b)
		if a == "" {
			from, err1 = 0, nil
		}
		if b == "" {
			to, err2 = math.MaxInt, nil
		}
		if err1 != nil || err2 != nil || from < 0 || to < from {
			return fmt.Errorf("trace: %s: want FROM:TO, iterations from FROM to TO inclusive (10:20, :5, 100:)", filter)
		}
		keep = func(rec engine.Record) bool { return rec.Iter >= from && rec.Iter <= to }
	}
	*ec.result, ec.name = it.r, it.name
	s.printf("%s: %s on %s [%s], %s\n", it.name, it.r.Algorithm, it.r.Graph.Name, it.r.Engine, plural(int64(it.r.Summary.Iterations), "iteration", "iterations"))
	table, n := s.traceTable(it.r, keep)
	if n == 0 {
		switch {
		case filter == "switches":
			s.printf("(no switches or phases: the run kept one direction and mode)\n")
		case filter != "" && it.r.Summary.Iterations > 0:
			s.printf("(%s has iterations 0..%d, none in %s)\n", it.name, it.r.Summary.Iterations-1, filter)
		default:
			s.printf("(no records)\n")
		}
		return nil
	}
	if filter == "switches" {
		// Each switch and phase on lines of its own, its reason wrapped to the width rather
		// than cut at the table's edge (the TUI's panel is narrow).
		for _, rec := range it.r.Trace.Records {
			if rec.Kind == engine.IterationRecord {
				continue
			}
			what, txt := "phase", phaseText(rec)
			if rec.Kind == engine.SwitchRecord {
				what, txt = "switch", rec.Note
				if rec.Switch != nil {
					txt = fmt.Sprintf("%s %s -> %s: %s", rec.Switch.What, rec.Switch.From, rec.Switch.To, switchReason(rec.Switch))
				}
			}
			for i, l := range s.hanging(txt, 17) {
				if i == 0 {
					s.printf("  it %-5d %-6s  %s\n", rec.Iter, what, l)
				} else {
					s.printf("%s%s\n", strings.Repeat(" ", 17), l)
				}
			}
		}
		return nil
	}
	s.printf("%s", table)
	return nil
}

// traceTable is the per-iteration table of a run, the records keep picks, and how many it
// kept; switch and phase records are rows of their own, at the iteration they precede.
// "active" is the vertices with work, "checked" the vertices the iteration examined to find
// them (every vertex for a topology-driven sweep or a pull step): their difference is
// topology-driven's wasted checks.
func (s *Session) traceTable(r *engine.Result, keep func(engine.Record) bool) (string, int) {
	v := int64(r.Graph.Vertices)
	active := viz.Active(r)
	var rows [][]string
	for i, rec := range r.Trace.Records {
		if !keep(rec) {
			continue
		}
		switch rec.Kind {
		case engine.SwitchRecord:
			txt := rec.Note
			if rec.Switch != nil {
				txt = fmt.Sprintf("%s %s -> %s: %s", rec.Switch.What, rec.Switch.From, rec.Switch.To, switchReason(rec.Switch))
			}
			rows = append(rows, []string{fmt.Sprint(rec.Iter), "switch", "", "", "", "", "", "", "", "", txt})
		case engine.PhaseRecord:
			rows = append(rows, []string{fmt.Sprint(rec.Iter), "phase", "", "", "", "", "", "", "", "", phaseText(rec)})
		default:
			note := rec.Note
			if len(rec.Kernels) > 0 {
				if note != "" {
					note += "; "
				}
				note += kernelsText(rec.Kernels)
			}
			rows = append(rows, []string{fmt.Sprint(rec.Iter), rec.Direction.String(), rec.Mode.String(),
				fmtCounter(active[i]), fmtCounter(viz.Checked(&rec, v)), fmtCounter(rec.InEdges), fmtCounter(rec.OutVertices), fmtCounter(rec.Duplicates),
				fmtCounter(rec.EdgesScanned), fmtMS(rec.Time), note})
		}
	}
	return s.table([]string{"iter", "dir", "mode", "active", "checked", "in edges", "out", "dups", "scanned", "time", "note"}, rows), len(rows)
}

func kernelsText(ks []engine.Kernel) string {
	out := ""
	for i, k := range ks {
		if i > 0 {
			out += ", "
		}
		out += fmt.Sprintf("%s %s", k.Name, fmtMS(k.Time))
	}
	return out
}

// phaseText is a phase record's name, and what it did when the engine says (the blocked
// layout's shape and build time, a residual spread over the active vertices).
func phaseText(rec engine.Record) string {
	if rec.Note == "" {
		return rec.Phase
	}
	return rec.Phase + ": " + rec.Note
}
