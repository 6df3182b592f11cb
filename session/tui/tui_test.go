package tui

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"
)

// probe wraps the model so that a test can read the screen on the UI goroutine.
type probe struct{ m *model }

type probeMsg struct{ screen chan string }

// transcriptMsg asks for the output lines the model keeps.
type transcriptMsg struct{ lines chan []string }

func (p probe) Init() tea.Cmd { return p.m.Init() }
func (p probe) View() tea.View {
	return p.m.View()
}

func (p probe) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if q, ok := msg.(probeMsg); ok {
		q.screen <- asciiScreen(p.m.View().Content)
		return p, nil
	}
	if q, ok := msg.(transcriptMsg); ok {
		q.lines <- append([]string(nil), p.m.transcript...)
		return p, nil
	}
	_, cmd := p.m.Update(msg)
	return p, cmd
}

// asciiScreen renders content as the Ascii colour profile does: no colours, attributes kept.
func asciiScreen(content string) string {
	var b bytes.Buffer
	w := &colorprofile.Writer{Forward: &b, Profile: colorprofile.Ascii}
	w.WriteString(content)
	return b.String()
}

const termW, termH = 100, 30

var fixedNow = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// start runs the TUI over a fake session at a fixed size and clock.
func start(t *testing.T, fake func(*Feed) *fakeSession) (*teatest.TestModel, *fakeSession) {
	t.Helper()
	return startSized(t, fake, termW, termH)
}

// startSized is start at w x h. A test that wants another size starts at it rather than
// resizing: the program's own size messages (two, from teatest and from Bubble Tea) arrive
// when they will, and one that came after the test's resize would undo it.
func startSized(t *testing.T, fake func(*Feed) *fakeSession, w, h int) (*teatest.TestModel, *fakeSession) {
	t.Helper()
	feed := NewFeed()
	f := fake(feed)
	m := newModel(context.Background(), f, feed)
	m.now = func() time.Time { return fixedNow }
	// What the Ascii profile's ColorProfileMsg says, set now: that message comes from the
	// program's own goroutine, and a screen probed before it arrives would draw colour glyphs.
	m.color = false
	tm := teatest.NewTestModel(t, probe{m}, teatest.WithInitialTermSize(w, h),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	t.Cleanup(func() { tm.Quit() })
	return tm, f
}

// screen waits until the screen satisfies cond and returns it.
func screen(t *testing.T, tm *teatest.TestModel, what string, cond func(string) bool) string {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	var s string
	for time.Now().Before(deadline) {
		ch := make(chan string, 1)
		tm.Send(probeMsg{screen: ch})
		select {
		case s = <-ch:
		case <-time.After(time.Second):
			continue
		}
		if cond(s) {
			return s
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s; the screen is:\n%s", what, ansi.Strip(s))
	return ""
}

func has(sub string) func(string) bool {
	return func(s string) bool { return strings.Contains(ansi.Strip(s), sub) }
}

// resize sends a w x h size until the screen has h lines (the program's own first size
// message may come after one sent early, and undo it) and returns the screen.
func resize(t *testing.T, tm *teatest.TestModel, w, h int) string {
	t.Helper()
	return screen(t, tm, fmt.Sprintf("the size %dx%d", w, h), func(s string) bool {
		if strings.Count(s, "\n") == h-1 {
			return true
		}
		tm.Send(tea.WindowSizeMsg{Width: w, Height: h})
		return false
	})
}

// inputIs checks the input line, the screen's last but one.
func inputIs(want string) func(string) bool {
	return func(s string) bool {
		lines := strings.Split(ansi.Strip(s), "\n")
		return len(lines) > 2 && strings.TrimRight(lines[len(lines)-2], " ") == want
	}
}

// idle checks that no command is running.
func idle(s string) bool { return !strings.Contains(ansi.Strip(s), "Ctrl+C cancels") }

// hasIdle checks that sub is on the screen and the command that printed it has finished: a
// command's output and its end reach the model in separate feed batches, and a golden screen
// taken between them (still "running", Ctrl+C cancels) would differ.
func hasIdle(sub string) func(string) bool {
	return func(s string) bool { return has(sub)(s) && idle(s) }
}

func typeLine(tm *teatest.TestModel, line string) {
	tm.Type(line)
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
}

func checkScreen(t *testing.T, s string) {
	t.Helper()
	if strings.Contains(s, "\x1b[38;") || strings.Contains(s, "\x1b[48;") {
		t.Errorf("colour codes left on an Ascii screen")
	}
	lines := strings.Split(s, "\n")
	if len(lines) != termH {
		t.Errorf("screen has %d lines, want %d", len(lines), termH)
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w != termW {
			t.Errorf("line %d is %d cells wide, want %d: %q", i, w, termW, ansi.Strip(l))
		}
	}
	golden.RequireEqual(t, s)
}

func TestScreenStart(t *testing.T) {
	tm, _ := start(t, newFake)
	checkScreen(t, screen(t, tm, "the welcome", has("type a command")))
}

func TestScreenAfterRun(t *testing.T) {
	tm, _ := start(t, newFake)
	typeLine(tm, "run bfs")
	checkScreen(t, screen(t, tm, "the run's summary", hasIdle("bfs1: 7 iterations")))
}

func TestScreenSchedule(t *testing.T) {
	tm, f := start(t, newFake)
	typeLine(tm, "run bfs")
	screen(t, tm, "the run", hasIdle("bfs1: 7 iterations"))
	tm.Send(tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl})
	screen(t, tm, "the panel", has("schedule · bfs on cpu"))
	// Down past algorithm and engine to direction, right to push: the panel holds it, the
	// session's defaults do not change.
	tm.Send(tea.KeyPressMsg{Code: tea.KeyDown})
	tm.Send(tea.KeyPressMsg{Code: tea.KeyDown})
	tm.Send(tea.KeyPressMsg{Code: tea.KeyRight})
	s := screen(t, tm, "direction=push", hasIdle("this panel only: direction=push"))
	if _, sched := f.Settings(); sched.Direction.String() != "auto" {
		t.Errorf("the panel changed the session's direction: %s", sched.Direction)
	}
	checkScreen(t, s)
	// Enter runs with the panel's schedule on the run line; the defaults stay.
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	screen(t, tm, "the run with the panel's schedule", func(s string) bool { return has("bfs2: 7 iterations")(s) && idle(s) })
	if _, sched := f.Settings(); sched.Direction.String() != "auto" {
		t.Errorf("Enter changed the session's direction: %s", sched.Direction)
	}
	// d makes it the default, with a visible set line.
	tm.Send(tea.KeyPressMsg{Code: tea.KeyF2})
	screen(t, tm, "the panel again", has("this panel only: direction=push"))
	tm.Type("d")
	screen(t, tm, "the set line", has("› set direction=push"))
	screen(t, tm, "the default set", func(string) bool { _, sc := f.Settings(); return sc.Direction.String() == "push" })
}

func TestScreenPanelFollowsTypedSet(t *testing.T) {
	tm, _ := start(t, newFake)
	typeLine(tm, "set driven=topology dedup=atomic")
	screen(t, tm, "the set", idle)
	tm.Send(tea.KeyPressMsg{Code: tea.KeyF2})
	s := screen(t, tm, "the panel", has("schedule · bfs on cpu"))
	for _, want := range []string{"driven    topology", "⚠ dedup=atomic only means something"} {
		if !strings.Contains(ansi.Strip(s), want) {
			t.Errorf("the panel lacks %q:\n%s", want, ansi.Strip(s))
		}
	}
}

func TestSchedulePicksAlgorithm(t *testing.T) {
	tm, _ := start(t, newFake)
	tm.Send(tea.KeyPressMsg{Code: tea.KeyF2})
	screen(t, tm, "the panel", has("schedule · bfs on cpu"))
	tm.Send(tea.KeyPressMsg{Code: tea.KeyRight}) // bfs -> sssp: delta appears
	s := screen(t, tm, "sssp's knobs", has("schedule · sssp on cpu"))
	if !strings.Contains(ansi.Strip(s), "delta") {
		t.Errorf("sssp's delta knob is not listed:\n%s", ansi.Strip(s))
	}
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	screen(t, tm, "the sssp run", has("sssp1: 7 iterations"))
}

func TestScreenHelp(t *testing.T) {
	tm, _ := start(t, newFake)
	screen(t, tm, "the welcome", has("type a command"))
	tm.Type("?")
	checkScreen(t, screen(t, tm, "the help", has("Keys")))
}

func TestScreenTracePager(t *testing.T) {
	tm, _ := start(t, newFake)
	typeLine(tm, "trace last")
	checkScreen(t, screen(t, tm, "the pager", has("Esc closes")))
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
	screen(t, tm, "the pager closed", func(s string) bool { return !has("Esc closes")(s) })
}

// TestRunStreams checks that iterations reach the live panel while the run is going.
func TestRunStreams(t *testing.T) {
	gate := make(chan struct{})
	tm, _ := start(t, func(f *Feed) *fakeSession { s := newFake(f); s.gate = gate; return s })
	typeLine(tm, "run bfs")
	for i, want := range []string{"it 0 · push", "it 1 · push", "it 2 · pull", "it 3 · pull", "it 4 · push"} {
		gate <- struct{}{}
		s := screen(t, tm, want, has(want))
		if strings.Contains(s, "bfs1: 7 iterations") {
			t.Fatalf("iteration %d: the run finished before its iterations were shown", i)
		}
	}
	s := ansi.Strip(screen(t, tm, "the switch", has("a it 2")))
	if !strings.Contains(s, "direction push→pull") {
		t.Errorf("the switch is not labelled:\n%s", s)
	}
	gate <- struct{}{}
	gate <- struct{}{}
	screen(t, tm, "the end of the run", has("✓ bfs1"))
}

// TestCtrlCCancels checks that Ctrl+C cancels a running command and the TUI goes on.
func TestCtrlCCancels(t *testing.T) {
	gate := make(chan struct{})
	tm, _ := start(t, func(f *Feed) *fakeSession { s := newFake(f); s.gate = gate; return s })
	typeLine(tm, "run bfs")
	gate <- struct{}{}
	screen(t, tm, "the first iteration", has("it 0"))
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	s := screen(t, tm, "the cancellation", hasIdle("bfs on path9 cancelled"))
	if has("error: bfs")(s) {
		t.Errorf("a cancellation is shown as an error, where the REPL says it plainly:\n%s", s)
	}
	// q quits when idle with an empty line.
	tm.Type("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(3*time.Second))
}

func TestHistoryAndCompletion(t *testing.T) {
	tm, _ := start(t, newFake)
	typeLine(tm, "run bfs")
	screen(t, tm, "the run", has("bfs1: 7 iterations"))
	tm.Send(tea.KeyPressMsg{Code: tea.KeyUp})
	screen(t, tm, "the history", inputIs("› run bfs"))
	tm.Send(tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl}) // clear the line
	tm.Type("tr")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyTab})
	screen(t, tm, "the completion", inputIs("› trace"))
}

func TestResize(t *testing.T) {
	tm, _ := start(t, newFake)
	screen(t, tm, "the welcome", has("type a command"))
	typeLine(tm, "run bfs")
	screen(t, tm, "the run", has("bfs1: 7 iterations"))
	for _, size := range [][2]int{{70, 20}, {140, 45}, {40, 12}} {
		s := resize(t, tm, size[0], size[1])
		for i, l := range strings.Split(s, "\n") {
			if w := ansi.StringWidth(l); w != size[0] {
				t.Errorf("%dx%d: line %d is %d wide: %q", size[0], size[1], i, w, ansi.Strip(l))
			}
		}
		if size[0] < 72 && strings.Contains(s, "Results") {
			t.Errorf("%dx%d: the side panel should give way on a narrow screen", size[0], size[1])
		}
	}
}

func TestTimeChartToggle(t *testing.T) {
	tm, _ := start(t, newFake)
	typeLine(tm, "run bfs")
	screen(t, tm, "the run", has("frontier (vertices)"))
	tm.Send(tea.KeyPressMsg{Code: 't', Mod: tea.ModCtrl})
	screen(t, tm, "the time chart", has("time per iteration · 7 iterations"))
}

// TestScreenSmall is the run screen on an 80x24 terminal.
func TestScreenSmall(t *testing.T) {
	tm, _ := startSized(t, newFake, 80, 24)
	screen(t, tm, "the welcome", has("type a command"))
	typeLine(tm, "run bfs")
	s := screen(t, tm, "the run", has("bfs1: 7 iterations"))
	if n := strings.Count(s, "\n") + 1; n != 24 {
		t.Errorf("%d lines, want 24", n)
	}
	golden.RequireEqual(t, s)
}

// Stepping through a knob's values in the panel changes the panel's schedule only, and d
// leaves one `set` line with the value it ends on.
func TestSchedulePanelOneSetLinePerKnob(t *testing.T) {
	tm, f := start(t, newFake)
	typeLine(tm, "run bfs")
	screen(t, tm, "the run", hasIdle("bfs1: 7 iterations"))
	tm.Send(tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl})
	screen(t, tm, "the panel", has("schedule · bfs on cpu"))
	tm.Send(tea.KeyPressMsg{Code: tea.KeyDown})
	tm.Send(tea.KeyPressMsg{Code: tea.KeyDown})
	tm.Send(tea.KeyPressMsg{Code: tea.KeyRight})
	tm.Send(tea.KeyPressMsg{Code: tea.KeyRight})
	screen(t, tm, "direction=pull", has("this panel only: direction=pull"))
	tm.Type("d")
	s := ansi.Strip(screen(t, tm, "the set line", has("set direction=pull")))
	if strings.Contains(s, "set direction=push") {
		t.Errorf("every step left a line:\n%s", s)
	}
	screen(t, tm, "the default", func(string) bool { _, sc := f.Settings(); return sc.Direction.String() == "pull" })
}

// TestFitNames: completions fit one line and say how many did not.
func TestFitNames(t *testing.T) {
	names := []string{"aaaa", "bbbb", "cccc", "dddd", "eeee"}
	if got, want := fitNames(names, 100), "aaaa  bbbb  cccc  dddd  eeee"; got != want {
		t.Errorf("wide: %q, want %q", got, want)
	}
	if got, want := fitNames(names, 24), "aaaa  bbbb  … 3 more"; got != want {
		t.Errorf("narrow: %q, want %q", got, want)
	}
}
