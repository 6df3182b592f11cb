package tui

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"charm.land/bubbles/v2/textinput"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/session"
)

// Session is what the TUI needs of a session; *session.Session implements it.
type Session interface {
	Exec(ctx context.Context, line string) error
	Complete(line string) []string
	Graphs() []session.GraphEntry
	Results() []session.ResultEntry
	Settings() (engineName string, sched engine.Schedule)
	Set(knob, value string) error
	LastAlgorithm() engine.Algorithm
	Comparisons() []session.ComparisonEntry
}

var _ Session = (*session.Session)(nil)

// state says which part of the screen has the keys.
type state int

const (
	stateInput    state = iota // typing commands
	stateSchedule              // the schedule panel
	statePager                 // a trace or compare table fills the main area
	stateHelp                  // the key help
)

func (s state) String() string {
	return [...]string{"input", "schedule", "pager", "help"}[s]
}

// maxTranscript is how many lines of output the transcript keeps.
const maxTranscript = 5000

type model struct {
	ctx  context.Context
	s    Session
	feed *Feed // nil: the session was not created with a feed
	now  func() time.Time

	width, height int
	state         state

	input       textinput.Model
	history     []string
	histFile    string // where the history is kept, shared with the line REPL; "" none
	histPos     int    // index into history while browsing; len(history) when not
	draft       string // what was typed before browsing history
	completions []string

	transcript []string      // output lines, the last one possibly unfinished
	wrapped    []wrappedLine // transcript lines wrapped at spaces to the output panel's width
	out        viewport.Model
	cmdOut     strings.Builder // the running command's output, whole, for the pager

	pager      viewport.Model
	pagerTitle string
	pagerHead  string // a table's header and rule, kept in view while its rows scroll

	running     bool
	runningLine string
	lastLine    string // the last command run, for the pager's title
	execStarted time.Time
	cancel      context.CancelFunc
	cancelled   bool

	live      liveRun
	timeChart bool // the live panel shows time per iteration instead of the frontier
	zoom      bool // the output fills the screen: no side panel, no live panel (Ctrl+O)
	hideSide  bool // the side panel is hidden (Ctrl+B)
	sched     schedPanel
	graphs    []session.GraphEntry
	results   []session.ResultEntry
	comps     []session.ComparisonEntry
	color     bool // the terminal shows colours: charts tell push from pull by colour, else by glyph

	status   string // one line: hints and errors
	progress string // the running command's progress line (percent, rate), "" none
}

// Messages.
type (
	// execDoneMsg says a command line finished.
	execDoneMsg struct {
		line string
		err  error
	}
	// tickMsg redraws the elapsed time of a running command.
	tickMsg time.Time
)

func newModel(ctx context.Context, s Session, feed *Feed) *model {
	in := textinput.New()
	in.Prompt = "› "
	in.Placeholder = "type a command (help, run bfs, ...)"
	in.SetVirtualCursor(false)
	in.Focus()
	m := &model{
		ctx: ctx, s: s, feed: feed, now: time.Now,
		width: 100, height: 30,
		input: in,
		out:   viewport.New(),
		pager: viewport.New(),
		color: true, // until the program says what the terminal shows
	}
	m.refresh()
	m.appendOutput(welcome)
	if feed == nil {
		m.status = "output and live charts are off: the session was not created with tui.NewFeed (see package doc)"
	}
	m.layout()
	return m
}

const welcome = "gworkbench: type a command and press Enter. Try: help · graphs · run bfs · trace last\n" +
	"Ctrl+S opens the schedule panel, ? shows the keys, q or Ctrl+D quits.\n"

func (m *model) Init() tea.Cmd {
	if m.feed == nil {
		return nil
	}
	return m.feed.wait()
}

func (m *model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.layout()
		return m, nil
	case tea.ColorProfileMsg:
		m.color = msg.Profile > colorprofile.Ascii
		return m, nil
	case feedMsg:
		cmd := m.applyFeed(msg.items)
		return m, tea.Batch(cmd, m.feed.wait())
	case execDoneMsg: // only without a feed: with one, it comes in order through the feed
		return m, m.finishExec(msg)
	case tickMsg:
		if m.running {
			return m, tick()
		}
		return m, nil
	case tea.KeyPressMsg:
		return m, m.handleKey(msg)
	case tea.MouseWheelMsg:
		m.scroll(msg.Mouse().Button == tea.MouseWheelUp, 3)
		return m, nil
	case tea.PasteMsg:
		if m.state == stateInput {
			var cmd tea.Cmd
			m.input, cmd = m.input.Update(msg)
			return m, cmd
		}
	}
	return m, nil
}

func tick() tea.Cmd {
	return tea.Tick(100*time.Millisecond, func(t time.Time) tea.Msg { return tickMsg(t) })
}

// applyFeed folds queued output, events and the end of the command into the model, in the
// order they happened; it returns the command the end asks for (quit), if any.
func (m *model) applyFeed(items []any) tea.Cmd {
	if len(items) == 0 {
		return nil
	}
	now := m.now()
	follow := m.following()
	var cmd tea.Cmd
	for _, it := range items {
		switch it := it.(type) {
		case outputChunk:
			m.addText(string(it))
			if m.running && m.cmdOut.Len() < maxPagerBytes {
				m.cmdOut.WriteString(string(it))
			}
		case progressLine:
			if m.running {
				m.progress = string(it)
			}
		case execDoneMsg:
			m.syncOut(follow)
			cmd = m.finishExec(it)
			follow = m.following()
		default:
			m.applyEvent(it, now)
		}
	}
	m.syncOut(follow)
	return cmd
}

// maxPagerBytes bounds the output a command keeps for the pager.
const maxPagerBytes = 64 << 20

// submit runs a command line off the UI goroutine.
func (m *model) submit(line string) tea.Cmd {
	line = strings.TrimSpace(line)
	if line == "" {
		return nil
	}
	if len(m.history) == 0 || m.history[len(m.history)-1] != line {
		m.history = append(m.history, line)
		m.saveHistory(line)
	}
	m.histPos = len(m.history)
	m.completions = nil
	if m.running {
		m.status = "a command is running: wait for it, or Ctrl+C to cancel it"
		return nil
	}
	m.input.Reset()
	m.status = ""
	m.endLine()
	m.appendOutput(cmdStyle.Render("› "+line) + "\n")
	m.cmdOut.Reset()
	m.out.GotoBottom()
	ctx, cancel := context.WithCancel(m.ctx)
	m.running, m.runningLine, m.cancel, m.cancelled = true, line, cancel, false
	m.lastLine = line
	m.execStarted = m.now()
	m.live.runs = 0
	s, feed := m.s, m.feed
	return tea.Batch(func() tea.Msg {
		done := execDoneMsg{line: line, err: s.Exec(ctx, line)}
		if feed != nil {
			// Behind everything the command printed, in the same queue: delivered on its own,
			// it could overtake a batch of output already drained but not yet applied, and the
			// end of a cancelled run would be shown before its last iterations.
			feed.push(done)
			return nil
		}
		return done
	}, tick())
}

// finishExec shows a finished command's error, if any, after all its output.
func (m *model) finishExec(msg execDoneMsg) tea.Cmd {
	if m.cancel != nil {
		m.cancel()
	}
	if m.cancelled {
		m.status = ""
	}
	m.running, m.cancel = false, nil
	m.progress = ""
	if m.live.running() {
		m.live.finished = m.now()
	}
	if errors.Is(msg.err, session.ErrQuit) {
		return tea.Quit
	}
	switch {
	case msg.err != nil && errors.Is(msg.err, context.Canceled):
		// A cancellation is what was asked for: said as the REPL says it, not as an error.
		m.endLine()
		m.appendOutput(keyStyle.Render(msg.err.Error()) + "\n")
	case msg.err != nil:
		m.endLine()
		m.appendOutput(errStyle.Render("error: "+msg.err.Error()) + "\n")
	}
	m.refresh()
	// trace, compare and sweep tables open in the pager when they do not fit.
	word := strings.ToLower(strings.Fields(msg.line + " x")[0])
	if msg.err == nil && (word == "trace" || word == "compare" || word == "sweep") {
		body := strings.TrimRight(m.cmdOut.String(), "\n")
		if strings.Count(body, "\n") > m.out.Height()-2 {
			m.openPager(msg.line, body)
		}
	}
	return nil
}

// refresh reads the session's graphs, results and settings.
func (m *model) refresh() {
	m.graphs = m.s.Graphs()
	m.results = m.s.Results()
	m.comps = m.s.Comparisons()
	m.sched.load(m.s)
}

// appendOutput adds text to the transcript and shows it.
func (m *model) appendOutput(text string) {
	follow := m.following()
	m.addText(text)
	m.syncOut(follow)
}

// following reports whether the output view shows the end of the transcript, and so should
// keep showing it as lines arrive.
func (m *model) following() bool {
	return m.out.AtBottom() || m.out.TotalLineCount() <= m.out.Height()
}

// addText adds text to the transcript, continuing an unfinished last line. A carriage
// return starts the line again and erase-line codes are dropped, so progress lines that
// redraw themselves ("\r\x1b[K...") update in place.
func (m *model) addText(text string) {
	if text == "" {
		return
	}
	text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\x1b[K", "")
	for i, seg := range strings.Split(text, "\n") {
		if i > 0 || len(m.transcript) == 0 {
			m.transcript = append(m.transcript, "")
		}
		last := &m.transcript[len(m.transcript)-1]
		if j := strings.LastIndexByte(seg, '\r'); j >= 0 {
			*last = seg[j+1:]
		} else {
			*last += seg
		}
	}
	if over := len(m.transcript) - maxTranscript; over > maxTranscript/10 {
		m.transcript = append(m.transcript[:0], m.transcript[over:]...)
		if over < len(m.wrapped) {
			m.wrapped = append(m.wrapped[:0], m.wrapped[over:]...)
		} else {
			m.wrapped = m.wrapped[:0]
		}
	}
}

// wrappedLine is a transcript line and its lines wrapped to width.
type wrappedLine struct {
	src   string
	width int
	lines []string
}

// syncOut hands the transcript to the output view, each line wrapped at spaces to the
// panel's width (a word longer than the width is broken). Lines wrapped before, at this
// width, are not wrapped again: the transcript changes only at its end, 20 times a second.
func (m *model) syncOut(follow bool) {
	w := m.out.Width()
	if len(m.wrapped) > len(m.transcript) {
		m.wrapped = m.wrapped[:len(m.transcript)]
	}
	n := 0
	for i, src := range m.transcript {
		if i == len(m.wrapped) {
			m.wrapped = append(m.wrapped, wrappedLine{})
		}
		wl := &m.wrapped[i]
		if wl.lines == nil || wl.width != w || wl.src != src {
			*wl = wrappedLine{src: src, width: w, lines: wrapLine(src, w)}
		}
		n += len(wl.lines)
	}
	lines := make([]string, 0, n)
	for _, wl := range m.wrapped {
		lines = append(lines, wl.lines...)
	}
	m.out.SetContentLines(lines)
	if follow {
		m.out.GotoBottom()
	}
}

// wrapLine wraps one line of output at spaces to w cells (a word longer than that is
// broken), each piece carrying its own styles. A continuation of an indented line (an
// iteration line, a note) keeps the indent.
func wrapLine(s string, w int) []string {
	if w <= 0 || ansi.StringWidth(s) <= w {
		return []string{s}
	}
	plain := ansi.Strip(s)
	indent := len(plain) - len(strings.TrimLeft(plain, " "))
	if indent > w/3 {
		indent = 0
	}
	out := strings.Split(lipgloss.Wrap(s, w-indent, ""), "\n")
	for i := range out {
		out[i] = strings.TrimRight(out[i], " ")
		if i > 0 && indent > 0 {
			out[i] = strings.Repeat(" ", indent) + out[i]
		}
	}
	return out
}

// endLine makes sure the next output starts on a line of its own.
func (m *model) endLine() {
	if n := len(m.transcript); n > 0 && m.transcript[n-1] != "" {
		m.appendOutput("\n")
	}
}

func (m *model) openPager(title, body string) {
	m.pagerTitle, m.pagerHead = title, ""
	// Keep a table's header in view: a line followed by a rule of ─.
	lines := strings.Split(body, "\n")
	for i := 0; i+1 < len(lines) && i < 3; i++ {
		if rule := ansi.Strip(lines[i+1]); strings.HasPrefix(strings.TrimSpace(rule), "─") && strings.Trim(rule, "─ ") == "" {
			m.pagerHead = strings.Join(lines[:i+2], "\n")
			body = strings.Join(lines[i+2:], "\n")
			break
		}
	}
	m.pager.SetContent(body)
	m.pager.GotoTop()
	m.state = statePager
	m.layout()
}

func (m *model) scroll(up bool, n int) {
	vp := &m.out
	if m.state == statePager {
		vp = &m.pager
	}
	if up {
		vp.ScrollUp(n)
	} else {
		vp.ScrollDown(n)
	}
}
