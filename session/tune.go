package session

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/gworkbench/gworkbench/engine"
)

// tuneMaxRuns caps the schedules one tune tries.
const tuneMaxRuns = 120

// cmdTune searches the schedule space of an algorithm on the current graph by coordinate
// descent: starting from the all-auto schedule, it tries each value of each enumerated knob
// that applies, keeps a change when the verified run is faster, and makes a second pass when
// the first improved anything (the autotuner of UGF/GraphIt, at its simplest).
func cmdTune(ec *execCtx) error {
	s := ec.s
	if len(ec.args) == 0 {
		return fmt.Errorf("tune: want an algorithm: tune bfs [k=v ...] [repeat=N]")
	}
	alg, pairs, as, err := s.parseMulti("tune", ec.args)
	if err != nil {
		return err
	}
	fixed := map[string]bool{}
	var set []setting
	repeatGiven := false
	for _, p := range pairs {
		if strings.ContainsAny(p.Value, ",:") && p.Key != "np" {
			return fmt.Errorf("tune: %s=%s: tune picks the values itself; give fixed values only", p.Key, p.Value)
		}
		fixed[p.Key] = true
		repeatGiven = repeatGiven || p.Key == "repeat"
		set = append(set, setting{p.Key, p.Value})
	}
	if !repeatGiven {
		set = append(set, setting{"repeat", "3"})
	}
	base, err := s.baseSpec(alg)
	if err != nil {
		return fmt.Errorf("tune: %v", err)
	}
	if err := s.apply(&base, set); err != nil {
		return fmt.Errorf("tune %s: %v", alg, trimPkg(err))
	}
	var knobs []engine.Knob
	for _, k := range engine.Knobs() {
		if k.Values != nil && k.Name != "np" && !fixed[k.Name] && k.AppliesTo(alg, base.engineName) {
			knobs = append(knobs, k)
		}
	}
	name, err := s.resultName(as, "tune")
	if err != nil {
		return fmt.Errorf("tune: %v", err)
	}
	c := &comparison{name: name, kind: "tune", alg: alg, graph: base.graphName, keys: []string{"schedule"},
		title: fmt.Sprintf("tune %s on %s [%s]", alg, base.graphName, base.engineName)}
	_, sessSched := s.Settings()
	tried := map[string]*compareRow{}
	try := func(sched engine.Schedule) (*compareRow, error) {
		key := sched.String()
		if row, ok := tried[key]; ok {
			return row, nil
		}
		row := &compareRow{values: []string{key}}
		for _, st := range set {
			row.settings = append(row.settings, st)
		}
		// Every knob that differs from the session default the run starts from.
		for _, k := range engine.Knobs() {
			if v := sched.Get(k.Name); !fixed[k.Name] && v != sessSched.Get(k.Name) {
				row.settings = append(row.settings, setting{k.Name, v})
			}
		}
		tried[key] = row
		if s.opts.Interactive && s.text() {
			s.printf("\r\x1b[K  tune %d: %s", len(tried), key)
		}
		if err := s.runRow(ec.ctx, alg, row, ""); err != nil {
			if s.opts.Interactive && s.text() {
				s.printf("\r\x1b[K") // the progress line goes before the error is told
			}
			return nil, err
		}
		// Only runs and failures are rows: a schedule the engine refuses tells nothing about
		// speed (inSpace keeps most of them out; one whose auto knobs resolve outside the
		// engine's space can still be refused).
		if row.r != nil || strings.HasPrefix(row.status, "failed") {
			c.rows = append(c.rows, row)
		}
		return row, nil
	}
	good := func(row *compareRow) bool { return row.r != nil && row.verified == "ok" }
	best := base.sched
	bestRow, err := try(best)
	if err != nil {
		return fmt.Errorf("tune: %w", err)
	}
	switch {
	case bestRow.r == nil:
		return fmt.Errorf("tune %s: the starting schedule (%s) does not run: %s", alg, best.String(), bestRow.status)
	case strings.HasPrefix(bestRow.verified, "unverified: "):
		return fmt.Errorf("tune %s: tune keeps only verified schedules, and there is %s", alg, strings.TrimPrefix(bestRow.verified, "unverified: "))
	case !good(bestRow):
		return fmt.Errorf("tune %s: the starting schedule (%s) disagrees with the reference engine: %s", alg, best.String(),
			strings.TrimPrefix(bestRow.verified, "DIFFERS: "))
	}
	baseRow := bestRow
	for pass := 0; pass < 2; pass++ {
		improved := false
		for _, k := range knobs {
			for _, v := range k.Values {
				if len(tried) >= tuneMaxRuns {
					break
				}
				cand := best
				if cand.Set(k.Name, v) != nil || cand.Get(k.Name) == best.Get(k.Name) {
					continue
				}
				if cand.Validate(alg, base.engineName) != nil || !inSpace(base.engineName, alg, cand, base.sched, fixed) {
					continue
				}
				row, err := try(cand)
				if err != nil {
					return fmt.Errorf("tune: %w", err)
				}
				if good(row) && row.r.Summary.Time < bestRow.r.Summary.Time {
					best, bestRow, improved = cand, row, true
				}
			}
		}
		if !improved {
			break
		}
	}
	if s.opts.Interactive && s.text() {
		s.printf("\r\x1b[K")
	}
	s.mu.Lock()
	s.removeNamedLocked(c.name)
	s.comparisons = append(s.comparisons, c)
	s.takeNameLocked(c.name)
	s.lastAlg, s.lastName = alg, c.name
	s.mu.Unlock()
	ec.comp = c
	if !s.text() {
		return s.writeJSONLine(comparisonToJSON(c))
	}
	index := map[*compareRow]int{}
	for i, row := range c.rows {
		index[row] = i + 1
	}
	rows := slices.Clone(c.rows)
	sort.SliceStable(rows, func(i, j int) bool {
		if (rows[i].r == nil) != (rows[j].r == nil) {
			return rows[i].r != nil
		}
		return rows[i].r != nil && rows[i].r.Summary.Time < rows[j].r.Summary.Time
	})
	s.printf("%s\n", s.paint(ansiBold, fmt.Sprintf("%s: %s: %d schedules tried", c.name, c.title, len(tried))))
	var table [][]string
	for i, row := range rows {
		if i == 15 {
			break
		}
		id := fmt.Sprintf("%s.%d", c.name, index[row])
		if row.r == nil {
			table = append(table, []string{id, row.values[0], "-", "-", "-", row.status})
			continue
		}
		sp := float64(baseRow.r.Summary.Time) / float64(max(row.r.Summary.Time, 1))
		table = append(table, []string{id, row.values[0], fmtMS(row.r.Summary.Time), fmtGTEPS(row.r.Summary.GTEPS), fmt.Sprintf("%.2fx", sp), row.verified})
	}
	s.printf("%s", s.table([]string{"#", "schedule (changes from auto)", "time", "GTEPS", "vs start", "verified"}, table))
	if len(rows) > 15 {
		s.printf("(%d more: export %s csv FILE lists them all)\n", len(rows)-15, c.name)
	}
	if bestRow == baseRow {
		s.printf("best: the starting schedule (%s)\n", best.String())
		return nil
	}
	var diff []string
	for _, k := range engine.Knobs() {
		if best.Get(k.Name) != base.sched.Get(k.Name) {
			diff = append(diff, k.Name+"="+best.Get(k.Name))
		}
	}
	s.printf("best: %s, %.2fx the starting schedule; keep it with: set %s\n", strings.Join(diff, " "),
		float64(baseRow.r.Summary.Time)/float64(max(bestRow.r.Summary.Time, 1)), strings.Join(diff, " "))
	return nil
}

// InSpace reports whether the engine runs alg with sched, by the schedule space it lists
// (engine.Spacer), every knob it lists checked but the engine knobs (workers, chunk, split).
// The TUI's schedule panel dims what it refuses. An engine without a Spacer, or not available
// in this binary, runs everything that validates.
func InSpace(engineName string, alg engine.Algorithm, sched engine.Schedule) bool {
	return inSpace(engineName, alg, sched, engine.Schedule{}, nil)
}

// inSpace reports whether sched lies in the schedule space the engine says it runs for alg
// (engine.Spacer), so that tune does not time values the engine ignores or refuses (lb on a
// CPU BFS, say) and then recommend them. An auto knob fits any axis (the engine resolves it
// within its space); numeric knobs, the engine knobs (workers, chunk, split), the knobs in
// ignore and those left as in start (the schedule tune starts from: the session's defaults and
// the command's knobs, which are the user's to choose) are not checked. An engine without a
// Spacer runs everything that validates.
func inSpace(engineName string, alg engine.Algorithm, sched, start engine.Schedule, ignore map[string]bool) bool {
	e, err := engine.Open(engineName)
	if err != nil {
		return true
	}
	sp, ok := e.(engine.Spacer)
	if !ok {
		return true
	}
	free := map[string]bool{}
	for _, k := range engine.EngineKnobs() {
		free[k] = true
	}
	fits := func(sub engine.Subspace) bool {
		for _, k := range engine.Knobs() {
			v := sched.Get(k.Name)
			if k.Values == nil || free[k.Name] || ignore[k.Name] || v == k.Default || v == start.Get(k.Name) {
				continue
			}
			i := slices.IndexFunc(sub, func(a engine.Axis) bool { return a.Knob == k.Name })
			if i < 0 || !slices.Contains(sub[i].Values, v) {
				return false
			}
		}
		return true
	}
	return slices.ContainsFunc(sp.Space(alg), fits)
}
