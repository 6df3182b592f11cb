package session

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestComplete(t *testing.T) {
	s, out := newTest(t)
	do(t, s, out, "run bfs src=0 as b1")
	dir := t.TempDir()
	for _, f := range []string{"road.gr", "rmat.el"} {
		os.WriteFile(filepath.Join(dir, f), nil, 0o644)
	}
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	cases := []struct {
		line    string
		has     []string
		hasNot  []string
		exactly []string
	}{
		{line: "ru", exactly: []string{"run"}},
		{line: "", has: []string{"load", "run", "compare", "help", "quit"}},
		{line: "run ", has: []string{"bfs", "sssp", "pr", "mst"}},
		{line: "run s", exactly: []string{"sssp"}},
		{line: "run bfs dir", exactly: []string{"direction="}},
		{line: "run bfs direction=p", exactly: []string{"direction=push", "direction=pull"}},
		{line: "run bfs ", has: []string{"src=", "alpha=", "repeat=", "engine=", "as"}, hasNot: []string{"damping=", "delta="}},
		{line: "run pr ", has: []string{"damping=", "tolerance=", "max_iter="}, hasNot: []string{"src="}},
		{line: "run bfs engine=", has: []string{"engine=cpu", "engine=ref"}},
		{line: "compare bfs direction=push,p", exactly: []string{"direction=push,pull"}},
		{line: "set eng", exactly: []string{"engine="}},
		{line: "set split=", has: []string{"split=blocked", "split=dynamic"}},
		// The CPU engine (the session's) is offered its own load balancing only.
		{line: "run bfs lb=", has: []string{"lb=auto", "lb=vertex"}, hasNot: []string{"lb=warp", "lb=cta", "lb=twc"}},
		{line: "run bfs engine=cpu lb=", hasNot: []string{"lb=thread", "lb=warp"}},
		{line: "set lb=", has: []string{"lb=vertex"}, hasNot: []string{"lb=warp"}},
		{line: "use ", exactly: []string{"p"}},
		{line: "verify ", exactly: []string{"b1", "last"}},
		{line: "export b1 ", exactly: []string{"values", "trace", "json"}},
		{line: "gen k = ", has: []string{"kron", "road", "grid"}},
		{line: "gen k = grid ", has: []string{"rows=", "cols="}},
		{line: "load x = " + dir + "/r", exactly: []string{dir + "/rmat.el", dir + "/road.gr"}},
		{line: "load x = " + dir + "/s", exactly: []string{dir + "/sub/"}},
		{line: "load x = " + dir + "/road.gr fo", exactly: []string{"format="}},
		{line: "load x = " + dir + "/road.gr format=m", exactly: []string{"format=mtx", "format=metis"}},
		{line: "help dir", exactly: []string{"direction"}},
		{line: "info; ru", exactly: []string{"run"}},
	}
	for _, c := range cases {
		got := s.Complete(c.line)
		if c.exactly != nil {
			a, b := slices.Clone(got), slices.Clone(c.exactly)
			slices.Sort(a)
			slices.Sort(b)
			if !slices.Equal(a, b) {
				t.Errorf("%q: got %q want %q", c.line, got, c.exactly)
			}
		}
		for _, h := range c.has {
			if !slices.Contains(got, h) {
				t.Errorf("%q: %q missing from %q", c.line, h, got)
			}
		}
		for _, h := range c.hasNot {
			if slices.Contains(got, h) {
				t.Errorf("%q: %q should not be offered", c.line, h)
			}
		}
	}
}

func TestCompleterSuffixes(t *testing.T) {
	s, _ := newTest(t)
	c := completer{s}
	got, n := c.Do([]rune("run bfs dir"), len("run bfs dir"))
	if n != 3 || len(got) != 1 || string(got[0]) != "ection=" {
		t.Errorf("got %q, %d", got, n)
	}
	got, n = c.Do([]rune("ru"), 2)
	if n != 2 || len(got) != 1 || string(got[0]) != "n " {
		t.Errorf("got %q, %d", got, n)
	}
}

// TestCompletionNames: a list of file completions shows names, not full paths.
func TestCompletionNames(t *testing.T) {
	got := CompletionNames([]string{"/work/shared/data/NY.gr", "/work/shared/data/sub/", "load=x/y.el", "lb=vertex", "run"})
	want := []string{"NY.gr", "sub/", "y.el", "lb=vertex", "run"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestREPLCompletesNames: the REPL's completer completes a path's last element, so readline
// lists file names rather than whole paths.
func TestREPLCompletesNames(t *testing.T) {
	s, _ := newTest(t)
	dir := t.TempDir()
	for _, f := range []string{"road.gr", "rmat.el"} {
		os.WriteFile(filepath.Join(dir, f), nil, 0o644)
	}
	line := []rune("load " + dir + "/r")
	got, n := completer{s}.Do(line, len(line))
	var names []string
	for _, g := range got {
		names = append(names, string(g))
	}
	slices.Sort(names)
	if n != 1 || !slices.Equal(names, []string{"mat.el", "oad.gr"}) {
		t.Errorf("Do = %q, %d; want the rest of the names after \"r\" and 1", names, n)
	}
}
