package session

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gworkbench/gworkbench/internal/safefile"
)

// state is what a failed command must leave as it was: graphs, the current one, results.
func state(s *Session) string {
	var b strings.Builder
	for _, g := range s.Graphs() {
		b.WriteString(g.Name + ":" + g.G.Fingerprint())
		if g.Current {
			b.WriteString("*")
		}
		b.WriteString(" ")
	}
	for _, r := range s.Results() {
		b.WriteString(r.Name + " ")
	}
	for _, c := range s.Comparisons() {
		b.WriteString(c.Name + " ")
	}
	return b.String()
}

// A full disk during save, export, report or plot leaves the earlier file as it was, creates
// no empty file, leaves no temporary file, and the session goes on.
func TestWriteFullDisk(t *testing.T) {
	s, out := newTest(t)
	dir := t.TempDir()
	p := func(f string) string { return filepath.Join(dir, f) }
	do(t, s, out, "run bfs src=0 as b")
	cmds := []string{"save " + p("s.json"), "export b values " + p("v.csv"), "report " + p("r.html"), "plot b " + p("b.svg")}
	for _, c := range cmds {
		do(t, s, out, c)
	}
	before := map[string][]byte{}
	for _, f := range []string{"s.json", "v.csv", "r.html", "b.svg"} {
		before[f], _ = os.ReadFile(p(f))
	}
	want := state(s)
	restore := safefile.FailWritesAfter(10, syscall.ENOSPC)
	defer restore()
	for _, c := range append(cmds, "save "+p("new.json"), "export b values "+p("new.csv")) {
		err := s.Exec(context.Background(), c)
		if err == nil || !strings.Contains(err.Error(), "no space left") || !strings.Contains(err.Error(), "unchanged") {
			t.Errorf("%s on a full disk: %v", c, err)
		}
	}
	restore()
	for f, b := range before {
		if got, _ := os.ReadFile(p(f)); !bytes.Equal(got, b) {
			t.Errorf("%s changed by a failed write (%d bytes, was %d)", f, len(got), len(b))
		}
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != len(before) {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("files after the failed writes: %v, want only %d", names, len(before))
	}
	if got := state(s); got != want {
		t.Errorf("session changed: %s, was %s", got, want)
	}
}

// saved returns a saved session of three graphs (p, which has no source, a and b), a result and a comparison, as a JSON map.
func saved(t *testing.T, dir string) map[string]any {
	t.Helper()
	s, out := newTest(t)
	do(t, s, out, "gen a = kron scale=5 degree=4; gen b = urand scale=5 degree=4; run bfs src=0 as r; compare bfs direction=push,pull as c")
	path := filepath.Join(dir, "good.json")
	do(t, s, out, "save "+path)
	data, _ := os.ReadFile(path)
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// open refuses a session it cannot restore whole, and then leaves the session as it was.
func TestOpenChecksFirst(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name string
		edit func(m map[string]any)
		want string
	}{
		{"missing graph file", func(m map[string]any) {
			m["graphs"].([]any)[2].(map[string]any)["source"] = "load b = " + filepath.Join(dir, "gone.el")
		}, "gone.el"},
		{"duplicate result", func(m map[string]any) {
			rs := m["results"].([]any)
			m["results"] = append(rs, rs[0])
		}, "two results are named r"},
		{"result named like a comparison", func(m map[string]any) {
			m["results"].([]any)[0].(map[string]any)["name"] = "c"
		}, "two results are named c"},
		{"reserved name", func(m map[string]any) {
			m["results"].([]any)[0].(map[string]any)["name"] = "last"
		}, "reserved"},
		{"unsafe name", func(m map[string]any) {
			m["comparisons"].([]any)[0].(map[string]any)["name"] = "a/../x"
		}, `"a/../x"`},
		{"duplicate graph", func(m map[string]any) {
			m["graphs"].([]any)[2].(map[string]any)["name"] = "a"
		}, "two graphs are named a"},
		{"unknown current", func(m map[string]any) { m["current"] = "zz" }, `current graph "zz"`},
	}
	for _, c := range cases {
		m := saved(t, dir)
		c.edit(m)
		data, _ := json.Marshal(m)
		path := filepath.Join(dir, "edited.json")
		os.WriteFile(path, data, 0o644)
		s, out := newTest(t)
		do(t, s, out, "run bfs src=0 as mine")
		want := state(s)
		err := s.Exec(context.Background(), "open "+path)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: open: %v, want an error saying %q", c.name, err, c.want)
		}
		if got := state(s); got != want {
			t.Errorf("%s: the failed open changed the session: %s, was %s", c.name, got, want)
		}
	}
}

// A script line over the scanner's 16 MiB says so in a sentence.
func TestScriptLongLine(t *testing.T) {
	s, _ := newTest(t)
	script := "info\n# " + strings.Repeat("x", 17<<20) + "\ninfo\n"
	var errOut bytes.Buffer
	err := RunScript(context.Background(), s, "long.gw", strings.NewReader(script), &errOut, false)
	var se *ScriptError
	if !errors.As(err, &se) {
		t.Fatalf("RunScript: %v", err)
	}
	got := errOut.String()
	if !strings.Contains(got, "long.gw:2: ") || !strings.Contains(got, "longer than 16 MiB") || strings.Contains(got, "bufio") {
		t.Errorf("error output %q", got)
	}
}

// Loading or opening a named pipe is refused at once; the session goes on.
func TestPipeRefused(t *testing.T) {
	s, out := newTest(t)
	fifo := filepath.Join(t.TempDir(), "p.el")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	want := state(s)
	done := make(chan [2]error, 1)
	go func() {
		done <- [2]error{s.Exec(context.Background(), "load g = "+fifo), s.Exec(context.Background(), "open "+fifo)}
	}()
	select {
	case errs := <-done:
		if errs[0] == nil || !strings.Contains(errs[0].Error(), "named pipe") {
			t.Errorf("load of a pipe: %v", errs[0])
		}
		if errs[1] == nil || !strings.Contains(errs[1].Error(), "not a regular file") {
			t.Errorf("open of a pipe: %v", errs[1])
		}
	case <-time.After(10 * time.Second):
		t.Fatal("load or open of a pipe hangs")
	}
	if got := state(s); got != want {
		t.Errorf("session changed: %s, was %s", got, want)
	}
	do(t, s, out, "run bfs src=0")
}

// fsizeChild names the test that this binary, run again by TestWriteFileSizeLimit, runs
// under a file-size limit.
const fsizeChild = "GWORKBENCH_FSIZE_CHILD"

// A real write error from the kernel, not an injected one: under a file-size limit
// (RLIMIT_FSIZE; Go ignores SIGXFSZ, so a write past it fails with EFBIG, as on a full disk),
// saving over a good session leaves it whole, and a failed export leaves no file.
func TestWriteFileSizeLimit(t *testing.T) {
	if os.Getenv(fsizeChild) == "" {
		if testing.Short() {
			t.Skip("re-runs the test binary; skipped with -short")
		}
		cmd := exec.Command(os.Args[0], "-test.run", "^TestWriteFileSizeLimit$", "-test.v", "-test.count=1")
		cmd.Env = append(os.Environ(), fsizeChild+"=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !bytes.Contains(out, []byte("--- PASS")) {
			t.Fatalf("child: %v\n%s", err, out)
		}
		return
	}
	s, out := newTest(t)
	dir := t.TempDir()
	good := filepath.Join(dir, "s.json")
	do(t, s, out, "run bfs src=0 as b; save "+good)
	before, _ := os.ReadFile(good)
	for i := range 20 {
		do(t, s, out, fmt.Sprintf("run bfs src=0 as r%d", i))
	}
	lim := uint64(len(before) + 100)
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: lim, Max: lim}); err != nil {
		t.Skipf("setrlimit: %v", err)
	}
	err := s.Exec(context.Background(), "save "+good)
	if err == nil || !strings.Contains(err.Error(), "file too large") {
		t.Errorf("save past the limit: %v", err)
	}
	if got, _ := os.ReadFile(good); !bytes.Equal(got, before) {
		t.Errorf("the saved session changed: %d bytes, was %d", len(got), len(before))
	}
	if err := s.Exec(context.Background(), "report "+filepath.Join(dir, "r.html")); err == nil {
		t.Errorf("report past the limit: no error")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("%d files in the folder, want only s.json", len(ents))
	}
}
