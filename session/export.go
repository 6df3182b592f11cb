package session

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/internal/safefile"
)

func cmdExport(ec *execCtx) error {
	s := ec.s
	if len(ec.args) != 3 {
		return fmt.Errorf("export: want export NAME values|trace|json PATH (a compare or sweep: export NAME json|csv PATH)")
	}
	name, what, path := ec.args[0], strings.ToLower(ec.args[1]), ec.args[2]
	// A file whose extension says the other format is a slip (export last json x.csv).
	switch ext := strings.ToLower(filepath.Ext(path)); {
	case (what == "json") && ext == ".csv":
		return fmt.Errorf("export %s json: %s: JSON goes to a .json file (export %s values|trace %s writes CSV)", name, path, name, path)
	case (what == "values" || what == "csv") && ext == ".json":
		return fmt.Errorf("export %s %s: %s: this writes CSV; name the file .csv (export %s json %s writes JSON)", name, what, path, name, path)
	}
	if c := s.comparisonNamed(name); c != nil {
		if what != "json" && what != "csv" {
			return fmt.Errorf("export: %s is a %s: export %s json|csv PATH (or one of its rows: export %s.1 %s PATH)", name, c.kind, name, name, what)
		}
		if what == "json" {
			return s.writeFile("export", path, func(w *bufio.Writer) error { return writeIndented(w, comparisonToJSON(c)) })
		}
		return s.writeFile("export", path, func(w *bufio.Writer) error { return writeComparisonCSV(w, c) })
	}
	it, err := s.result(name)
	if err != nil {
		return fmt.Errorf("export: %v", err)
	}
	switch what {
	case "values":
		r := it.r
		if why := it.partial(); why != "" {
			return fmt.Errorf("export %s values: %s; run it again", it.name, why)
		}
		if r.Value(0) == "" && r.Graph.Vertices > 0 {
			return fmt.Errorf("export %s values: %s has no per-vertex values (export %s json has its summary)", it.name, r.Algorithm, it.name)
		}
		err = s.writeFile("export", path, func(w *bufio.Writer) error {
			w.WriteString("vertex,value\n")
			for v := 0; v < r.Graph.Vertices; v++ {
				w.WriteString(strconv.FormatUint(r.Graph.VertexID(v), 10))
				w.WriteByte(',')
				w.WriteString(r.Value(v))
				w.WriteByte('\n')
			}
			return nil
		})
		if err == nil {
			s.note("  value: %s\n", valueMeaning(r.Algorithm))
		}
	case "trace":
		switch strings.ToLower(filepath.Ext(path)) {
		case ".json":
			err = s.writeFile("export", path, func(w *bufio.Writer) error { return writeIndented(w, traceJSON(it.r.Trace)) })
		case ".csv":
			err = s.writeFile("export", path, func(w *bufio.Writer) error { return writeTraceCSV(w, it.r.Trace) })
		default:
			return fmt.Errorf("export %s trace: %s: want a .csv or .json file", it.name, path)
		}
	case "json":
		err = s.writeFile("export", path, func(w *bufio.Writer) error { return writeIndented(w, resultToJSON(it)) })
	default:
		return fmt.Errorf("export: %q: want values, trace or json%s", what, engine.DidYouMean(what, []string{"values", "trace", "json"}))
	}
	return err
}

// valueMeaning says what the value column of an algorithm's values CSV holds.
func valueMeaning(a engine.Algorithm) string {
	switch a {
	case engine.BFS:
		return "depth from src, -1 where unreached"
	case engine.SSSP:
		return "distance from src, inf where unreached"
	case engine.CC:
		return "component label"
	case engine.PR:
		return "rank (the ranks sum to 1)"
	case engine.BC:
		return "betweenness centrality"
	case engine.MIS:
		return "1 in the independent set, 0 not"
	}
	return "value"
}

// writeFile writes path through fill, atomically (a failed write leaves an earlier file as it
// was), and says what it wrote.
func (s *Session) writeFile(cmd, path string, fill func(*bufio.Writer) error) error {
	if err := safefile.Write(path, fill); err != nil {
		return fmt.Errorf("%s: %v", cmd, err)
	}
	st, _ := os.Stat(path)
	size := int64(0)
	if st != nil {
		size = st.Size()
	}
	s.note("wrote %s (%s)\n", path, fmtBytes(size))
	return nil
}

// note prints an informational line in text mode only, so --format=json output stays JSON.
func (s *Session) note(format string, a ...any) {
	if s.text() {
		s.printf(format, a...)
	}
}

func writeIndented(w *bufio.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func writeTraceCSV(w *bufio.Writer, t engine.Trace) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"iter", "kind", "phase", "direction", "mode", "in_vertices", "in_edges", "out_vertices", "duplicates", "edges_scanned", "time_ms", "kernels", "note"})
	for _, rec := range t.Records {
		note := rec.Note
		if rec.Switch != nil {
			note = fmt.Sprintf("%s %s -> %s: %s", rec.Switch.What, rec.Switch.From, rec.Switch.To, switchReason(rec.Switch))
		}
		var ks []string
		for _, k := range rec.Kernels {
			ks = append(ks, fmt.Sprintf("%s:%g", k.Name, ms(k.Time)))
		}
		cw.Write([]string{strconv.Itoa(rec.Iter), rec.Kind.String(), rec.Phase, rec.Direction.String(), rec.Mode.String(),
			i64(rec.InVertices), i64(rec.InEdges), i64(rec.OutVertices), i64(rec.Duplicates), i64(rec.EdgesScanned),
			strconv.FormatFloat(ms(rec.Time), 'f', -1, 64), strings.Join(ks, ";"), note})
	}
	cw.Flush()
	return cw.Error()
}

func writeComparisonCSV(w *bufio.Writer, c *comparison) error {
	cw := csv.NewWriter(w)
	cw.Write(append(append([]string{}, c.keys...), "status", "time_ms", "min_ms", "max_ms", "runs", "warmup", "iterations", "edges_scanned", "teps_edges", "gteps",
		"speedup", "speedup_lo", "speedup_hi", "verdict", "verified"))
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }
	for _, row := range c.rows {
		rec := append([]string{}, row.values...)
		if row.r != nil {
			sm := row.r.Summary
			_, lo, hi := stats(row.times)
			v := row.verdict
			vlo, vhi := "", ""
			if v.bounded() {
				vlo, vhi = f(v.Lo), f(v.Hi)
			}
			rec = append(rec, row.status, f(ms(sm.Time)), f(ms(lo)), f(ms(hi)), strconv.Itoa(len(row.times)), strconv.Itoa(row.warmup),
				strconv.Itoa(sm.Iterations), i64(sm.EdgesTraversed), i64(sm.TEPSEdges), f(sm.GTEPS), f(v.Ratio), vlo, vhi, v.Word, row.verified)
		} else {
			rec = append(rec, row.status, "", "", "", "", "", "", "", "", "", "", "", "", "", "")
		}
		cw.Write(rec)
	}
	cw.Flush()
	return cw.Error()
}

func i64(n int64) string { return strconv.FormatInt(n, 10) }

func (s *Session) comparisonNamed(name string) *comparison {
	s.mu.Lock()
	defer s.mu.Unlock()
	if name == "last" {
		return nil
	}
	for _, c := range s.comparisons {
		if c.name == name {
			return c
		}
	}
	return nil
}
