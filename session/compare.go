package session

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/graph"
	"github.com/gworkbench/gworkbench/viz"
)

// comparison is the outcome of a compare or a sweep: one row per combination.
type comparison struct {
	name  string
	kind  string // compare or sweep
	title string
	alg   engine.Algorithm
	graph string
	keys  []string // the varying keys, in the order given
	rows  []*compareRow

	// A tune's winner (index into rows; 0, the start, when nothing beat it) and its verdict
	// against the start, re-timed with twice the runs (expect TUNE.best faster than TUNE.1).
	winner int
	final  verdict
}

// compareRow is one combination: its settings, and its result or why it did not run.
type compareRow struct {
	values   []string // the value of each varying key
	settings []setting
	r        *engine.Result
	measured
	verdict  verdict // against the baseline row (judge)
	status   string  // "ok", "invalid: ...", "unsupported: ...", "failed: ..."
	verified string  // "ok" or what differs
	g        *graph.CSR
}

func (c *comparison) label(i int) string {
	var parts []string
	for k, key := range c.keys {
		parts = append(parts, key+"="+c.rows[i].values[k])
	}
	return strings.Join(parts, " ")
}

// axis is one key and the values to try.
type axis struct {
	key    string
	values []string
}

func cmdCompare(ec *execCtx) error {
	s := ec.s
	if len(ec.args) == 0 {
		return fmt.Errorf("compare: want an algorithm and knobs with comma lists: compare bfs direction=push,pull,auto")
	}
	alg, pairs, as, err := s.parseMulti("compare", ec.args)
	if err != nil {
		return err
	}
	var axes []axis
	for _, p := range pairs {
		axes = append(axes, axis{p.Key, splitList(p.Value)})
	}
	c, err := s.runGrid(ec.ctx, "compare", alg, axes, as)
	if err != nil {
		return err
	}
	ec.comp = c
	if err := s.reportComparison(c, ""); err != nil {
		return err
	}
	return c.outcome()
}

// outcome is the error a compare or sweep ends with, after its table: none when every row ran
// (or was refused or unavailable, as listed) and agreed with the reference engine; otherwise
// the rows that differ or failed, so a script that checks schedules stops there.
func (c *comparison) outcome() error {
	var bad []string
	ran := 0
	for i, row := range c.rows {
		switch {
		case row.r != nil:
			ran++
			if strings.HasPrefix(row.verified, "DIFFERS") {
				bad = append(bad, fmt.Sprintf("%s.%d differs from the reference engine", c.name, i+1))
			}
		case strings.HasPrefix(row.status, "failed"):
			bad = append(bad, fmt.Sprintf("%s.%d failed", c.name, i+1))
		}
	}
	switch {
	case len(bad) > 0:
		return fmt.Errorf("%s: %s (the table above says how)", c.kind, strings.Join(bad, ", "))
	case ran == 0 && len(c.rows) == 1:
		return fmt.Errorf("%s: the combination could not run (the table above says why)", c.kind)
	case ran == 0:
		return fmt.Errorf("%s: none of the %s could run (the table above says why)", c.kind, plural(int64(len(c.rows)), "combination", "combinations"))
	}
	return nil
}

func cmdSweep(ec *execCtx) error {
	s := ec.s
	if len(ec.args) == 0 {
		return fmt.Errorf("sweep: want an algorithm and a knob range: sweep bfs alpha=5:30:5")
	}
	alg, pairs, as, err := s.parseMulti("sweep", ec.args)
	if err != nil {
		return err
	}
	// One knob swept draws time against it; two draw a heat map (rows the first, columns
	// the second).
	var axes []axis
	var ranged []int
	for i, p := range pairs {
		if strings.ContainsAny(p.Value, ":,") {
			ranged = append(ranged, i)
		}
	}
	switch {
	case len(ranged) == 0:
		return fmt.Errorf("sweep: no range: give one knob a:b:step or v1,v2,... (sweep %s alpha=5:30:5)", alg)
	case len(ranged) > 2:
		return fmt.Errorf("sweep: at most two knobs at a time (a heat map): %s, %s and %s have several values (compare runs any combinations)",
			pairs[ranged[0]].Key, pairs[ranged[1]].Key, pairs[ranged[2]].Key)
	}
	for _, i := range ranged {
		vals, err := expandRange(pairs[i].Key, pairs[i].Value)
		if err != nil {
			return fmt.Errorf("sweep: %v", err)
		}
		axes = append(axes, axis{pairs[i].Key, vals})
	}
	swept := ranged[0]
	for i, p := range pairs {
		if !slices.Contains(ranged, i) {
			axes = append(axes, axis{p.Key, []string{p.Value}})
		}
	}
	c, err := s.runGrid(ec.ctx, "sweep", alg, axes, as)
	if err != nil {
		return err
	}
	ec.comp = c
	if err := s.reportComparison(c, pairs[swept].Key); err != nil {
		return err
	}
	return c.outcome()
}

// parseMulti reads `ALGO k=v... [as NAME]` for compare and sweep.
func (s *Session) parseMulti(cmd string, args []string) (engine.Algorithm, []kv, string, error) {
	alg, err := engine.ParseAlgorithm(args[0])
	if err != nil {
		return "", nil, "", fmt.Errorf("%s: %v", cmd, trimPkg(err))
	}
	pairs, bare, as, err := splitArgs(joinLists(args[1:]))
	if err != nil {
		return "", nil, "", fmt.Errorf("%s: %v", cmd, err)
	}
	if len(bare) > 0 {
		return "", nil, "", fmt.Errorf("%s: %q: want key=v1,v2,... (or `as NAME` at the end)", cmd, bare[0])
	}
	seen := map[string]bool{}
	for _, p := range pairs {
		if seen[p.Key] {
			return "", nil, "", fmt.Errorf("%s: %s is given twice; list its values once: %s=a,b", cmd, p.Key, p.Key)
		}
		seen[p.Key] = true
		if !timingKey(p.Key) && !isParam(p.Key) && !isKnob(p.Key) {
			return "", nil, "", fmt.Errorf("%s: %v", cmd, unknownKey(p.Key))
		}
		// Check every listed value on its own now, so a typo fails before anything runs.
		for _, v := range splitList(p.Value) {
			if strings.Contains(v, ":") {
				continue
			}
			if err := checkValue(p.Key, v); err != nil {
				return "", nil, "", fmt.Errorf("%s: %v", cmd, trimPkg(err))
			}
		}
	}
	return alg, pairs, as, nil
}

// joinLists rejoins a comma list typed with spaces: "direction=push," "pull" -> "direction=push,pull".
func joinLists(args []string) []string {
	var out []string
	for _, a := range args {
		if n := len(out); n > 0 && (strings.HasSuffix(out[n-1], ",") || strings.HasPrefix(a, ",")) && !strings.Contains(a, "=") {
			out[n-1] += a
			continue
		}
		out = append(out, a)
	}
	return out
}

func checkValue(key, v string) error {
	switch {
	case key == "engine":
		return knownEngine(strings.ToLower(v)) // an unavailable one becomes a row that says so
	case key == "graph" || key == "repeat" || key == "warmup":
		return nil
	case isParam(key):
		var p engine.Params
		return p.Set(key, v)
	default:
		var sc engine.Schedule
		return sc.Set(key, v)
	}
}

func splitList(v string) []string {
	var out []string
	for _, x := range strings.Split(v, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

// runGrid runs the cross product of the axes (the first axis varies slowest), verifying each
// run against the reference engine. An invalid or unsupported combination becomes a row that
// says why; cancelling stops the whole grid and keeps nothing.
func (s *Session) runGrid(ctx context.Context, kind string, alg engine.Algorithm, axes []axis, as string) (*comparison, error) {
	prefix := "cmp"
	if kind == "sweep" {
		prefix = "sweep"
	}
	name, err := s.resultName(as, prefix)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", kind, err)
	}
	c := &comparison{name: name, kind: kind, alg: alg, graph: s.currentName()}
	var varying []int
	var titleParts []string
	for i, a := range axes {
		titleParts = append(titleParts, a.key+"="+strings.Join(a.values, ","))
		if len(a.values) > 1 || kind == "sweep" && i == 0 {
			varying = append(varying, i)
			c.keys = append(c.keys, a.key)
		}
	}
	for _, a := range axes {
		if a.key == "graph" { // graph=NAME, or a list of graphs: the title names them
			c.graph = strings.Join(a.values, ",")
		}
	}
	c.title = fmt.Sprintf("%s %s on %s: %s", kind, alg, c.graph, strings.Join(titleParts, " "))
	total := 1
	for _, a := range axes {
		total *= len(a.values)
	}
	if total > 500 {
		return nil, fmt.Errorf("%s: %d combinations is too many (at most 500); shorten the lists", kind, total)
	}
	idx := make([]int, len(axes))
	var timed []*timedRow
	valid := 0
	for n := 0; n < total; n++ {
		row := &compareRow{}
		for i, a := range axes {
			row.settings = append(row.settings, setting{a.key, a.values[idx[i]]})
		}
		for _, i := range varying {
			row.values = append(row.values, axes[i].values[idx[i]])
		}
		t, err := s.prepareRow(alg, row, fmt.Sprintf("%s.%d", c.name, n+1))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", kind, err)
		}
		if t.sp != nil {
			valid++
		}
		c.rows = append(c.rows, row)
		timed = append(timed, t)
		for i := len(axes) - 1; i >= 0; i-- {
			idx[i]++
			if idx[i] < len(axes[i].values) {
				break
			}
			idx[i] = 0
		}
	}
	started := time.Now()
	progress := func(round, rounds int) {
		s.progressf("  %s: round %d of %d over %s (%d%%, %s)", kind, round, rounds, plural(int64(valid), "row", "rows"), 100*(round-1)/max(rounds, 1), rate(round-1, "round", time.Since(started)))
	}
	err = s.timeRows(ctx, timed, defaultRuns(valid-1), progress)
	s.progressf("")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", kind, err)
	}
	for _, t := range timed {
		if err := s.verifyRow(ctx, t); err != nil {
			return nil, fmt.Errorf("%s: %w", kind, err)
		}
	}
	c.judge()
	if serial(c) {
		c.title += " (the serial reference engine)"
	}
	s.mu.Lock()
	for i, old := range s.comparisons {
		if old.name == c.name {
			s.comparisons = append(s.comparisons[:i:i], s.comparisons[i+1:]...)
			break
		}
	}
	s.comparisons = append(s.comparisons, c)
	s.takeNameLocked(c.name)
	s.lastAlg = alg
	s.lastName = c.name
	s.mu.Unlock()
	return c, nil
}

func (c *comparison) labelOf(row *compareRow) string {
	var parts []string
	for k, key := range c.keys {
		parts = append(parts, key+"="+row.values[k])
	}
	return strings.Join(parts, " ")
}

// prepareRow resolves a row's settings into the spec timeRows runs; a combination that is
// invalid or unavailable gets a row status instead (and no spec). name is the row's result
// name (CMP.N), carried by the RunFinished of its last run ("" : none).
func (s *Session) prepareRow(alg engine.Algorithm, row *compareRow, name string) (*timedRow, error) {
	t := &timedRow{row: row, live: "off", name: name}
	sp, err := s.baseSpec(alg)
	if err != nil {
		return nil, err
	}
	if err := s.apply(&sp, row.settings); err != nil {
		var u *unavailable
		if errors.As(err, &u) {
			row.status = "unavailable: " + trimPkg(err).Error()
		} else {
			row.status = "invalid: " + trimPkg(err).Error()
		}
		return t, nil
	}
	row.g = sp.g
	t.sp = &sp
	return t, nil
}

// verifyRow checks a timed row against the reference engine and sends the RunFinished that
// names it. Only a cancellation is returned as an error.
func (s *Session) verifyRow(ctx context.Context, t *timedRow) error {
	row := t.row
	if row.r == nil {
		return nil
	}
	if err := s.verify(ctx, row.g, row.r); err != nil {
		if ctx.Err() != nil {
			if t.name != "" {
				s.emit(RunFinished{Name: t.name, Result: row.r})
			}
			return ctx.Err()
		}
		if unverifiable(err) {
			row.verified = "unverified: " + err.Error()
		} else {
			row.verified = "DIFFERS: " + trimPkg(err).Error()
		}
	} else {
		row.verified = "ok"
	}
	if t.name != "" {
		s.emit(RunFinished{Name: t.name, Result: row.r})
	}
	return nil
}

// judge gives every row that ran its verdict against the baseline, the first row that ran.
func (c *comparison) judge() {
	base := c.base()
	tests := -1
	for _, row := range c.rows {
		if row.r != nil {
			tests++
		}
	}
	for i, row := range c.rows {
		switch {
		case row.r == nil:
			row.verdict = verdict{}
		case i == base:
			m := row.median()
			row.verdict = verdict{Word: verdictBaseline, Ratio: 1, Lo: 1, Hi: 1, Level: 1 - familyAlpha/float64(max(tests, 1)), Tests: tests, Median: m, BaseMedian: m}
		default:
			row.verdict = compareTimes(c.rows[base].times, row.times, tests)
		}
	}
}

// base is the index of the baseline row, the first that ran (-1: none ran).
func (c *comparison) base() int {
	for i, row := range c.rows {
		if row.r != nil {
			return i
		}
	}
	return -1
}

// reportComparison prints the table (and, for a sweep, the chart), or the JSON.
func (s *Session) reportComparison(c *comparison, swept string) error {
	if !s.text() {
		return s.writeJSONLine(comparisonToJSON(c))
	}
	for _, l := range wrapWords(c.name+": "+c.title, s.lineWidth()) {
		s.printf("%s\n", s.paint(ansiBold, l))
	}
	base := c.base()
	headers := append(append([]string{"#"}, c.keys...), "time", "spread", "iterations", "edges scanned", "GTEPS", "verdict", "verified")
	var rows [][]string
	// One note per reason: rows refused for the same reason share it.
	type note struct {
		rows []int
		text string
	}
	var notes []note
	for i, row := range c.rows {
		cells := []string{fmt.Sprintf("%s.%d", c.name, i+1)}
		for k, key := range c.keys {
			cells = append(cells, markSerial(key, row.values[k]))
		}
		if row.r == nil {
			cells = append(cells, "-", "-", "-", "-", "-", "-", "-")
			if j := slices.IndexFunc(notes, func(n note) bool { return n.text == row.status }); j >= 0 {
				notes[j].rows = append(notes[j].rows, i)
			} else {
				notes = append(notes, note{[]int{i}, row.status})
			}
		} else {
			sm := row.r.Summary
			v := row.verified
			switch {
			case strings.HasPrefix(v, "unverified"):
				v = "-"
				if j := slices.IndexFunc(notes, func(n note) bool { return n.text == row.verified }); j >= 0 {
					notes[j].rows = append(notes[j].rows, i)
				} else {
					notes = append(notes, note{[]int{i}, row.verified})
				}
			case v != "ok":
				v = "DIFFERS"
				notes = append(notes, note{[]int{i}, row.verified})
			}
			cells = append(cells, row.timeCell(), row.spreadCell(), fmt.Sprint(sm.Iterations), fmtCount(sm.EdgesTraversed), fmtGTEPS(sm.GTEPS), row.verdict.String(), v)
		}
		rows = append(rows, cells)
	}
	s.printf("%s", s.table(headers, rows))
	if base >= 0 {
		s.printNote(c.method(base))
	}
	if _, why := c.best(); why != "" {
		s.printLine(why)
	}
	for _, n := range notes {
		if len(n.rows) == 1 {
			label := c.label(n.rows[0])
			if label == "" { // nothing varies: name the row
				label = fmt.Sprintf("%s.%d", c.name, n.rows[0]+1)
			}
			s.printNote(label + ": " + n.text)
			continue
		}
		var ids []string
		for _, r := range n.rows {
			ids = append(ids, fmt.Sprintf("%s.%d", c.name, r+1))
		}
		s.printNote(strings.Join(ids, ", ") + ": " + n.text)
	}
	if g := c.grid(); swept != "" && g != nil {
		s.printf("%s", viz.HeatMap("time by "+g.RowKey+" and "+g.ColKey, g, s.chartOpts(0)))
	} else if swept != "" {
		vc := c.toViz()
		for i := range vc.Labels {
			vc.Labels[i] = strings.TrimPrefix(vc.Labels[i], swept+"=")
		}
		if len(vc.Labels) > 0 {
			s.printf("%s", viz.SpreadChart("time against "+swept+" (median, | min-max)", "ms", vc.Labels, vc.Ms, vc.Lo, vc.Hi, c.vizBest(), s.chartOpts(0)))
		}
	}
	return nil
}

// method is the line under a comparison's table that says what its verdicts mean.
func (c *comparison) method(base int) string {
	row := c.rows[base]
	runs := fmt.Sprintf("%d runs a row", len(row.times))
	if row.warmup > 0 {
		runs += fmt.Sprintf(" after %d warm-up", row.warmup)
	}
	v := c.rows[base].verdict
	return fmt.Sprintf("time: median of %s, timed round-robin; spread: min-max. verdict: the speed-up against %s.%d and its %.1f%% interval (Mann-Whitney on the times, Bonferroni over %s): faster or slower when the interval excludes 1 (help compare).",
		runs, c.name, base+1, 100*v.Level, plural(int64(max(v.Tests, 1)), "row", "rows"))
}

// timeCell is a row's median time, with the device's and the kernels' times beside it where
// the engine measured them and they differ from the end-to-end time (the GPU, by CUDA events:
// the device from the run's start to its end, as a CUDA program's event timer, without the
// host's wait for the end; the kernels summed, without the launches' gaps and the host's loop).
func (m *measured) timeCell() string {
	med := m.median()
	var beside []string
	if d := m.deviceMedian(); d > 0 && fmtMS(d) != fmtMS(med) {
		beside = append(beside, "device "+fmtMS(d))
	}
	if k := m.kernelMedian(); k > 0 && fmtMS(k) != fmtMS(med) {
		beside = append(beside, "kernels "+fmtMS(k))
	}
	if len(beside) == 0 {
		return fmtMS(med)
	}
	return fmt.Sprintf("%s (%s)", fmtMS(med), strings.Join(beside, ", "))
}

// spreadCell is min-max of the runs ("-" for one run).
func (m *measured) spreadCell() string {
	if len(m.times) < 2 {
		return "-"
	}
	_, lo, hi := stats(m.times)
	return strings.TrimSuffix(fmtMS(lo), " ms") + "-" + fmtMS(hi)
}

// serial reports whether every row of c that ran did so on the serial reference engine and no
// column says so.
func serial(c *comparison) bool {
	ran := 0
	for _, row := range c.rows {
		if row.r != nil {
			if row.r.Engine != "ref" {
				return false
			}
			ran++
		}
	}
	return ran > 0 && !slices.Contains(c.keys, "engine")
}

// markSerial marks the serial reference engine where a table names engines.
func markSerial(key, value string) string {
	if key == "engine" && value == "ref" {
		return "ref (serial)"
	}
	return value
}

// printLine prints text wrapped at spaces to the terminal's width.
func (s *Session) printLine(text string) {
	for _, l := range wrapWords(text, s.lineWidth()) {
		s.printf("%s\n", l)
	}
}

// printNote prints an indented note, wrapped at spaces to the terminal's width.
func (s *Session) printNote(text string) {
	for _, l := range wrapWords(text, s.lineWidth()-2) {
		s.printf("  %s\n", l)
	}
}

// expandRange turns a:b:step (inclusive) or v1,v2,... into values.
func expandRange(key, v string) ([]string, error) {
	if !strings.Contains(v, ":") {
		return splitList(v), nil
	}
	parts := strings.Split(v, ":")
	if len(parts) != 3 {
		return nil, fmt.Errorf("%s=%s: want a:b:step (for example %s=1:10:1)", key, v, key)
	}
	var f [3]float64
	for i, p := range parts {
		x, err := parseNum(p)
		if err != nil {
			return nil, fmt.Errorf("%s=%s: %q is not a number", key, v, p)
		}
		f[i] = x
	}
	a, b, step := f[0], f[1], f[2]
	if step <= 0 {
		return nil, fmt.Errorf("%s=%s: the step must be positive", key, v)
	}
	if b < a {
		return nil, fmt.Errorf("%s=%s: the range runs from a up to b, and %s < %s", key, v, parts[1], parts[0])
	}
	n := int((b-a)/step+1e-9) + 1
	if n > 200 {
		return nil, fmt.Errorf("%s=%s: %d values is too many (at most 200); use a larger step", key, v, n)
	}
	var out []string
	for i := 0; i < n; i++ {
		x := a + float64(i)*step
		out = append(out, fmtNum(x))
	}
	return out, nil
}
