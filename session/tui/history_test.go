package tui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/teatest/v2"
)

// TestHistorySurvivesRestart: the TUI reads the history file the REPL writes, ↑ brings back a
// command of an earlier session, and a command typed in the TUI is there after a restart.
func TestHistorySurvivesRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gworkbench", "history")
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.WriteFile(path, []byte("run bfs\nrun sssp delta=8\n"), 0o600) // as the REPL left it
	open := func() *teatest.TestModel {
		feed := NewFeed()
		m := newModel(context.Background(), newFake(feed), feed)
		m.now = func() time.Time { return fixedNow }
		m.loadHistory(path)
		tm := teatest.NewTestModel(t, probe{m}, teatest.WithInitialTermSize(termW, termH),
			teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
		return tm
	}
	tm := open()
	tm.Send(tea.KeyPressMsg{Code: tea.KeyUp})
	screen(t, tm, "the REPL's last command", inputIs("› run sssp delta=8"))
	tm.Send(tea.KeyPressMsg{Code: tea.KeyUp})
	screen(t, tm, "the one before", inputIs("› run bfs"))
	tm.Send(tea.KeyPressMsg{Code: tea.KeyDown})
	tm.Send(tea.KeyPressMsg{Code: tea.KeyDown})
	typeLine(tm, "echo typed in the tui")
	screen(t, tm, "the echo", has("typed in the tui"))
	tm.Quit()
	data, _ := os.ReadFile(path)
	if !strings.HasSuffix(string(data), "run sssp delta=8\necho typed in the tui\n") {
		t.Errorf("history file:\n%s", data)
	}
	tm = open()
	defer tm.Quit()
	tm.Send(tea.KeyPressMsg{Code: tea.KeyUp})
	screen(t, tm, "the TUI's command after a restart", inputIs("› echo typed in the tui"))
}

// TestZoomHideAndPager: Ctrl+O gives the output the whole screen, Ctrl+G hides the side panel,
// Ctrl+P opens the last command's output in the pager, and a scrolled-up output says where
// it is.
func TestZoomHideAndPager(t *testing.T) {
	tm, _ := start(t, newFake)
	typeLine(tm, "flood 200")
	screen(t, tm, "the flood", func(s string) bool { return has("line 199")(s) && idle(s) })
	tm.Send(tea.KeyPressMsg{Code: tea.KeyPgUp})
	screen(t, tm, "the scroll position", has("↑ lines "))
	tm.Send(tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl})
	screen(t, tm, "the zoomed output", func(s string) bool { return !has("Graphs")(s) })
	tm.Send(tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl})
	screen(t, tm, "the side panel back", has("Graphs"))
	tm.Send(tea.KeyPressMsg{Code: 'g', Mod: tea.ModCtrl})
	screen(t, tm, "the side panel hidden", func(s string) bool { return !has("Graphs")(s) })
	tm.Send(tea.KeyPressMsg{Code: 'p', Mod: tea.ModCtrl})
	screen(t, tm, "the pager", has("output of flood 200"))
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
	screen(t, tm, "the pager closed", func(s string) bool { return !has("output of flood")(s) })
}

// TestProgressInStatusLine: the progress of a long command (percent, rate) shows in the
// status line while it runs, and goes when it ends.
func TestProgressInStatusLine(t *testing.T) {
	gate := make(chan struct{})
	tm, _ := start(t, func(f *Feed) *fakeSession { s := newFake(f); s.gate = gate; return s })
	typeLine(tm, "load big.el")
	screen(t, tm, "the progress", has("parse 50.0 MB / 200.0 MB (25%, 120.0 MB/s)"))
	gate <- struct{}{}
	screen(t, tm, "the end", func(s string) bool { return idle(s) && !has("120.0 MB/s")(s) })
}
