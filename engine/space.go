package engine

// Axis is one knob and the values of it that an engine implements for an algorithm, in the
// knob's text form ("push", "pull", "auto", "2", ...).
type Axis struct {
	Knob   string
	Values []string
}

// Subspace is a set of axes whose cross product an engine runs in full.
type Subspace []Axis

// Spacer is an optional Engine interface: an engine that implements it lists, per algorithm,
// the schedule space it runs, as a union of subspaces (each a full cross product of its axes;
// knobs not named stay auto). The conformance suite (engine/enginetest) enumerates them, drops
// what Validate refuses, and expects every remaining combination to run and agree with
// engine/ref: an ErrUnsupported answer inside the listed space is a failure. An engine without
// Spacer is tested over the values of the knob table, and ErrUnsupported is then skipped.
type Spacer interface {
	Space(a Algorithm) []Subspace
}

// EngineKnobs lists the knobs that tune an engine's execution without changing the algorithm
// (workers, chunk, split): the conformance suite rotates their values through the algorithm's
// combinations instead of crossing them.
func EngineKnobs() []string { return []string{"workers", "chunk", "split"} }
