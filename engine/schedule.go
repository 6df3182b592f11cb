package engine

import (
	"fmt"
	"strconv"
	"strings"
)

// Each schedule knob is a typed enum whose zero value is Auto: the engine resolves it to a
// concrete choice from the algorithm and the graph, and the resolved value is what the result
// and the trace record.

// Direction is the traversal direction (Gunrock, GAPBS, UGF).
type Direction uint8

const (
	DirAuto Direction = iota // direction-optimizing for BFS-like traversals (alpha, beta); push otherwise
	Push                     // a vertex updates its out-neighbours
	Pull                     // a vertex reads its in-neighbours
)

// Driven says which vertices an iteration visits (Nasre et al., Indigo2).
type Driven uint8

const (
	DrivenAuto Driven = iota
	Data              // a worklist of active vertices
	Topology          // every vertex, every iteration, with a changed flag
	Hybrid            // temporal hybrid: topology while the worklist exceeds threshold x V, data otherwise
)

// LoadBalance maps edges to threads (Gunrock, UGF, IrGL, Indigo2).
type LoadBalance uint8

const (
	LBAuto   LoadBalance = iota
	LBThread             // one vertex per thread (Gunrock ThreadExpand, UGF VERTEX_BASED)
	LBWarp               // one vertex per warp
	LBCTA                // one vertex per thread block
	LBTWC                // thread/warp/CTA by degree (Merrill, Gunrock TWC)
	LBETWC               // TWC inside each CTA with shared-memory queues (UGF ETWC)
	LBEdge               // equal edges per thread: prefix sum of frontier degrees and a search (Gunrock LB)
	LBCOO                // one thread per edge over an edge list
	LBNP                 // IrGL nested parallelism (np=tb,warp,fg)
	LBVertex             // one vertex per task (CPU; TC vertex-parallel)
)

// Frontier is the representation of the active set (UGF).
type Frontier uint8

const (
	FrontierAuto Frontier = iota
	Queue                 // sparse list of vertex ids
	Bitmap                // one bit per vertex
	Boolmap               // one byte per vertex
)

// Dedup says how duplicate worklist entries are handled (Gunrock, Indigo2).
type Dedup uint8

const (
	DedupAuto   Dedup = iota
	DedupNone         // duplicates allowed in the worklist
	DedupAtomic       // a vertex is pushed once: an atomic claim per vertex
	DedupCull         // duplicates culled by a visited bitmap (Gunrock's inexact filter)
)

// Update is how a vertex's value is updated (Indigo2).
type Update uint8

const (
	UpdateAuto Update = iota
	RMW               // atomic read-modify-write (atomicMin ...)
	RW                // plain read then write; correct only for monotonic algorithms
)

// Sync says whether an iteration reads the values written in the same iteration (Indigo2).
type Sync uint8

const (
	SyncAuto Sync = iota
	Async         // one array: reads may see this iteration's writes (non-deterministic, Gauss-Seidel)
	SyncDB        // double buffer: reads see only the previous iteration (deterministic, Jacobi)
)

// PushAgg is IrGL's cooperative conversion of worklist pushes.
type PushAgg uint8

const (
	AggAuto   PushAgg = iota
	AggAtomic         // one atomic per pushed item
	AggWarp           // one atomic per warp after a warp prefix sum
	AggBlock          // one atomic per thread block after a block prefix sum
)

// Fuse is IrGL's iteration outlining / UGF's kernel fusion.
type Fuse uint8

const (
	FuseAuto  Fuse = iota
	FuseOff        // one launch per step, host loop
	FuseOn         // the whole loop in one cooperative launch with grid-wide barriers
	FuseBlock      // BFS, SSSP: the loop in one thread block while the frontier is small, the cooperative grid when it grows
	FuseTail       // SSSP: one launch per step while the frontier is large, the rest of the loop in one cooperative launch once it shrinks
)

// Split is how the CPU engine hands vertex ranges to workers (Indigo2's blocked / cyclic /
// dynamic scheduling).
type Split uint8

const (
	SplitAuto Split = iota
	Blocked         // contiguous equal blocks, one per worker
	Cyclic          // chunks dealt round-robin
	Dynamic         // chunks taken from a shared counter
)

// Method picks among algorithm variants that differ in more than a knob (GAPBS keeps
// cc.cc and cc_sv.cc apart for the same reason).
type Method uint8

const (
	MethodAuto  Method = iota
	DeltaStep          // sssp: delta-stepping with bucket fusion
	NearFar            // sssp: near-far two-level worklist
	LabelProp          // cc: label propagation
	SV                 // cc: Shiloach-Vishkin hook and pointer jump
	Afforest           // cc: neighbour sampling, skip the largest component
	Boruvka            // mst: vertex-centric Boruvka rounds (find-min, hook, compress)
	Luby               // mis: Luby's rounds with hashed priorities
	ECL                // cc, mis, mst: the ECL codes' approach (Burtscher et al.): cc hooks with intermediate pointer jumping; mis decides in place by degree-aware priority; mst runs Boruvka on a shrinking edge worklist
	Binned             // pr: the binned push: destination bins summed on chip, each bin's edges gathering the contributions where they lie (direction=push blocking=N)
	DPB                // pr: deterministic propagation blocking (Beamer et al.): a streaming pass writes each source's contribution once per bin, in bin order, then the bins are summed on chip
	AsyncRanges        // async: bfs, sssp (GPU): ranges of the vertices in the SMs' shared memory, relaxed asynchronously in windows of values, messages between ranges (delta-stepping's buckets without level barriers)
)

// Order is the triangle-counting arc orientation.
type Order uint8

const (
	OrderAuto   Order = iota
	OrderDegree       // orient from lower to higher degree, ties by id
	OrderID           // orient from lower to higher id
	OrderNone         // count every arc (each triangle counted six times, divided out)
)

// Intersect is the triangle-counting list intersection.
type Intersect uint8

const (
	IntersectAuto Intersect = iota
	IntersectMerge
	IntersectBinary
	IntersectHash
)

// Relabel is whether triangle counting renumbers vertices by degree first.
type Relabel uint8

const (
	RelabelAuto Relabel = iota
	RelabelOn
	RelabelOff
)

// NP bits for lb=np: which of IrGL's inner-loop schedulers are enabled.
const (
	NPTB   = 1 << iota // thread block for neighbour lists of 256 or more
	NPWarp             // warp for 32 or more
	NPFG               // fine-grained packing of the rest
)

// Schedule is every knob of DESIGN.md's table. The zero value is all-auto, which is the default.
type Schedule struct {
	Direction Direction
	Alpha     float64 // push->pull when frontier edges > unexplored edges / alpha (0 = default 15)
	Beta      float64 // pull->push when frontier vertices < V / beta (0 = default 18)
	Driven    Driven
	Threshold float64 // hybrid switch point, worklist size / V (0 = default 0.6)
	LB        LoadBalance
	NP        uint8 // lb=np: NPTB|NPWarp|NPFG (0 = all three)
	Frontier  Frontier
	Dedup     Dedup
	Update    Update
	Sync      Sync
	PushAgg   PushAgg
	Fuse      Fuse
	Delta     int // sssp bucket width (0 = chosen from the weights)
	Blocking  int // EdgeBlocking segment size in vertices (0 = auto, BlockingOff = off)
	Method    Method
	Order     Order
	Intersect Intersect
	Relabel   Relabel
	Workers   int // CPU goroutines (0 = all cores)
	Chunk     int // CPU chunk size in vertices (0 = chosen)
	Split     Split
	Batch     int // bc: sources per pass, a bit per source (0 = chosen; 1 = one source at a time)
}

// Default knob values that are numbers.
const (
	DefaultAlpha     = 15
	DefaultBeta      = 18
	DefaultThreshold = 0.6
)

// enum tables: index = value, text = name.
var (
	directionNames = []string{"auto", "push", "pull"}
	drivenNames    = []string{"auto", "data", "topology", "hybrid"}
	lbNames        = []string{"auto", "thread", "warp", "cta", "twc", "etwc", "edge", "coo", "np", "vertex"}
	frontierNames  = []string{"auto", "queue", "bitmap", "boolmap"}
	dedupNames     = []string{"auto", "none", "atomic", "cull"}
	updateNames    = []string{"auto", "rmw", "rw"}
	syncNames      = []string{"auto", "async", "sync"}
	pushAggNames   = []string{"auto", "atomic", "warp", "block"}
	fuseNames      = []string{"auto", "off", "on", "block", "tail"}
	splitNames     = []string{"auto", "blocked", "cyclic", "dynamic"}
	methodNames    = []string{"auto", "deltastep", "nearfar", "labelprop", "sv", "afforest", "boruvka", "luby", "ecl", "binned", "dpb", "async"}
	orderNames     = []string{"auto", "degree", "id", "none"}
	intersectNames = []string{"auto", "merge", "binary", "hash"}
	relabelNames   = []string{"auto", "on", "off"}
)

func (d Direction) String() string   { return enumName(directionNames, d) }
func (d Driven) String() string      { return enumName(drivenNames, d) }
func (l LoadBalance) String() string { return enumName(lbNames, l) }
func (f Frontier) String() string    { return enumName(frontierNames, f) }
func (d Dedup) String() string       { return enumName(dedupNames, d) }
func (u Update) String() string      { return enumName(updateNames, u) }
func (s Sync) String() string        { return enumName(syncNames, s) }
func (p PushAgg) String() string     { return enumName(pushAggNames, p) }
func (f Fuse) String() string        { return enumName(fuseNames, f) }
func (s Split) String() string       { return enumName(splitNames, s) }
func (m Method) String() string      { return enumName(methodNames, m) }
func (o Order) String() string       { return enumName(orderNames, o) }
func (i Intersect) String() string   { return enumName(intersectNames, i) }
func (r Relabel) String() string     { return enumName(relabelNames, r) }

func enumName[T ~uint8](names []string, v T) string {
	if int(v) < len(names) {
		return names[v]
	}
	return fmt.Sprintf("?%d", v)
}

func parseEnum[T ~uint8](knob string, names []string, s string, dst *T) error {
	for i, n := range names {
		if n == s {
			*dst = T(i)
			return nil
		}
	}
	return fmt.Errorf("engine: %s=%s is not a value of %s%s (want one of %s)", knob, s, knob,
		didYouMean(s, names), strings.Join(names, ", "))
}

// NPString formats the lb=np scheduler set as "tb,warp,fg".
func NPString(np uint8) string {
	if np == 0 {
		np = NPTB | NPWarp | NPFG
	}
	var parts []string
	for i, n := range []string{"tb", "warp", "fg"} {
		if np&(1<<i) != 0 {
			parts = append(parts, n)
		}
	}
	return strings.Join(parts, ",")
}

func parseNP(s string) (uint8, error) {
	if s == "auto" || s == "" {
		return 0, nil
	}
	var np uint8
	for _, p := range strings.Split(s, "+") {
		switch p {
		case "tb":
			np |= NPTB
		case "warp":
			np |= NPWarp
		case "fg":
			np |= NPFG
		default:
			return 0, fmt.Errorf("engine: np=%s: %q is not an inner-loop scheduler (want tb, warp or fg, joined by +, e.g. np=tb+warp+fg)", s, p)
		}
	}
	return np, nil
}

// Knob describes one schedule knob: its values, default, documentation, and where it applies.
type Knob struct {
	Name       string
	Values     []string    // enumerated values; nil for a number
	Default    string      // the value of the zero Schedule
	Doc        string      // one line
	Source     string      // the paper or code it comes from
	Algorithms []Algorithm // the algorithms it applies to; nil = all
	Engines    []string    // the engines it applies to; nil = all
	get        func(*Schedule) string
	set        func(*Schedule, string) error
}

// AppliesTo reports whether the knob means something for the algorithm on the engine.
func (k Knob) AppliesTo(a Algorithm, engineName string) bool {
	return (k.Algorithms == nil || hasAlg(k.Algorithms, a)) && (k.Engines == nil || hasStr(k.Engines, engineName))
}

func hasAlg(s []Algorithm, a Algorithm) bool {
	for _, x := range s {
		if x == a {
			return true
		}
	}
	return false
}

func hasStr(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

func enumKnob[T ~uint8](name string, names []string, field func(*Schedule) *T, doc, source string, algs []Algorithm, engines []string) Knob {
	return Knob{
		Name: name, Values: names, Default: names[0], Doc: doc, Source: source, Algorithms: algs, Engines: engines,
		get: func(s *Schedule) string { return enumName(names, *field(s)) },
		set: func(s *Schedule, v string) error { return parseEnum(name, names, v, field(s)) },
	}
}

func floatKnob(name string, field func(*Schedule) *float64, def, doc, source string, algs []Algorithm) Knob {
	return Knob{
		Name: name, Default: def, Doc: doc, Source: source, Algorithms: algs,
		get: func(s *Schedule) string {
			if *field(s) == 0 {
				return def
			}
			return strconv.FormatFloat(*field(s), 'g', -1, 64)
		},
		set: func(s *Schedule, v string) error {
			if v == "auto" {
				*field(s) = 0
				return nil
			}
			f, err := strconv.ParseFloat(v, 64)
			if err != nil || !(f > 0) {
				return fmt.Errorf("engine: %s=%s: want a positive number", name, v)
			}
			*field(s) = f
			return nil
		},
	}
}

func intKnob(name string, field func(*Schedule) *int, def, doc, source string, algs []Algorithm, engines []string) Knob {
	return Knob{
		Name: name, Default: def, Doc: doc, Source: source, Algorithms: algs, Engines: engines,
		get: func(s *Schedule) string {
			if *field(s) == 0 {
				return def
			}
			return strconv.Itoa(*field(s))
		},
		set: func(s *Schedule, v string) error {
			if v == "auto" || v == def {
				*field(s) = 0
				return nil
			}
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return fmt.Errorf("engine: %s=%s: want a positive integer or auto", name, v)
			}
			*field(s) = n
			return nil
		},
	}
}

// ChunkLoop is Schedule.Chunk's resolved value for chunk=auto on the CPU engine: each loop
// takes its own grain (64 to 16384 vertices); a loop of under 128 items runs on one worker, a
// longer one on at most one worker per piece.
const ChunkLoop = -1

func chunkKnob() Knob {
	k := intKnob("chunk", func(s *Schedule) *int { return &s.Chunk }, "auto",
		"CPU chunk size in vertices (auto: each loop its own grain, shown as loop)", "Indigo2", nil, cpuOnly)
	get, set := k.get, k.set
	k.get = func(s *Schedule) string {
		if s.Chunk == ChunkLoop {
			return "loop"
		}
		return get(s)
	}
	k.set = func(s *Schedule, v string) error {
		if v == "loop" {
			s.Chunk = ChunkLoop
			return nil
		}
		return set(s, v)
	}
	return k
}

// BlockingOff is Schedule.Blocking's value for blocking=off. It differs from 0 (auto), so that
// an engine that blocks by itself where it wins can still be told not to.
const BlockingOff = -1

// blockingKnob is the knob of EdgeBlocking (pull: sources per segment) and of the binned push
// (push: destinations per bin): auto (the engine decides), off, or the size.
func blockingKnob() Knob {
	return Knob{
		Name: "blocking", Default: "auto", Source: "UGF", Algorithms: []Algorithm{PR},
		Doc: "blocks a topology-driven sweep's edges: pull, source vertices per segment (EdgeBlocking); push, destination vertices per shared-memory bin (propagation blocking); off, or auto: the engine decides",
		get: func(s *Schedule) string {
			switch {
			case s.Blocking == 0:
				return "auto"
			case s.Blocking < 0:
				return "off"
			}
			return strconv.Itoa(s.Blocking)
		},
		set: func(s *Schedule, v string) error {
			switch v {
			case "auto":
				s.Blocking = 0
				return nil
			case "off":
				s.Blocking = BlockingOff
				return nil
			}
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return fmt.Errorf("engine: blocking=%s: want off, auto or a positive number of vertices per segment", v)
			}
			s.Blocking = n
			return nil
		},
	}
}

var (
	traversals = []Algorithm{BFS, SSSP, BC}
	gpuOnly    = []string{"gpu"}
	cpuOnly    = []string{"cpu"}
)

var knobs = []Knob{
	enumKnob("direction", directionNames, func(s *Schedule) *Direction { return &s.Direction },
		"push, pull, or auto (direction-optimizing for BFS, with alpha and beta)", "Gunrock, GAPBS, UGF",
		[]Algorithm{BFS, SSSP, CC, PR, BC, MIS}, nil),
	floatKnob("alpha", func(s *Schedule) *float64 { return &s.Alpha }, "15",
		"direction-optimizing: go push->pull when frontier edges > unexplored edges / alpha", "Beamer et al., GAPBS",
		[]Algorithm{BFS, BC}),
	floatKnob("beta", func(s *Schedule) *float64 { return &s.Beta }, "18",
		"direction-optimizing: go pull->push when frontier vertices < V / beta", "Beamer et al., GAPBS",
		[]Algorithm{BFS, BC}),
	enumKnob("driven", drivenNames, func(s *Schedule) *Driven { return &s.Driven },
		"data (worklist), topology (every vertex every iteration), hybrid (by worklist size)", "Nasre et al., Indigo2",
		[]Algorithm{BFS, SSSP, CC, PR, BC, MIS, MST}, nil),
	floatKnob("threshold", func(s *Schedule) *float64 { return &s.Threshold }, "0.6",
		"hybrid: run topology-driven while the worklist exceeds threshold x V", "Nasre et al.",
		[]Algorithm{BFS, SSSP, CC}),
	enumKnob("lb", lbNames, func(s *Schedule) *LoadBalance { return &s.LB },
		"load balancing: thread, warp, cta, twc, etwc, edge (merge-path), coo, np (GPU); vertex, edge (CPU TC)", "Gunrock, UGF, IrGL, Indigo2",
		nil, nil),
	{Name: "np", Default: "auto", Doc: "lb=np inner-loop schedulers, joined by + (tb: >=256, warp: >=32, fg: the rest)", Source: "IrGL",
		Values: []string{"auto", "tb+warp+fg", "tb+warp", "tb+fg", "warp+fg", "tb", "warp", "fg"}, Engines: gpuOnly,
		get: func(s *Schedule) string {
			if s.NP == 0 {
				return "auto"
			}
			return strings.ReplaceAll(NPString(s.NP), ",", "+")
		},
		set: func(s *Schedule, v string) (err error) { s.NP, err = parseNP(v); return }},
	enumKnob("frontier", frontierNames, func(s *Schedule) *Frontier { return &s.Frontier },
		"active-set representation: queue (sparse), bitmap, boolmap", "UGF",
		[]Algorithm{BFS, SSSP, CC, BC, MIS, MST}, nil),
	enumKnob("dedup", dedupNames, func(s *Schedule) *Dedup { return &s.Dedup },
		"worklist duplicates: none, atomic (push each vertex once), cull (bitmap culling)", "Gunrock, Indigo2",
		[]Algorithm{BFS, SSSP, CC, MIS}, nil),
	enumKnob("update", updateNames, func(s *Schedule) *Update { return &s.Update },
		"rmw (atomic min ...) or rw (read then write; monotonic algorithms only)", "Indigo2",
		[]Algorithm{BFS, SSSP, CC, PR, BC, MIS, MST}, nil),
	enumKnob("sync", syncNames, func(s *Schedule) *Sync { return &s.Sync },
		"async (one array, non-deterministic; Gauss-Seidel) or sync (double buffer, deterministic; Jacobi)", "Indigo2",
		[]Algorithm{BFS, SSSP, CC, PR, MIS}, nil),
	enumKnob("push_agg", pushAggNames, func(s *Schedule) *PushAgg { return &s.PushAgg },
		"worklist pushes: atomic each, or aggregated per warp / block (cooperative conversion)", "IrGL",
		[]Algorithm{BFS, SSSP, CC, BC, MIS, MST}, gpuOnly),
	enumKnob("fuse", fuseNames, func(s *Schedule) *Fuse { return &s.Fuse },
		"kernel fusion / iteration outlining: the whole loop in one launch (block: one thread block while the frontier is small; tail: sssp's big steps a launch each, then the rest in one)", "IrGL, UGF",
		[]Algorithm{BFS, SSSP, CC, PR, BC, MIS, MST}, gpuOnly),
	intKnob("batch", func(s *Schedule) *int { return &s.Batch }, "auto",
		"bc with sources=k: sources per pass, a bit per source (1: one at a time; GPU up to 32, CPU up to 64)", "Then et al. (MS-BFS), cuGraph",
		[]Algorithm{BC}, nil),
	intKnob("delta", func(s *Schedule) *int { return &s.Delta }, "auto",
		"sssp bucket width (delta-stepping / near-far)", "IrGL, Gunrock, UGF, GAPBS", []Algorithm{SSSP}, nil),
	blockingKnob(),
	enumKnob("method", methodNames, func(s *Schedule) *Method { return &s.Method },
		"algorithm variant: bfs async; sssp deltastep|nearfar|async; cc labelprop|sv|afforest|ecl; mis luby|ecl; mst boruvka|ecl; pr binned|dpb", "GAPBS, Gunrock, Soman et al., ECL (Burtscher et al.), Beamer et al. (propagation blocking), Meyer and Sanders, ADDS (Wang et al.)",
		[]Algorithm{BFS, SSSP, CC, MIS, MST, PR}, nil),
	enumKnob("order", orderNames, func(s *Schedule) *Order { return &s.Order },
		"triangle counting arc orientation: degree, id, none", "Gunrock, GAPBS", []Algorithm{TC}, nil),
	enumKnob("intersect", intersectNames, func(s *Schedule) *Intersect { return &s.Intersect },
		"triangle counting list intersection: merge, binary, hash", "Gunrock, GAPBS", []Algorithm{TC}, nil),
	enumKnob("relabel", relabelNames, func(s *Schedule) *Relabel { return &s.Relabel },
		"triangle counting: renumber vertices by degree first (auto: sampled skew heuristic)", "GAPBS", []Algorithm{TC}, nil),
	intKnob("workers", func(s *Schedule) *int { return &s.Workers }, "all", "CPU goroutines", "Indigo2", nil, cpuOnly),
	chunkKnob(),
	enumKnob("split", splitNames, func(s *Schedule) *Split { return &s.Split },
		"CPU work split: blocked, cyclic, dynamic", "Indigo2", nil, cpuOnly),
}

// Knobs returns every schedule knob in display order.
func Knobs() []Knob { return knobs }

// KnobNames returns the knob names in display order.
func KnobNames() []string {
	names := make([]string, len(knobs))
	for i, k := range knobs {
		names[i] = k.Name
	}
	return names
}

// LookupKnob returns the knob with the given name.
func LookupKnob(name string) (Knob, bool) {
	for _, k := range knobs {
		if k.Name == name {
			return k, true
		}
	}
	return Knob{}, false
}

// Set sets the named knob from its text form; on error the schedule is unchanged.
func (s *Schedule) Set(name, value string) error {
	k, ok := LookupKnob(name)
	if !ok {
		return fmt.Errorf("engine: unknown knob %q%s", name, didYouMean(name, KnobNames()))
	}
	t := *s
	if err := k.set(&t, strings.ToLower(strings.TrimSpace(value))); err != nil {
		return err
	}
	*s = t
	return nil
}

// Get returns the named knob's value in text form ("" for an unknown knob).
func (s *Schedule) Get(name string) string {
	k, ok := LookupKnob(name)
	if !ok {
		return ""
	}
	return k.get(s)
}

// Map returns every knob's value by name (the resolved schedule in results and JSON).
func (s Schedule) Map() map[string]string {
	m := make(map[string]string, len(knobs))
	for _, k := range knobs {
		m[k.Name] = k.get(&s)
	}
	return m
}

// String lists the knobs that differ from the default, "name=value" separated by spaces,
// or "auto" when every knob is default.
func (s Schedule) String() string {
	var parts []string
	for _, k := range knobs {
		if v := k.get(&s); v != k.Default {
			parts = append(parts, k.Name+"="+v)
		}
	}
	if len(parts) == 0 {
		return "auto"
	}
	return strings.Join(parts, " ")
}

// Relevant lists "name=value" for every knob that means something for the algorithm on the
// engine given the rest of the schedule: a knob of another algorithm or engine is left out, and
// so is one whose need (the same conditions Validate refuses a set knob for) fails, e.g. alpha
// and beta unless direction=auto, threshold unless driven=hybrid, np unless lb=np, chunk with
// split=blocked, dedup and frontier on a topology-driven run.
func (s Schedule) Relevant(a Algorithm, engineName string) string {
	var parts []string
	for _, k := range knobs {
		if k.AppliesTo(a, engineName) && s.knobInert(k.Name, a) == "" {
			parts = append(parts, k.Name+"="+k.get(&s))
		}
	}
	return strings.Join(parts, " ")
}

// Resolved returns, for a result's resolved schedule, the knobs that shaped the run and
// their concrete values, in display order: Relevant's knobs less those the engine left auto
// because nothing of them applies to how it ran (the serial reference engine has no load
// balancing). direction=auto stays: it is the direction-optimizing mode itself.
func (s Schedule) Resolved(a Algorithm, engineName string) []KnobValue {
	var out []KnobValue
	for _, k := range knobs {
		if !k.AppliesTo(a, engineName) || s.knobInert(k.Name, a) != "" {
			continue
		}
		v := k.get(&s)
		if v == "auto" && k.Name != "direction" {
			continue
		}
		out = append(out, KnobValue{k.Name, v})
	}
	return out
}

// KnobValue is a knob's name and value in text form.
type KnobValue struct{ Name, Value string }

// ResolvedText is Resolved as "name=value" separated by spaces.
func (s Schedule) ResolvedText(a Algorithm, engineName string) string {
	var parts []string
	for _, kv := range s.Resolved(a, engineName) {
		parts = append(parts, kv.Name+"="+kv.Value)
	}
	return strings.Join(parts, " ")
}
