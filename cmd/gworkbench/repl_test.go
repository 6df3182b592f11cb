//go:build linux

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// The REPL is tested as a person uses it: the real binary on a pseudo-terminal, with keys
// typed into it.

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

func binary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "gwtest")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "gworkbench")
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// openPTY returns the master and slave ends of a new pseudo-terminal.
func openPTY() (*os.File, *os.File, error) {
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, nil, err
	}
	fd := int(m.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		m.Close()
		return nil, nil, err
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		m.Close()
		return nil, nil, err
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		return nil, nil, err
	}
	unix.IoctlSetWinsize(int(s.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 50, Col: 160})
	return m, s, nil
}

// term is a running gworkbench on a pseudo-terminal.
type ptyTerm struct {
	t    *testing.T
	m    *os.File
	cmd  *exec.Cmd
	mu   sync.Mutex
	buf  strings.Builder
	seen int // expect searches from here
	done chan error
}

func startTerm(t *testing.T, args ...string) *ptyTerm {
	t.Helper()
	bin := binary(t)
	m, s, err := openPTY()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = s, s, s
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+t.TempDir(), "TERM=xterm", "NO_COLOR=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s.Close()
	tm := &ptyTerm{t: t, m: m, cmd: cmd, done: make(chan error, 1)}
	go func() {
		b := make([]byte, 4096)
		for {
			n, err := m.Read(b)
			tm.mu.Lock()
			tm.buf.Write(b[:n])
			tm.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	go func() { tm.done <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		m.Close()
	})
	return tm
}

func (tm *ptyTerm) send(s string) {
	tm.t.Helper()
	if _, err := tm.m.Write([]byte(s)); err != nil {
		tm.t.Fatal(err)
	}
}

// expect waits until the output after the last match contains want.
func (tm *ptyTerm) expect(want string, timeout time.Duration) {
	tm.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		tm.mu.Lock()
		out := tm.buf.String()
		tm.mu.Unlock()
		if i := strings.Index(out[tm.seen:], want); i >= 0 {
			tm.seen += i + len(want)
			return
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("no %q within %v; the terminal shows:\n%s", want, timeout, out[tm.seen:])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (tm *ptyTerm) wait(timeout time.Duration) error {
	tm.t.Helper()
	select {
	case err := <-tm.done:
		return err
	case <-time.After(timeout):
		tm.t.Fatalf("gworkbench did not exit within %v", timeout)
		return nil
	}
}

func TestREPL(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	tm := startTerm(t, "--plain")
	tm.expect("gw demo> ", 20*time.Second)

	// Tab completes the command, then the algorithm, then a knob and its value.
	tm.send("ru\t")
	tm.expect("run ", 2*time.Second)
	tm.send("bf\t")
	tm.expect("bfs ", 2*time.Second)
	tm.send("direction=pu\t")
	tm.expect("direction=pu", 2*time.Second)
	tm.send("sh\t\r")
	tm.expect("bfs1 bfs on demo [cpu]", 5*time.Second)
	tm.expect("gw demo> ", 2*time.Second)

	// A line ending in a backslash continues on the next.
	tm.send("run bfs \\\r")
	tm.expect("... ", 2*time.Second)
	tm.send("src=0 as cont\r")
	tm.expect("cont bfs on demo [cpu]: reached 4,039 of 4,039 vertices from 0", 5*time.Second)
	tm.expect("gw demo> ", 2*time.Second)

	// An error is one line and the session goes on.
	tm.send("run bfs dirction=pull\r")
	tm.expect(`did you mean "direction"?`, 2*time.Second)
	tm.expect("gw demo> ", 2*time.Second)

	// Ctrl-C cancels a long run and returns to the prompt; the session keeps its results.
	tm.send("run pr tolerance=0 max_iter=100000000 as long\r")
	tm.expect("L1 change", 10*time.Second)
	time.Sleep(200 * time.Millisecond)
	start := time.Now()
	tm.send("\x03")
	tm.expect("cancelled", 3*time.Second)
	tm.expect("gw demo> ", 2*time.Second)
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("cancelling took %v", d)
	}
	tm.send("results\r")
	tm.expect("bfs1", 2*time.Second)
	tm.expect("gw demo> ", 2*time.Second)

	// Ctrl-C at an empty prompt warns; Ctrl-D quits.
	tm.send("\x03")
	tm.expect("Ctrl-C again", 2*time.Second)
	tm.send("\x04")
	if err := tm.wait(5 * time.Second); err != nil {
		t.Errorf("exit: %v", err)
	}
	hist, err := os.ReadFile(filepath.Join(tm.cmd.Env[len(tm.cmd.Env)-3][len("XDG_STATE_HOME="):], "gworkbench", "history"))
	if err != nil || !strings.Contains(string(hist), "run bfs direction=push") {
		t.Errorf("history: %v %q", err, hist)
	}
}

func TestREPLQuitAndDoubleCtrlC(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	tm := startTerm(t, "--plain")
	tm.expect("gw demo> ", 20*time.Second)
	tm.send("\x03")
	tm.expect("Ctrl-C again", 2*time.Second)
	tm.send("\x03")
	if err := tm.wait(5 * time.Second); err != nil {
		t.Errorf("exit after two Ctrl-C: %v", err)
	}
	tm = startTerm(t, "--plain")
	tm.expect("gw demo> ", 20*time.Second)
	tm.send("quit\r")
	if err := tm.wait(5 * time.Second); err != nil {
		t.Errorf("exit after quit: %v", err)
	}
}

// TestScriptInterrupt: Ctrl-C (SIGINT) stops a script's running command and the program
// exits with status 130 at once.
func TestScriptInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := binary(t)
	script := filepath.Join(t.TempDir(), "long.gw")
	os.WriteFile(script, []byte("run pr tolerance=0 max_iter=100000000\nrun bfs as never\n"), 0o644)
	cmd := exec.Command(bin, script)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1500 * time.Millisecond)
	start := time.Now()
	cmd.Process.Signal(os.Interrupt)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 130 {
			t.Errorf("exit: %v, want status 130\n%s", err, out.String())
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("stopping took %v", d)
		}
		if !strings.Contains(out.String(), script+":1: pr on demo cancelled") || strings.Contains(out.String(), "never") {
			t.Errorf("output:\n%s", out.String())
		}
	case <-time.After(5 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("the script did not stop on SIGINT:\n%s", out.String())
	}
}

// The version and commit that `make build` stamps with -ldflags -X reach --version and the
// provenance of every result (the commit was empty in builds made with -buildvcs=false).
func TestStampedProvenance(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "gworkbench")
	ld := "-X github.com/gworkbench/gworkbench/engine.Version=v9.8.7 -X github.com/gworkbench/gworkbench/engine.Commit=0123abcd-dirty"
	cmd := exec.Command("go", "build", "-buildvcs=false", "-ldflags", ld, "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil || !strings.HasPrefix(string(out), "gworkbench v9.8.7 (commit 0123abcd-dirty) go") {
		t.Errorf("--version: %v %q", err, out)
	}
	out, err = exec.Command(bin, "--no-demo", "--format=json", "-e", "gen k = kron scale=4 degree=2; run bfs").Output()
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	var res struct {
		Provenance struct{ Version, Commit string }
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if res.Provenance.Version != "v9.8.7" || res.Provenance.Commit != "0123abcd-dirty" {
		t.Errorf("provenance %+v", res.Provenance)
	}
	// The Makefile stamps them the same way.
	mk, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"engine.Version=$(VERSION)", "engine.Commit=$(COMMIT)", "git describe --always --dirty"} {
		if !strings.Contains(string(mk), want) {
			t.Errorf("Makefile lacks %q", want)
		}
	}
}
