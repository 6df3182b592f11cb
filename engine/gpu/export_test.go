//go:build cuda

package gpu

import "github.com/gworkbench/gworkbench/engine"

// SetPoison sets whether the runs of e (the GPU engine) start every per-vertex value buffer
// filled with 0xA5 bytes instead of zeros (Engine.poison), and returns the previous setting.
func SetPoison(e engine.Engine, on bool) bool {
	g := e.(*Engine)
	was := g.poison
	g.poison = on
	return was
}
