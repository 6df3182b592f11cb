// Package engine is the contract every gworkbench engine implements: the algorithms and their
// parameters, the schedule knobs (one vocabulary for all engines) and the rules that say which
// combinations are valid, the per-iteration trace, and the result.
//
// Engines (engine/ref, engine/cpu, engine/gpu) register themselves by name; the session opens
// them with Open and never knows more about them than that name. An engine may also list the
// schedule space it runs (Spacer), which the conformance suite in engine/enginetest crosses
// against engine/ref with Verify: exact depths and distances, the same component partition,
// PageRank within PRAllowedL1 in L1 (each run's distance to the fixed point, bounded by its
// tolerance, with PRTolerance as the floor), and what each other algorithm's verifier demands.
package engine
