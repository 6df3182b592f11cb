package tui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/session"
)

// schedPanel lists the knobs that apply to the current algorithm on the current engine.
// It starts from the session's settings, and follows them (a typed `set`) until a knob is
// changed in the panel: from then on it holds its own schedule, which Enter runs with (the
// knobs on the run line, the session's defaults untouched) and d makes the session's
// defaults (a visible `set` line).
type schedPanel struct {
	alg        engine.Algorithm // the algorithm whose knobs are listed and that Enter runs
	lastSeen   engine.Algorithm // the session's last algorithm when alg was last set from it
	engineName string
	sched      engine.Schedule
	rows       []schedRow
	cursor     int
	edited     bool            // the panel's schedule differs from the session's on purpose
	defEngine  string          // the session's engine and schedule, to say what differs
	defSched   engine.Schedule //
}

type schedRow struct {
	name   string
	values []string // the values offered; the current one is always among them
	doc    string
}

// numberChoices are the values offered for numeric knobs (the user can type any other).
var numberChoices = map[string][]string{
	"alpha":     {"15", "1", "2", "5", "10", "20", "30", "50", "100"},
	"beta":      {"18", "2", "6", "12", "24", "48", "96"},
	"threshold": {"0.6", "0.01", "0.05", "0.1", "0.2", "0.4", "0.8"},
	"delta":     {"auto", "1", "2", "4", "8", "16", "32", "64", "128", "256"},
	"blocking":  {"auto", "off", "1024", "4096", "16384", "65536"},
	"workers":   {"all", "1", "2", "4", "8", "16", "32"},
	"chunk":     {"auto", "64", "256", "1024", "4096", "16384"},
}

type getter interface {
	Settings() (string, engine.Schedule)
	LastAlgorithm() engine.Algorithm
}

func (p *schedPanel) load(s getter) {
	p.defEngine, p.defSched = s.Settings()
	if !p.edited {
		p.engineName, p.sched = p.defEngine, p.defSched
	}
	// Follow the session's last algorithm, unless the panel picked another since.
	if last := s.LastAlgorithm(); last != p.lastSeen || p.alg == "" {
		p.alg, p.lastSeen = last, last
	}
	if p.alg == "" {
		p.alg = engine.BFS
	}
	sel := ""
	if p.cursor < len(p.rows) {
		sel = p.rows[p.cursor].name
	}
	p.rows = p.rows[:0]
	engines := engine.Engines()
	if !slices.Contains(engines, p.engineName) {
		engines = append(engines, p.engineName)
	}
	var algs []string
	for _, a := range engine.Algorithms() {
		algs = append(algs, string(a))
	}
	p.rows = append(p.rows, schedRow{name: "algorithm", values: algs, doc: "the algorithm Enter runs; the knobs below are the ones that apply to it"})
	p.rows = append(p.rows, schedRow{name: "engine", values: engines, doc: "which engine runs the algorithm"})
	for _, k := range engine.Knobs() {
		if !k.AppliesTo(p.alg, p.engineName) {
			continue
		}
		vals := k.Values
		if vals == nil {
			vals = numberChoices[k.Name]
		}
		vals = slices.Clone(vals)
		if cur := p.sched.Get(k.Name); !slices.Contains(vals, cur) {
			vals = append(vals, cur)
		}
		sortNumeric(vals)
		p.rows = append(p.rows, schedRow{name: k.Name, values: vals, doc: k.Doc + " (" + k.Source + ")"})
	}
	p.cursor = 0
	for i, r := range p.rows {
		if r.name == sel {
			p.cursor = i
		}
	}
}

// sortNumeric orders a numeric knob's values, keeping a leading word (auto, all, off) first.
func sortNumeric(vals []string) {
	first := 0
	if _, err := strconv.ParseFloat(vals[0], 64); err != nil {
		first = 1
	}
	for _, v := range vals[first:] {
		if _, err := strconv.ParseFloat(v, 64); err != nil {
			return
		}
	}
	slices.SortFunc(vals[first:], func(a, b string) int {
		x, _ := strconv.ParseFloat(a, 64)
		y, _ := strconv.ParseFloat(b, 64)
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	})
}

func (p *schedPanel) current(r schedRow) string {
	switch r.name {
	case "algorithm":
		return string(p.alg)
	case "engine":
		return p.engineName
	}
	return p.sched.Get(r.name)
}

// check says why value would be invalid for the row's knob in the current combination
// ("" when it is valid): the schedule's own rules (Validate), then the schedule space the
// engine says it runs (session.InSpace, as tune checks its candidates).
func (p *schedPanel) check(r schedRow, value string) string {
	eng, s := p.engineName, p.sched
	switch {
	case value == p.current(r):
	case r.name == "algorithm":
		return "" // every algorithm can run; its knobs are listed below
	case r.name == "engine":
		eng = value
	default:
		if err := s.Set(r.name, setValue(r.name, value)); err != nil {
			return err.Error()
		}
	}
	if err := s.Validate(p.alg, eng); err != nil {
		return err.Error()
	}
	if !session.InSpace(eng, p.alg, s) {
		return spaceReason(eng, p.alg, s, r.name)
	}
	return ""
}

// spaceReason says which of the schedule's values the engine does not run alg with: one
// value it lacks on its own, or the combination, the row's knob first.
func spaceReason(eng string, alg engine.Algorithm, s engine.Schedule, knob string) string {
	var set []string
	for _, k := range engine.Knobs() {
		v := s.Get(k.Name)
		if k.Values == nil || v == k.Default || slices.Contains(engine.EngineKnobs(), k.Name) {
			continue
		}
		var one engine.Schedule
		if one.Set(k.Name, v) == nil && !session.InSpace(eng, alg, one) {
			return fmt.Sprintf("the %s engine does not implement %s=%s for %s", eng, k.Name, v, alg)
		}
		if k.Name == knob {
			set = append([]string{k.Name + "=" + v}, set...)
		} else {
			set = append(set, k.Name+"="+v)
		}
	}
	if len(set) < 2 {
		return fmt.Sprintf("the %s engine does not implement %s for %s", eng, strings.Join(set, " "), alg)
	}
	return fmt.Sprintf("the %s engine does not implement %s with %s for %s", eng, set[0], strings.Join(set[1:], " "), alg)
}

// setValue is the value to set for a knob shown as v: a knob's default is set as "auto", so
// that choosing alpha=15 (the default) leaves alpha unset rather than pinned.
func setValue(knob, v string) string {
	if k, ok := engine.LookupKnob(knob); ok && k.Values == nil && v == k.Default {
		return "auto"
	}
	return v
}

func (m *model) scheduleKey(key string) tea.Cmd {
	p := &m.sched
	switch key {
	case "esc", "q":
		m.state = stateInput
		m.layout()
	case "up", "k":
		p.cursor = max(0, p.cursor-1)
	case "down", "j":
		p.cursor = min(len(p.rows)-1, p.cursor+1)
	case "left", "h":
		m.stepKnob(-1)
	case "right", "l":
		m.stepKnob(+1)
	case "enter":
		m.state = stateInput
		m.layout()
		return m.submit(strings.Join(append([]string{"run", string(p.alg)}, p.diff()...), " "))
	case "d":
		// Make the panel's schedule the session's defaults, as a visible set line.
		d := p.diff()
		if len(d) == 0 {
			m.status = "the panel's schedule is already the session's defaults"
			return nil
		}
		if m.running {
			m.status = "a command is running: wait for it, then d sets the defaults"
			return nil
		}
		p.edited = false
		return m.submit("set " + strings.Join(d, " "))
	case "?":
		m.state = stateHelp
		m.layout()
	}
	return nil
}

// stepKnob moves the selected knob to the next value that is valid in this combination (or
// the next value at all when none is), through the session, as `set` does.
func (m *model) stepKnob(dir int) {
	p := &m.sched
	if p.cursor >= len(p.rows) {
		return
	}
	r := p.rows[p.cursor]
	cur := slices.Index(r.values, p.current(r))
	next := -1
	for i := 1; i < len(r.values); i++ {
		j := cur + dir*i
		if j < 0 || j >= len(r.values) {
			break
		}
		if p.check(r, r.values[j]) == "" {
			next = j
			break
		}
	}
	if next < 0 {
		if j := cur + dir; j >= 0 && j < len(r.values) {
			next = j
		} else {
			return
		}
	}
	v := r.values[next]
	if r.name == "algorithm" {
		p.alg = engine.Algorithm(v)
		m.refresh()
		return
	}
	if r.name == "engine" {
		p.engineName = v
	} else if err := p.sched.Set(r.name, setValue(r.name, v)); err != nil {
		m.status = err.Error()
		return
	}
	p.edited = true
	p.load(m.s)
	if d := p.diff(); len(d) > 0 {
		m.status = "panel: " + strings.Join(d, " ") + " · Enter runs with it · d makes it the default"
	} else {
		p.edited = false
		m.status = "panel: the session's defaults"
	}
}

// diff lists the panel's engine and knobs that differ from the session's, as k=v words.
func (p *schedPanel) diff() []string {
	var out []string
	if p.engineName != p.defEngine {
		out = append(out, "engine="+p.engineName)
	}
	for _, k := range engine.Knobs() {
		if v := p.sched.Get(k.Name); v != p.defSched.Get(k.Name) {
			out = append(out, k.Name+"="+setValue(k.Name, v))
		}
	}
	return out
}

// view renders the panel in w x h cells.
func (p *schedPanel) view(w, h int, running bool) string {
	var b strings.Builder
	b.WriteString(panelTitle.Render(fmt.Sprintf("schedule · %s on %s", p.alg, p.engineName)) + "\n")
	hint := "↑↓ knob ←→ value Enter run d default Esc close"
	if running {
		hint = "↑↓ knob ←→ value (running) Esc close"
	}
	b.WriteString(keyStyle.Render(ansi.Truncate(hint, w, "…")) + "\n")
	nameW := 0
	for _, r := range p.rows {
		nameW = max(nameW, len(r.name))
	}
	lines := 2
	for i, r := range p.rows {
		cur := p.current(r)
		mark := "  "
		if i == p.cursor {
			mark = keyStyle.Render("▸ ")
		}
		var vals string
		if i == p.cursor {
			parts := make([]string, len(r.values))
			sel := 0
			for j, v := range r.values {
				switch {
				case v == cur:
					parts[j] = selStyle.Render(v)
					sel = j
				case p.check(r, v) != "":
					parts[j] = invalidStyle.Render(v)
				default:
					parts[j] = v
				}
			}
			vals = windowValues(parts, sel, w-2-nameW-1)
		} else {
			vals = cur
			if p.check(r, cur) != "" {
				vals = errStyle.Render(cur)
			}
		}
		b.WriteString(ansi.Truncate(mark+fmt.Sprintf("%-*s ", nameW, r.name)+vals, w, "…") + "\n")
		lines++
	}
	// The schedule's state, the selected knob's doc, and why its dimmed values are invalid
	// (values refused for the same reason share one line).
	var notes []string
	if d := p.diff(); len(d) > 0 {
		notes = append(notes, keyStyle.Render("this panel only: "+strings.Join(d, " ")+" (d: make it the default)"))
	}
	if err := p.sched.Validate(p.alg, p.engineName); err != nil {
		notes = append(notes, errStyle.Render("⚠ "+err.Error()))
	} else if !session.InSpace(p.engineName, p.alg, p.sched) {
		notes = append(notes, errStyle.Render("⚠ "+spaceReason(p.engineName, p.alg, p.sched, "")))
	} else {
		notes = append(notes, okStyle.Render(fmt.Sprintf("✓ a valid schedule for %s on %s", p.alg, p.engineName)))
	}
	if p.cursor < len(p.rows) {
		r := p.rows[p.cursor]
		notes = append(notes, dimStyle.Render(r.doc))
		var order []string
		byReason := map[string][]string{}
		for _, v := range r.values {
			if why := p.check(r, v); why != "" && v != p.current(r) {
				why = strings.ReplaceAll(why, r.name+"="+v, r.name)
				if byReason[why] == nil {
					order = append(order, why)
				}
				byReason[why] = append(byReason[why], v)
			}
		}
		for _, why := range order {
			notes = append(notes, invalidStyle.UnsetStrikethrough().Render(strings.Join(byReason[why], ", ")+": "+why))
		}
	}
	b.WriteString("\n")
	lines++
	for _, n := range notes {
		for _, l := range strings.Split(wrap(n, w), "\n") {
			if lines >= h {
				break
			}
			b.WriteString(l + "\n")
			lines++
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// windowValues joins a knob's values with spaces; when they are wider than w cells it shows
// the window around the selected one that fits, with ‹ and › where values are left out.
func windowValues(parts []string, sel, w int) string {
	n := len(parts)
	if n == 0 {
		return ""
	}
	widths := make([]int, n)
	full := n - 1
	for i, p := range parts {
		widths[i] = ansi.StringWidth(p)
		full += widths[i]
	}
	if full <= w {
		return strings.Join(parts, " ")
	}
	fits := func(lo, hi, used int) bool {
		if lo > 0 {
			used += 2
		}
		if hi < n-1 {
			used += 2
		}
		return used <= w
	}
	lo, hi, used := sel, sel, widths[sel]
	for grew := true; grew; {
		grew = false
		if hi+1 < n && fits(lo, hi+1, used+1+widths[hi+1]) {
			hi++
			used += 1 + widths[hi]
			grew = true
		}
		if lo > 0 && fits(lo-1, hi, used+1+widths[lo-1]) {
			lo--
			used += 1 + widths[lo]
			grew = true
		}
	}
	s := strings.Join(parts[lo:hi+1], " ")
	if lo > 0 {
		s = dimStyle.Render("‹") + " " + s
	}
	if hi < n-1 {
		s += " " + dimStyle.Render("›")
	}
	return s
}

func wrap(s string, w int) string {
	if w <= 0 {
		return s
	}
	return ansi.Wordwrap(s, w, " ")
}
