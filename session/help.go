package session

import (
	"fmt"
	"strings"

	"github.com/gworkbench/gworkbench/engine"
)

func cmdHelp(ec *execCtx) error {
	s := ec.s
	if len(ec.args) == 0 {
		s.printf("Commands (one per line; ';' separates, '#' starts a comment; help COMMAND for more):\n")
		for _, c := range commands {
			s.printf("  %s %s\n", s.paint(ansiBold, fmt.Sprintf("%-11s", c.name)), c.summary)
		}
		s.printf("Algorithms: %s. Knobs: knobs [ALGO]. Names: graphs and results are named; last is the latest result.\n", algNames(engine.Algorithms()))
		return nil
	}
	topic := strings.ToLower(ec.args[0])
	if c, ok := lookupCommand(topic); ok {
		s.printf("%s\n  %s\n", s.paint(ansiBold, "usage: "+c.usage), c.summary)
		if c.detail != "" {
			s.printf("  %s\n", c.detail)
		}
		if len(c.example) > 0 {
			s.printf("example%s:\n", map[bool]string{true: "s", false: ""}[len(c.example) > 1])
			for _, e := range c.example {
				s.printf("  %s\n", e)
			}
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
		s.printf("%s: %s (default %s; %s)\n", s.paint(ansiBold, p.Name), p.Doc, p.Default, algNames(p.Algorithms))
		return nil
	}
	if topic == "knobs" {
		return cmdKnobs(&execCtx{ctx: ec.ctx, s: s})
	}
	topics := append(append(commandNames(), engine.KnobNames()...), engine.ParamNames()...)
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
