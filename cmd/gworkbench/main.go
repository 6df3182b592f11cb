// Command gworkbench is a terminal workbench for exploring how graph algorithms execute on GPUs
// and CPUs.
package main

import (
	"fmt"
	"os"

	_ "github.com/gworkbench/gworkbench/engine/cpu"
	_ "github.com/gworkbench/gworkbench/engine/gpu"
	_ "github.com/gworkbench/gworkbench/engine/ref"
	"github.com/gworkbench/gworkbench/loader"
)

func main() {
	g, err := loader.Demo()
	if err != nil {
		fmt.Fprintln(os.Stderr, "gworkbench:", err)
		os.Exit(1)
	}
	p := g.Properties()
	fmt.Printf("demo: %d vertices, %d edges, directed=%v, max degree %d\n", p.Vertices, p.Edges, g.Directed, p.MaxDegree)
}
