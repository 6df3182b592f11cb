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
