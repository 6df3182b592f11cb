package loader

import (
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// limitChild is the environment variable that makes this test binary, run again by
// underLimit, run one test under an address-space limit.
const limitChild = "GWORKBENCH_LIMIT_CHILD"

// underLimit runs the calling test again in a child process whose address space is limited
// (RLIMIT_AS, as `ulimit -v` sets it) to what it uses at start plus budget bytes. It returns
// true in the child, which then does the work; in the parent it returns false after the
// child ended, failing the test when the child crashed (a Go "fatal error: out of memory"
// exits 2) or failed, and logging the child's peak address space.
func underLimit(t *testing.T, budget int64) bool {
	t.Helper()
	if os.Getenv(limitChild) == t.Name() {
		used := statmBytes(t)
		lim := uint64(used + budget)
		if err := syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: lim, Max: lim}); err != nil {
			t.Fatalf("setrlimit: %v", err)
		}
		t.Logf("address-space limit %d MiB (%d MiB in use at start)", lim>>20, used>>20)
		t.Cleanup(func() { t.Logf("peak: %s", vmPeak()) })
		return true
	}
	if testing.Short() {
		t.Skip("memory-limit tests re-run the test binary; skipped with -short")
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^"+t.Name()+"$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), limitChild+"="+t.Name())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("under an address-space limit the test died or failed (%v):\n%s", err, tail(out, 3000))
	}
	if !bytes.Contains(out, []byte("--- PASS")) {
		t.Fatalf("the child did not run the test:\n%s", tail(out, 3000))
	}
	for _, l := range strings.Split(string(out), "\n") {
		if strings.Contains(l, "limit") || strings.Contains(l, "peak") || strings.Contains(l, "loader:") {
			t.Log(strings.TrimSpace(l))
		}
	}
	return false
}

func statmBytes(t *testing.T) int64 {
	t.Helper()
	v, ok := addressSpaceUsed()
	if !ok {
		t.Skip("no /proc/self/statm")
	}
	return v
}

func vmPeak() string {
	b, _ := os.ReadFile("/proc/self/status")
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmPeak:") {
			return strings.TrimSpace(strings.TrimPrefix(l, "VmPeak:"))
		}
	}
	return "?"
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}

// gzipRepeat writes a gzip file of member, compressed once, repeated times over (a
// multi-member stream, which gzip readers read as one): a small file of a huge input.
func gzipRepeat(t *testing.T, path string, member []byte, times int) {
	t.Helper()
	var one bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&one, gzip.BestCompression)
	zw.Write(member)
	zw.Close()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for range times {
		if _, err := f.Write(one.Bytes()); err != nil {
			t.Fatal(err)
		}
	}
}

// wantMemoryRefusal checks that err is a one-line refusal that names the memory it needs.
func wantMemoryRefusal(t *testing.T, err error, words ...string) {
	t.Helper()
	if err == nil {
		t.Fatal("loaded, want a refusal")
	}
	msg := err.Error()
	if strings.Contains(msg, "\n") {
		t.Errorf("error is not one line: %q", msg)
	}
	for _, w := range words {
		if !strings.Contains(msg, w) {
			t.Errorf("error %q does not say %q", msg, w)
		}
	}
	t.Log(msg)
}

// A huge id in a tiny file must not size the graph past the memory there is.
func TestLimitHugeID(t *testing.T) {
	if !underLimit(t, 1<<30) {
		return
	}
	dir := t.TempDir()
	// A SNAP edge list's sparse ids are compacted: 3 vertices.
	path := filepath.Join(dir, "huge.txt")
	os.WriteFile(path, []byte("0 1\n1 2000000000\n"), 0o644)
	g, err := Load(context.Background(), path, DefaultOptions())
	if err != nil || g.NumVertices() != 3 {
		t.Fatalf("huge.txt: %v", err)
	}
	// A GAPBS .el keeps ids 0..max, as GAPBS does: 2 G vertices do not fit.
	path = filepath.Join(dir, "huge.el")
	os.WriteFile(path, []byte("0 1\n1 2000000000\n"), 0o644)
	_, err = Load(context.Background(), path, DefaultOptions())
	wantMemoryRefusal(t, err, "huge.el", "needs about", "available")
	// base=0 keeps the ids as numbers too.
	o := DefaultOptions()
	o.Base = 0
	_, err = Load(context.Background(), filepath.Join(dir, "huge.txt"), o)
	wantMemoryRefusal(t, err, "huge.txt", "needs about", "available")
}

// A generator whose graph needs more memory than the address-space limit leaves is refused.
func TestLimitGenKron(t *testing.T) {
	if !underLimit(t, 1<<30) {
		return
	}
	_, err := Generate(context.Background(), "kron", map[string]string{"scale": "26", "degree": "16"}, nil)
	wantMemoryRefusal(t, err, "kron", "needs about", "available")
}

// A gzip file of one 1.2 GB line of spaces stops at the line-length cap or at memory.
func TestLimitLongLine(t *testing.T) {
	if !underLimit(t, 512<<20) {
		return
	}
	path := filepath.Join(t.TempDir(), "spaces.txt.gz")
	gzipRepeat(t, path, bytes.Repeat([]byte{' '}, 4<<20), 300)
	_, err := Load(context.Background(), path, Options{})
	wantMemoryRefusal(t, err, "spaces.txt.gz:1:", "line is longer than")
}

// A gzip bomb of valid edges (600 MB of "0 1" from a 1 MB file) is refused while it is read.
func TestLimitGzipBomb(t *testing.T) {
	if !underLimit(t, 512<<20) {
		return
	}
	path := filepath.Join(t.TempDir(), "bomb.txt.gz")
	gzipRepeat(t, path, bytes.Repeat([]byte("0 1\n"), 1<<20), 150)
	_, err := Load(context.Background(), path, Options{})
	wantMemoryRefusal(t, err, "bomb.txt.gz", "decompressed from", "need about", "available")
}
