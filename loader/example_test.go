package loader_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/gworkbench/gworkbench/loader"
)

func ExampleLoad() {
	g, err := loader.Load(context.Background(), "../testdata/graphs/rome99.gr", loader.DefaultOptions())
	if err != nil {
		fmt.Println(err)
		return
	}
	o := g.Origin
	fmt.Println(g.NumVertices(), g.NumArcs(), g.Directed, g.Weighted())
	fmt.Println(o.Format, o.Base, o.DirectionAssumed, o.DuplicatesRemoved)
	// Output:
	// 3353 8859 true true
	// dimacs 1 DIMACS arcs 11
}

func ExampleGenerate() {
	g, err := loader.Generate(context.Background(), "grid", map[string]string{"rows": "3", "cols": "4"}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(g.NumVertices(), g.NumEdges(), g.Neigh(5), g.Origin.Generator)
	// Output: 12 17 [1 4 6 9] grid rows=3 cols=4
}

func ExampleParseOptions() {
	opt, err := loader.ParseOptions(map[string]string{"weights": "uniform:1:9", "base": "1"}, []string{"undirected"})
	fmt.Printf("%s %d %s %v\n", opt.Direction, opt.Base, opt.Weights, err)
	_, err = loader.ParseOptions(map[string]string{"selfloop": "keep"}, nil)
	fmt.Println(err)
	// Output:
	// undirected 1 uniform:1:9 <nil>
	// loader: unknown option selfloop=keep (did you mean "selfloops"?); options: format= base= selfloops= duplicates= weights= seed= cache= direction=
}

func ExampleLoadReader_badInput() {
	_, err := loader.LoadReader(context.Background(), strings.NewReader("p sp 3 1\na 1 4 7\n"), "tiny.gr", loader.DefaultOptions())
	fmt.Println(err)
	// Output: loader: tiny.gr:2: vertex id 4 is out of range: the problem line says 3 vertices, ids 1..3
}
