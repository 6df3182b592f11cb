package session

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/loader"
)

// Complete returns the candidate completions of the last word of line (whole words that
// start with it): commands, algorithms, knob and parameter names and values, graph and
// result names, and file paths where a command takes one.
func (s *Session) Complete(line string) []string {
	if i := strings.LastIndexByte(line, ';'); i >= 0 {
		line = line[i+1:]
	}
	words := strings.Fields(line)
	last := ""
	if len(words) > 0 && !strings.HasSuffix(line, " ") && !strings.HasSuffix(line, "\t") {
		last = words[len(words)-1]
		words = words[:len(words)-1]
	}
	return filterPrefix(s.candidates(words, last), last)
}

func filterPrefix(cands []string, prefix string) []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range cands {
		if strings.HasPrefix(c, prefix) && !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out
}

func (s *Session) candidates(prior []string, last string) []string {
	if len(prior) == 0 {
		var out []string
		for _, c := range commands {
			out = append(out, c.name)
		}
		return out
	}
	cmd := strings.ToLower(prior[0])
	n := len(prior)
	switch cmd {
	case "run", "compare", "sweep", "tune":
		if n == 1 {
			return algStrings()
		}
		if prior[n-1] == "as" {
			return nil
		}
		alg, _ := engine.ParseAlgorithm(prior[1])
		if k, v, ok := strings.Cut(last, "="); ok {
			head := k + "="
			vals := s.valuesFor(k, alg, lineEngine(prior))
			if cmd != "run" {
				if i := strings.LastIndexByte(v, ','); i >= 0 {
					head += v[:i+1]
					// A value already in the list is not offered again.
					listed := strings.Split(v[:i], ",")
					vals = slices.DeleteFunc(slices.Clone(vals), func(x string) bool { return slices.Contains(listed, x) })
				}
			}
			return prefixAll(head, vals)
		}
		return append(s.keysFor(alg), "as")
	case "set":
		if k, _, ok := strings.Cut(last, "="); ok {
			return prefixAll(k+"=", s.valuesFor(k, "", lineEngine(prior)))
		}
		keys := []string{"engine=", "live="}
		for _, k := range engine.Knobs() {
			keys = append(keys, k.Name+"=")
		}
		for _, p := range engine.ParamSpecs() {
			keys = append(keys, p.Name+"=")
		}
		return keys
	case "use", "info":
		if n == 1 {
			return s.graphNames()
		}
	case "drop":
		if n == 1 {
			return append(s.graphNames(), s.resultNames(false)...)
		}
	case "verify", "trace":
		if n == 1 {
			return append(s.resultNames(false), "last")
		}
		if n == 2 && cmd == "trace" {
			return []string{"switches"}
		}
	case "plot":
		switch n {
		case 1:
			return append(s.resultNames(true), "last")
		case 2:
			return completePath(last)
		}
	case "export":
		switch n {
		case 1:
			return append(s.resultNames(true), "last")
		case 2:
			if s.comparisonNamed(prior[1]) != nil {
				return []string{"json", "csv"}
			}
			return []string{"values", "trace", "json"}
		case 3:
			return completePath(last)
		}
	case "save", "open", "report":
		if n == 1 {
			return completePath(last)
		}
	case "load":
		if n == 1 || (n == 3 && prior[2] == "=") {
			if k, v, ok := strings.Cut(last, "="); ok && n == 1 && k != "" {
				return prefixAll(k+"=", completePath(v))
			}
			return completePath(last)
		}
		if n == 2 && !strings.ContainsAny(prior[1], "./=~") {
			return []string{"="}
		}
		if k, _, ok := strings.Cut(last, "="); ok {
			return prefixAll(k+"=", loadValues(k))
		}
		return []string{"format=", "directed", "undirected", "base=", "weights=", "selfloops=", "duplicates=", "seed=", "cache="}
	case "gen":
		if n == 1 || (n == 3 && prior[2] == "=") {
			return loader.GeneratorKinds()
		}
		kind := prior[1]
		switch {
		case n >= 4 && prior[2] == "=":
			kind = prior[3]
		case strings.Contains(prior[1], "="):
			_, kind, _ = strings.Cut(prior[1], "=")
		}
		if k, _, ok := strings.Cut(last, "="); ok {
			if k == "weights" {
				return []string{"weights=uniform:1:255", "weights=uniform:1:100"}
			}
			return nil
		}
		if n == 2 && prior[1] != "=" && !strings.Contains(prior[1], "=") && !slices.Contains(loader.GeneratorKinds(), prior[1]) {
			return []string{"="}
		}
		return genKeys(kind)
	case "help":
		if n == 1 {
			out := append(commandNames(), algStrings()...)
			return append(out, engine.KnobNames()...)
		}
	case "show":
		if n == 1 {
			return []string{"settings", "knobs", "algorithms", "engines", "graphs", "results"}
		}
	case "knobs":
		if n == 1 {
			return algStrings()
		}
	}
	return nil
}

func algStrings() []string {
	var out []string
	for _, a := range engine.Algorithms() {
		out = append(out, string(a))
	}
	return out
}

func prefixAll(head string, vals []string) []string {
	out := make([]string, len(vals))
	for i, v := range vals {
		out[i] = head + v
	}
	return out
}

// keysFor lists the k= a run of alg takes: its parameters, the knobs that apply to it, and
// repeat, warmup, engine and graph.
func (s *Session) keysFor(alg engine.Algorithm) []string {
	var out []string
	for _, p := range engine.ParamSpecs() {
		if alg == "" || p.AppliesTo(alg) {
			out = append(out, p.Name+"=")
		}
	}
	engineName, _ := s.Settings()
	for _, k := range engine.Knobs() {
		if alg == "" || k.Algorithms == nil || slices.Contains(k.Algorithms, alg) {
			if k.Engines == nil || slices.Contains(k.Engines, engineName) || slices.Contains(k.Engines, "gpu") {
				out = append(out, k.Name+"=")
			}
		}
	}
	return append(out, "repeat=", "warmup=", "engine=", "graph=")
}

// lineEngine is the engine a command line names (engine=NAME), or "" for the session's.
func lineEngine(words []string) string {
	for _, w := range words {
		if v, ok := strings.CutPrefix(strings.ToLower(w), "engine="); ok && !strings.Contains(v, ",") {
			return v
		}
	}
	return ""
}

// valuesFor lists the values of a key for a run of alg ("" for any) on the named engine (""
// for the session's): a knob's values are those the engine's schedule space runs (the CPU
// engine is not offered GPU load balancing), with auto.
func (s *Session) valuesFor(key string, alg engine.Algorithm, engineName string) []string {
	if engineName == "" {
		engineName, _ = s.Settings()
	}
	k, ok := engine.LookupKnob(key)
	if !ok || k.Values == nil {
		return s.valuesOf(key)
	}
	e, err := engine.Open(engineName)
	if err != nil {
		return k.Values
	}
	sp, ok := e.(engine.Spacer)
	if !ok {
		return k.Values
	}
	union := func(algs []engine.Algorithm) []string {
		var out []string
		for _, a := range algs {
			for _, sub := range sp.Space(a) {
				for _, ax := range sub {
					if ax.Knob == key {
						for _, v := range ax.Values {
							if !slices.Contains(out, v) {
								out = append(out, v)
							}
						}
					}
				}
			}
		}
		return out
	}
	var vals []string
	if alg != "" {
		vals = union([]engine.Algorithm{alg})
	}
	if len(vals) == 0 {
		vals = union(engine.Algorithms())
	}
	if len(vals) == 0 {
		return k.Values
	}
	// The values in the knob's own order, auto first.
	var out []string
	for _, v := range k.Values {
		if v == "auto" || slices.Contains(vals, v) {
			out = append(out, v)
		}
	}
	return out
}

// CompletionNames is how a list of completions shows: paths by their last element (a
// directory keeps its /), everything else as it is.
func CompletionNames(cands []string) []string {
	out := make([]string, len(cands))
	for i, c := range cands {
		_, v, ok := strings.Cut(c, "=")
		if !ok {
			v = c
		}
		if j := strings.LastIndexByte(strings.TrimSuffix(v, "/"), '/'); j >= 0 {
			out[i] = v[j+1:]
		} else {
			out[i] = c
		}
	}
	return out
}

// valuesOf lists the values of a key.
func (s *Session) valuesOf(key string) []string {
	switch key {
	case "engine":
		return engine.Engines()
	case "graph":
		return s.graphNames()
	case "live":
		return liveValues
	case "src":
		return []string{"auto", "0"}
	case "sources":
		return []string{"0", "all"}
	}
	if k, ok := engine.LookupKnob(key); ok {
		if k.Values != nil {
			return k.Values
		}
		return []string{k.Default}
	}
	return nil
}

func loadValues(k string) []string {
	switch k {
	case "format":
		return []string{"mtx", "snap", "dimacs", "pace", "metis", "el", "wel", "gwg"}
	case "base":
		return []string{"0", "1"}
	case "weights":
		return []string{"keep", "drop", "uniform:1:255"}
	case "selfloops", "duplicates":
		return []string{"keep", "drop"}
	case "cache":
		return []string{"on", "off"}
	}
	return nil
}

func genKeys(kind string) []string {
	switch kind {
	case "grid":
		return []string{"rows=", "cols=", "weights=", "seed="}
	case "road":
		return []string{"vertices=", "seed=", "weights="}
	}
	return []string{"scale=", "degree=", "seed=", "weights="}
}

func (s *Session) graphNames() []string {
	var out []string
	for _, g := range s.Graphs() {
		out = append(out, g.Name)
	}
	return out
}

func (s *Session) resultNames(withComparisons bool) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, r := range s.results {
		out = append(out, r.name)
	}
	for _, c := range s.comparisons {
		if withComparisons {
			out = append(out, c.name)
		}
		for i, row := range c.rows {
			if row.r != nil {
				out = append(out, fmt.Sprintf("%s.%d", c.name, i+1))
			}
		}
	}
	return out
}

// completePath lists the files and directories that start with prefix; directories end in /.
func completePath(prefix string) []string {
	dir, base := filepath.Split(prefix)
	readDir := dir
	if readDir == "" {
		readDir = "."
	}
	if strings.HasPrefix(readDir, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			readDir = filepath.Join(home, readDir[2:])
		}
	}
	ents, err := os.ReadDir(readDir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		name := e.Name()
		if !strings.HasPrefix(name, base) || (strings.HasPrefix(name, ".") && !strings.HasPrefix(base, ".")) {
			continue
		}
		p := dir + name
		if e.IsDir() {
			p += "/"
		}
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}
