package session

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gworkbench/gworkbench/engine"
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
		rows = append(rows, []string{it.name, string(r.Algorithm), r.Graph.Name, r.Engine, fmtMS(r.Summary.Time), fmt.Sprint(r.Summary.Iterations), fmtGTEPS(r.Summary.GTEPS), v, r.Schedule.String()})
	}
	if len(rows) > 0 {
		s.printf("%s", s.table([]string{"name", "algorithm", "graph", "engine", "time", "iterations", "GTEPS", "verified", "schedule"}, rows))
	}
	for _, c := range comps {
		s.printf("%s: %s (%d runs)\n", c.name, c.title, len(c.rows))
	}
	return nil
}

// result returns the named result ("" or "last" = the most recent). A row of a comparison is
// named NAME.N (cmp1.2 is the second row of cmp1).
func (s *Session) result(name string) (*resultItem, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if name == "" || name == "last" {
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
			return &resultItem{name: name, r: row.r, times: row.times, g: row.g, verified: row.verified, restored: row.g == nil}, nil
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
	name, err := oneName("trace", ec.args)
	if err != nil {
		return err
	}
	s := ec.s
	it, err := s.result(name)
	if err != nil {
		return fmt.Errorf("trace: %v", err)
	}
	*ec.result = it.r
	s.printf("%s: %s on %s [%s], %s\n", it.name, it.r.Algorithm, it.r.Graph.Name, it.r.Engine, plural(int64(it.r.Summary.Iterations), "iteration", "iterations"))
	s.printf("%s", s.traceTable(it.r.Trace))
	return nil
}

// traceTable is the per-iteration table; switch and phase records are rows of their own.
func (s *Session) traceTable(t engine.Trace) string {
	var rows [][]string
	for _, rec := range t.Records {
		switch rec.Kind {
		case engine.SwitchRecord:
			txt := rec.Note
			if rec.Switch != nil {
				txt = fmt.Sprintf("%s %s -> %s: %s", rec.Switch.What, rec.Switch.From, rec.Switch.To, switchReason(rec.Switch))
			}
			rows = append(rows, []string{"switch", "", "", "", "", "", "", "", "", txt})
		case engine.PhaseRecord:
			rows = append(rows, []string{"phase", "", "", "", "", "", "", "", "", rec.Phase})
		default:
			note := rec.Note
			if len(rec.Kernels) > 0 {
				if note != "" {
					note += "; "
				}
				note += kernelsText(rec.Kernels)
			}
			rows = append(rows, []string{fmt.Sprint(rec.Iter), rec.Direction.String(), rec.Mode.String(),
				fmtCounter(rec.InVertices), fmtCounter(rec.InEdges), fmtCounter(rec.OutVertices), fmtCounter(rec.Duplicates),
				fmtCounter(rec.EdgesScanned), fmtMS(rec.Time), note})
		}
	}
	return s.table([]string{"iter", "dir", "mode", "in", "in edges", "out", "dups", "scanned", "time", "note"}, rows)
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
