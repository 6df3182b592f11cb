package session

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/graph"
	"github.com/gworkbench/gworkbench/loader"
)

func cmdLoad(ec *execCtx) error {
	name, g, src, err := loadGraph(ec)
	if err != nil {
		return err
	}
	ec.s.addGraphNoting(name, g, src)
	return nil
}

// loadGraph reads the graph a load command names, changing nothing in the session; it returns
// the graph's name and the command that rebuilds it.
func loadGraph(ec *execCtx) (string, *graph.CSR, string, error) {
	name, rest, named := nameEquals(ec.args)
	if len(rest) == 0 || !named && len(rest) >= 2 && rest[1] == "=" {
		return "", nil, "", fmt.Errorf("load: want a file: load NAME = PATH [options]")
	}
	path := rest[0]
	if !named {
		name = nameFromPath(path)
	}
	if err := checkName(name); err != nil {
		return "", nil, "", fmt.Errorf("load: %v", err)
	}
	pairs, bare, as, err := splitArgs(rest[1:])
	if err != nil {
		return "", nil, "", fmt.Errorf("load: %v", err)
	}
	if as != "" {
		return "", nil, "", fmt.Errorf("load: name the graph with `load NAME = PATH`, not `as`")
	}
	m, err := optionMap("load", pairs)
	if err != nil {
		return "", nil, "", err
	}
	opt, err := loader.ParseOptions(m, bare)
	if err != nil {
		return "", nil, "", fmt.Errorf("load: %w", trimPkg(err))
	}
	opt.Progress = ec.s.progress()
	g, err := loader.Load(ec.ctx, path, opt)
	if err != nil {
		if ec.ctx.Err() != nil {
			return "", nil, "", &wrapped{fmt.Sprintf("load %s cancelled; the session is as it was", name), ec.ctx.Err()}
		}
		return "", nil, "", fmt.Errorf("load: %w", trimPkg(err))
	}
	abs, aerr := filepath.Abs(path)
	if aerr != nil {
		abs = path
	}
	src := "load " + name + " = " + quote(abs)
	for _, w := range rest[1:] {
		src += " " + quote(w)
	}
	return name, g, src, nil
}

func cmdGen(ec *execCtx) error {
	name, g, src, err := genGraph(ec)
	if err != nil {
		return err
	}
	ec.s.addGraphNoting(name, g, src)
	return nil
}

// genGraph generates the graph a gen command describes, changing nothing in the session; it
// returns the graph's name and the command that rebuilds it.
func genGraph(ec *execCtx) (string, *graph.CSR, string, error) {
	name, rest, named := nameEquals(ec.args)
	if len(rest) == 0 || !named && len(rest) >= 2 && rest[1] == "=" {
		return "", nil, "", fmt.Errorf("gen: want a generator: gen NAME = KIND [k=v ...] (kinds: %s)", strings.Join(loader.GeneratorKinds(), ", "))
	}
	kind := strings.ToLower(rest[0])
	kinds := loader.GeneratorKinds()
	known := false
	for _, k := range kinds {
		known = known || k == kind
	}
	if !known {
		return "", nil, "", fmt.Errorf("gen: unknown generator %q%s (have %s)", rest[0], engine.DidYouMean(kind, kinds), strings.Join(kinds, ", "))
	}
	if !named {
		name = kind
	}
	if err := checkName(name); err != nil {
		return "", nil, "", fmt.Errorf("gen: %v", err)
	}
	pairs, bare, as, err := splitArgs(rest[1:])
	if err != nil {
		return "", nil, "", fmt.Errorf("gen: %v", err)
	}
	if as != "" {
		return "", nil, "", fmt.Errorf("gen: name the graph with `gen NAME = KIND`, not `as`")
	}
	if len(bare) > 0 {
		return "", nil, "", fmt.Errorf("gen: %q: want key=value", bare[0])
	}
	m, err := optionMap("gen", pairs)
	if err != nil {
		return "", nil, "", err
	}
	g, err := loader.Generate(ec.ctx, kind, m, ec.s.progress())
	if err != nil {
		if ec.ctx.Err() != nil {
			return "", nil, "", &wrapped{fmt.Sprintf("gen %s cancelled; the session is as it was", name), ec.ctx.Err()}
		}
		return "", nil, "", fmt.Errorf("gen: %w", trimPkg(err))
	}
	src := "gen " + name + " = " + kind
	for _, w := range rest[1:] {
		src += " " + quote(w)
	}
	return name, g, src, nil
}

// optionMap collects the k=v options of load or gen, refusing a key given twice (the second
// would silently win).
func optionMap(cmd string, pairs []kv) (map[string]string, error) {
	if err := givenOnce(pairs); err != nil {
		return nil, fmt.Errorf("%s: %v", cmd, err)
	}
	m := map[string]string{}
	for _, p := range pairs {
		m[p.Key] = p.Value
	}
	return m, nil
}

// givenOnce refuses a key given twice: the second would silently win.
func givenOnce(pairs []kv) error {
	for i, p := range pairs {
		for _, q := range pairs[:i] {
			if q.Key == p.Key {
				return fmt.Errorf("%s is given twice (%s=%s and %s=%s): give it once", p.Key, p.Key, q.Value, p.Key, p.Value)
			}
		}
	}
	return nil
}

// addGraphNoting adds a graph made by load or gen and prints its line.
func (s *Session) addGraphNoting(name string, g *graph.CSR, src string) {
	_, err := s.graph(name)
	s.AddGraph(name, g, src)
	s.note("%s\n", s.graphLine(name, g))
	if d := loadDetails(g); d != "" {
		for _, l := range wrapWords(d, s.lineWidth()-2) {
			s.note("  %s\n", s.paint(ansiDim, l))
		}
	}
	if err == nil {
		s.note("  %s\n", s.paint(ansiDim, "(replaces the earlier graph "+name+"; results keep the graph they ran on)"))
	}
}

// loadDetails says what the loader did with a file (format, id base, why the graph is
// directed or not, what it removed or generated), so that a surprise shows at once rather
// than in info; "" for a generated graph.
func loadDetails(g *graph.CSR) string {
	o := g.Origin
	if o.Path == "" || o.Generator != "" {
		return ""
	}
	var parts []string
	f := o.Format
	if f == "" {
		f = "read"
	}
	f += ", vertex ids " + idsText(g)
	if o.FromCache {
		f += ", from the .gwg cache"
	}
	parts = append(parts, f)
	if o.DirectionAssumed != "" {
		parts = append(parts, o.DirectionAssumed)
	}
	if o.Symmetrized && !strings.Contains(o.DirectionAssumed, "symmetrized") {
		parts = append(parts, "symmetrized")
	}
	var removed []string
	if o.SelfLoopsRemoved > 0 {
		removed = append(removed, plural(o.SelfLoopsRemoved, "self-loop", "self-loops"))
	}
	if o.DuplicatesRemoved > 0 {
		removed = append(removed, plural(o.DuplicatesRemoved, "duplicate edge", "duplicate edges"))
	}
	if len(removed) > 0 {
		parts = append(parts, "removed "+strings.Join(removed, " and "))
	}
	if o.WeightsGenerated != "" {
		parts = append(parts, "weights generated "+o.WeightsGenerated)
	}
	if o.Note != "" {
		parts = append(parts, o.Note)
	}
	return strings.Join(parts, "; ")
}

// idsText says which ids the vertices of g have and what the loader did to keep them:
// "1..3353 as in the file", "7,115 ids from 3 to 8297 as in the file (1,183 unused ids
// skipped: the engines number them 0..7114)".
func idsText(g *graph.CSR) string {
	n := g.NumVertices()
	t := g.IDs.Range(n)
	if g.Origin.Path != "" {
		t += " as in the file"
	}
	if g.IDs.Labels != nil {
		t += fmt.Sprintf(" (%s skipped: the engines number them 0..%d)", plural(g.Origin.Compacted, "unused id", "unused ids"), n-1)
	}
	return t
}

// progress is where the loader reports long work: the terminal, or nowhere.
func (s *Session) progress() io.Writer {
	switch {
	case !s.text():
		return nil
	case s.opts.Progress != nil:
		return s.opts.Progress
	case s.opts.Interactive:
		return s.opts.Out
	}
	return nil
}

// rate says how fast n things took d: "2.5 rounds/s", or "12 s/round" when slower than one a
// second.
func rate(n int, what string, d time.Duration) string {
	switch {
	case n <= 0 || d <= 0:
		return "starting"
	case float64(n)/d.Seconds() >= 1:
		return fmt.Sprintf("%.3g %ss/s", float64(n)/d.Seconds(), what)
	}
	return fmt.Sprintf("%.3g s/%s", d.Seconds()/float64(n), what)
}

// progressf redraws the progress line, if there is one.
func (s *Session) progressf(format string, a ...any) {
	if w := s.progress(); w != nil {
		fmt.Fprintf(w, "\r\x1b[K"+format, a...)
	}
}

// graphLine is the one-line description printed after load and gen.
func (s *Session) graphLine(name string, g *graph.CSR) string {
	dir := "undirected"
	if g.Directed {
		dir = "directed"
	}
	w := ""
	if g.Weighted() {
		w = ", weighted"
	}
	return fmt.Sprintf("%s: %s vertices, %s edges, %s%s", s.paint(ansiBold, name), fmtCount(int64(g.NumVertices())), fmtCount(g.NumEdges()), dir, w)
}

func nameFromPath(p string) string {
	b := filepath.Base(p)
	b = strings.TrimSuffix(b, ".gz")
	if i := strings.IndexByte(b, '.'); i > 0 {
		b = b[:i]
	}
	var out strings.Builder
	for i, r := range b {
		ok := r == '_' || r == '-' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9' && i > 0)
		if ok {
			out.WriteRune(r)
		} else {
			out.WriteRune('_')
		}
	}
	n := out.String()
	if n == "" || n[0] == '_' || (n[0] >= '0' && n[0] <= '9') {
		n = "g" + n
	}
	return n
}

func quote(w string) string {
	if strings.ContainsAny(w, " \t;#\"'") {
		if strings.Contains(w, "'") {
			return `"` + w + `"`
		}
		return "'" + w + "'"
	}
	return w
}

func cmdGraphs(ec *execCtx) error {
	s := ec.s
	gs := s.Graphs()
	if len(gs) == 0 {
		s.printf("no graphs: load one (load NAME = PATH) or generate one (gen NAME = kron scale=10)\n")
		return nil
	}
	var rows [][]string
	for _, e := range gs {
		mark := " "
		if e.Current {
			mark = "*"
		}
		dir := "undirected"
		if e.G.Directed {
			dir = "directed"
		}
		w := "-"
		if e.G.Weighted() {
			w = "yes"
		}
		rows = append(rows, []string{mark + e.Name, fmtCount(int64(e.G.NumVertices())), fmtCount(e.G.NumEdges()), dir, w, originText(e.G.Origin)})
	}
	s.printf("%s", s.table([]string{" name", "vertices", "edges", "direction", "weights", "from"}, rows))
	return nil
}

func originText(o graph.Origin) string {
	switch {
	case o.Generator != "":
		return "gen " + o.Generator
	case o.Path != "":
		return o.Path
	case o.Format != "":
		return o.Format
	}
	return "-"
}

func cmdUse(ec *execCtx) error {
	if len(ec.args) != 1 {
		return fmt.Errorf("use: want one graph name: use NAME")
	}
	s := ec.s
	if _, err := s.graph(ec.args[0]); err != nil {
		return fmt.Errorf("use: %v", err)
	}
	s.mu.Lock()
	s.current = ec.args[0]
	s.mu.Unlock()
	g, _ := s.graph(ec.args[0])
	s.note("using %s\n", s.graphLine(ec.args[0], g))
	return nil
}

// graph returns the named graph ("" = the current one).
func (s *Session) graph(name string) (*graph.CSR, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if name == "" {
		name = s.current
		if name == "" {
			return nil, fmt.Errorf("no graph yet: load one (load NAME = PATH) or generate one (gen NAME = kron scale=10)")
		}
	}
	var names []string
	for _, g := range s.graphs {
		if g.name == name {
			return g.g, nil
		}
		names = append(names, g.name)
	}
	return nil, fmt.Errorf("no graph %q%s (graphs: %s)", name, engine.DidYouMean(name, names), listOrNone(names))
}

func listOrNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

func (s *Session) currentName() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.current
}

func cmdDrop(ec *execCtx) error {
	if len(ec.args) != 1 {
		return fmt.Errorf("drop: want one graph or result name: drop NAME")
	}
	s := ec.s
	name := ec.args[0]
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, g := range s.graphs {
		if g.name == name {
			s.graphs = append(s.graphs[:i:i], s.graphs[i+1:]...)
			if s.current == name {
				s.current = ""
				if n := len(s.graphs); n > 0 {
					s.current = s.graphs[n-1].name
				}
			}
			for k := range s.refCache {
				if k.graph == g.g {
					delete(s.refCache, k)
				}
			}
			fmt.Fprintf(s.out, "dropped graph %s", name)
			if s.current != "" {
				fmt.Fprintf(s.out, "; current graph: %s", s.current)
			}
			fmt.Fprintln(s.out)
			return nil
		}
	}
	if name == "last" && len(s.results) > 0 {
		name = s.results[len(s.results)-1].name
	}
	for i, r := range s.results {
		if r.name == name {
			s.results = append(s.results[:i:i], s.results[i+1:]...)
			fmt.Fprintf(s.out, "dropped result %s\n", name)
			return nil
		}
	}
	for i, c := range s.comparisons {
		if c.name == name {
			s.comparisons = append(s.comparisons[:i:i], s.comparisons[i+1:]...)
			fmt.Fprintf(s.out, "dropped comparison %s\n", name)
			return nil
		}
	}
	var names []string
	for _, g := range s.graphs {
		names = append(names, g.name)
	}
	for _, r := range s.results {
		names = append(names, r.name)
	}
	return fmt.Errorf("drop: no graph or result %q%s", name, engine.DidYouMean(name, names))
}
