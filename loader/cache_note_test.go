package loader

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCacheNote: cache=on says where it wrote the .gwg, and a cache that cannot be written
// (a directory in the way, a read-only directory) does not fail the load; the note says why.
func TestCacheNote(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(graphsDir, "rome99.gr"))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		setup func(t *testing.T, dir string) // makes dir/rome.gr's cache unwritable, or not
		want  []string
		wrote bool
	}{
		{"writable", func(*testing.T, string) {}, []string{"wrote cache DIR/rome.gr.gwg"}, true},
		{"directory in the way", func(t *testing.T, dir string) {
			os.MkdirAll(filepath.Join(dir, "rome.gr.gwg", "x"), 0o755)
		}, []string{"cache rome.gr.gwg not used", "cache DIR/rome.gr.gwg not written (", "); loaded from the text file"}, false},
		{"read-only directory", func(t *testing.T, dir string) {
			if os.Geteuid() == 0 {
				t.Skip("root writes to read-only directories")
			}
			os.Chmod(dir, 0o555)
			t.Cleanup(func() { os.Chmod(dir, 0o755) })
		}, []string{"cache DIR/rome.gr.gwg not written (cannot create a file in DIR: permission denied); loaded from the text file"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			src := filepath.Join(dir, "rome.gr")
			if err := os.WriteFile(src, data, 0o644); err != nil {
				t.Fatal(err)
			}
			c.setup(t, dir)
			g := mustLoad(t, src, opts(func(o *Options) { o.Cache = true }))
			if g.NumVertices() != 3353 || g.NumArcs() != 8859 || g.Origin.FromCache {
				t.Fatalf("V=%d arcs=%d from cache %v", g.NumVertices(), g.NumArcs(), g.Origin.FromCache)
			}
			for _, w := range c.want {
				if w = strings.ReplaceAll(w, "DIR", dir); !strings.Contains(g.Origin.Note, w) {
					t.Errorf("note %q\nwant %q", g.Origin.Note, w)
				}
			}
			fi, err := os.Stat(src + ".gwg")
			if wrote := err == nil && fi.Mode().IsRegular(); wrote != c.wrote {
				t.Errorf("cache written: %v, want %v", wrote, c.wrote)
			}
			if c.wrote {
				// The cache keeps the note of the text load, not the note about itself.
				h := mustLoad(t, src, opts(func(o *Options) { o.Cache = true }))
				if !h.Origin.FromCache || strings.Contains(h.Origin.Note, "wrote cache") || !strings.Contains(h.Origin.Note, "loaded from cache rome.gr.gwg") {
					t.Errorf("second load: from cache %v, note %q", h.Origin.FromCache, h.Origin.Note)
				}
			}
		})
	}
}
