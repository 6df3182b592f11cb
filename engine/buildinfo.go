package engine

// Commit is the source revision this program was built from, set by the linker for builds made
// with `make build` (-X github.com/gworkbench/gworkbench/engine.Commit=$(git describe --always --dirty)).
// When empty, MachineProvenance falls back to the revision Go records itself (vcs.revision),
// which is missing when the build ran with -buildvcs=false.
var Commit = ""
