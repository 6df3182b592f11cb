package session

import (
	"fmt"
	"strings"

	"github.com/gworkbench/gworkbench/engine"
)

func cmdHelp(ec *execCtx) error {
	s := ec.s
	if len(ec.args) == 0 {
		for _, l := range s.hanging("Commands (one per line; ';' separates, '#' starts a comment; help COMMAND for more):", 0) {
			s.printf("%s\n", l)
		}
		for _, c := range commands {
			lines := s.hanging(c.summary, 14)
			s.printf("  %s %s\n", s.paint(ansiBold, fmt.Sprintf("%-11s", c.name)), lines[0])
			for _, l := range lines[1:] {
				s.printf("%s%s\n", strings.Repeat(" ", 14), l)
			}
		}
		for _, l := range s.hanging(fmt.Sprintf("Algorithms: %s. Knobs: knobs [ALGO]. Names: graphs and results are named; last is the latest result.", algNames(engine.Algorithms())), 0) {
			s.printf("%s\n", l)
		}
		return nil
	}
	topic := strings.ToLower(ec.args[0])
	if c, ok := lookupCommand(topic); ok {
		s.printf("%s\n", s.paint(ansiBold, "usage: "+c.usage))
		for _, text := range []string{c.summary, c.detail} {
			for _, l := range s.hanging(text, 2) {
				s.printf("  %s\n", l)
			}
		}
		if len(c.example) > 0 {
			s.printf("example%s:\n", map[bool]string{true: "s", false: ""}[len(c.example) > 1])
			for _, e := range c.example {
				s.printf("  %s\n", e)
			}
		}
		if c.name == "labs" || c.name == "lab" {
			return cmdLabs(&execCtx{ctx: ec.ctx, s: s, line: "labs"})
		}
		return nil
	}
	if a, err := engine.ParseAlgorithm(topic); err == nil {
		s.printf("%s: %s\n", a, a.Describe())
		return cmdKnobs(&execCtx{ctx: ec.ctx, s: s, args: []string{string(a)}})
	}
	if k, ok := engine.LookupKnob(topic); ok {
		vals := strings.Join(k.Values, ", ")
		if vals == "" {
			vals = "a number"
		}
		s.printf("%s: %s\n  values: %s (default %s)\n", s.paint(ansiBold, k.Name), k.Doc, vals, k.Default)
		if sc := knobScope(k); sc != "" {
			s.printf("  applies to: %s\n", sc)
		}
		if k.Source != "" {
			s.printf("  from: %s\n", k.Source)
		}
		s.printf("example: run %s %s=%s\n", exampleAlg(k), k.Name, exampleValue(k))
		return nil
	}
	if p, ok := engine.LookupParam(topic); ok {
		for _, l := range s.hanging(fmt.Sprintf("%s: %s (default %s; %s)", s.paint(ansiBold, p.Name), p.Doc, p.Default, algNames(p.Algorithms)), 0) {
			s.printf("%s\n", l)
		}
		return nil
	}
	if st, ok := lookupSetting(topic); ok {
		for _, l := range s.hanging(fmt.Sprintf("%s: %s", s.paint(ansiBold, st.name), st.doc), 0) {
			s.printf("%s\n", l)
		}
		s.printf("  values: %s (default %s); a session setting: set %s=VALUE\n", strings.ReplaceAll(st.values, "|", ", "), st.def, st.name)
		return nil
	}
	if topic == "teps" || topic == "gteps" {
		for _, l := range s.hanging(tepsText, 0) {
			s.printf("%s\n", l)
		}
		return nil
	}
	if topic == "knobs" {
		return cmdKnobs(&execCtx{ctx: ec.ctx, s: s})
	}
	topics := append(append(commandNames(), engine.KnobNames()...), engine.ParamNames()...)
	topics = append(topics, "teps")
	topics = append(topics, settingNames...)
	return fmt.Errorf("help: no command, algorithm or knob %q%s", topic, engine.DidYouMean(topic, topics))
}

func exampleAlg(k engine.Knob) engine.Algorithm {
	if len(k.Algorithms) > 0 {
		return k.Algorithms[0]
	}
	return engine.BFS
}

func exampleValue(k engine.Knob) string {
	if len(k.Values) > 1 {
		return k.Values[1]
	}
	switch k.Name {
	case "alpha", "beta":
		return "10"
	case "threshold":
		return "0.3"
	}
	return "4"
}

// hanging breaks text at spaces for lines that start indent columns in: the pieces, without
// the indent (a text that fits, or no width, is one piece; an empty text none).
func (s *Session) hanging(text string, indent int) []string {
	if text == "" {
		return nil
	}
	w := s.lineWidth() - indent
	if w <= 20 || len(text) <= w {
		return []string{text}
	}
	var lines []string
	cur := ""
	for _, word := range strings.Fields(text) {
		if cur != "" && len(cur)+1+len(word) > w {
			lines = append(lines, cur)
			cur = word
			continue
		}
		if cur == "" {
			cur = word
		} else {
			cur += " " + word
		}
	}
	return append(lines, cur)
}
