package session

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// expect states a claim about measured results and fails when it does not hold, with the
// numbers it measured; a script stops there with FILE:LINE. The forms:
//
//	expect A faster than B [by Nx]     timing: the verdict of A's repeats against B's
//	expect A slower than B [by Nx]
//	expect A same as B                 timing: within the noise
//	expect A within Nx of B            timing: the median speed-up between 1/N and N
//	expect A fastest                   timing: no row of A's compare or sweep is faster
//	expect CMP best KNOB in LO..HI     timing: the fastest row's KNOB (or one tied with it)
//	expect EXPR OP EXPR                counters: OP is < <= > >= == !=
//	expect EXPR in LO..HI
//
// EXPR is arithmetic (+ - * / and parentheses) over numbers and NAME.FIELD, where NAME is a
// result (cmp1.2, last, CMP.best) or a graph and FIELD one of resultFields or graphFields.
func cmdExpect(ec *execCtx) error {
	s := ec.s
	text := strings.TrimSpace(ec.line)
	text = strings.TrimSpace(text[len(strings.Fields(text)[0]):])
	if text == "" {
		return fmt.Errorf("expect: want a claim: expect cmp1.2 faster than cmp1.1, expect a.scanned < 0.1 * b.scanned, expect sweep1 best threshold in 0.4..0.7")
	}
	msg, err := s.checkClaim(text)
	if err != nil {
		return fmt.Errorf("expect: %v", err)
	}
	s.printf("  %s %s\n", s.paint(ansiGreen, "✓"), msg)
	return nil
}

// claimFailed is a claim that was checked and does not hold (not a claim that could not be
// read or whose results are missing).
type claimFailed struct{ msg string }

func (e *claimFailed) Error() string { return e.msg }

// checkClaim checks one claim and returns what it measured when the claim holds.
func (s *Session) checkClaim(text string) (string, error) {
	w := strings.Fields(text)
	lw := make([]string, len(w))
	for i, x := range w {
		lw[i] = strings.ToLower(x)
	}
	switch {
	case len(w) >= 4 && (lw[1] == "faster" || lw[1] == "slower") && lw[2] == "than":
		by := 1.0
		if len(w) > 4 {
			f, err := parseBy(w[4:])
			if err != nil {
				return "", err
			}
			by = f
		}
		return s.claimTiming(w[0], lw[1], w[3], by)
	case len(w) == 4 && lw[1] == "same" && lw[2] == "as":
		return s.claimTiming(w[0], "same", w[3], 1)
	case len(w) == 5 && lw[1] == "within" && lw[3] == "of":
		f, err := parseNum(strings.TrimSuffix(lw[2], "x"))
		if err != nil || f < 1 {
			return "", fmt.Errorf("%q: want a factor Nx, N >= 1 (expect a within 3x of b)", w[2])
		}
		return s.claimWithin(w[0], f, w[4])
	case len(w) == 2 && lw[1] == "fastest":
		return s.claimFastest(w[0])
	case len(w) == 5 && lw[1] == "best" && lw[3] == "in":
		lo, hi, err := parseInterval(w[4])
		if err != nil {
			return "", err
		}
		return s.claimBest(w[0], lw[2], lo, hi)
	}
	return s.claimCounters(text)
}

// parseBy reads the optional factor of a timing claim: `by 2x`, `by at least 2x`.
func parseBy(w []string) (float64, error) {
	if len(w) >= 1 && strings.EqualFold(w[0], "by") {
		w = w[1:]
		if len(w) >= 2 && strings.EqualFold(w[0], "at") && strings.EqualFold(w[1], "least") {
			w = w[2:]
		}
		if len(w) == 1 {
			if f, err := parseNum(strings.TrimSuffix(strings.ToLower(w[0]), "x")); err == nil && f >= 1 {
				return f, nil
			}
		}
	}
	return 0, fmt.Errorf("%q: want `by Nx` after the claim, N >= 1 (expect a faster than b by 2x)", strings.Join(w, " "))
}

// parseInterval reads LO..HI.
func parseInterval(x string) (lo, hi float64, err error) {
	a, b, ok := strings.Cut(x, "..")
	if ok {
		lo, err = parseNum(a)
		if err == nil {
			hi, err = parseNum(b)
		}
	}
	if !ok || err != nil || hi < lo {
		return 0, 0, fmt.Errorf("%q: want a range LO..HI with LO <= HI (0.4..0.7)", x)
	}
	return lo, hi, nil
}

// timed is a result's counted runs, for a timing claim.
type timed struct {
	name  string
	times []time.Duration
}

func (s *Session) timedResult(name string) (timed, *resultItem, error) {
	it, err := s.claimResult(name)
	if err != nil {
		return timed{}, nil, err
	}
	return timed{it.name, it.times}, it, nil
}

// claimTiming checks `A faster|slower than B [by f]` and `A same as B` with the verdict of
// A's repeats against B's.
func (s *Session) claimTiming(a, rel, b string, by float64) (string, error) {
	ta, _, err := s.timedResult(a)
	if err != nil {
		return "", err
	}
	tb, _, err := s.timedResult(b)
	if err != nil {
		return "", err
	}
	v, err := s.timingVerdict(ta, tb, by)
	if err != nil {
		return "", err
	}
	claim := fmt.Sprintf("%s %s than %s", ta.name, rel, tb.name)
	switch {
	case rel == "same":
		claim = fmt.Sprintf("%s same as %s", ta.name, tb.name)
	case by > 1:
		claim += fmt.Sprintf(" by %sx", fmtNum(by))
	}
	if v.verdict != rel {
		return "", &claimFailed{fmt.Sprintf("%s does not hold: %s", claim, v.detail)}
	}
	return claim + ": " + v.detail, nil
}

// claimResult is the result a claim names: a result, a row (CMP.N), or CMP.best, the
// fastest row of a compare, sweep or tune.
func (s *Session) claimResult(name string) (*resultItem, error) {
	if cmp, ok := strings.CutSuffix(name, ".best"); ok {
		if c := s.comparisonNamed(cmp); c != nil && c.kind == "tune" {
			return s.result(fmt.Sprintf("%s.%d", cmp, c.winner+1)) // the winner tune kept
		}
		if c := s.comparisonNamed(cmp); c != nil {
			best := -1
			for i, row := range c.rows {
				if row.r != nil && (best < 0 || row.r.Summary.Time < c.rows[best].r.Summary.Time) {
					best = i
				}
			}
			if best < 0 {
				return nil, fmt.Errorf("%s: none of the rows of %s ran", name, cmp)
			}
			name = fmt.Sprintf("%s.%d", cmp, best+1)
		}
	}
	return s.result(name)
}

// claimWithin checks that A's median time is within a factor f of B's, either way.
func (s *Session) claimWithin(a string, f float64, b string) (string, error) {
	ta, _, err := s.timedResult(a)
	if err != nil {
		return "", err
	}
	tb, _, err := s.timedResult(b)
	if err != nil {
		return "", err
	}
	v, err := s.timingVerdict(ta, tb, 1)
	if err != nil {
		return "", err
	}
	claim := fmt.Sprintf("%s within %sx of %s", ta.name, fmtNum(f), tb.name)
	if v.ratio < 1/f || v.ratio > f {
		return "", &claimFailed{fmt.Sprintf("%s does not hold: %s", claim, v.detail)}
	}
	return claim + ": " + v.detail, nil
}

// claimFastest checks that no row of A's compare or sweep is faster than A.
func (s *Session) claimFastest(a string) (string, error) {
	ta, _, err := s.timedResult(a)
	if err != nil {
		return "", err
	}
	c, _ := s.rowOf(ta.name)
	if c == nil {
		return "", fmt.Errorf("%s fastest: name a row of a compare or sweep (cmp1.2): fastest is among its rows", a)
	}
	var beaten []string
	for i, row := range c.rows {
		name := fmt.Sprintf("%s.%d", c.name, i+1)
		if row.r == nil || name == ta.name {
			continue
		}
		v, err := s.timingVerdict(timed{name, row.times}, ta, 1)
		if err != nil {
			return "", err
		}
		if v.verdict == "faster" {
			beaten = append(beaten, fmt.Sprintf("%s (%s) is faster: %s", name, c.label(i), v.detail))
		}
	}
	if len(beaten) > 0 {
		return "", &claimFailed{fmt.Sprintf("%s fastest does not hold: %s", ta.name, strings.Join(beaten, "; "))}
	}
	med, _, _ := stats(ta.times)
	return fmt.Sprintf("%s fastest of %s: %s, no row faster", ta.name, c.name, fmtMS(med)), nil
}

// rowOf returns the comparison that name (CMP.N) is a row of, and the row's index.
func (s *Session) rowOf(name string) (*comparison, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.comparisons {
		if rest, ok := strings.CutPrefix(name, c.name+"."); ok {
			if i, err := strconv.Atoi(rest); err == nil && i >= 1 && i <= len(c.rows) {
				return c, i - 1
			}
		}
	}
	return nil, -1
}

// claimBest checks that the fastest row of a compare or sweep, or a row tied with it, has
// key within [lo, hi].
func (s *Session) claimBest(name, key string, lo, hi float64) (string, error) {
	c := s.comparisonNamed(name)
	if c == nil {
		return "", fmt.Errorf("%s best: no compare or sweep named %s", name, name)
	}
	k := -1
	for i, x := range c.keys {
		if x == key {
			k = i
		}
	}
	if k < 0 {
		return "", fmt.Errorf("%s best %s: %s varies %s, not %s", name, key, name, listOrNone(c.keys), key)
	}
	best := -1
	for i, row := range c.rows {
		if row.r != nil && (best < 0 || row.r.Summary.Time < c.rows[best].r.Summary.Time) {
			best = i
		}
	}
	if best < 0 {
		return "", fmt.Errorf("%s best: none of its rows ran", name)
	}
	numeric := false
	for _, row := range c.rows {
		if _, err := parseNum(row.values[k]); err == nil {
			numeric = true
		}
	}
	if !numeric {
		return "", fmt.Errorf("%s best %s: %s's values are not numbers (a range needs numbers)", name, key, key)
	}
	in := func(i int) bool {
		x, err := parseNum(c.rows[i].values[k])
		return err == nil && x >= lo && x <= hi
	}
	bt := timed{fmt.Sprintf("%s.%d", c.name, best+1), c.rows[best].times}
	claim := fmt.Sprintf("%s best %s in %s..%s", c.name, key, fmtNum(lo), fmtNum(hi))
	what := fmt.Sprintf("the fastest is %s (%s) at %s", bt.name, c.label(best), fmtMS(c.rows[best].r.Summary.Time))
	if in(best) {
		return claim + ": " + what, nil
	}
	// The fastest is outside: the claim still holds when a row inside is tied with it.
	var inside []string
	for i, row := range c.rows {
		if row.r == nil || !in(i) {
			continue
		}
		v, err := s.timingVerdict(timed{fmt.Sprintf("%s.%d", c.name, i+1), row.times}, bt, 1)
		if err != nil {
			return "", err
		}
		if v.verdict == "same" {
			return fmt.Sprintf("%s: %s, and %s.%d (%s) inside the range is tied with it: %s", claim, what, c.name, i+1, c.label(i), v.detail), nil
		}
		inside = append(inside, fmt.Sprintf("%s=%s %s", key, row.values[k], fmtMS(row.r.Summary.Time)))
	}
	return "", &claimFailed{fmt.Sprintf("%s does not hold: %s; inside the range: %s", claim, what, listOrNone(inside))}
}

// claimVerdict is a timing claim's verdict: faster, slower or same, and the numbers.
type claimVerdict struct {
	verdict string
	detail  string
	ratio   float64 // a's median speed-up over b
}

// timingVerdict is the verdict of a's runs against b's by the measurement's test (the
// Mann-Whitney interval of the speed-up, corrected for the rows of their comparison when both
// are rows of one), with the medians, the speed-up of a over b and its interval. With by > 1,
// faster (slower) also needs the median speed-up (slow-down) to reach by. A claim needs
// repeats: one run says nothing about noise.
func (s *Session) timingVerdict(a, b timed, by float64) (claimVerdict, error) {
	var v verdict
	ca, ia := s.rowOf(a.name)
	cb, ib := s.rowOf(b.name)
	switch {
	case ca != nil && ca == cb && ca.kind == "tune" && ia == ca.winner && ib == 0 && ia != 0:
		// A tune's winner against its start: the re-timed verdict tune ended with.
		v = ca.final
		if !v.bounded() {
			return claimVerdict{}, fmt.Errorf("%s was not re-timed against %s", a.name, b.name)
		}
		word := v.Word
		if word == verdictFaster && v.Ratio < by {
			word = verdictSame + fmt.Sprintf(" within %sx", fmtNum(by))
		}
		return claimVerdict{word, fmt.Sprintf("%s (tune's winner) %s vs %s (the start) %s, %s (re-timed, %.1f%% interval)",
			a.name, fmtMS(v.Median), b.name, fmtMS(v.BaseMedian), v.String(), 100*v.Level), v.Ratio}, nil
	case ca != nil && ca == cb:
		var err error
		if v, err = ca.versus(ia, ib); err != nil {
			return claimVerdict{}, err
		}
	default:
		v = compareTimes(b.times, a.times, 1)
	}
	if !v.bounded() {
		return claimVerdict{}, fmt.Errorf("%s and %s have %d and %d timed runs: too few for a verdict on a timing claim (run them with repeat=5)",
			a.name, b.name, len(a.times), len(b.times))
	}
	ma, _, _ := stats(a.times)
	mb, _, _ := stats(b.times)
	word := v.Word
	switch {
	case word == verdictFaster && v.Ratio < by, word == verdictSlower && 1/v.Ratio < by:
		word = verdictSame + fmt.Sprintf(" within %sx", fmtNum(by))
	}
	detail := fmt.Sprintf("%s %s vs %s %s, %s (%d and %d runs, %.1f%% interval)", a.name, fmtMS(ma), b.name, fmtMS(mb), v.String(), len(a.times), len(b.times), 100*v.Level)
	return claimVerdict{word, detail, v.Ratio}, nil
}
