package engine

import "time"

// RecordKind tells an iteration record from a switch or phase marker.
type RecordKind uint8

const (
	IterationRecord RecordKind = iota // one iteration (a level, a bucket, a sweep ...)
	SwitchRecord                      // a direction or mode switch, with the quantities compared
	PhaseRecord                       // a new phase begins (bc forward/backward, mst steps ...)
)

func (k RecordKind) String() string {
	return [...]string{"iteration", "switch", "phase"}[k]
}

// Record is one entry of a trace. Iteration records carry the counters; switch records carry
// Switch; phase records carry Phase.
type Record struct {
	Kind      RecordKind
	Iter      int       // 0-based iteration number within the run
	Phase     string    // phase name for multi-phase algorithms ("forward", "backward"), else ""
	Direction Direction // resolved: Push or Pull
	Mode      Driven    // resolved: Data or Topology
	// Frontier counters. In* describe the input frontier (for a topology-driven sweep, the
	// vertices that were active), Out* the frontier the iteration produced.
	InVertices   int64
	InEdges      int64 // sum of the out-degrees of the input frontier
	OutVertices  int64
	Duplicates   int64 // worklist entries pushed more than once
	EdgesScanned int64 // edges actually examined
	Time         time.Duration
	Kernels      []Kernel // GPU launches of this iteration, in order
	Switch       *Switch
	Note         string // free text for anything else worth showing
}

// Kernel is one GPU launch timed with CUDA events.
type Kernel struct {
	Name  string
	Grid  int // blocks
	Block int // threads per block
	Time  time.Duration
}

// Switch explains a direction or mode switch: what the heuristic compared.
type Switch struct {
	What   string // "direction" or "mode"
	From   string
	To     string
	Reason string   // a sentence, e.g. "frontier edges 1.2M > unexplored edges / alpha 0.9M"
	Lhs    Quantity // the two quantities compared: Lhs op Rhs triggered the switch
	Op     string   // ">", "<"
	Rhs    Quantity
}

// Quantity is a named number in a switch record.
type Quantity struct {
	Name  string
	Value float64
}

// Trace is the ordered list of records of one run.
type Trace struct {
	Records []Record
}

// Iterations returns the number of iteration records.
func (t Trace) Iterations() int {
	n := 0
	for i := range t.Records {
		if t.Records[i].Kind == IterationRecord {
			n++
		}
	}
	return n
}

// Observer receives each record as the engine produces it, from the engine's goroutine. It
// must return quickly; a view that draws records should hand them off (a channel) and return.
type Observer func(Record)
