package loader

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestGWGRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"rome99.gr", "NY.gr", "chesapeake.mtx", "Lederberg.mtx", "wiki-Vote.txt"} {
		g := mustLoad(t, filepath.Join(graphsDir, f), DefaultOptions())
		path := filepath.Join(dir, f+".gwg")
		if err := WriteGWG(path, g); err != nil {
			t.Fatal(err)
		}
		h, err := ReadGWG(path)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if h.Fingerprint() != g.Fingerprint() || h.Directed != g.Directed || h.Weighted() != g.Weighted() {
			t.Errorf("%s: round trip changed the graph", f)
		}
		if !reflect.DeepEqual(h.IDs, g.IDs) {
			t.Errorf("%s: round trip changed the vertex ids: got %v, want %v", f, h.IDs.Range(h.NumVertices()), g.IDs.Range(g.NumVertices()))
		}
		want := g.Origin
		want.FromCache = true
		if !reflect.DeepEqual(h.Origin, want) {
			t.Errorf("%s: origin\ngot  %+v\nwant %+v", f, h.Origin, want)
		}
		// format=gwg and detection by extension both read it.
		if k := mustLoad(t, path, DefaultOptions()); k.Fingerprint() != g.Fingerprint() {
			t.Errorf("%s: Load of the .gwg differs", f)
		}
		checkCSR(t, h)
	}
}

func TestGWGEmptyGraph(t *testing.T) {
	for _, n := range []int{0, 1, 3} {
		g, _ := FromEdges(n, nil, true, false)
		path := filepath.Join(t.TempDir(), "e.gwg")
		if err := WriteGWG(path, g); err != nil {
			t.Fatal(err)
		}
		h, err := ReadGWG(path)
		if err != nil || h.NumVertices() != n || h.NumArcs() != 0 {
			t.Fatalf("V=%d: got %v %v", n, h, err)
		}
	}
}

// TestGWGCorrupt damages a .gwg in every region and checks that each is refused.
func TestGWGCorrupt(t *testing.T) {
	g := mustLoad(t, filepath.Join(graphsDir, "rome99.gr"), DefaultOptions())
	dir := t.TempDir()
	path := filepath.Join(dir, "r.gwg")
	if err := WriteGWG(path, g); err != nil {
		t.Fatal(err)
	}
	good, _ := os.ReadFile(path)
	cases := []struct {
		name string
		edit func(b []byte) []byte
		want string
	}{
		{"magic", func(b []byte) []byte { b[0] = 'X'; return b }, "expected the magic"},
		{"version", func(b []byte) []byte { b[8] = 9; return b }, "version 9"},
		{"flags", func(b []byte) []byte { b[12] |= 8; return b }, "unknown flags"},
		{"counts", func(b []byte) []byte { b[16]++; return b }, "its header promises"},
		{"truncated", func(b []byte) []byte { return b[:len(b)-8] }, "truncated or extended"},
		{"short", func(b []byte) []byte { return b[:30] }, "truncated .gwg file"},
		{"metadata", func(b []byte) []byte { b[70] ^= 0xff; return b }, "checksum mismatch"},
		{"offsets", func(b []byte) []byte { b[len(b)/3] ^= 0x10; return b }, "checksum mismatch"},
		{"last byte", func(b []byte) []byte { b[len(b)-1] ^= 1; return b }, "checksum mismatch"},
	}
	for _, c := range cases {
		bad := c.edit(append([]byte(nil), good...))
		p := filepath.Join(dir, c.name+".gwg")
		os.WriteFile(p, bad, 0o644)
		_, err := ReadGWG(p)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.name+".gwg") {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
}

// TestGWGChecksummedButInvalid writes a file whose checksum is right but whose arrays are
// not a graph: the arrays are checked too.
func TestGWGChecksummedButInvalid(t *testing.T) {
	g, _ := FromEdges(3, []Edge{{0, 1, 0}, {1, 2, 0}}, true, false)
	g.Neighbors[1] = 7
	path := filepath.Join(t.TempDir(), "x.gwg")
	if err := WriteGWG(path, g); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadGWG(path); err == nil || !strings.Contains(err.Error(), "neighbour id 7 out of range") {
		t.Errorf("got %v", err)
	}
	g, _ = FromEdges(3, []Edge{{0, 1, 0}, {1, 2, 0}}, true, false)
	g.Offsets[2] = 0
	WriteGWG(path, g)
	if _, err := ReadGWG(path); err == nil || !strings.Contains(err.Error(), "offsets decrease") {
		t.Errorf("got %v", err)
	}
}

func TestCache(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "rome.gr")
	data, _ := os.ReadFile(filepath.Join(graphsDir, "rome99.gr"))
	os.WriteFile(src, data, 0o644)
	old := time.Now().Add(-time.Hour)
	os.Chtimes(src, old, old)
	opt := DefaultOptions()
	opt.Cache = true

	a := mustLoad(t, src, opt)
	if a.Origin.FromCache {
		t.Fatal("first load claims to come from the cache")
	}
	if _, err := os.Stat(src + ".gwg"); err != nil {
		t.Fatalf("no cache written: %v", err)
	}
	b := mustLoad(t, src, opt)
	if !b.Origin.FromCache || b.Fingerprint() != a.Fingerprint() || !strings.Contains(b.Origin.Note, "loaded from cache rome.gr.gwg") {
		t.Fatalf("second load: from cache %v, note %q", b.Origin.FromCache, b.Origin.Note)
	}

	// Other options: rebuilt, not reused.
	opt2 := opt
	opt2.Direction = "undirected"
	c := mustLoad(t, src, opt2)
	if c.Origin.FromCache || c.Directed || !strings.Contains(c.Origin.Note, "other options") {
		t.Errorf("other options: from cache %v, note %q", c.Origin.FromCache, c.Origin.Note)
	}

	// A newer source: stale, rebuilt.
	mustLoad(t, src, opt)
	later := time.Now().Add(time.Hour)
	os.Chtimes(src, later, later)
	d := mustLoad(t, src, opt)
	if d.Origin.FromCache || !strings.Contains(d.Origin.Note, "stale cache") {
		t.Errorf("stale: from cache %v, note %q", d.Origin.FromCache, d.Origin.Note)
	}
	os.Chtimes(src, old, old)
	mustLoad(t, src, opt)

	// A corrupt cache: detected, rebuilt, and the rebuilt one is good.
	cb, _ := os.ReadFile(src + ".gwg")
	cb[len(cb)-5] ^= 0xff
	os.WriteFile(src+".gwg", cb, 0o644)
	e := mustLoad(t, src, opt)
	if e.Origin.FromCache || !strings.Contains(e.Origin.Note, "checksum mismatch") || e.Fingerprint() != a.Fingerprint() {
		t.Errorf("corrupt: from cache %v, note %q", e.Origin.FromCache, e.Origin.Note)
	}
	f := mustLoad(t, src, opt)
	if !f.Origin.FromCache {
		t.Errorf("after the rebuild: not from cache, note %q", f.Origin.Note)
	}
}

// TestGWGOptions applies the options that still mean something to a .gwg file.
func TestGWGOptions(t *testing.T) {
	g := mustLoad(t, filepath.Join(graphsDir, "rome99.gr"), DefaultOptions())
	path := filepath.Join(t.TempDir(), "r.gwg")
	if err := WriteGWG(path, g); err != nil {
		t.Fatal(err)
	}
	u := mustLoad(t, path, opts(func(o *Options) { o.Direction = "undirected" }))
	want := mustLoad(t, filepath.Join(graphsDir, "rome99.gr"), opts(func(o *Options) { o.Direction = "undirected" }))
	if u.Directed || u.NumArcs() != want.NumArcs() {
		t.Errorf("undirected .gwg: directed=%v arcs %d, want %d", u.Directed, u.NumArcs(), want.NumArcs())
	}
	w := mustLoad(t, path, opts(func(o *Options) { o.Weights = "uniform:1:5" }))
	for _, x := range w.Weights {
		if x < 1 || x > 5 {
			t.Fatalf("weight %d", x)
		}
	}
	if d := mustLoad(t, path, opts(func(o *Options) { o.Weights = "drop" })); d.Weighted() {
		t.Error("weights=drop kept weights")
	}
}

// TestGWGRoundTripRandom writes and reads back small random graphs of every shape.
func TestGWGRoundTripRandom(t *testing.T) {
	dir := t.TempDir()
	for seed := uint64(0); seed < 40; seed++ {
		r := rand.New(rand.NewPCG(seed, 9))
		n := r.IntN(30)
		var edges []Edge
		for i := 0; n > 0 && i < r.IntN(100); i++ {
			edges = append(edges, Edge{uint32(r.IntN(n)), uint32(r.IntN(n)), int32(r.IntN(50))})
		}
		g, err := FromEdges(n, edges, seed%2 == 0, seed%3 == 0)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "r.gwg")
		if err := WriteGWG(path, g); err != nil {
			t.Fatal(err)
		}
		h, err := ReadGWG(path)
		if err != nil {
			t.Fatalf("seed %d (V=%d, %d edges): %v", seed, n, len(edges), err)
		}
		if h.Fingerprint() != g.Fingerprint() {
			t.Fatalf("seed %d: the graph changed", seed)
		}
	}
}
