package tui

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/gworkbench/gworkbench/loader"
	"github.com/gworkbench/gworkbench/session"
)

// TestRealSession drives a real session on the cpu engine through the TUI, wired as
// cmd/gworkbench wires it.
func TestRealSession(t *testing.T) {
	feed := NewFeed()
	s := session.New(feed.Options(session.Options{Width: termW}))
	var edges []loader.Edge
	for v := uint32(1); v < 2000; v++ {
		edges = append(edges, loader.Edge{U: v - 1, V: v})
	}
	g, err := loader.FromEdges(2000, edges, false, false)
	if err != nil {
		t.Fatal(err)
	}
	s.AddGraph("path", g, "")
	m := newModel(context.Background(), s, feed)
	tm := teatest.NewTestModel(t, probe{m}, teatest.WithInitialTermSize(termW, termH),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	t.Cleanup(func() { tm.Quit() })

	typeLine(tm, "run bfs src=0")
	scr := ansi.Strip(screen(t, tm, "the finished run", has("✓ bfs1")))
	for _, want := range []string{"2000 iterations", "reached 100%", "bfs1 cpu 2000it"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the screen lacks %q:\n%s", want, scr)
		}
	}
	// The panel and a typed set agree.
	typeLine(tm, "set direction=pull")
	screen(t, tm, "the set", idle)
	tm.Send(tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl})
	scr = ansi.Strip(screen(t, tm, "the panel", has("schedule · bfs on cpu")))
	if !strings.Contains(scr, "direction pull") && !strings.Contains(scr, "direction auto push pull") {
		t.Errorf("the panel does not show direction=pull:\n%s", scr)
	}
	if _, sched := s.Settings(); sched.Direction.String() != "pull" {
		t.Errorf("session direction = %s, want pull", sched.Direction)
	}
}

// The session lays tables out for the output panel's width: a table on a wide terminal is
// cut at the panel's edge, not at a fixed 100 columns.
func TestRealSessionFollowsPanelWidth(t *testing.T) {
	feed := NewFeed()
	s := session.New(feed.Options(session.Options{}))
	m := newModel(context.Background(), s, feed)
	tm := teatest.NewTestModel(t, probe{m}, teatest.WithInitialTermSize(180, 40),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	t.Cleanup(func() { tm.Quit() })
	typeLine(tm, "knobs")
	scr := ansi.Strip(screen(t, tm, "the knobs", has("meaning")))
	mainW := m.geometry().mainW
	if mainW <= 110 {
		t.Fatalf("the output panel is %d wide on a 180-column terminal", mainW)
	}
	cut := 0
	for _, l := range strings.Split(scr, "\n") {
		if i := strings.Index(l, "…"); i >= 0 {
			cut = max(cut, len([]rune(l[:i])))
		}
	}
	if cut < mainW-2 {
		t.Errorf("table lines are cut at column %d, the panel is %d wide:\n%s", cut, mainW, scr)
	}
}
