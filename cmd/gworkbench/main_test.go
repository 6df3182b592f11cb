package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// gw runs the command in-process with stdin from a file holding stdin, and returns the exit
// code, standard output and standard error.
func gw(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	dir := t.TempDir()
	in := filepath.Join(dir, "stdin")
	os.WriteFile(in, []byte(stdin), 0o644)
	inf, err := os.Open(in)
	if err != nil {
		t.Fatal(err)
	}
	defer inf.Close()
	outf, _ := os.Create(filepath.Join(dir, "stdout"))
	errf, _ := os.Create(filepath.Join(dir, "stderr"))
	code := run(args, inf, outf, errf)
	outf.Close()
	errf.Close()
	o, _ := os.ReadFile(filepath.Join(dir, "stdout"))
	e, _ := os.ReadFile(filepath.Join(dir, "stderr"))
	return code, string(o), string(e)
}

func TestExpr(t *testing.T) {
	code, out, errs := gw(t, "", "-e", "gen k = kron scale=5 degree=4; run bfs src=0", "-e", "graphs")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	for _, want := range []string{"k: 32 vertices", "bfs1 bfs on k [cpu]", "*k", "demo"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "\x1b[") {
		t.Errorf("colour in output to a file")
	}
	code, _, errs = gw(t, "", "--no-demo", "-e", "gen k = kron scale=5 degree=4; run bfs dirction=pull; run bfs")
	if code != 1 || !strings.HasPrefix(errs, `-e:1: run bfs: unknown knob or parameter "dirction" (did you mean "direction"?)`) {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

func TestScriptFiles(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.gw")
	bad := filepath.Join(dir, "bad.gw")
	os.WriteFile(good, []byte("# good\ngen k = kron scale=5 degree=4\nrun bfs as g1\n"), 0o644)
	os.WriteFile(bad, []byte("gen k = kron scale=5 degree=4\n\nrun bfs engine=nope\nrun bfs as after\n"), 0o644)

	code, out, errs := gw(t, "", "--no-demo", good)
	if code != 0 || errs != "" || !strings.Contains(out, "g1 bfs on k") {
		t.Errorf("good script: exit %d stderr %q out %q", code, errs, out)
	}
	code, out, errs = gw(t, "", "--no-demo", bad, good)
	if code != 1 || !strings.HasPrefix(errs, bad+`:3: run bfs: unknown engine "nope"`) {
		t.Errorf("bad script: exit %d stderr %q", code, errs)
	}
	if strings.Contains(out, "after") || strings.Contains(out, "g1") {
		t.Errorf("bad script: went on after the error:\n%s", out)
	}
	code, out, errs = gw(t, "", "--no-demo", bad, "--keep-going", good)
	if code != 1 || !strings.Contains(errs, bad+":3: ") || !strings.Contains(out, "after bfs on k") || !strings.Contains(out, "g1 bfs on k") {
		t.Errorf("keep-going: exit %d stderr %q out %q", code, errs, out)
	}
	// Several -e are numbered; one alone is -e.
	code, _, errs = gw(t, "", "--no-demo", "--keep-going", "-e", "echo a", "-e", "echo b; run nope", "-e", "run bsf")
	if code != 1 || !strings.Contains(errs, "-e#2:1: ") || !strings.Contains(errs, "-e#3:1: ") || !strings.Contains(errs, `did you mean "bfs"`) {
		t.Errorf("several -e: exit %d stderr %q", code, errs)
	}
	if _, _, errs = gw(t, "", "--no-demo", "-e", "run nope"); !strings.HasPrefix(errs, "-e:1: ") {
		t.Errorf("one -e: stderr %q, want -e:1:", errs)
	}
	code, _, errs = gw(t, "", filepath.Join(dir, "missing.gw"))
	if code != 1 || !strings.Contains(errs, "missing.gw") {
		t.Errorf("missing script: exit %d stderr %q", code, errs)
	}
}

func TestStdin(t *testing.T) {
	code, out, errs := gw(t, "info demo\nrun bfs\nquit\nrun nope\n")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d stderr %q", code, errs)
	}
	if !strings.Contains(out, "demo: 4,039 vertices") || !strings.Contains(out, "bfs1 bfs on demo") {
		t.Errorf("stdin output:\n%s", out)
	}
	code, _, errs = gw(t, "run bfs\nrun nope\n")
	if code != 1 || !strings.HasPrefix(errs, "stdin:2: ") {
		t.Errorf("stdin error: exit %d stderr %q", code, errs)
	}
	code, out, _ = gw(t, "run bfs as fromstdin\n", "--no-demo", "-e", "gen k = kron scale=5 degree=4", "-")
	if code != 0 || !strings.Contains(out, "fromstdin bfs on k") {
		t.Errorf("- as a file: exit %d\n%s", code, out)
	}
}

func TestFormatJSON(t *testing.T) {
	code, out, errs := gw(t, "", "--no-demo", "--format=json", "-e", "gen k = kron scale=5 degree=4; set src=0; run bfs; compare bfs direction=push,pull")
	if code != 0 {
		t.Fatalf("exit %d stderr %q", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("want 2 JSON lines, got:\n%s", out)
	}
	for _, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Errorf("not JSON: %v: %s", err, l)
		}
	}
	if code, _, errs := gw(t, "", "--format=xml"); code != 2 || !strings.Contains(errs, "want text or json") {
		t.Errorf("--format=xml: exit %d %q", code, errs)
	}
	if code, _, _ := gw(t, "", "--bogus"); code != 2 {
		t.Errorf("--bogus: exit %d", code)
	}
}

func TestVersion(t *testing.T) {
	code, out, _ := gw(t, "", "--version")
	if code != 0 || !strings.HasPrefix(out, "gworkbench ") {
		t.Errorf("--version: exit %d %q", code, out)
	}
}

// A graph file or a directory given as a script says what to do instead of running a graph's
// lines as commands ("unknown command p").
func TestScriptThatIsNotAScript(t *testing.T) {
	dir := t.TempDir()
	g := filepath.Join(dir, "road.gr.gz")
	os.WriteFile(g, []byte("not read"), 0o644)
	code, out, errs := gw(t, "", "--no-demo", g)
	if code != 1 || out != "" || !strings.Contains(errs, g+" is a graph file, not a .gw script: load it with gworkbench -e 'load road = "+g+"'") {
		t.Errorf("graph file: exit %d stderr %q", code, errs)
	}
	code, _, errs = gw(t, "", "--no-demo", dir)
	if code != 1 || !strings.Contains(errs, dir+" is a directory, not a .gw script") {
		t.Errorf("directory: exit %d stderr %q", code, errs)
	}
}

// -e commands and script files run in the order given: `lab.gw -e 'report x.html'` reports
// the lab, `-e 'gen ...' lab.gw` prepares it.
func TestExprAndFilesInOrder(t *testing.T) {
	dir := t.TempDir()
	lab := filepath.Join(dir, "lab.gw")
	os.WriteFile(lab, []byte("run bfs src=0 as fromlab\n"), 0o644)
	code, out, errs := gw(t, "", "--no-demo", "-e", "gen k = kron scale=4 degree=2", lab, "-e", "results")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d stderr %q", code, errs)
	}
	gen, ran, res := strings.Index(out, "k: 16 vertices"), strings.Index(out, "fromlab bfs on k"), strings.Index(out, "\nname ")
	if gen < 0 || ran < gen || res < ran {
		t.Errorf("not in the order given:\n%s", out)
	}
}
