package session

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/gworkbench/gworkbench/engine"
)

// The JSON of a result (`export NAME json`, `--format=json`). Its keys are a contract: other
// tools rely on them.
// Times are in milliseconds: time_ms is the median of times_ms, the counted runs after warmup
// uncounted ones; on the GPU kernel_ms and kernel_times_ms are the kernels' own time (CUDA
// events). teps is Graph500's: teps_edges (the edges of the component reached from the source
// for bfs, sssp and bc; help teps) per second; edges_scanned is the work the run did.
type resultJSON struct {
	Name          string         `json:"name,omitempty"`
	Algorithm     string         `json:"algorithm"`
	Engine        string         `json:"engine"`
	Serial        bool           `json:"serial,omitempty"` // the serial reference engine
	Params        map[string]any `json:"params"`
	Schedule      map[string]any `json:"schedule"`
	Graph         graphJSON      `json:"graph"`
	Iterations    int            `json:"iterations"`
	Warmup        int            `json:"warmup"`
	TimeMS        float64        `json:"time_ms"`
	TimesMS       []float64      `json:"times_ms"`
	KernelMS      float64        `json:"kernel_ms,omitempty"`
	KernelTimesMS []float64      `json:"kernel_times_ms,omitempty"`
	DeviceMS      float64        `json:"device_ms,omitempty"`
	DeviceTimesMS []float64      `json:"device_times_ms,omitempty"`
	Sources       []int64        `json:"sources,omitempty"` // the source of each counted run
	EdgesScanned  int64          `json:"edges_scanned"`
	TEPSEdges     int64          `json:"teps_edges"`
	TEPS          float64        `json:"teps"`
	GTEPS         float64        `json:"gteps"`
	Summary       map[string]any `json:"summary"`
	Trace         []recordJSON   `json:"trace"`
	Provenance    provenanceJSON `json:"provenance"`
	Verified      string         `json:"verified,omitempty"`

	EdgesTraversed int64 `json:"edges_traversed,omitempty"` // read only: edges_scanned before it was named so
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
	j := resultJSONOf(it.r, it.measured)
	j.Name = it.name
	j.Verified = it.verified
	return j
}

func resultJSONOf(r *engine.Result, m measured) resultJSON {
	sm := r.Summary
	times := m.times
	if len(times) == 0 {
		times = []time.Duration{sm.Time}
	}
	med, _, _ := stats(times)
	j := resultJSON{
		Algorithm: string(r.Algorithm),
		Engine:    r.Engine,
		Serial:    r.Engine == "ref",
		Params:    numbers(r.ParamsShown()),
		Schedule:  numbers(resolvedMap(r)),
		Warmup:    m.warmup,
		Sources:   m.srcs,
		KernelMS:  ms(sm.KernelTime),
		DeviceMS:  ms(sm.DeviceTime),
		TEPSEdges: sm.TEPSEdges,
		TEPS:      sm.GTEPS * 1e9,
		Graph: graphJSON{Name: r.Graph.Name, Fingerprint: r.Graph.Fingerprint, Vertices: r.Graph.Vertices,
			Edges: r.Graph.Edges, Directed: r.Graph.Directed},
		Iterations:   sm.Iterations,
		TimeMS:       ms(med),
		EdgesScanned: sm.EdgesTraversed,
		GTEPS:        sm.GTEPS,
		Summary:      summaryJSON(r),
		Trace:        traceJSON(r.Trace),
		Provenance: provenanceJSON{Version: r.Provenance.Version, Commit: r.Provenance.Commit, Machine: r.Provenance.Machine,
			GPU: r.Provenance.GPU, GoVersion: r.Provenance.GoVersion, Started: r.Provenance.Started},
	}
	for _, t := range times {
		j.TimesMS = append(j.TimesMS, ms(t))
	}
	for _, t := range m.kernels {
		j.KernelTimesMS = append(j.KernelTimesMS, ms(t))
	}
	for _, t := range m.devices {
		j.DeviceTimesMS = append(j.DeviceTimesMS, ms(t))
	}
	return j
}

// numbers turns the text values of parameters or knobs into JSON numbers where they are
// numbers ("2" -> 2, "0.85" -> 0.85), leaving words (auto, push, random) as strings.
func numbers(m map[string]string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			out[k] = n
		} else if f, err := strconv.ParseFloat(v, 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			out[k] = f
		} else {
			out[k] = v
		}
	}
	return out
}

// text is a JSON value of numbers back as a parameter's or knob's text.
func text(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return fmt.Sprint(v)
}

// resolvedMap is the knobs that shaped r's run and their resolved values (engine.Schedule.Resolved).
func resolvedMap(r *engine.Result) map[string]string {
	m := map[string]string{}
	for _, kv := range r.Schedule.Resolved(r.Algorithm, r.Engine) {
		m[kv.Name] = kv.Value
	}
	return m
}

// srcID is the file's id of a result's source vertex.
func srcID(r *engine.Result) uint64 { return r.Graph.VertexID(int(r.Params.Src)) }

// summaryJSON is the algorithm-specific summary.
func summaryJSON(r *engine.Result) map[string]any {
	sm := r.Summary
	m := map[string]any{}
	switch r.Algorithm {
	case engine.BFS:
		m["src"], m["reached"], m["max_depth"] = srcID(r), sm.Reached, sm.MaxDepth
	case engine.SSSP:
		m["src"], m["reached"], m["max_dist"] = srcID(r), sm.Reached, sm.MaxDist
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
func resultFromJSON(j resultJSON) (*engine.Result, measured, error) {
	var m measured
	alg, err := engine.ParseAlgorithm(j.Algorithm)
	if err != nil {
		return nil, m, err
	}
	r := &engine.Result{Algorithm: alg, Engine: j.Engine, Params: engine.DefaultParams()}
	for k, v := range j.Params {
		if err := r.Params.Set(k, text(v)); err != nil {
			return nil, m, err
		}
	}
	for k, v := range j.Schedule {
		if _, ok := engine.LookupKnob(k); ok {
			_ = r.Schedule.Set(k, text(v)) // a resolved value an older version wrote stays auto
		}
	}
	r.Graph = engine.GraphInfo{Name: j.Graph.Name, Fingerprint: j.Graph.Fingerprint, Vertices: j.Graph.Vertices, Edges: j.Graph.Edges, Directed: j.Graph.Directed}
	sm := &r.Summary
	sm.Iterations, sm.EdgesTraversed, sm.GTEPS, sm.TEPSEdges = j.Iterations, j.EdgesScanned, j.GTEPS, j.TEPSEdges
	if sm.EdgesTraversed == 0 {
		sm.EdgesTraversed = j.EdgesTraversed
	}
	sm.Time, sm.KernelTime, sm.DeviceTime = time.Duration(j.TimeMS*1e6), time.Duration(j.KernelMS*1e6), time.Duration(j.DeviceMS*1e6)
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
	for _, t := range j.TimesMS {
		m.times = append(m.times, time.Duration(t*1e6))
		m.edges = append(m.edges, j.TEPSEdges)
	}
	for _, t := range j.KernelTimesMS {
		m.kernels = append(m.kernels, time.Duration(t*1e6))
	}
	for _, t := range j.DeviceTimesMS {
		m.devices = append(m.devices, time.Duration(t*1e6))
	}
	m.srcs, m.warmup = j.Sources, j.Warmup
	return r, m, nil
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

// A row that ran has its verdict against the baseline row (the first that ran; in a tune, the
// best schedule so far when it was tried): speedup is the baseline's median time / the row's,
// speedup_lo..speedup_hi its confidence interval at level (null: too few runs to bound it).
type rowJSON struct {
	Label     string         `json:"label"`
	Values    map[string]any `json:"values"`
	Status    string         `json:"status"`
	Verified  string         `json:"verified,omitempty"`
	SpeedUp   *float64       `json:"speedup,omitempty"`
	SpeedUpLo *float64       `json:"speedup_lo,omitempty"`
	SpeedUpHi *float64       `json:"speedup_hi,omitempty"`
	Level     float64        `json:"level,omitempty"`
	Verdict   string         `json:"verdict,omitempty"`
	Result    *resultJSON    `json:"result,omitempty"`
}

func comparisonToJSON(c *comparison) comparisonJSON {
	j := comparisonJSON{Name: c.name, Kind: c.kind, Title: c.title, Algorithm: string(c.alg), Graph: c.graph, Keys: c.keys}
	for i, row := range c.rows {
		vals := map[string]string{}
		for k, key := range c.keys {
			vals[key] = row.values[k]
		}
		rj := rowJSON{Label: c.label(i), Values: numbers(vals), Status: row.status, Verified: row.verified}
		if row.r != nil {
			res := resultJSONOf(row.r, row.measured)
			rj.Result = &res
			if v := row.verdict; v.Word != "" {
				rj.Verdict, rj.Level = v.Word, v.Level
				rj.SpeedUp = &v.Ratio
				if v.bounded() {
					rj.SpeedUpLo, rj.SpeedUpHi = &v.Lo, &v.Hi
				}
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
