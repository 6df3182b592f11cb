package engine

import (
	"fmt"
	"strconv"
	"strings"
)

// Params are an algorithm's parameters (what is computed), as opposed to the schedule (how).
type Params struct {
	Src       int64   // bfs, sssp, bc: source vertex; SrcAuto, or SrcRandom (one picked with Seed)
	Damping   float64 // pr: damping factor (0.85)
	Tolerance float64 // pr: stop when the L1 change of the ranks in one iteration is below this (1e-4)
	MaxIter   int     // pr: iteration cap (100)
	Sources   int     // bc: 0 = the single source src; k > 0 = k sampled sources; -1 = all vertices. bfs, sssp: k > 0 = one run from each of k sampled sources (the session's trials)
	Seed      int64   // source sampling (src=random, sources=k), mis priorities (1)
}

// Src values that are not vertex ids.
const (
	SrcAuto   int64 = -1 // the highest out-degree vertex, lowest id on ties
	SrcRandom int64 = -2 // a vertex with an edge, sampled with Seed (SampleSources)
)

// DefaultParams returns the defaults of every parameter.
func DefaultParams() Params {
	return Params{Src: -1, Damping: 0.85, Tolerance: 1e-4, MaxIter: 100, Sources: 0, Seed: 1}
}

// Param describes one algorithm parameter.
type Param struct {
	Name       string
	Default    string
	Doc        string
	Algorithms []Algorithm
	get        func(*Params) string
	set        func(*Params, string) error
}

var params = []Param{
	{Name: "src", Default: "auto", Doc: "source vertex, by the id of the graph's file (auto: the highest-degree vertex, lowest id on ties; random: a vertex with an edge, picked with seed=)", Algorithms: []Algorithm{BFS, SSSP, BC},
		get: func(p *Params) string {
			switch {
			case p.Src == SrcRandom:
				return "random"
			case p.Src < 0:
				return "auto"
			}
			return strconv.FormatInt(p.Src, 10)
		},
		set: func(p *Params, v string) error {
			switch v {
			case "auto":
				p.Src = SrcAuto
				return nil
			case "random":
				p.Src = SrcRandom
				return nil
			}
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n < 0 || n > 1<<32-1 {
				return fmt.Errorf("engine: src=%s: want a vertex id (as the graph's file numbers it), auto or random", v)
			}
			p.Src = n
			return nil
		}},
	{Name: "damping", Default: "0.85", Doc: "PageRank damping factor in (0,1)", Algorithms: []Algorithm{PR},
		get: func(p *Params) string { return strconv.FormatFloat(p.Damping, 'g', -1, 64) },
		set: func(p *Params, v string) error {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil || !(f > 0 && f < 1) {
				return fmt.Errorf("engine: damping=%s: want a number between 0 and 1", v)
			}
			p.Damping = f
			return nil
		}},
	{Name: "tolerance", Default: "0.0001", Doc: "PageRank stops when the L1 change of one iteration is below this", Algorithms: []Algorithm{PR},
		get: func(p *Params) string { return strconv.FormatFloat(p.Tolerance, 'g', -1, 64) },
		set: func(p *Params, v string) error {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil || !(f >= 0) {
				return fmt.Errorf("engine: tolerance=%s: want a non-negative number", v)
			}
			p.Tolerance = f
			return nil
		}},
	{Name: "max_iter", Default: "100", Doc: "PageRank iteration cap", Algorithms: []Algorithm{PR},
		get: func(p *Params) string { return strconv.Itoa(p.MaxIter) },
		set: func(p *Params, v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return fmt.Errorf("engine: max_iter=%s: want a positive integer", v)
			}
			p.MaxIter = n
			return nil
		}},
	{Name: "sources", Default: "0", Doc: "bfs, sssp: k = one timed run from each of k random sources with an edge (seed=), as GAPBS's trials; bc: 0 = from src only, k = dependencies summed over k sampled sources, all = every vertex", Algorithms: []Algorithm{BFS, SSSP, BC},
		get: func(p *Params) string {
			if p.Sources < 0 {
				return "all"
			}
			return strconv.Itoa(p.Sources)
		},
		set: func(p *Params, v string) error {
			if v == "all" {
				p.Sources = -1
				return nil
			}
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return fmt.Errorf("engine: sources=%s: want a non-negative integer or all", v)
			}
			p.Sources = n
			return nil
		}},
	{Name: "seed", Default: "1", Doc: "random seed (src=random and sources=k sampling, mis priorities)", Algorithms: []Algorithm{BFS, SSSP, BC, MIS},
		get: func(p *Params) string { return strconv.FormatInt(p.Seed, 10) },
		set: func(p *Params, v string) error {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return fmt.Errorf("engine: seed=%s: want an integer", v)
			}
			p.Seed = n
			return nil
		}},
}

// ParamSpecs returns every algorithm parameter.
func ParamSpecs() []Param { return params }

// ParamNames returns the parameter names.
func ParamNames() []string {
	n := make([]string, len(params))
	for i, p := range params {
		n[i] = p.Name
	}
	return n
}

// LookupParam returns the parameter with the given name.
func LookupParam(name string) (Param, bool) {
	for _, p := range params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// AppliesTo reports whether the parameter belongs to the algorithm.
func (p Param) AppliesTo(a Algorithm) bool { return hasAlg(p.Algorithms, a) }

// Set sets the named parameter from its text form; on error p is unchanged.
func (p *Params) Set(name, value string) error {
	spec, ok := LookupParam(name)
	if !ok {
		return fmt.Errorf("engine: unknown parameter %q%s", name, didYouMean(name, ParamNames()))
	}
	t := *p
	if err := spec.set(&t, strings.ToLower(strings.TrimSpace(value))); err != nil {
		return err
	}
	*p = t
	return nil
}

// Get returns the named parameter in text form.
func (p *Params) Get(name string) string {
	spec, ok := LookupParam(name)
	if !ok {
		return ""
	}
	return spec.get(p)
}

// For returns the parameters that belong to the algorithm, by name (results and JSON).
func (p Params) For(a Algorithm) map[string]string {
	m := map[string]string{}
	for _, spec := range params {
		if spec.AppliesTo(a) {
			m[spec.Name] = spec.get(&p)
		}
	}
	return m
}
