package session

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/gworkbench/gworkbench/engine"
)

// tuneMaxRuns caps the schedules one tune tries.
const tuneMaxRuns = 120

// cmdTune searches the schedule space of an algorithm on the current graph by coordinate
// descent: starting from the session's schedule, it tries each value of each enumerated knob
// that applies, timed round-robin against the best schedule so far, keeps a change when the
// verified candidate is faster beyond noise (the verdict of compare, Bonferroni over the
// candidates of a pass), and makes a second pass when the first improved anything (the
// autotuner of UGF/GraphIt, at its simplest). At the end it re-times the winner against the
// start and says how sure it is.
func cmdTune(ec *execCtx) error {
	s := ec.s
	if len(ec.args) == 0 {
		return fmt.Errorf("tune: want an algorithm: tune bfs [k=v ...] [knob=v1,v2,...] [repeat=N]")
	}
	alg, pairs, as, err := s.parseMulti("tune", ec.args)
	if err != nil {
		return err
	}
	fixed := map[string]bool{}
	listed := map[string][]string{} // knob=v1,v2,...: tune only these knobs, over these values
	var set []setting
	for _, p := range pairs {
		if strings.Contains(p.Value, ":") && p.Key != "np" || strings.Contains(p.Value, ",") && !isKnob(p.Key) {
			return fmt.Errorf("tune: %s=%s: give a knob a list of values to try (direction=push,pull,auto), or a fixed value", p.Key, p.Value)
		}
		if strings.Contains(p.Value, ",") && p.Key != "np" {
			listed[p.Key] = splitList(p.Value)
			continue
		}
		fixed[p.Key] = true
		set = append(set, setting{p.Key, p.Value})
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
		if vs, ok := listed[k.Name]; ok {
			if !k.AppliesTo(alg, base.engineName) {
				return fmt.Errorf("tune %s: %s does not apply to %s on the %s engine", alg, k.Name, alg, base.engineName)
			}
			k.Values = vs
			knobs = append(knobs, k)
			continue
		}
		if len(listed) == 0 && k.Values != nil && k.Name != "np" && !fixed[k.Name] && k.AppliesTo(alg, base.engineName) {
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
	rowOf := func(sched engine.Schedule) *compareRow {
		row := &compareRow{values: []string{sched.String()}}
		row.settings = append(row.settings, set...)
		// Every knob that differs from the session default the run starts from.
		for _, k := range engine.Knobs() {
			if v := sched.Get(k.Name); !fixed[k.Name] && v != sessSched.Get(k.Name) {
				row.settings = append(row.settings, setting{k.Name, v})
			}
		}
		return row
	}
	// The candidates for a knob: each of its other values, where valid and in the space.
	candidates := func(from engine.Schedule, k engine.Knob) []engine.Schedule {
		var out []engine.Schedule
		for _, v := range k.Values {
			cand := from
			if cand.Set(k.Name, v) != nil || cand.Get(k.Name) == from.Get(k.Name) {
				continue
			}
			if cand.Validate(alg, base.engineName) != nil || !inSpace(base.engineName, alg, cand, base.sched, fixed) {
				continue
			}
			out = append(out, cand)
		}
		return out
	}
	tests := 0
	for _, k := range knobs {
		tests += len(candidates(base.sched, k))
	}
	tests = max(tests, 1)
	reps := base.repeat
	if reps == 0 {
		reps = defaultRuns(tests)
	}
	clearLine := func() { s.progressf("") }
	tuneStart := time.Now()
	// timeAll times rows round-robin, verifies them (of several, all but the first, the best so
	// far) and returns the timed rows.
	timeAll := func(rows []*compareRow, n int) ([]*timedRow, error) {
		var ts []*timedRow
		for _, row := range rows {
			t, err := s.prepareRow(alg, row, "")
			if err != nil {
				return nil, err
			}
			if t.sp != nil {
				t.sp.repeat = n
			}
			ts = append(ts, t)
		}
		if err := s.timeRows(ec.ctx, ts, n, nil); err != nil {
			return nil, err
		}
		for i, t := range ts {
			if i > 0 || len(ts) == 1 { // the first of several is the best so far, verified before
				if err := s.verifyRow(ec.ctx, t); err != nil {
					return nil, err
				}
			}
		}
		return ts, nil
	}
	good := func(row *compareRow) bool { return row.r != nil && row.verified == "ok" }
	best := base.sched
	baseRow := rowOf(best)
	if _, err := timeAll([]*compareRow{baseRow}, reps); err != nil {
		clearLine()
		return fmt.Errorf("tune: %w", err)
	}
	switch {
	case baseRow.r == nil:
		return fmt.Errorf("tune %s: the starting schedule (%s) does not run: %s", alg, best.String(), baseRow.status)
	case strings.HasPrefix(baseRow.verified, "unverified: "):
		return fmt.Errorf("tune %s: tune keeps only verified schedules, and there is %s", alg, strings.TrimPrefix(baseRow.verified, "unverified: "))
	case !good(baseRow):
		return fmt.Errorf("tune %s: the starting schedule (%s) disagrees with the reference engine: %s", alg, best.String(),
			strings.TrimPrefix(baseRow.verified, "DIFFERS: "))
	}
	baseRow.verdict = verdict{Word: verdictBaseline, Ratio: 1, Lo: 1, Hi: 1}
	c.rows = append(c.rows, baseRow)
	tried[best.String()] = baseRow
	bestRow := baseRow
	for pass := 0; pass < 2; pass++ {
		improved := false
		// Knob by knob, its other values are timed round-robin with the best so far (re-timed
		// beside them); the fastest of those faster beyond noise and verified becomes the best.
		for ki, k := range knobs {
			cands := candidates(best, k)
			rows := []*compareRow{rowOf(best)}
			var timed []engine.Schedule
			for _, cand := range cands {
				if _, ok := tried[cand.String()]; ok || len(tried) >= tuneMaxRuns {
					continue
				}
				row := rowOf(cand)
				tried[cand.String()] = row
				rows = append(rows, row)
				timed = append(timed, cand)
			}
			if len(rows) == 1 {
				continue
			}
			s.progressf("  tune: pass %d, knob %d of %d (%s, %s; %d%%), %s tried, %s", pass+1, ki+1, len(knobs), k.Name,
				plural(int64(len(rows)-1), "value", "values"), 100*(pass*len(knobs)+ki)/(2*len(knobs)), plural(int64(len(tried)), "schedule", "schedules"),
				rate(len(tried), "schedule", time.Since(tuneStart)))
			ts, err := timeAll(rows, reps)
			if err != nil {
				clearLine()
				return fmt.Errorf("tune: %w", err)
			}
			var win *compareRow
			var winSched engine.Schedule
			for i, row := range rows[1:] {
				// Only runs and failures are rows: a schedule the engine refuses tells nothing
				// about speed (inSpace keeps most of them out; one whose auto knobs resolve
				// outside the engine's space can still be refused).
				if row.r == nil && !strings.HasPrefix(row.status, "failed") {
					continue
				}
				c.rows = append(c.rows, row)
				if row.r == nil || ts[0].row.r == nil {
					continue
				}
				row.verdict = compareTimes(ts[0].row.times, row.times, tests)
				if good(row) && row.verdict.Word == verdictFaster && (win == nil || row.median() < win.median()) {
					win, winSched = row, timed[i]
				}
			}
			if win != nil {
				best, bestRow, improved = winSched, win, true
			}
		}
		if !improved {
			break
		}
	}
	// The winner, re-timed against the start with twice the runs: the last line's verdict.
	var final verdict
	if bestRow != baseRow {
		s.progressf("  tune: re-timing the winner against the start")
		ts, err := timeAll([]*compareRow{rowOf(base.sched), rowOf(best)}, max(2*reps, 10))
		if err != nil {
			clearLine()
			return fmt.Errorf("tune: %w", err)
		}
		if ts[0].row.r != nil && ts[1].row.r != nil {
			final = compareTimes(ts[0].row.times, ts[1].row.times, 1)
		}
	}
	clearLine()
	c.winner, c.final = max(slices.Index(c.rows, bestRow), 0), final
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
			table = append(table, []string{id, row.values[0], "-", "-", "-", "-", row.status})
			continue
		}
		table = append(table, []string{id, row.values[0], row.timeCell(), row.spreadCell(), fmtGTEPS(row.r.Summary.GTEPS), row.verdict.String(), row.verified})
	}
	s.printf("%s", s.table([]string{"#", "schedule (changes from auto)", "time", "spread", "GTEPS", "vs the best so far", "verified"}, table))
	if len(rows) > 15 {
		s.printf("(%d more: export %s csv FILE lists them all)\n", len(rows)-15, c.name)
	}
	s.printNote(fmt.Sprintf("each knob's values timed %d times round-robin with the best so far, after a warm-up; the fastest kept when faster at %.1f%% (Mann-Whitney, Bonferroni over %s; help compare).",
		reps, 100*(1-familyAlpha/float64(tests)), plural(int64(tests), "candidate", "candidates")))
	if bestRow == baseRow {
		s.printLine(fmt.Sprintf("best: the starting schedule (%s): no change was faster beyond noise", best.String()))
		return nil
	}
	var diff []string
	for _, k := range engine.Knobs() {
		if best.Get(k.Name) != base.sched.Get(k.Name) {
			diff = append(diff, k.Name+"="+best.Get(k.Name))
		}
	}
	if final.Word != verdictFaster {
		s.printLine(fmt.Sprintf("best: %s was kept, but re-timed against the start it is %s: not faster beyond noise; keep the start", strings.Join(diff, " "), final.String()))
		return nil
	}
	s.printLine(fmt.Sprintf("best: %s, %sx the starting schedule (%.0f%% interval %s-%s, re-timed %d runs each): faster; keep it with: set %s", strings.Join(diff, " "),
		fmtRatio(final.Ratio), 100*final.Level, fmtRatio(final.Lo), fmtRatio(final.Hi), max(2*reps, 10), strings.Join(diff, " ")))
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
