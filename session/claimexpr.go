package session

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/viz"
)

// claimCounters checks `EXPR OP EXPR` or `EXPR in LO..HI` over counters of results and graphs.
func (s *Session) claimCounters(text string) (string, error) {
	toks, err := lexClaim(text)
	if err != nil {
		return "", err
	}
	p := &claimParser{s: s, toks: toks}
	l, err := p.expr()
	if err != nil {
		return "", err
	}
	if p.pos >= len(p.toks) {
		return "", fmt.Errorf("%q: want a comparison (< <= > >= == !=, or `in LO..HI`) after %s", text, l.text)
	}
	op := p.toks[p.pos]
	p.pos++
	if strings.EqualFold(op, "in") {
		if p.pos != len(p.toks)-1 {
			return "", fmt.Errorf("%q: want LO..HI after in", text)
		}
		lo, hi, err := parseInterval(p.toks[p.pos])
		if err != nil {
			return "", err
		}
		claim := fmt.Sprintf("%s in %s..%s", l.text, fmtNum(lo), fmtNum(hi))
		got := fmt.Sprintf("%s is %s", l.text, fmtValue(l.v))
		if l.v < lo || l.v > hi {
			return "", &claimFailed{fmt.Sprintf("%s does not hold: %s%s", claim, got, l.detail())}
		}
		return fmt.Sprintf("%s: %s%s", claim, got, l.detail()), nil
	}
	switch op {
	case "<", "<=", ">", ">=", "==", "!=":
	default:
		return "", fmt.Errorf("%q: %q is not a comparison (want < <= > >= == !=, or in LO..HI)", text, op)
	}
	r, err := p.expr()
	if err != nil {
		return "", err
	}
	if p.pos != len(p.toks) {
		return "", fmt.Errorf("%q: unexpected %q after the claim", text, p.toks[p.pos])
	}
	ok := map[string]bool{"<": l.v < r.v, "<=": l.v <= r.v, ">": l.v > r.v, ">=": l.v >= r.v, "==": l.v == r.v, "!=": l.v != r.v}[op]
	claim := fmt.Sprintf("%s %s %s", l.text, op, r.text)
	got := fmt.Sprintf("%s vs %s", fmtValue(l.v), fmtValue(r.v))
	if l.v != 0 && r.v != 0 && len(l.refs) > 0 && len(r.refs) > 0 && (op == "<" || op == "<=" || op == ">" || op == ">=") {
		got += fmt.Sprintf(" (ratio %s)", fmtValue(l.v/r.v))
	}
	both := operand{refs: append(append([]string(nil), l.refs...), r.refs...)}
	if !ok {
		return "", &claimFailed{fmt.Sprintf("%s does not hold: %s%s", claim, got, both.detail())}
	}
	return fmt.Sprintf("%s: %s%s", claim, got, both.detail()), nil
}

// fmtValue prints a measured number: counts with separators, fractions with 4 digits.
func fmtValue(v float64) string {
	if (v == math.Trunc(v) || math.Abs(v) >= 1000) && math.Abs(v) < 1e15 {
		return fmtCount(int64(math.Round(v)))
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// lexClaim splits a counter claim into numbers, names, operators and parentheses.
func lexClaim(text string) ([]string, error) {
	var toks []string
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case strings.HasPrefix(text[i:], "<=") || strings.HasPrefix(text[i:], ">=") || strings.HasPrefix(text[i:], "==") || strings.HasPrefix(text[i:], "!="):
			toks = append(toks, text[i:i+2])
			i += 2
		case strings.ContainsRune("<>+-*/()", rune(c)):
			toks = append(toks, text[i:i+1])
			i++
		default:
			j := i
			for j < len(text) && !strings.ContainsRune(" \t<>=!+*/()", rune(text[j])) && !(text[j] == '-' && j > i && !isExp(text[i:j])) {
				j++
			}
			if j == i {
				return nil, fmt.Errorf("%q: unexpected %q", text, string(c))
			}
			toks = append(toks, text[i:j])
			i = j
		}
	}
	return toks, nil
}

// isExp reports whether a number so far ends in an exponent marker (1e-3), where '-' belongs
// to the number.
func isExp(s string) bool {
	return len(s) >= 2 && (s[len(s)-1] == 'e' || s[len(s)-1] == 'E') && s[0] >= '0' && s[0] <= '9'
}

// operand is a value of a claim with the text it came from and the references it read.
type operand struct {
	v    float64
	text string
	refs []string // "NAME.FIELD = value", for the message
}

func (o operand) detail() string {
	if len(o.refs) == 0 {
		return ""
	}
	return " [" + strings.Join(o.refs, ", ") + "]"
}

type claimParser struct {
	s    *Session
	toks []string
	pos  int
}

func (p *claimParser) peek() string {
	if p.pos < len(p.toks) {
		return p.toks[p.pos]
	}
	return ""
}

func (p *claimParser) expr() (operand, error) {
	l, err := p.term()
	if err != nil {
		return l, err
	}
	for op := p.peek(); op == "+" || op == "-"; op = p.peek() {
		p.pos++
		r, err := p.term()
		if err != nil {
			return l, err
		}
		v := l.v + r.v
		if op == "-" {
			v = l.v - r.v
		}
		l = operand{v, l.text + " " + op + " " + r.text, append(l.refs, r.refs...)}
	}
	return l, nil
}

func (p *claimParser) term() (operand, error) {
	l, err := p.factor()
	if err != nil {
		return l, err
	}
	for op := p.peek(); op == "*" || op == "/"; op = p.peek() {
		p.pos++
		r, err := p.factor()
		if err != nil {
			return l, err
		}
		v := l.v * r.v
		if op == "/" {
			if r.v == 0 {
				return l, fmt.Errorf("%s / %s: division by zero%s", l.text, r.text, r.detail())
			}
			v = l.v / r.v
		}
		l = operand{v, l.text + " " + op + " " + r.text, append(l.refs, r.refs...)}
	}
	return l, nil
}

func (p *claimParser) factor() (operand, error) {
	t := p.peek()
	p.pos++
	switch {
	case t == "":
		return operand{}, fmt.Errorf("the claim ends too early: want a number or NAME.FIELD")
	case t == "(":
		o, err := p.expr()
		if err != nil {
			return o, err
		}
		if p.peek() != ")" {
			return o, fmt.Errorf("missing ) after %s", o.text)
		}
		p.pos++
		return operand{o.v, "(" + o.text + ")", o.refs}, nil
	case t == "-":
		o, err := p.factor()
		return operand{-o.v, "-" + o.text, o.refs}, err
	}
	if v, err := parseNum(strings.TrimSuffix(t, "%")); err == nil {
		if strings.HasSuffix(t, "%") {
			v /= 100
		}
		return operand{v: v, text: t}, nil
	}
	i := strings.LastIndexByte(t, '.')
	if i <= 0 || i == len(t)-1 {
		return operand{}, fmt.Errorf("%q: want a number or NAME.FIELD (cmp1.2.scanned, road.arcs)", t)
	}
	v, err := p.s.field(t[:i], strings.ToLower(t[i+1:]))
	if err != nil {
		return operand{}, err
	}
	return operand{v, t, []string{t + " = " + fmtValue(v)}}, nil
}

// resultFields are the counters a claim reads from a result: whole-run totals, per-iteration
// maxima, and the trace's switches.
var resultFields = []string{"iterations", "scanned", "active", "checked", "max_scanned", "max_active", "max_checked",
	"reached", "depth", "switches", "first_switch", "push_iterations", "pull_iterations", "data_iterations",
	"topology_iterations", "components", "max_dist"}

// graphFields are the numbers a claim reads from a graph.
var graphFields = []string{"vertices", "edges", "arcs", "max_degree", "avg_degree"}

// field returns NAME.FIELD: a counter of a result, or a property of a graph.
func (s *Session) field(name, f string) (float64, error) {
	if f == "time" || f == "ms" {
		return 0, fmt.Errorf("%s.%s: timing claims compare repeats, not one number: expect A faster than B, expect %s fastest", name, f, name)
	}
	if g, err := s.graph(name); err == nil && s.isGraph(name) {
		switch f {
		case "vertices":
			return float64(g.NumVertices()), nil
		case "edges":
			return float64(g.NumEdges()), nil
		case "arcs":
			return float64(g.NumArcs()), nil
		case "max_degree":
			return float64(g.Degree(g.MaxDegreeVertex())), nil
		case "avg_degree":
			if g.NumVertices() == 0 {
				return 0, nil
			}
			return float64(g.NumArcs()) / float64(g.NumVertices()), nil
		}
		return 0, fmt.Errorf("%s.%s: a graph has %s%s", name, f, strings.Join(graphFields, ", "), engine.DidYouMean(f, graphFields))
	}
	it, err := s.claimResult(name)
	if err != nil {
		return 0, err
	}
	r := it.r
	v := int64(r.Graph.Vertices)
	var sum, mx struct{ scanned, active, checked int64 }
	var iters struct{ push, pull, data, topo int64 }
	switches, first := 0, -1
	active := viz.Active(r)
	for i := range r.Trace.Records {
		rec := &r.Trace.Records[i]
		switch rec.Kind {
		case engine.SwitchRecord:
			if first < 0 {
				first = rec.Iter
			}
			switches++
			continue
		case engine.PhaseRecord:
			continue
		}
		c := viz.Checked(rec, v)
		sum.scanned += rec.EdgesScanned
		sum.active += active[i]
		sum.checked += c
		mx.scanned = max(mx.scanned, rec.EdgesScanned)
		mx.active = max(mx.active, active[i])
		mx.checked = max(mx.checked, c)
		switch rec.Direction {
		case engine.Push:
			iters.push++
		case engine.Pull:
			iters.pull++
		}
		switch rec.Mode {
		case engine.Data:
			iters.data++
		case engine.Topology:
			iters.topo++
		}
	}
	sm := r.Summary
	switch f {
	case "iterations":
		return float64(sm.Iterations), nil
	case "scanned":
		return float64(sm.EdgesTraversed), nil
	case "active":
		return float64(sum.active), nil
	case "checked":
		return float64(sum.checked), nil
	case "max_scanned":
		return float64(mx.scanned), nil
	case "max_active":
		return float64(mx.active), nil
	case "max_checked":
		return float64(mx.checked), nil
	case "reached":
		return float64(sm.Reached), nil
	case "depth":
		return float64(sm.MaxDepth), nil
	case "max_dist":
		return float64(sm.MaxDist), nil
	case "components":
		return float64(sm.Components), nil
	case "switches":
		return float64(switches), nil
	case "first_switch":
		if first < 0 {
			return 0, &claimFailed{fmt.Sprintf("%s.first_switch: %s never switched", name, it.name)}
		}
		return float64(first), nil
	case "push_iterations":
		return float64(iters.push), nil
	case "pull_iterations":
		return float64(iters.pull), nil
	case "data_iterations":
		return float64(iters.data), nil
	case "topology_iterations":
		return float64(iters.topo), nil
	}
	return 0, fmt.Errorf("%s.%s: a result has %s%s", name, f, strings.Join(resultFields, ", "), engine.DidYouMean(f, resultFields))
}

// isGraph reports whether name is a graph of the session.
func (s *Session) isGraph(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, g := range s.graphs {
		if g.name == name {
			return true
		}
	}
	return false
}
