package loader

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gworkbench/gworkbench/graph"
)

// A .gwg file truncated or overwritten while its graph is in use must not kill the process:
// the graph is read into memory, not mapped.
func TestGWGChangedWhileHeld(t *testing.T) {
	g := mustLoad(t, filepath.Join(graphsDir, "rome99.gr"), DefaultOptions())
	for _, change := range []string{"truncate", "overwrite"} {
		path := filepath.Join(t.TempDir(), "rome.gwg")
		if err := WriteGWG(path, g); err != nil {
			t.Fatal(err)
		}
		h, err := ReadGWG(path)
		if err != nil {
			t.Fatal(err)
		}
		switch change {
		case "truncate":
			os.Truncate(path, 0)
		case "overwrite":
			f, _ := os.OpenFile(path, os.O_WRONLY, 0)
			f.WriteAt(make([]byte, 1<<20), 0)
			f.Close()
			os.Truncate(path, 100)
		}
		var sum uint64
		for _, v := range h.Neighbors {
			sum += uint64(v)
		}
		for _, w := range h.Weights {
			sum += uint64(w)
		}
		if h.Fingerprint() != g.Fingerprint() {
			t.Errorf("%s: the graph changed with its file", change)
		}
	}
}

// Loading a named pipe (or a device) is refused at once with a sentence, not a hang.
func TestLoadFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.el")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, path := range []string{fifo, "/dev/zero"} {
		done := make(chan error, 1)
		go func() {
			_, err := Load(context.Background(), path, Options{Cache: path == fifo})
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), path+": is a") {
				t.Errorf("%s: got %v, want a refusal naming what it is", path, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: Load hangs", path)
		}
	}
	if _, err := ReadGWG(fifo); err == nil || !strings.Contains(err.Error(), "named pipe") {
		t.Errorf("ReadGWG of a pipe: %v", err)
	}
}

// A cache is used only for the source it was made from: an edit that keeps the size, with the
// modification time set back, is seen.
func TestCacheEditedSameSize(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "g.el")
	old := time.Now().Add(-time.Hour)
	write := func(s string) {
		os.WriteFile(src, []byte(s), 0o644)
		os.Chtimes(src, old, old)
	}
	write("0 1\n1 2\n2 3\n")
	opt := DefaultOptions()
	opt.Cache = true
	mustLoad(t, src, opt)
	if b := mustLoad(t, src, opt); !b.Origin.FromCache {
		t.Fatalf("second load not from the cache: %q", b.Origin.Note)
	}
	write("0 1\n1 2\n2 0\n")
	g := mustLoad(t, src, opt)
	if g.Origin.FromCache || g.NumVertices() != 3 {
		t.Errorf("edited source: from cache %v, %d vertices (want 3); note %q", g.Origin.FromCache, g.NumVertices(), g.Origin.Note)
	}
	if h := mustLoad(t, src, opt); !h.Origin.FromCache || h.Fingerprint() != g.Fingerprint() {
		t.Errorf("after the rebuild: from cache %v", h.Origin.FromCache)
	}
}

// A cache file gets the mode the umask gives (0644 under 022), as any file the user makes.
func TestCacheMode(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := t.TempDir()
	src := filepath.Join(dir, "g.el")
	os.WriteFile(src, []byte("0 1\n1 2\n"), 0o644)
	opt := DefaultOptions()
	opt.Cache = true
	mustLoad(t, src, opt)
	fi, err := os.Stat(src + ".gwg")
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o644 {
		t.Errorf("cache mode %v, want -rw-r--r--", fi.Mode().Perm())
	}
}

// A gzip-compressed .gwg is named as such, whatever the path says.
func TestGWGGzip(t *testing.T) {
	g := mustLoad(t, filepath.Join(graphsDir, "rome99.gr"), DefaultOptions())
	dir := t.TempDir()
	raw := filepath.Join(dir, "r.gwg")
	if err := WriteGWG(raw, g); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(raw)
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(data)
	zw.Close()
	for _, name := range []string{"r.gwg.gz", "r.gwg", "r.bin"} {
		path := filepath.Join(dir, "z", name)
		os.MkdirAll(filepath.Dir(path), 0o755)
		os.WriteFile(path, z.Bytes(), 0o644)
		_, err := Load(context.Background(), path, Options{})
		if err == nil || !strings.Contains(err.Error(), "decompress it first") {
			t.Errorf("%s: %v, want \"decompress it first\"", name, err)
		}
	}
}

// Corrupt deflate data is reported as corrupt gzip data, not as a bad line of the garbage it
// decompressed to.
func TestGzipCorrupt(t *testing.T) {
	var text bytes.Buffer
	for i := range 200000 {
		fmt.Fprintf(&text, "%d %d\n", i%5000, (i*7919)%5000)
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(text.Bytes())
	zw.Close()
	dir := t.TempDir()
	bad := 0
	for k := 0; k < 40; k++ {
		data := append([]byte(nil), z.Bytes()...)
		at := 20 + k*(len(data)-40)/40
		data[at] ^= 0x5a
		path := filepath.Join(dir, fmt.Sprintf("c%d.el.gz", k))
		os.WriteFile(path, data, 0o644)
		_, err := Load(context.Background(), path, Options{})
		if err == nil {
			t.Errorf("byte %d flipped: loaded", at)
			continue
		}
		if !strings.Contains(err.Error(), "gzip") {
			bad++
			t.Errorf("byte %d flipped: %v, want a gzip error", at, err)
		}
	}
}

// Files that break their format are refused with a sentence that says where.
func TestFormatViolations(t *testing.T) {
	dir := t.TempDir()
	def, drop := DefaultOptions(), DefaultOptions()
	drop.Weights = "drop"
	cases := []struct {
		name, file, data string
		opt              Options
		want             string // "" = loads
	}{
		// 1 lists 2 and 3, 2 lists 1, 3 lists 2: the header's 2 edges, 4 entries, but 3 edges
		// once symmetrized. Comment lines count.
		{"metis asymmetric", "a.graph", "3 2\n2 3\n1\n2\n", def, "a.graph:2: vertex 1 lists 3 as a neighbour, but vertex 3 does not list 1: a METIS file lists every edge from both ends"},
		{"metis asymmetric after a comment", "b.graph", "% c\n3 2\n2 3\n% c\n1\n3\n", def, "b.graph:3: vertex 1 lists 3 as a neighbour"},
		{"metis asymmetric weights", "c.graph", "2 1 001\n2 5\n1 6\n", def, "c.graph:2: vertex 1 lists 2 with weight 5, but vertex 2 does not list 1 with that weight"},
		{"metis symmetric", "d.graph", "3 2\n2 3\n1\n1\n", def, ""},
		{"metis asymmetric, line 3", "g.graph", "3 2\n2\n1 3\n1\n", def, "g.graph:3: vertex 2 lists 3 as a neighbour, but vertex 3 does not list 2"},
		{"mtx skew-symmetric weighted", "e.mtx", "%%MatrixMarket matrix coordinate integer skew-symmetric\n2 2 1\n2 1 4\n", def, "e.mtx:1: a skew-symmetric matrix gives each mirrored entry the weight -w"},
		{"mtx skew-symmetric dropped", "f.mtx", "%%MatrixMarket matrix coordinate integer skew-symmetric\n2 2 1\n2 1 4\n", drop, ""},
	}
	for _, c := range cases {
		path := filepath.Join(dir, c.file)
		os.WriteFile(path, []byte(c.data), 0o644)
		_, err := Load(context.Background(), path, c.opt)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
}

// A .gwg with a valid checksum is still checked: the undirected flag against the arcs,
// weights against the sign, lists against their order.
func TestGWGCrafted(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name string
		g    *graph.CSR
		want string
	}{
		{"undirected but asymmetric", &graph.CSR{Offsets: []int64{0, 1, 2, 3}, Neighbors: []uint32{1, 2, 0}}, "flagged undirected: vertex 0 lists 1 as a neighbour, but vertex 1 does not list 0"},
		{"undirected, weights differ", &graph.CSR{Offsets: []int64{0, 1, 2}, Neighbors: []uint32{1, 0}, Weights: []int32{3, 4}}, "flagged undirected: vertex 0 lists 1 with weight 3"},
		{"negative weight", &graph.CSR{Offsets: []int64{0, 1, 1}, Neighbors: []uint32{1}, Weights: []int32{-5}, Directed: true}, "negative weight -5"},
		{"unsorted", &graph.CSR{Offsets: []int64{0, 2, 2, 2}, Neighbors: []uint32{2, 1}, Directed: true}, "not sorted"},
		{"good undirected", &graph.CSR{Offsets: []int64{0, 1, 2}, Neighbors: []uint32{1, 0}, Weights: []int32{3, 3}}, ""},
	}
	for _, c := range cases {
		path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".gwg")
		if err := WriteGWG(path, c.g); err != nil {
			t.Fatal(err)
		}
		_, err := ReadGWG(path)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
}
