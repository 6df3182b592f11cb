package session

import (
	"context"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

func TestSplitCommands(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"   ", nil},
		{"run bfs", []string{"run bfs"}},
		{"set a=1; run bfs ;; info", []string{"set a=1", "run bfs", "info"}},
		{"run bfs # a comment; run sssp", []string{"run bfs"}},
		{"# all comment", nil},
		{`load g = "a;b#c.el"; info`, []string{`load g = "a;b#c.el"`, "info"}},
		{"run bfs\nrun sssp", []string{"run bfs", "run sssp"}},
	}
	for _, c := range cases {
		got, err := splitCommands(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if len(got) == 0 {
			got = nil
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: got %q want %q", c.in, got, c.want)
		}
	}
	if _, err := splitCommands(`load g = "open`); err == nil {
		t.Errorf("unterminated quote: no error")
	}
}

func TestTokenize(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"run bfs src=0", []string{"run", "bfs", "src=0"}},
		{"  run\tbfs  ", []string{"run", "bfs"}},
		{`load g = "my file.el" undirected`, []string{"load", "g", "=", "my file.el", "undirected"}},
		{`export x values 'a b.csv'`, []string{"export", "x", "values", "a b.csv"}},
		{`set x="a b"`, []string{"set", "x=a b"}},
		{`load g = ""`, []string{"load", "g", "=", ""}},
	}
	for _, c := range cases {
		got, err := tokenize(c.in)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: got %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

func TestSplitArgs(t *testing.T) {
	pairs, bare, as, err := splitArgs([]string{"src=3", "Direction=pull", "flag", "as", "x1"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []kv{{"src", "3"}, {"direction", "pull"}}; !reflect.DeepEqual(pairs, want) {
		t.Errorf("pairs: got %v want %v", pairs, want)
	}
	if !reflect.DeepEqual(bare, []string{"flag"}) || as != "x1" {
		t.Errorf("bare %q as %q", bare, as)
	}
	for _, bad := range [][]string{{"as"}, {"as", "a", "b"}, {"=3"}, {"src="}, {"as", "9x"}, {"as", "last"}} {
		if _, _, _, err := splitArgs(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestNameEquals(t *testing.T) {
	cases := []struct {
		in   []string
		name string
		rest []string
		ok   bool
	}{
		{[]string{"g", "=", "kron", "scale=3"}, "g", []string{"kron", "scale=3"}, true},
		{[]string{"g=kron", "scale=3"}, "g", []string{"kron", "scale=3"}, true},
		{[]string{"kron", "scale=3"}, "", []string{"kron", "scale=3"}, false},
		{[]string{"file.el", "format=el"}, "", []string{"file.el", "format=el"}, false},
		{[]string{"format=el"}, "", []string{"format=el"}, false},
	}
	for _, c := range cases {
		name, rest, ok := nameEquals(c.in)
		if name != c.name || ok != c.ok || !reflect.DeepEqual(rest, c.rest) {
			t.Errorf("%q: got %q %q %v, want %q %q %v", c.in, name, rest, ok, c.name, c.rest, c.ok)
		}
	}
}

func TestExpandRange(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"1:5:1", []string{"1", "2", "3", "4", "5"}},
		{"0.1:0.5:0.1", []string{"0.1", "0.2", "0.3", "0.4", "0.5"}},
		{"5:30:10", []string{"5", "15", "25"}},
		{"push,pull,auto", []string{"push", "pull", "auto"}},
		{"3", []string{"3"}},
	}
	for _, c := range cases {
		got, err := expandRange("k", c.in)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: got %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"1:2", "a:2:1", "5:1:1", "1:2:-1", "1:1000:1"} {
		if _, err := expandRange("k", bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestFormat(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", -1500: "-1,500"} {
		if got := fmtCount(n); got != want {
			t.Errorf("fmtCount(%d) = %q want %q", n, got, want)
		}
	}
	for x, want := range map[float64]string{0.30000000000000004: "0.3", 15: "15", 1e-3: "0.001"} {
		if got := fmtNum(x); got != want {
			t.Errorf("fmtNum(%v) = %q want %q", x, got, want)
		}
	}
}

func TestJoinLists(t *testing.T) {
	got := joinLists([]string{"direction=push,", "pull", ",auto", "engine=cpu", "as", "x"})
	want := []string{"direction=push,pull,auto", "engine=cpu", "as", "x"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q want %q", got, want)
	}
}

// TestRepeatedKeyRefused: a key given twice is an error that names both values, not "last
// wins", in every command that takes key=value.
func TestRepeatedKeyRefused(t *testing.T) {
	s, _ := newTest(t)
	for _, line := range []string{"run bfs direction=push direction=pull", "set src=1 src=2", "gen g = kron scale=4 scale=5", "compare bfs direction=push,pull direction=auto"} {
		err := s.Exec(context.Background(), line)
		if err == nil || !strings.Contains(err.Error(), "given twice") {
			t.Errorf("%q: got %v, want a refusal of the repeated key", line, err)
		}
	}
	if err := s.Exec(context.Background(), "run bfs direction=push direction=pull"); err == nil || !strings.Contains(err.Error(), "run bfs: direction is given twice (direction=push and direction=pull): give it once") {
		t.Errorf("got %v", err)
	}
}

// TestWorkersBeyondCores: more workers than cores is allowed, and said.
func TestWorkersBeyondCores(t *testing.T) {
	s, out := newTest(t)
	n := fmt.Sprint(runtime.NumCPU() + 1)
	mustContain(t, "run workers", do(t, s, out, "run bfs workers="+n), "workers="+n+" exceeds the "+fmt.Sprint(runtime.NumCPU())+" cores", "reached 4 of 5")
	mustContain(t, "set workers", do(t, s, out, "set workers="+n), "exceeds the")
	if got := do(t, s, out, "run bfs workers=1"); strings.Contains(got, "exceeds") {
		t.Errorf("workers=1: %s", got)
	}
}
