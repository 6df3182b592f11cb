package loader

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/gworkbench/gworkbench/engine"
)

// params reads a generator's key=value parameters, remembering which keys it asked for so
// that unknown ones can be refused with a did-you-mean.
type params struct {
	prog  *progress // the generation's progress line (nil: quiet)
	kind  string
	kv    map[string]string
	known []string
	err   error
}

func (p *params) fail(format string, args ...any) {
	if p.err == nil {
		p.err = fmt.Errorf("loader: "+p.kind+": "+format, args...)
	}
}

// int returns the integer parameter key, def when absent, refused outside [lo, hi].
func (p *params) int(key string, def, lo, hi int64) int64 {
	p.known = append(p.known, key)
	s, ok := p.kv[key]
	if !ok {
		return def
	}
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		p.fail("%s=%q: expected an integer", key, s)
		return def
	}
	if v < lo || v > hi {
		p.fail("%s=%d: expected %d..%d", key, v, lo, hi)
		return def
	}
	return v
}

// bool returns the boolean parameter key (true/false, on/off, yes/no, 1/0).
func (p *params) bool(key string, def bool) bool {
	p.known = append(p.known, key)
	s, ok := p.kv[key]
	if !ok {
		return def
	}
	b, err := parseBool(s)
	if err != nil {
		p.fail("%s=%q: expected true or false", key, s)
		return def
	}
	return b
}

// str returns the string parameter key, def when absent.
func (p *params) str(key, def string) string {
	p.known = append(p.known, key)
	if s, ok := p.kv[key]; ok {
		return s
	}
	return def
}

// done returns the first error, or refuses the first unknown key (in sorted order).
func (p *params) done() error {
	if p.err != nil {
		return p.err
	}
	keys := make([]string, 0, len(p.kv))
	for k := range p.kv {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !contains(p.known, k) {
			return fmt.Errorf("loader: %s: unknown parameter %q%s; %s takes %s", p.kind, k, didYouMean(k, p.known), p.kind, strings.Join(withEq(p.known), " "))
		}
	}
	return nil
}

func withEq(keys []string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = k + "="
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func parseBool(s string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "1", "true", "on", "yes", "y":
		return true, nil
	case "0", "false", "off", "no", "n":
		return false, nil
	}
	return false, fmt.Errorf("not a boolean: %q", s)
}

// didYouMean returns ` (did you mean "x"?)` for the closest candidate within edit distance 2
// (or a prefix match), or "".
func didYouMean(s string, candidates []string) string {
	best, bestD := "", 3
	for _, c := range candidates {
		d := engine.EditDistance(s, c)
		if strings.HasPrefix(c, s) && len(s) >= 2 {
			d = min(d, 1)
		}
		if d < bestD {
			best, bestD = c, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}
