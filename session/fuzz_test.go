package session

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gworkbench/gworkbench/loader"
)

// FuzzExec feeds arbitrary lines to a session: whatever the line, Exec must not panic, and
// an error must be one line. Commands that touch files are left out.
func FuzzExec(f *testing.F) {
	for _, seed := range []string{
		"run bfs src=0", "set direction=pull; run bfs", `load g = "x`, "compare bfs direction=push,pull",
		"sweep bfs alpha=1:3:1", "run bfs as", "help run", "info p", "drop p; info", "run pr damping=2",
		"gen k = kron scale=3 degree=2", "tune bfs repeat=1", "echo it's; run", "run bfs repeat=2 as x; verify x; trace x",
		"set src=9999999999999", "sweep bfs alpha=1e308:1e309:1e307", "run sssp src=-1", "# nothing",
	} {
		f.Add(seed)
	}
	g, _ := loader.FromEdges(6, []loader.Edge{{U: 0, V: 1, W: 1}, {U: 1, V: 2, W: 5}, {U: 2, V: 0, W: 2}, {U: 3, V: 4, W: 1}}, false, true)
	f.Fuzz(func(t *testing.T, line string) {
		for _, w := range []string{"export", "save", "open", "report", "plot", "load", "scale", "vertices", "rows", "cols", "repeat=", "max_iter"} {
			if strings.Contains(strings.ToLower(line), w) && !strings.Contains(line, "scale=3") && !strings.Contains(line, "repeat=1") && !strings.Contains(line, "repeat=2") {
				return
			}
		}
		var out bytes.Buffer
		s := New(Options{Out: &out})
		s.AddGraph("p", g, "")
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		err := s.Exec(ctx, line)
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: a multi-line error: %q", line, err)
		}
	})
}
