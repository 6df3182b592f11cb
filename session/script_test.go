package session

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gworkbench/gworkbench/engine"
)

// scriptChecks are the key lines each script in scripts/ must print on the cpu engine (no
// timings: those vary).
var scriptChecks = map[string][]string{
	"tour.gw": {
		`\*demo +4,039`,
		`k: 4,096 vertices`,
		`out-degree histogram`,
		`bfs1 bfs on k \[cpu\]: reached [\d,]+ of 4,096 vertices`,
		`switch direction push -> pull`,
		`bfs_push: bfs agrees with the reference engine`,
		`sssp1 sssp on k \[cpu\]: reached [\d,]+ of 4,096`,
		`cc1 cc on k \[cpu\]: [\d,]+ components`,
		`pr1 pr on k \[cpu\]: rank sum`,
		`cmp1: compare bfs on k`,
		`(?m)^cmp1\.2 +pull .* ok$`,
		`sweep1: sweep bfs on k: alpha=0.01,1,15`,
		`time against alpha`,
		`best: sweep1\.3 \(alpha=15\)`,
		`tune1: tune bfs on k \[cpu\]: 3 schedules tried`,
		`best: direction=auto, .* faster; keep it with: set direction=auto`,
		`bfs2 bfs on demo \[cpu\]: reached 4,039 of 4,039`,
		`median .*3 runs`,
		`median .*4 runs from 4 random sources`,
		`usage: compare`,
	},
	"lab-data-vs-topology.gw": {
		`road: 264,346 vertices`,
		`roadbfs: compare bfs on road: driven=data,topology`,
		`(?m)^ +\d+ +push +topology +[\d,]+ +264,346 `, // a topology level checks every vertex
		`✓ roadsssp\.max_scanned < 10% \* road\.arcs`,
		`✓ roadbfs\.1 faster than roadbfs\.2 by 2x`,
		`✓ kronbfs\.2 within 5x of kronbfs\.1`,
	},
	"lab-hybrid.gw": {
		`(?m)^ +2 +switch +mode data -> topology: worklist`,
		`✓ h\.first_switch in 1\.\.3`,
		`curve: sweep sssp on kron: threshold=0.01,0.1,0.2,0.4,0.6,0.8,1,2`,
		`✓ curve best threshold in 0\.01\.\.1`,
		`✓ roadh\.switches == 0`,
	},
	"lab-push-pull.gw": {
		`dir: compare bfs on kron: direction=push,pull,auto`,
		`(?m)^ +1 +switch +direction push -> pull`,
		`time by alpha and beta`,
		`✓ heat best alpha in 4\.\.240`,
		`✓ roadpull\.scanned > 100 \* roaddir\.1\.scanned`,
	},
	"lab-irgl.gw": {
		`✓ roadbfs\.iterations > 50 \* kronbfs\.iterations`,
		`✓ kron\.max_degree > 100 \* kron\.avg_degree`,
		`cpusplit: compare bfs on kron`,
	},
	"lab-indigo.gw": {
		`✓ prdir\.2 faster than prdir\.1`,
		`✓ syn\.1\.iterations < syn\.2\.iterations`,
		`✓ road\.avg_degree < 4`,
	},
	"lab-edgeblocking.gw": {
		`tune1: tune pr on kron \[cpu\]`,
		`✓ tune1\.\d+ faster than tune1\.1 by 2x: .*tune's winner`,
	},
}

// TestScripts runs every scripts/*.gw on the cpu engine, as `gworkbench FILE.gw` does, and
// checks its key lines; no run may differ from the reference or fail.
func TestScripts(t *testing.T) {
	t.Chdir("..") // the labs read testdata/graphs from the repository root
	files, _ := filepath.Glob("scripts/*.gw")
	if len(files) == 0 {
		t.Fatal("no scripts in scripts/")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			checks, ok := scriptChecks[filepath.Base(f)]
			if !ok {
				t.Fatalf("%s has no checks in scriptChecks", f)
			}
			o := runScript(t, f)
			for _, c := range checks {
				if !regexp.MustCompile(c).MatchString(o) {
					t.Errorf("output lacks %s", c)
				}
			}
			for _, bad := range []string{"DIFFERS", "invalid:", "unsupported:", "failed:"} {
				if strings.Contains(o, bad) {
					t.Errorf("output has %q", bad)
				}
			}
			if strings.HasPrefix(filepath.Base(f), "lab-") {
				// Every claim the CPU engine checks printed its check mark: none was skipped.
				src, _ := os.ReadFile(f)
				want := len(regexp.MustCompile(`(?m)^(on cpu )?expect `).FindAll(src, -1))
				if got := strings.Count(o, "✓ "); got != want || want == 0 {
					t.Errorf("%d claims checked, want the %d expect lines for the cpu engine", got, want)
				}
			}
			if filepath.Base(f) == "tour.gw" && !t.Failed() {
				// Run twice, the tour's sweep and tune crown the same winners.
				w1, w2 := tourWinners(o), tourWinners(runScript(t, f))
				if len(w1) != 2 || strings.Join(w1, "\n") != strings.Join(w2, "\n") {
					t.Errorf("the tour's winners: first run %q, second run %q; want the same two", w1, w2)
				}
			}
			if t.Failed() {
				t.Logf("output:\n%s", o)
			}
		})
	}
}

// runScript runs a script on a session with the demo graph and returns what it printed.
func runScript(t *testing.T, f string) string {
	t.Helper()
	var out, errs bytes.Buffer
	s := New(Options{Out: &out})
	if err := s.LoadDemo(); err != nil {
		t.Fatal(err)
	}
	fh, err := os.Open(f)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	err = RunScript(context.Background(), s, f, fh, &errs, false)
	if err != nil && strings.Contains(errs.String(), engine.ErrUnsupported.Error()) {
		t.Skipf("an engine lacks an algorithm yet: %s", errs.String())
	}
	if err != nil {
		t.Fatalf("%v\n%s\noutput:\n%s", err, errs.String(), out.String())
	}
	return out.String()
}

// tourWinners are the winners the tour's sweep (section 5) and tune (section 6) name: their
// "best:" lines up to the first comma or semicolon.
func tourWinners(o string) []string {
	var w []string
	section := ""
	for _, l := range strings.Split(o, "\n") {
		if strings.HasPrefix(l, "== ") {
			section = strings.Fields(l)[1]
		}
		if rest, ok := strings.CutPrefix(l, "best: "); ok && (section == "5." || section == "6.") {
			if i := strings.IndexAny(rest, ",;"); i >= 0 {
				rest = rest[:i]
			}
			w = append(w, section+" "+rest)
		}
	}
	return w
}

func TestRunScriptErrors(t *testing.T) {
	script := "gen k = kron scale=5 degree=4\nrun bfs\n\nrun bfs direction=sideways\nrun nope\nrun bfs as tail\n"
	var out, errs bytes.Buffer
	s := New(Options{Out: &out})
	err := RunScript(context.Background(), s, "lab.gw", strings.NewReader(script), &errs, false)
	var se *ScriptError
	if !errors.As(err, &se) || se.Failed != 1 {
		t.Fatalf("got %v, want one failure", err)
	}
	if want := "lab.gw:4: run bfs: direction=sideways is not a value of direction"; !strings.HasPrefix(errs.String(), want) {
		t.Errorf("got %q, want it to start with %q", errs.String(), want)
	}
	if len(s.Results()) != 1 {
		t.Errorf("the script went on after its first error")
	}

	errs.Reset()
	s = New(Options{Out: &out})
	err = RunScript(context.Background(), s, "lab.gw", strings.NewReader(script), &errs, true)
	if !errors.As(err, &se) || se.Failed != 2 {
		t.Fatalf("keep-going: got %v, want two failures", err)
	}
	if lines := strings.Split(strings.TrimSpace(errs.String()), "\n"); len(lines) != 2 || !strings.HasPrefix(lines[1], "lab.gw:5: ") {
		t.Errorf("keep-going errors: %q", errs.String())
	}
	if rs := s.Results(); len(rs) != 2 || rs[1].Name != "tail" {
		t.Errorf("keep-going did not run the last line")
	}

	// quit ends a script successfully; a continued line counts from its first line.
	errs.Reset()
	err = RunScript(context.Background(), New(Options{Out: &out}), "q.gw", strings.NewReader("gen k = kron \\\n scale=5\nquit\nrun nope\n"), &errs, false)
	if err != nil {
		t.Errorf("quit: %v %s", err, errs.String())
	}
	errs.Reset()
	err = RunScript(context.Background(), New(Options{Out: &out}), "w.gw", strings.NewReader("\ufeffgen k = kron scale=5\r\nrun bfs as w\r\n"), &errs, false)
	if err != nil {
		t.Errorf("BOM and CRLF: %v %s", err, errs.String())
	}
	errs.Reset()
	err = RunScript(context.Background(), New(Options{Out: &out}), "c.gw", strings.NewReader("# c\nrun \\\n nope\n"), &errs, false)
	if err == nil || !strings.HasPrefix(errs.String(), "c.gw:2: ") {
		t.Errorf("continued line: %v %q", err, errs.String())
	}
}
