package tui

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/gworkbench/gworkbench/engine"
)

func transcript(t *testing.T, tm *teatest.TestModel) []string {
	t.Helper()
	ch := make(chan []string, 1)
	tm.Send(transcriptMsg{lines: ch})
	select {
	case l := <-ch:
		return l
	case <-time.After(5 * time.Second):
		t.Fatal("no transcript")
	}
	return nil
}

// checkConsecutive checks that the "  line N" lines of the transcript count up by one with
// none missing, and returns the first and last N and the index after the last.
func checkConsecutive(t *testing.T, lines []string) (first, last, end int) {
	t.Helper()
	first, last = -1, -1
	for i, l := range lines {
		n, err := strconv.Atoi(strings.TrimPrefix(l, "  line "))
		if !strings.HasPrefix(l, "  line ") || err != nil {
			continue
		}
		switch {
		case first < 0:
			first = n
		case n != last+1:
			t.Fatalf("line %d follows line %d: lines were lost or reordered", n, last)
		}
		last, end = n, i+1
	}
	return first, last, end
}

// Output pushed as fast as a session can print reaches the transcript whole and in order,
// and the end of the command (its error) comes after all of it.
func TestFloodLosesNoLines(t *testing.T) {
	tm, _ := start(t, newFake)
	typeLine(tm, "flood 30000")
	screen(t, tm, "the end of the flood", func(s string) bool { return idle(s) && has("line 29999")(s) })
	lines := transcript(t, tm)
	first, last, end := checkConsecutive(t, lines)
	if last != 29999 || first > 30000-maxTranscript {
		t.Errorf("lines %d to %d kept, want up to 29999 from at most %d", first, last, 30000-maxTranscript)
	}
	if end != len(lines) && strings.TrimSpace(strings.Join(lines[end:], "")) != "" {
		t.Errorf("output after the last line: %q", lines[end:])
	}

	// Cancelled while it prints: the cancellation follows the last line printed.
	for round := range 5 {
		tm.Send(tea.KeyPressMsg{Code: 'l', Mod: tea.ModCtrl}) // clear the output of the last round
		typeLine(tm, "flood 100000000")
		screen(t, tm, "the flood", has("  line "))
		tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
		// The error is the last line, in view: were it shown before the last batch of output
		// (execDoneMsg overtaking a feedMsg), the lines after it would push it away.
		screen(t, tm, "the cancellation, in view", func(s string) bool { return idle(s) && has("flood cancelled")(s) })
		lines := transcript(t, tm)
		_, last, end := checkConsecutive(t, lines)
		// Said as the REPL says a cancellation: not as an error.
		want := fmt.Sprintf("flood cancelled after %d lines", last+1)
		if end >= len(lines) || !strings.HasPrefix(ansi.Strip(lines[end]), want) {
			t.Fatalf("round %d: after line %d, want %q; the transcript ends with:\n%s", round, last, want, strings.Join(lines[max(0, end-3):], "\n"))
		}
	}
}

// Output lines wrap at spaces, not in the middle of a word, and an indented line's
// continuation keeps its indent.
func TestOutputWrapsAtSpaces(t *testing.T) {
	tm, _ := start(t, newFake)
	long := strings.Repeat("make it current ", 12)
	typeLine(tm, "echo "+long)
	typeLine(tm, "echo     indented "+long)
	s := ansi.Strip(screen(t, tm, "the echo", has("indented")))
	var main []string
	for _, l := range strings.Split(s, "\n") {
		l, _, _ = strings.Cut(l, "│")
		main = append(main, strings.TrimRight(l, " "))
	}
	for _, l := range main {
		for _, f := range strings.Fields(l) {
			for _, w := range []string{"make", "current", "indented"} {
				if f != w && len(f) >= 2 && (strings.HasPrefix(w, f) || strings.HasSuffix(w, f)) {
					t.Errorf("a word broken by the wrap: %q in %q", f, l)
				}
			}
		}
	}
	after := false
	for _, l := range main {
		if strings.HasPrefix(l, "    indented") {
			after = true
			continue
		}
		if after && l != "" {
			if !strings.HasPrefix(l, "    make") && !strings.HasPrefix(l, "    it") && !strings.HasPrefix(l, "    current") {
				t.Errorf("the continuation of an indented line lost its indent: %q", l)
			}
			break
		}
	}
	// Each wrapped piece carries its own style, so that it does not leak into the side panel.
	for _, l := range wrapLine(errStyle.Render("error: "+long), 30) {
		if ansi.StringWidth(l) > 30 || !strings.HasPrefix(l, "\x1b[") {
			t.Errorf("wrapped piece %q: wider than 30 or without its style", l)
		}
	}
}

// A value list wider than the panel shows the window around the selected value, with ‹ ›.
func TestScheduleValueWindow(t *testing.T) {
	tm, _ := start(t, newFake)
	typeLine(tm, "set delta=auto")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyF2})
	screen(t, tm, "the panel", has("schedule · bfs on cpu"))
	tm.Send(tea.KeyPressMsg{Code: tea.KeyRight}) // sssp: delta is listed
	screen(t, tm, "sssp", has("schedule · sssp on cpu"))
	for range 20 {
		if strings.Contains(ansi.Strip(screen(t, tm, "a row", func(string) bool { return true })), "▸ delta") {
			break
		}
		tm.Send(tea.KeyPressMsg{Code: tea.KeyDown})
	}
	row := func(s string) string {
		for _, l := range strings.Split(ansi.Strip(s), "\n") {
			if i := strings.Index(l, "▸ delta"); i >= 0 {
				return strings.TrimRight(l[i:], " ")
			}
		}
		return ""
	}
	s := screen(t, tm, "delta selected", has("▸ delta"))
	if r := row(s); !strings.Contains(r, "auto") || !strings.HasSuffix(r, "›") || strings.Contains(r, "…") {
		t.Errorf("the start of the list: %q, want auto and a ›, nothing cut", r)
	}
	for range 9 {
		tm.Send(tea.KeyPressMsg{Code: tea.KeyRight})
	}
	s = screen(t, tm, "delta=256", has("this panel only: delta=256"))
	if r := row(s); !strings.Contains(r, "256") || !strings.Contains(r, "‹") || strings.Contains(r, "…") {
		t.Errorf("the end of the list: %q, want 256 in view after a ‹", r)
	}
	if got := windowValues([]string{"aaaa", "bbbb", "cccc", "dddd", "eeee"}, 2, 14); ansi.Strip(got) != "‹ cccc dddd ›" && ansi.Strip(got) != "‹ bbbb cccc ›" {
		t.Errorf("windowValues = %q", ansi.Strip(got))
	}
}

// A value the engine does not run in this combination (outside its schedule space) is dimmed
// with the reason, even though the schedule's own rules allow it.
func TestScheduleDimsValuesOutsideTheSpace(t *testing.T) {
	p := schedPanel{alg: engine.BFS, engineName: "cpu"}
	if err := p.sched.Set("direction", "pull"); err != nil {
		t.Fatal(err)
	}
	row := schedRow{name: "frontier", values: []string{"auto", "queue", "bitmap", "boolmap"}}
	if err := func() error { s := p.sched; s.Set("frontier", "queue"); return s.Validate(engine.BFS, "cpu") }(); err != nil {
		t.Skipf("Validate refuses direction=pull frontier=queue itself: %v", err)
	}
	if why := p.check(row, "queue"); !strings.Contains(why, "does not implement frontier=queue with direction=pull for bfs") {
		t.Errorf("frontier=queue with direction=pull: got %q", why)
	}
	if why := p.check(row, "bitmap"); why != "" {
		t.Errorf("frontier=bitmap with direction=pull is refused: %q", why)
	}

	tm, _ := start(t, newFake)
	typeLine(tm, "set direction=pull")
	screen(t, tm, "the set", idle)
	tm.Send(tea.KeyPressMsg{Code: tea.KeyF2})
	screen(t, tm, "the panel", has("schedule · bfs on cpu"))
	for range 20 {
		if strings.Contains(ansi.Strip(screen(t, tm, "a row", func(string) bool { return true })), "▸ frontier") {
			break
		}
		tm.Send(tea.KeyPressMsg{Code: tea.KeyDown})
	}
	s := ansi.Strip(screen(t, tm, "frontier selected", has("▸ frontier")))
	var side []string
	for _, l := range strings.Split(s, "\n") {
		if _, r, ok := strings.Cut(l, "│"); ok {
			side = append(side, r)
		}
	}
	if !strings.Contains(strings.Join(strings.Fields(strings.Join(side, " ")), " "), "queue: the cpu engine does not implement frontier with direction=pull for bfs") {
		t.Errorf("the panel does not say why queue is dimmed:\n%s", s)
	}
}

// The Results panel lists compares, sweeps and tunes too.
func TestResultsListComparisons(t *testing.T) {
	tm, _ := start(t, newFake)
	typeLine(tm, "run bfs")
	screen(t, tm, "the run", has("bfs1: 7 iterations"))
	typeLine(tm, "compare bfs direction=push,pull")
	screen(t, tm, "the compare", func(s string) bool { return idle(s) && has("cmp1: compare")(s) })
	typeLine(tm, "tune bfs")
	s := ansi.Strip(screen(t, tm, "the comparisons", has("tune2")))
	for _, want := range []string{"bfs1 cpu 7it", "cmp1 compare 2/3 ran 1.50ms", "tune2 tune 2/3 ran"} {
		if !strings.Contains(s, want) {
			t.Errorf("the side panel lacks %q:\n%s", want, s)
		}
	}
}

// Without colours (the Ascii profile of these tests), pull bars are drawn ▓ and push bars █.
func TestNoColourBarsDiffer(t *testing.T) {
	tm, _ := start(t, newFake)
	typeLine(tm, "run bfs")
	s := ansi.Strip(screen(t, tm, "the run", has("bfs1: 7 iterations")))
	if !strings.Contains(s, "▓") || !strings.Contains(s, "█") {
		t.Errorf("push and pull bars look alike without colour:\n%s", s)
	}
}
