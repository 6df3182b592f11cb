package loader

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// Options controls how a file becomes a graph. DefaultOptions means: detect the format,
// follow the format's direction and id base, drop self-loops and duplicate edges, keep
// weights. The zero value is the same except that Base 0 forces 0-based ids.
type Options struct {
	Format     string    // "" = detect by extension and content; else mtx, snap, dimacs, pace, metis, el, wel, gwg
	Direction  string    // "" = the format's; "directed"; "undirected" (symmetrize)
	Base       int       // -1 = the format's (or detected); 0 or 1
	SelfLoops  string    // "drop" (default) or "keep"
	Duplicates string    // "drop" (default) or "keep"
	Weights    string    // "keep" (default), "drop", or "uniform:LO:HI" ("uniform" alone: 1..255, as GAPBS)
	Seed       int64     // seed for generated weights (default 1)
	Cache      bool      // write a .gwg beside the source and reuse it while it is newer; Origin.Note says which, or why it could not be written (the load goes on)
	Progress   io.Writer // where progress goes on a terminal; nil = quiet
}

// DefaultOptions returns the zero-value defaults made explicit.
func DefaultOptions() Options {
	return Options{Base: -1, SelfLoops: "drop", Duplicates: "drop", Weights: "keep", Seed: 1}
}

// ParseOptions turns a load command's words into Options: key=value pairs (format=, base=,
// selfloops=, duplicates=, weights=, seed=, cache=on|off, direction=) and bare flags
// (directed, undirected, cache). Unknown keys and values are refused with a did-you-mean.
func ParseOptions(kv map[string]string, flags []string) (Options, error) {
	o := DefaultOptions()
	keys := []string{"format", "base", "selfloops", "duplicates", "weights", "seed", "cache", "direction"}
	for _, k := range sortedKeys(kv) {
		v := kv[k]
		var err error
		switch k {
		case "format":
			if !contains(Formats(), v) {
				err = fmt.Errorf("loader: format=%s: expected one of %s%s", v, strings.Join(Formats(), ", "), didYouMean(v, Formats()))
			}
			o.Format = v
		case "base":
			switch v {
			case "0":
				o.Base = 0
			case "1":
				o.Base = 1
			default:
				err = fmt.Errorf("loader: base=%s: expected 0 or 1", v)
			}
		case "selfloops", "duplicates":
			if v != "keep" && v != "drop" {
				err = fmt.Errorf("loader: %s=%s: expected keep or drop", k, v)
			}
			if k == "selfloops" {
				o.SelfLoops = v
			} else {
				o.Duplicates = v
			}
		case "weights":
			_, err = parseWeights(v)
			o.Weights = v
		case "seed":
			o.Seed, err = strconv.ParseInt(v, 10, 64)
			if err != nil {
				err = fmt.Errorf("loader: seed=%s: expected an integer", v)
			}
		case "cache":
			o.Cache, err = parseBool(v)
			if err != nil {
				err = fmt.Errorf("loader: cache=%s: expected on or off", v)
			}
		case "direction":
			if v != "directed" && v != "undirected" {
				err = fmt.Errorf("loader: direction=%s: expected directed or undirected", v)
			}
			o.Direction = v
		default:
			err = fmt.Errorf("loader: unknown option %s=%s%s; options: %s", k, v, didYouMean(k, keys), strings.Join(withEq(keys), " "))
		}
		if err != nil {
			return DefaultOptions(), err
		}
	}
	flagNames := []string{"directed", "undirected", "cache"}
	for _, f := range flags {
		switch f {
		case "directed", "undirected":
			if o.Direction != "" && o.Direction != f {
				return DefaultOptions(), fmt.Errorf("loader: both %s and %s given", o.Direction, f)
			}
			o.Direction = f
		case "symmetrize":
			o.Direction = "undirected"
		case "cache":
			o.Cache = true
		default:
			return DefaultOptions(), fmt.Errorf("loader: unknown flag %q%s; flags: %s (and key=value options %s)", f, didYouMean(f, flagNames), strings.Join(flagNames, ", "), strings.Join(withEq(keys), " "))
		}
	}
	return o, nil
}

func sortedKeys(kv map[string]string) []string {
	keys := make([]string, 0, len(kv))
	for k := range kv {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// options is Options checked and decoded.
type options struct {
	format    string
	direction string
	base      int
	keepLoops bool
	keepDups  bool
	weights   weightSpec
	seed      int64
	cache     bool
	progress  io.Writer
}

func (opt Options) check() (*options, error) {
	o := &options{format: opt.Format, direction: opt.Direction, base: opt.Base, seed: opt.Seed, cache: opt.Cache, progress: opt.Progress}
	if o.format != "" && !contains(Formats(), o.format) {
		return nil, fmt.Errorf("loader: format %q: expected one of %s%s", o.format, strings.Join(Formats(), ", "), didYouMean(o.format, Formats()))
	}
	if o.direction != "" && o.direction != "directed" && o.direction != "undirected" {
		return nil, fmt.Errorf("loader: direction %q: expected directed or undirected", o.direction)
	}
	if o.base < -1 || o.base > 1 {
		return nil, fmt.Errorf("loader: base %d: expected 0, 1 or -1 (the format's)", o.base)
	}
	switch opt.SelfLoops {
	case "", "drop":
	case "keep":
		o.keepLoops = true
	default:
		return nil, fmt.Errorf("loader: selfloops=%s: expected keep or drop", opt.SelfLoops)
	}
	switch opt.Duplicates {
	case "", "drop":
	case "keep":
		o.keepDups = true
	default:
		return nil, fmt.Errorf("loader: duplicates=%s: expected keep or drop", opt.Duplicates)
	}
	var err error
	if o.weights, err = parseWeights(opt.Weights); err != nil {
		return nil, err
	}
	return o, nil
}

// key is the canonical text of the options that shape the graph, stored in a .gwg cache so
// that a cache made with other options is not reused.
// ids=file marks caches whose graphs keep the file's vertex ids (graph.IDs): a cache made
// before, with sparse ids as isolated vertices, is rebuilt.
func (o *options) key() string {
	return fmt.Sprintf("format=%s direction=%s base=%d selfloops=%v duplicates=%v weights=%s seed=%d ids=file",
		o.format, o.direction, o.base, o.keepLoops, o.keepDups, o.weights, o.seed)
}
