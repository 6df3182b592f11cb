package session

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/gworkbench/gworkbench/engine"
)

// The JSON of a result (`export NAME json`, `--format=json`). Its keys are a contract: other
// tools rely on them.
type resultJSON struct {
	Name           string            `json:"name,omitempty"`
	Algorithm      string            `json:"algorithm"`
	Engine         string            `json:"engine"`
	Params         map[string]string `json:"params"`
	Schedule       map[string]string `json:"schedule"`
	Graph          graphJSON         `json:"graph"`
	Iterations     int               `json:"iterations"`
	TimeMS         float64           `json:"time_ms"`
	TimesMS        []float64         `json:"times_ms"`
	EdgesTraversed int64             `json:"edges_traversed"`
	GTEPS          float64           `json:"gteps"`
	Summary        map[string]any    `json:"summary"`
	Trace          []recordJSON      `json:"trace"`
	Provenance     provenanceJSON    `json:"provenance"`
	Verified       string            `json:"verified,omitempty"`
}

type graphJSON struct {
	Name        string `json:"name"`
	Fingerprint string `json:"fingerprint"`
	Vertices    int    `json:"vertices"`
	Edges       int64  `json:"edges"`
	Directed    bool   `json:"directed"`
}

type recordJSON struct {
	Kind         string       `json:"kind"`
	Iter         int          `json:"iter"`
	Phase        string       `json:"phase,omitempty"`
	Direction    string       `json:"direction"`
	Mode         string       `json:"mode"`
	InVertices   int64        `json:"in_vertices"`
	InEdges      int64        `json:"in_edges"`
	OutVertices  int64        `json:"out_vertices"`
	Duplicates   int64        `json:"duplicates"`
	EdgesScanned int64        `json:"edges_scanned"`
	TimeMS       float64      `json:"time_ms"`
	Kernels      []kernelJSON `json:"kernels,omitempty"`
	Switch       *switchJSON  `json:"switch,omitempty"`
	Note         string       `json:"note,omitempty"`
}

type kernelJSON struct {
	Name   string  `json:"name"`
	Grid   int     `json:"grid"`
	Block  int     `json:"block"`
	TimeMS float64 `json:"time_ms"`
}

type switchJSON struct {
	What   string       `json:"what"`
	From   string       `json:"from"`
	To     string       `json:"to"`
	Reason string       `json:"reason"`
	Lhs    quantityJSON `json:"lhs"`
	Op     string       `json:"op"`
	Rhs    quantityJSON `json:"rhs"`
}

type quantityJSON struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
}

type provenanceJSON struct {
	Version   string    `json:"version"`
	Commit    string    `json:"commit"`
	Machine   string    `json:"machine"`
	GPU       string    `json:"gpu"`
	GoVersion string    `json:"go_version"`
	Started   time.Time `json:"started"`
}

func resultToJSON(it *resultItem) resultJSON {
	j := resultJSONOf(it.r, it.times)
	j.Name = it.name
	j.Verified = it.verified
	return j
}

func resultJSONOf(r *engine.Result, times []time.Duration) resultJSON {
	sm := r.Summary
	if len(times) == 0 {
		times = []time.Duration{sm.Time}
	}
	med, _, _ := stats(times)
	j := resultJSON{
		Algorithm: string(r.Algorithm),
		Engine:    r.Engine,
		Params:    r.Params.For(r.Algorithm),
		Schedule:  r.Schedule.Map(),
		Graph: graphJSON{Name: r.Graph.Name, Fingerprint: r.Graph.Fingerprint, Vertices: r.Graph.Vertices,
			Edges: r.Graph.Edges, Directed: r.Graph.Directed},
		Iterations:     sm.Iterations,
		TimeMS:         ms(med),
		EdgesTraversed: sm.EdgesTraversed,
		GTEPS:          sm.GTEPS,
		Summary:        summaryJSON(r),
		Trace:          traceJSON(r.Trace),
		Provenance: provenanceJSON{Version: r.Provenance.Version, Commit: r.Provenance.Commit, Machine: r.Provenance.Machine,
			GPU: r.Provenance.GPU, GoVersion: r.Provenance.GoVersion, Started: r.Provenance.Started},
	}
	for _, t := range times {
		j.TimesMS = append(j.TimesMS, ms(t))
	}
	return j
}

// summaryJSON is the algorithm-specific summary.
func summaryJSON(r *engine.Result) map[string]any {
	sm := r.Summary
	m := map[string]any{}
	switch r.Algorithm {
	case engine.BFS:
		m["src"], m["reached"], m["max_depth"] = r.Params.Src, sm.Reached, sm.MaxDepth
	case engine.SSSP:
		m["src"], m["reached"], m["max_dist"] = r.Params.Src, sm.Reached, sm.MaxDist
	case engine.CC:
		m["components"], m["largest_component"] = sm.Components, sm.LargestComp
	case engine.PR:
		m["rank_sum"] = sm.RankSum
	case engine.TC:
		m["triangles"] = sm.Triangles
	case engine.BC:
		m["reached"] = sm.Reached
	case engine.MIS:
		m["set_size"] = sm.SetSize
	case engine.MST:
		m["forest_edges"], m["trees"], m["total_weight"] = sm.ForestEdges, sm.Components, sm.TotalWeight
	}
	return m
}

func traceJSON(t engine.Trace) []recordJSON {
	out := make([]recordJSON, 0, len(t.Records))
	for _, rec := range t.Records {
		j := recordJSON{
			Kind: rec.Kind.String(), Iter: rec.Iter, Phase: rec.Phase, Direction: rec.Direction.String(), Mode: rec.Mode.String(),
			InVertices: rec.InVertices, InEdges: rec.InEdges, OutVertices: rec.OutVertices, Duplicates: rec.Duplicates,
			EdgesScanned: rec.EdgesScanned, TimeMS: ms(rec.Time), Note: rec.Note,
		}
		for _, k := range rec.Kernels {
			j.Kernels = append(j.Kernels, kernelJSON{Name: k.Name, Grid: k.Grid, Block: k.Block, TimeMS: ms(k.Time)})
		}
		if sw := rec.Switch; sw != nil {
			j.Switch = &switchJSON{What: sw.What, From: sw.From, To: sw.To, Reason: sw.Reason, Op: sw.Op,
				Lhs: quantityJSON{sw.Lhs.Name, sw.Lhs.Value}, Rhs: quantityJSON{sw.Rhs.Name, sw.Rhs.Value}}
		}
		out = append(out, j)
	}
	return out
}

// resultFromJSON rebuilds a result (summary, schedule, trace; no per-vertex values) from its
// JSON, for open.
func resultFromJSON(j resultJSON) (*engine.Result, []time.Duration, error) {
	alg, err := engine.ParseAlgorithm(j.Algorithm)
	if err != nil {
		return nil, nil, err
	}
	r := &engine.Result{Algorithm: alg, Engine: j.Engine, Params: engine.DefaultParams()}
	for k, v := range j.Params {
		if err := r.Params.Set(k, v); err != nil {
			return nil, nil, err
		}
	}
	for k, v := range j.Schedule {
		if _, ok := engine.LookupKnob(k); ok {
			_ = r.Schedule.Set(k, v) // a resolved value an older version wrote stays auto
		}
	}
	r.Graph = engine.GraphInfo{Name: j.Graph.Name, Fingerprint: j.Graph.Fingerprint, Vertices: j.Graph.Vertices, Edges: j.Graph.Edges, Directed: j.Graph.Directed}
	sm := &r.Summary
	sm.Iterations, sm.EdgesTraversed, sm.GTEPS = j.Iterations, j.EdgesTraversed, j.GTEPS
	sm.Time = time.Duration(j.TimeMS * 1e6)
	num := func(k string) float64 {
		f, _ := j.Summary[k].(float64)
		return f
	}
	sm.Reached, sm.MaxDepth, sm.MaxDist = int64(num("reached")), int32(num("max_depth")), int32(num("max_dist"))
	sm.Components, sm.LargestComp, sm.RankSum = int64(num("components")), int64(num("largest_component")), num("rank_sum")
	sm.Triangles, sm.SetSize = uint64(num("triangles")), int64(num("set_size"))
	sm.ForestEdges, sm.TotalWeight = int64(num("forest_edges")), int64(num("total_weight"))
	if alg == engine.MST {
		sm.Components = int64(num("trees"))
	}
	if alg == engine.TC {
		r.Triangles = sm.Triangles
	}
	for _, rj := range j.Trace {
		rec := engine.Record{Iter: rj.Iter, Phase: rj.Phase, InVertices: rj.InVertices, InEdges: rj.InEdges,
			OutVertices: rj.OutVertices, Duplicates: rj.Duplicates, EdgesScanned: rj.EdgesScanned,
			Time: time.Duration(rj.TimeMS * 1e6), Note: rj.Note}
		switch rj.Kind {
		case "switch":
			rec.Kind = engine.SwitchRecord
		case "phase":
			rec.Kind = engine.PhaseRecord
		}
		var sc engine.Schedule
		if sc.Set("direction", rj.Direction) == nil {
			rec.Direction = sc.Direction
		}
		if sc.Set("driven", rj.Mode) == nil {
			rec.Mode = sc.Driven
		}
		for _, k := range rj.Kernels {
			rec.Kernels = append(rec.Kernels, engine.Kernel{Name: k.Name, Grid: k.Grid, Block: k.Block, Time: time.Duration(k.TimeMS * 1e6)})
		}
		if sw := rj.Switch; sw != nil {
			rec.Switch = &engine.Switch{What: sw.What, From: sw.From, To: sw.To, Reason: sw.Reason, Op: sw.Op,
				Lhs: engine.Quantity{Name: sw.Lhs.Name, Value: sw.Lhs.Value}, Rhs: engine.Quantity{Name: sw.Rhs.Name, Value: sw.Rhs.Value}}
		}
		r.Trace.Records = append(r.Trace.Records, rec)
	}
	p := j.Provenance
	r.Provenance = engine.Provenance{Version: p.Version, Commit: p.Commit, Machine: p.Machine, GPU: p.GPU, GoVersion: p.GoVersion, Started: p.Started}
	var times []time.Duration
	for _, t := range j.TimesMS {
		times = append(times, time.Duration(t*1e6))
	}
	return r, times, nil
}

// The JSON of a compare or sweep.
type comparisonJSON struct {
	Name      string    `json:"name"`
	Kind      string    `json:"kind"`
	Title     string    `json:"title"`
	Algorithm string    `json:"algorithm"`
	Graph     string    `json:"graph"`
	Keys      []string  `json:"keys"`
	Rows      []rowJSON `json:"rows"`
}

type rowJSON struct {
	Label    string            `json:"label"`
	Values   map[string]string `json:"values"`
	Status   string            `json:"status"`
	Verified string            `json:"verified,omitempty"`
	SpeedUp  float64           `json:"speedup,omitempty"`
	Result   *resultJSON       `json:"result,omitempty"`
}

func comparisonToJSON(c *comparison) comparisonJSON {
	j := comparisonJSON{Name: c.name, Kind: c.kind, Title: c.title, Algorithm: string(c.alg), Graph: c.graph, Keys: c.keys}
	var base time.Duration
	for i, row := range c.rows {
		rj := rowJSON{Label: c.label(i), Values: map[string]string{}, Status: row.status, Verified: row.verified}
		for k, key := range c.keys {
			rj.Values[key] = row.values[k]
		}
		if row.r != nil {
			res := resultJSONOf(row.r, row.times)
			rj.Result = &res
			if base == 0 {
				base = row.r.Summary.Time
			}
			if row.r.Summary.Time > 0 {
				rj.SpeedUp = float64(base) / float64(row.r.Summary.Time)
			}
		}
		j.Rows = append(j.Rows, rj)
	}
	return j
}

// writeJSONLine writes v as one line of JSON (JSON Lines: one object per run, compare or sweep).
func (s *Session) writeJSONLine(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("json: %v", err)
	}
	s.printf("%s\n", b)
	return nil
}
