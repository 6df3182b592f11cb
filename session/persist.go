package session

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/graph"
	"github.com/gworkbench/gworkbench/loader"
)

// sessionJSON is a saved session: what rebuilds its graphs, its settings, the commands typed,
// and its results' summaries and traces (per-vertex values are not saved).
type sessionJSON struct {
	Format      string            `json:"format"` // "gworkbench-session/1"
	Saved       time.Time         `json:"saved"`
	Engine      string            `json:"engine"`
	Schedule    map[string]string `json:"schedule"`
	Params      map[string]string `json:"params"`
	Live        string            `json:"live"`
	Current     string            `json:"current"`
	Graphs      []savedGraph      `json:"graphs"`
	Commands    []string          `json:"commands"`
	Results     []resultJSON      `json:"results"`
	Comparisons []comparisonJSON  `json:"comparisons"`
}

type savedGraph struct {
	Name   string `json:"name"`
	Source string `json:"source"` // the load or gen command that rebuilds it; "demo" for the demo graph
	graphJSON
}

const sessionFormat = "gworkbench-session/1"

// LoadDemo adds the embedded demo graph as "demo" and makes it current.
func (s *Session) LoadDemo() error {
	g, err := loader.Demo()
	if err != nil {
		return err
	}
	s.AddGraph("demo", g, "demo")
	return nil
}

func cmdSave(ec *execCtx) error {
	s := ec.s
	if len(ec.args) != 1 {
		return fmt.Errorf("save: want save PATH")
	}
	s.mu.Lock()
	j := sessionJSON{Format: sessionFormat, Saved: time.Now().UTC(), Engine: s.engineName, Live: s.live, Current: s.current,
		Schedule: nonDefaultKnobs(s.sched), Params: map[string]string{}}
	def := engine.DefaultParams()
	for _, p := range engine.ParamSpecs() {
		if v := s.params.Get(p.Name); v != def.Get(p.Name) {
			j.Params[p.Name] = v
		}
	}
	for _, g := range s.graphs {
		j.Graphs = append(j.Graphs, savedGraph{Name: g.name, Source: g.source, graphJSON: graphJSON{Name: g.name,
			Fingerprint: g.g.Fingerprint(), Vertices: g.g.NumVertices(), Edges: g.g.NumEdges(), Directed: g.g.Directed}})
	}
	for _, h := range s.history {
		j.Commands = append(j.Commands, h.cmd)
	}
	j.Commands = append(j.Commands, ec.line)
	for _, it := range s.results {
		j.Results = append(j.Results, resultToJSON(it))
	}
	for _, c := range s.comparisons {
		j.Comparisons = append(j.Comparisons, comparisonToJSON(c))
	}
	s.mu.Unlock()
	return s.writeFile("save", ec.args[0], func(w *bufio.Writer) error { return writeIndented(w, j) })
}

func nonDefaultKnobs(sc engine.Schedule) map[string]string {
	m := map[string]string{}
	for _, k := range engine.Knobs() {
		if v := sc.Get(k.Name); v != k.Default {
			m[k.Name] = v
		}
	}
	return m
}

func cmdOpen(ec *execCtx) error {
	s := ec.s
	if len(ec.args) != 1 {
		return fmt.Errorf("open: want open PATH")
	}
	path := ec.args[0]
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
		return fmt.Errorf("open: %s is not a regular file (a pipe or a device): expected a saved session", path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("open: %v", err)
	}
	var j sessionJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return fmt.Errorf("open: %s: not a saved session: %v", path, err)
	}
	if j.Format != sessionFormat {
		return fmt.Errorf("open: %s: not a saved gworkbench session (format %q, want %q)", path, j.Format, sessionFormat)
	}
	// Check everything before changing anything.
	engineName, sched, params, live := j.Engine, engine.Schedule{}, engine.DefaultParams(), j.Live
	if live == "" {
		live = "some"
	}
	for k, v := range j.Schedule {
		if err := sched.Set(k, v); err != nil {
			return fmt.Errorf("open: %s: %v", path, trimPkg(err))
		}
	}
	for k, v := range j.Params {
		if err := params.Set(k, v); err != nil {
			return fmt.Errorf("open: %s: %v", path, trimPkg(err))
		}
	}
	if err := checkEngine(engineName); err != nil {
		s.printf("open: engine %s is not available here (%v); keeping %s\n", engineName, err, s.engineNameNow())
		engineName = s.engineNameNow()
	}
	var items []*resultItem
	for _, rj := range j.Results {
		r, m, err := resultFromJSON(rj)
		if err != nil {
			return fmt.Errorf("open: %s: result %s: %v", path, rj.Name, trimPkg(err))
		}
		items = append(items, &resultItem{name: rj.Name, r: r, measured: m, verified: rj.Verified, restored: true})
	}
	var comps []*comparison
	for _, cj := range j.Comparisons {
		c, err := comparisonFromJSON(cj)
		if err != nil {
			return fmt.Errorf("open: %s: %s: %v", path, cj.Name, trimPkg(err))
		}
		comps = append(comps, c)
	}
	if err := checkSessionNames(j); err != nil {
		return fmt.Errorf("open: %s: %v", path, err)
	}
	// Rebuild the graphs, still changing nothing: a graph that fails leaves the session as it was.
	type staged struct {
		name, src string
		g         *graph.CSR
	}
	var built []staged
	for _, sg := range j.Graphs {
		var st staged
		switch sg.Source {
		case "":
			s.printf("open: graph %s has no source to rebuild it from; skipped\n", sg.Name)
			continue
		case "demo":
			g, err := loader.Demo()
			if err != nil {
				return fmt.Errorf("open: graph %s: %v", sg.Name, err)
			}
			st = staged{name: "demo", src: "demo", g: g}
		default:
			words, err := tokenize(sg.Source)
			if err != nil || len(words) == 0 || (words[0] != "load" && words[0] != "gen") {
				return fmt.Errorf("open: graph %s: bad source %q", sg.Name, sg.Source)
			}
			if words[0] == "load" && len(words) >= 4 && words[2] == "=" {
				words[3] = findMoved(words[3], path)
			}
			sub := &execCtx{ctx: ec.ctx, s: s, args: words[1:], line: sg.Source, result: new(*engine.Result)}
			if words[0] == "load" {
				st.name, st.g, st.src, err = loadGraph(sub)
			} else {
				st.name, st.g, st.src, err = genGraph(sub)
			}
			if err != nil {
				return fmt.Errorf("open: graph %s: %v (the session is as it was)", sg.Name, err)
			}
		}
		if sg.Fingerprint != "" && st.name == sg.Name && st.g.Fingerprint() != sg.Fingerprint {
			s.printf("open: graph %s differs from the saved one (fingerprint %s, saved %s): its source changed\n", sg.Name, st.g.Fingerprint(), sg.Fingerprint)
		}
		built = append(built, st)
	}
	for _, st := range built {
		s.addGraphNoting(st.name, st.g, st.src)
	}
	rebuilt := len(built)
	s.mu.Lock()
	s.engineName, s.sched, s.params, s.live = engineName, sched, params, live
	for _, g := range s.graphs {
		if g.name == j.Current {
			s.current = j.Current
		}
	}
	for _, it := range items {
		for _, g := range s.graphs {
			if g.name == it.r.Graph.Name && g.g.Fingerprint() == it.r.Graph.Fingerprint {
				it.g = g.g
				// The saved src is the file's id; the result holds the dense one.
				it.r.Graph.IDs = g.g.IDs
				if v, ok := g.g.IDs.Vertex(uint64(it.r.Params.Src), g.g.NumVertices()); ok && it.r.Params.Src >= 0 {
					it.r.Params.Src = int64(v)
				}
			}
		}
		s.removeNamedLocked(it.name)
		s.results = append(s.results, it)
		s.lastName = it.name
		s.lastAlg = it.r.Algorithm
	}
	for _, c := range comps {
		s.removeNamedLocked(c.name)
		s.comparisons = append(s.comparisons, c)
		if len(items) == 0 { // a session of comparisons only: last and plot last name the newest
			s.lastName, s.lastAlg = c.name, c.alg
		}
	}
	s.mu.Unlock()
	s.note("opened %s: %s, %s, %s (results keep their summaries and traces, not per-vertex values)\n",
		path, plural(int64(rebuilt), "graph", "graphs"), plural(int64(len(items)), "result", "results"), plural(int64(len(comps)), "comparison", "comparisons"))
	return nil
}

// checkSessionNames refuses a hand-edited session whose names could not have been saved: a
// name that is reserved or not a name (`last`, `a/../x`), two graphs or two results (and
// comparisons, which share their names) of one name, or a current graph that is not saved.
func checkSessionNames(j sessionJSON) error {
	seen := map[string]string{}
	check := func(kind, name string) error {
		if err := checkName(name); err != nil {
			return fmt.Errorf("%s: %v", kind, err)
		}
		space := "result"
		if kind == "graph" {
			space = "graph"
		}
		if prev, dup := seen[space+" "+name]; dup {
			return fmt.Errorf("two %ss are named %s (a %s and a %s): names must differ", space, name, prev, kind)
		}
		seen[space+" "+name] = kind
		return nil
	}
	for _, g := range j.Graphs {
		if err := check("graph", g.Name); err != nil {
			return err
		}
	}
	for _, r := range j.Results {
		if err := check("result", r.Name); err != nil {
			return err
		}
	}
	for _, c := range j.Comparisons {
		if err := check("comparison", c.Name); err != nil {
			return err
		}
	}
	if _, ok := seen["graph "+j.Current]; j.Current != "" && !ok {
		return fmt.Errorf("the current graph %q is not among its graphs (%s)", j.Current, listOrNone(graphNames(j.Graphs)))
	}
	return nil
}

func graphNames(gs []savedGraph) []string {
	var names []string
	for _, g := range gs {
		names = append(names, g.Name)
	}
	return names
}

// findMoved returns file, or, when it no longer exists there, the file of the same name beside
// the session file (a session shared as a folder with its graphs).
func findMoved(file, sessionPath string) string {
	if _, err := os.Stat(file); err == nil {
		return file
	}
	beside := filepath.Join(filepath.Dir(sessionPath), filepath.Base(file))
	if _, err := os.Stat(beside); err == nil {
		return beside
	}
	return file
}

func (s *Session) engineNameNow() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.engineName
}

func (s *Session) removeNamedLocked(name string) {
	for i, r := range s.results {
		if r.name == name {
			s.results = append(s.results[:i:i], s.results[i+1:]...)
			break
		}
	}
	for i, c := range s.comparisons {
		if c.name == name {
			s.comparisons = append(s.comparisons[:i:i], s.comparisons[i+1:]...)
			break
		}
	}
}

func comparisonFromJSON(j comparisonJSON) (*comparison, error) {
	alg, err := engine.ParseAlgorithm(j.Algorithm)
	if err != nil {
		return nil, err
	}
	c := &comparison{name: j.Name, kind: j.Kind, title: j.Title, alg: alg, graph: j.Graph, keys: j.Keys}
	for _, rj := range j.Rows {
		row := &compareRow{status: rj.Status, verified: rj.Verified}
		for _, k := range j.Keys {
			row.values = append(row.values, text(rj.Values[k]))
		}
		if rj.Result != nil {
			r, m, err := resultFromJSON(*rj.Result)
			if err != nil {
				return nil, err
			}
			row.r, row.measured = r, m
			row.verdict = verdict{Word: rj.Verdict, Level: rj.Level}
			if rj.SpeedUp != nil {
				row.verdict.Ratio = *rj.SpeedUp
			}
			row.verdict.Lo, row.verdict.Hi = 0, math.Inf(1)
			if rj.SpeedUpLo != nil && rj.SpeedUpHi != nil {
				row.verdict.Lo, row.verdict.Hi = *rj.SpeedUpLo, *rj.SpeedUpHi
			}
		}
		c.rows = append(c.rows, row)
	}
	return c, nil
}
