package loader

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gworkbench/gworkbench/graph"
)

// loadText writes data to a file called name in a temporary directory and loads it.
func loadText(t *testing.T, name, data string, opt Options) *graph.CSR {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := Load(context.Background(), path, opt)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return g
}

func opts(f func(o *Options)) Options {
	o := DefaultOptions()
	f(&o)
	return o
}

// adj lists a graph as "v:n1,n2 v:..." (with weights as n/w) for compact comparisons.
func adj(g *graph.CSR) string {
	var b strings.Builder
	for v := 0; v < g.NumVertices(); v++ {
		if v > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(itoa(v) + ":")
		for i, u := range g.Neigh(uint32(v)) {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(itoa(int(u)))
			if g.Weights != nil {
				b.WriteString("/" + itoa(int(g.NeighWeights(uint32(v))[i])))
			}
		}
	}
	return b.String()
}

func itoa(i int) string {
	if i < 0 {
		return "-" + itoa(-i)
	}
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

func TestOptions(t *testing.T) {
	def := DefaultOptions()
	cases := []struct {
		name, file, data string
		opt              Options
		adj              string
		directed         bool
		check            func(t *testing.T, o graph.Origin)
	}{
		{"snap directed", "a.txt", "0 1\n0 2\n2 1\n", def, "0:1,2 1: 2:1", true, func(t *testing.T, o graph.Origin) {
			if o.DirectionAssumed != "edge list default" || o.Symmetrized || o.Base != 0 {
				t.Errorf("origin %+v", o)
			}
		}},
		{"snap undirected", "a.txt", "0 1\n0 2\n2 1\n", opts(func(o *Options) { o.Direction = "undirected" }), "0:1,2 1:0,2 2:0,1", false, func(t *testing.T, o graph.Origin) {
			if o.DirectionAssumed != "told: undirected" || !o.Symmetrized {
				t.Errorf("origin %+v", o)
			}
		}},
		{"reciprocal arcs undirected", "a.txt", "0 1\n1 0\n", opts(func(o *Options) { o.Direction = "undirected" }), "0:1 1:0", false, func(t *testing.T, o graph.Origin) {
			if o.DuplicatesRemoved != 1 {
				t.Errorf("duplicates removed %d, want 1", o.DuplicatesRemoved)
			}
		}},
		{"mtx symmetric told directed", "a.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 2\n", opts(func(o *Options) { o.Direction = "directed" }), "0:1 1:0,2 2:1", true, nil},
		{"mtx isolated vertices kept", "a.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n5 5 1\n2 1\n", def, "0:1 1:0 2: 3: 4:", false, nil},
		{"mtx real weights rounded", "a.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 2 2.6\n2 1 1e1\n", def, "0:1/3 1:0/10", true, func(t *testing.T, o graph.Origin) {
			if !strings.Contains(o.Note, "real weights rounded") {
				t.Errorf("note %q", o.Note)
			}
		}},
		{"mtx skew-symmetric", "a.mtx", "%%MatrixMarket matrix coordinate integer skew-symmetric\n2 2 1\n2 1 4\n", opts(func(o *Options) { o.Weights = "drop" }), "0:1 1:0", false, nil},
		{"base=1 edge list", "a.txt", "1 2\n2 3\n", opts(func(o *Options) { o.Base = 1 }), "0:1 1:2 2:", true, func(t *testing.T, o graph.Origin) {
			if o.Base != 1 {
				t.Errorf("base %d", o.Base)
			}
		}},
		{"base=0 dimacs", "a.gr", "p sp 3 1\na 0 2 7\n", opts(func(o *Options) { o.Base = 0 }), "0:2/7 1: 2:", true, nil},
		{"selfloops drop", "a.txt", "0 0\n0 1\n", def, "0:1 1:", true, func(t *testing.T, o graph.Origin) {
			if o.SelfLoopsRemoved != 1 {
				t.Errorf("self-loops removed %d", o.SelfLoopsRemoved)
			}
		}},
		{"selfloops keep", "a.txt", "0 0\n0 1\n", opts(func(o *Options) { o.SelfLoops = "keep" }), "0:0,1 1:", true, nil},
		{"selfloops keep undirected", "a.txt", "0 0\n0 1\n", opts(func(o *Options) { o.SelfLoops = "keep"; o.Direction = "undirected" }), "0:0,1 1:0", false, nil},
		{"duplicates drop keeps lowest weight", "a.wel", "0 1 5\n0 1 3\n0 1 4\n", def, "0:1/3 1:", true, func(t *testing.T, o graph.Origin) {
			if o.DuplicatesRemoved != 2 {
				t.Errorf("duplicates removed %d", o.DuplicatesRemoved)
			}
		}},
		{"duplicates keep", "a.wel", "0 1 5\n0 1 3\n", opts(func(o *Options) { o.Duplicates = "keep" }), "0:1/3,1/5 1:", true, nil},
		{"weights drop", "a.wel", "0 1 5\n", opts(func(o *Options) { o.Weights = "drop" }), "0:1 1:", true, nil},
		{"weights drop skips bad weights", "a.txt", "0 1 -5\n1 0 x\n", opts(func(o *Options) { o.Weights = "drop" }), "0:1 1:0", true, nil},
		{"weights uniform", "a.txt", "0 1\n1 2\n", opts(func(o *Options) { o.Weights = "uniform:7:7" }), "0:1/7 1:2/7 2:", true, func(t *testing.T, o graph.Origin) {
			if o.WeightsGenerated != "uniform:7:7 seed=1" {
				t.Errorf("weights generated %q", o.WeightsGenerated)
			}
		}},
		{"csv crlf header", "a.csv", "id_1,id_2\r\n0,1\r\n1,2\r\n", def, "0:1 1:2 2:", true, func(t *testing.T, o graph.Origin) {
			if !strings.Contains(o.Note, `header line 1 skipped: "id_1,id_2"`) {
				t.Errorf("note %q", o.Note)
			}
		}},
		{"tabs and comments", "a.tsv", "# c\n% c\n\n0\t1\t\n  1\t2\r\n# end", def, "0:1 1:2 2:", true, nil},
		{"spaced commas", "a.csv", "0 , 1\n1,\t2\n", def, "0:1 1:2 2:", true, nil},
		{"no final newline", "a.txt", "0 1\n1 2", def, "0:1 1:2 2:", true, nil},
		{"snap third column weight", "a.txt", "0 1 4\n1 2 0\n", def, "0:1/4 1:2/0 2:", true, nil},
		{"konect extra columns", "out.konect", "% sym positive\n1 2 4 1104537600\n2 3 1 1104537601 x\n3 1 2\n", opts(func(o *Options) { o.Base = 1 }), "0:1/4 1:2/1 2:0/2", true, func(t *testing.T, o graph.Origin) {
			if !strings.Contains(o.Note, "line 2 has 4 columns: the third is read as the weight, columns 4..4 are ignored") {
				t.Errorf("note %q", o.Note)
			}
		}},
		{"el", "a.el", "0 1\n1 2\n", def, "0:1 1:2 2:", true, nil},
		{"1-based edge list keeps its ids", "a.txt", "1 2\n2 3\n", def, "0:1 1:2 2:", true, func(t *testing.T, o graph.Origin) {
			if o.Base != 1 {
				t.Errorf("base %d, want 1", o.Base)
			}
		}},
		{"el with gaps hint", "a.el", "1 2\n2 3\n", def, "0: 1:2 2:3 3:", true, func(t *testing.T, o graph.Origin) {
			if !strings.Contains(o.Note, "the smallest id is 1, so ids 0..0 have no edges (base=1 reads 1-based ids)") {
				t.Errorf("note %q", o.Note)
			}
		}},
		{"dimacs", "a.gr", "c x\np sp 3 2\nc y\na 1 2 7\na 3 1 2\n", def, "0:1/7 1: 2:0/2", true, nil},
		{"pace", "a.gr", "c x\np tw 3 2\n1 2\n3 2\n", def, "0:1 1:0,2 2:1", false, nil},
		{"metis plain", "a.graph", "% c\n3 2\n2 3\n1\n1\n", def, "0:1,2 1:0 2:0", false, nil},
		{"metis isolated vertex", "a.graph", "3 1\n2\n1\n\n", def, "0:1 1:0 2:", false, nil},
		{"metis edge weights", "a.graph", "3 2 1\n2 5 3 6\n1 5\n1 6\n", def, "0:1/5,2/6 1:0/5 2:0/6", false, nil},
		{"metis vertex weights", "a.graph", "2 1 011 2\n9 8 2 4\n7 6 1 4\n", def, "0:1/4 1:0/4", false, nil},
		{"metis vertex sizes", "a.graph", "2 1 100\n1 2\n1 1\n", def, "0:1 1:0", false, nil},
		{"metis duplicates keep", "a.graph", "2 1\n2\n1\n", opts(func(o *Options) { o.Duplicates = "keep" }), "0:1 1:0", false, nil},
		{"format override", "a.dat", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n", opts(func(o *Options) { o.Format = "mtx" }), "0:1 1:", true, nil},
		{"content mtx", "graphfile", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n", def, "0:1 1:", true, nil},
		{"content dimacs", "graphfile", "p sp 2 1\na 1 2 3\n", def, "0:1/3 1:", true, nil},
		{"content edge list", "graphfile", "0 1\n", def, "0:1 1:", true, nil},
		{"utf-8 bom", "a.txt", "\ufeff0 1\n", def, "0:1 1:", true, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := loadText(t, c.file, c.data, c.opt)
			if c.opt.SelfLoops != "keep" && c.opt.Duplicates != "keep" {
				checkCSR(t, g)
			}
			if got := adj(g); got != c.adj {
				t.Errorf("adjacency\ngot  %s\nwant %s", got, c.adj)
			}
			if g.Directed != c.directed {
				t.Errorf("directed %v, want %v", g.Directed, c.directed)
			}
			if c.check != nil {
				c.check(t, g.Origin)
			}
		})
	}
}

func TestUniformWeights(t *testing.T) {
	data := "0 1\n1 2\n2 0\n0 3\n3 4\n"
	a := loadText(t, "a.txt", data, opts(func(o *Options) { o.Weights = "uniform:1:1000"; o.Direction = "undirected" }))
	checkCSR(t, a) // both arcs of an edge carry the same weight
	for _, w := range a.Weights {
		if w < 1 || w > 1000 {
			t.Fatalf("weight %d outside 1..1000", w)
		}
	}
	b := loadText(t, "b.txt", data, opts(func(o *Options) { o.Weights = "uniform:1:1000"; o.Direction = "undirected" }))
	if !reflect.DeepEqual(a.Weights, b.Weights) {
		t.Errorf("same seed, different weights: %v %v", a.Weights, b.Weights)
	}
	c := loadText(t, "c.txt", data, opts(func(o *Options) { o.Weights = "uniform:1:1000"; o.Direction = "undirected"; o.Seed = 2 }))
	if reflect.DeepEqual(a.Weights, c.Weights) {
		t.Errorf("seeds 1 and 2 give the same weights %v", a.Weights)
	}
}

func TestGzipMatchesPlain(t *testing.T) {
	for _, f := range []string{"rome99.gr", "4elt.graph", "chesapeake.mtx", "wiki-Vote.txt"} {
		plain := mustLoad(t, filepath.Join(graphsDir, f), DefaultOptions())
		data, err := os.ReadFile(filepath.Join(graphsDir, f))
		if err != nil {
			t.Fatal(err)
		}
		gz := filepath.Join(t.TempDir(), f+".gz")
		os.WriteFile(gz, gzipBytes(data), 0o644)
		g := mustLoad(t, gz, DefaultOptions())
		if g.Fingerprint() != plain.Fingerprint() || g.Origin.Format != plain.Origin.Format {
			t.Errorf("%s: gzip %s %s, plain %s %s", f, g.Origin.Format, g.Fingerprint(), plain.Origin.Format, plain.Fingerprint())
		}
	}
}

func TestLoadReader(t *testing.T) {
	g, err := LoadReader(context.Background(), strings.NewReader("p tw 2 1\n1 2\n"), "stdin.gr", DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if adj(g) != "0:1 1:0" || g.Origin.Format != "pace" {
		t.Errorf("got %s %s", adj(g), g.Origin.Format)
	}
}

func TestParseOptions(t *testing.T) {
	o, err := ParseOptions(map[string]string{"format": "mtx", "base": "1", "selfloops": "keep", "duplicates": "keep",
		"weights": "uniform:1:9", "seed": "7", "cache": "on"}, []string{"undirected"})
	if err != nil {
		t.Fatal(err)
	}
	want := Options{Format: "mtx", Direction: "undirected", Base: 1, SelfLoops: "keep", Duplicates: "keep", Weights: "uniform:1:9", Seed: 7, Cache: true}
	if !reflect.DeepEqual(o, want) {
		t.Errorf("got %+v\nwant %+v", o, want)
	}
	if o, err := ParseOptions(nil, nil); err != nil || !reflect.DeepEqual(o, DefaultOptions()) {
		t.Errorf("empty: %+v %v", o, err)
	}
	if o, _ := ParseOptions(map[string]string{"direction": "directed"}, []string{"cache"}); o.Direction != "directed" || !o.Cache {
		t.Errorf("direction=directed cache: %+v", o)
	}
	bad := []struct {
		kv    map[string]string
		flags []string
		want  string
	}{
		{map[string]string{"fromat": "mtx"}, nil, `unknown option fromat=mtx (did you mean "format"?)`},
		{map[string]string{"format": "mtxx"}, nil, `format=mtxx: expected one of mtx, snap`},
		{map[string]string{"base": "2"}, nil, "base=2: expected 0 or 1"},
		{map[string]string{"selfloops": "yes"}, nil, "selfloops=yes: expected keep or drop"},
		{map[string]string{"duplicates": "x"}, nil, "duplicates=x: expected keep or drop"},
		{map[string]string{"weights": "gauss"}, nil, "weights=gauss: expected keep, drop or uniform:LO:HI"},
		{map[string]string{"weights": "uniform:1"}, nil, "expected uniform:LO:HI"},
		{map[string]string{"seed": "x"}, nil, "seed=x: expected an integer"},
		{map[string]string{"cache": "maybe"}, nil, "cache=maybe: expected on or off"},
		{nil, []string{"directed", "undirected"}, "both directed and undirected"},
		{nil, []string{"undirceted"}, `unknown flag "undirceted" (did you mean "undirected"?)`},
	}
	for _, c := range bad {
		_, err := ParseOptions(c.kv, c.flags)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v %v: got %v, want %q", c.kv, c.flags, err, c.want)
		}
	}
}

func TestOptionsChecked(t *testing.T) {
	for _, o := range []Options{
		opts(func(o *Options) { o.Format = "xml" }),
		opts(func(o *Options) { o.Direction = "both" }),
		opts(func(o *Options) { o.Base = 2 }),
		opts(func(o *Options) { o.SelfLoops = "maybe" }),
		opts(func(o *Options) { o.Duplicates = "maybe" }),
		opts(func(o *Options) { o.Weights = "uniform:-1:3" }),
	} {
		if _, err := Load(context.Background(), filepath.Join(graphsDir, "chesapeake.mtx"), o); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Load(ctx, filepath.Join(graphsDir, "NY.gr"), DefaultOptions()); err != context.Canceled {
		t.Errorf("Load: got %v, want context.Canceled", err)
	}
	if _, err := Generate(ctx, "kron", map[string]string{"scale": "12"}, nil); err != context.Canceled {
		t.Errorf("Generate: got %v, want context.Canceled", err)
	}
}

func TestCancelMidway(t *testing.T) {
	if testing.Short() {
		t.Skip("generates a large graph")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := Generate(ctx, "kron", map[string]string{"scale": "20"}, nil)
	if err != context.DeadlineExceeded {
		t.Fatalf("got %v, want context.DeadlineExceeded", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("cancelled generation returned after %v", d)
	}
}
