package session

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gworkbench/gworkbench/engine"
)

// settingNames are the session settings that are neither knobs nor parameters.
var settingNames = []string{"engine", "live"}

// sessionSetting describes one of settingNames for help, knobs and show settings.
type sessionSetting struct {
	name, values, def, doc string
}

var sessionSettings = []sessionSetting{
	{"engine", "cpu|gpu|ref", "cpu", "the engine that runs algorithms: cpu (parallel Go), gpu (CUDA; a binary built with -tags cuda), ref (the serial reference that verify compares with)"},
	{"live", "some|all|off", "some", "how much of a run's trace prints while it runs: some (the first iterations, then fewer), all (every iteration), off (only the summary)"},
}

func lookupSetting(name string) (sessionSetting, bool) {
	for _, st := range sessionSettings {
		if st.name == name {
			return st, true
		}
	}
	return sessionSetting{}, false
}

var liveValues = []string{"some", "all", "off"}

func cmdSet(ec *execCtx) error {
	pairs, bare, as, err := splitArgs(ec.args)
	if err != nil {
		return fmt.Errorf("set: %v", err)
	}
	if len(ec.args) == 0 {
		return showSettings(ec.s)
	}
	if as != "" || len(bare) > 0 || len(pairs) == 0 {
		w := "nothing"
		if len(bare) > 0 {
			w = fmt.Sprintf("%q", bare[0])
		}
		return fmt.Errorf("set: want KNOB=VALUE ..., got %s (knobs lists the knobs)", w)
	}
	if err := givenOnce(pairs); err != nil {
		return fmt.Errorf("set: %v", err)
	}
	s := ec.s
	s.mu.Lock()
	engineName, sched, params, live := s.engineName, s.sched, s.params, s.live
	s.mu.Unlock()
	for _, p := range pairs {
		if err := applySetting(p.Key, p.Value, &engineName, &sched, &params, &live); err != nil {
			return fmt.Errorf("set: %v", trimPkg(err))
		}
	}
	s.noteWorkers(sched)
	s.mu.Lock()
	s.engineName, s.sched, s.params, s.live = engineName, sched, params, live
	s.mu.Unlock()
	var parts []string
	for _, p := range pairs {
		v := ""
		switch {
		case p.Key == "engine":
			v = engineName
		case p.Key == "live":
			v = live
		case isParam(p.Key):
			v = params.Get(p.Key)
		default:
			v = sched.Get(p.Key)
		}
		parts = append(parts, p.Key+"="+v)
	}
	s.note("%s\n", strings.Join(parts, " "))
	return nil
}

func (s *Session) setOne(key, value string) error {
	key = strings.ToLower(strings.TrimSpace(key))
	s.mu.Lock()
	defer s.mu.Unlock()
	engineName, sched, params, live := s.engineName, s.sched, s.params, s.live
	if err := applySetting(key, value, &engineName, &sched, &params, &live); err != nil {
		return err
	}
	s.engineName, s.sched, s.params, s.live = engineName, sched, params, live
	return nil
}

// applySetting sets one session default on copies the caller commits.
func applySetting(key, value string, engineName *string, sched *engine.Schedule, params *engine.Params, live *string) error {
	value = strings.TrimSpace(value)
	switch {
	case key == "engine":
		if err := checkEngine(strings.ToLower(value)); err != nil {
			return err
		}
		*engineName = strings.ToLower(value)
		return nil
	case key == "live":
		v := strings.ToLower(value)
		if !slices.Contains(liveValues, v) {
			return fmt.Errorf("live=%s: want some (the first iterations, then fewer), all or off", value)
		}
		*live = v
		return nil
	case isParam(key):
		return params.Set(key, value)
	case isKnob(key):
		return sched.Set(key, value)
	}
	return unknownKey(key)
}

func isParam(k string) bool { _, ok := engine.LookupParam(k); return ok }
func isKnob(k string) bool  { _, ok := engine.LookupKnob(k); return ok }

// unknownKey is the error for a k=v whose k is neither a knob, a parameter nor a setting.
func unknownKey(k string) error {
	if k == "repeat" || k == "warmup" {
		return fmt.Errorf("%s= is an option of each run, compare, sweep and tune (run bfs %s=3), not a session setting", k, k)
	}
	all := append(append(append([]string{}, engine.KnobNames()...), engine.ParamNames()...), settingNames...)
	all = append(all, "repeat", "warmup")
	return fmt.Errorf("unknown knob or parameter %q%s (knobs lists them)", k, engine.DidYouMean(k, all))
}

// checkEngine opens the engine, so that `engine=gpu` in a binary without CUDA says so at once.
func checkEngine(name string) error {
	if err := knownEngine(name); err != nil {
		return err
	}
	if _, err := engine.Open(name); err != nil {
		return &unavailable{err}
	}
	return nil
}

// knownEngine refuses an engine name that is not registered.
func knownEngine(name string) error {
	if !slices.Contains(engine.Engines(), name) {
		return fmt.Errorf("unknown engine %q%s (have %s)", name, engine.DidYouMean(name, engine.Engines()), strings.Join(engine.Engines(), ", "))
	}
	return nil
}

// unavailable is an engine that is registered but cannot run here (a GPU engine without CUDA).
type unavailable struct{ err error }

func (u *unavailable) Error() string { return u.err.Error() }
func (u *unavailable) Unwrap() error { return u.err }

func cmdShow(ec *execCtx) error {
	what := "settings"
	if len(ec.args) > 0 {
		what = strings.ToLower(ec.args[0])
	}
	if len(ec.args) > 1 {
		return fmt.Errorf("show: want one of settings, knobs, algorithms, engines")
	}
	switch what {
	case "settings", "setting", "schedule":
		return showSettings(ec.s)
	case "knobs":
		return cmdKnobs(&execCtx{ctx: ec.ctx, s: ec.s})
	case "algorithms", "algos":
		return cmdAlgorithms(ec)
	case "engines":
		for _, e := range engine.Engines() {
			st := "available"
			if _, err := engine.Open(e); err != nil {
				st = "unavailable: " + err.Error()
			}
			ec.s.printf("  %-5s %s\n", e, st)
		}
		return nil
	case "graphs":
		return cmdGraphs(ec)
	case "results":
		return cmdResults(ec)
	}
	return fmt.Errorf("show: %q%s: want one of settings, knobs, algorithms, engines", what, engine.DidYouMean(what, []string{"settings", "knobs", "algorithms", "engines", "graphs", "results"}))
}

func showSettings(s *Session) error {
	s.mu.Lock()
	engineName, sched, params, live, cur := s.engineName, s.sched, s.params, s.live, s.current
	s.mu.Unlock()
	if cur == "" {
		cur = "(none)"
	}
	s.printf("engine  %s\ngraph   %s\nlive    %s\n", s.paint(ansiBold, engineName), cur, live)
	s.printf("schedule (defaults for every run; a run's own knobs override them)\n")
	for _, k := range engine.Knobs() {
		v := fmt.Sprintf("%-10s", sched.Get(k.Name))
		mark := " "
		if sched.Get(k.Name) != k.Default {
			mark = "*"
			v = s.paint(ansiBold, v)
		}
		s.printf("  %s%-10s %s %s\n", mark, k.Name, v, s.paint(ansiDim, knobScope(k)))
	}
	s.printf("parameters\n")
	def := engine.DefaultParams()
	for _, p := range engine.ParamSpecs() {
		v := params.Get(p.Name)
		mark := " "
		if v != def.Get(p.Name) {
			mark = "*"
		}
		s.printf("  %s%-10s %-10s %s\n", mark, p.Name, v, s.paint(ansiDim, algNames(p.Algorithms)))
	}
	return nil
}

func knobScope(k engine.Knob) string {
	var parts []string
	if k.Algorithms != nil {
		parts = append(parts, algNames(k.Algorithms))
	}
	if k.Engines != nil {
		parts = append(parts, strings.Join(k.Engines, ",")+" only")
	}
	if len(parts) == 0 {
		return "every algorithm"
	}
	return strings.Join(parts, "; ")
}

func algNames(as []engine.Algorithm) string {
	var n []string
	for _, a := range as {
		n = append(n, string(a))
	}
	return strings.Join(n, ",")
}

func cmdKnobs(ec *execCtx) error {
	s := ec.s
	var alg engine.Algorithm
	if len(ec.args) > 1 {
		return fmt.Errorf("knobs: want at most an algorithm: knobs [ALGO]")
	}
	if len(ec.args) == 1 {
		a, err := engine.ParseAlgorithm(ec.args[0])
		if err != nil {
			return fmt.Errorf("knobs: %v", trimPkg(err))
		}
		alg = a
	}
	var rows [][]string
	for _, k := range engine.Knobs() {
		if alg != "" && k.Algorithms != nil && !slices.Contains(k.Algorithms, alg) {
			continue
		}
		vals := strings.Join(k.Values, "|")
		if vals == "" {
			vals = "number (default " + k.Default + ")"
		}
		rows = append(rows, []string{k.Name, vals, k.Doc})
	}
	if alg == "" {
		for _, st := range sessionSettings {
			rows = append(rows, []string{st.name, st.values, "session setting (set " + st.name + "=...): " + st.doc})
		}
	}
	s.printf("%s", s.table([]string{"knob", "values", "meaning"}, rows))
	if alg != "" {
		var ps []string
		for _, p := range engine.ParamSpecs() {
			if p.AppliesTo(alg) {
				ps = append(ps, p.Name+"="+p.Default)
			}
		}
		if len(ps) > 0 {
			s.printf("parameters of %s: %s\n", alg, strings.Join(ps, " "))
		}
	}
	return nil
}

func cmdAlgorithms(ec *execCtx) error {
	s := ec.s
	var rows [][]string
	for _, a := range engine.Algorithms() {
		var ps []string
		for _, p := range engine.ParamSpecs() {
			if p.AppliesTo(a) {
				ps = append(ps, p.Name+"="+p.Default)
			}
		}
		rows = append(rows, []string{string(a), a.Describe(), strings.Join(ps, " ")})
	}
	s.printf("%s", s.table([]string{"algorithm", "computes", "parameters"}, rows))
	return nil
}
