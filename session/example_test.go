package session_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	_ "github.com/gworkbench/gworkbench/engine/cpu"
	_ "github.com/gworkbench/gworkbench/engine/ref"
	"github.com/gworkbench/gworkbench/loader"
	"github.com/gworkbench/gworkbench/session"
)

// A session driven from Go: the same commands a person types.
func ExampleSession_Exec() {
	s := session.New(session.Options{}) // output discarded
	g, _ := loader.FromEdges(4, []loader.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 2, V: 3}}, false, false)
	s.AddGraph("path", g, "")
	if err := s.Exec(context.Background(), "run bfs src=0 direction=push as b; verify b"); err != nil {
		fmt.Println(err)
	}
	for _, r := range s.Results() {
		fmt.Println(r.Name, r.R.Algorithm, "reached", r.R.Summary.Reached, "max depth", r.R.Summary.MaxDepth)
	}
	fmt.Println(s.Exec(context.Background(), "run bfs direction=sideways"))
	// Output:
	// b bfs reached 4 max depth 3
	// run bfs: direction=sideways is not a value of direction (want one of auto, push, pull)
}

// A script stops at its first error and names the file and line.
func ExampleRunScript() {
	s := session.New(session.Options{})
	script := "gen k = kron scale=4 degree=4\nrun bfs\nrun bfs dirction=pull\n"
	err := session.RunScript(context.Background(), s, "lab.gw", strings.NewReader(script), os.Stdout, false)
	fmt.Println(err)
	// Output:
	// lab.gw:3: run bfs: unknown knob or parameter "dirction" (did you mean "direction"?) (knobs lists them)
	// lab.gw: 1 command failed
}
