package session

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/graph"
)

// ErrQuit is returned by Exec for the quit command.
var ErrQuit = errors.New("session: quit")

// Options configure a session.
type Options struct {
	Out      io.Writer   // where command output goes (nil: discarded)
	Color    bool        // ANSI colour in output (set it only for a terminal)
	Width    int         // terminal width in columns: tables are cut to it, charts fit it (0: no limit, charts 100)
	Format   string      // "text" (default) or "json": how run, compare and sweep report
	Observer func(Event) // receives run events while commands run (may be nil); called from the engine's goroutine
	StateDir string      // where the REPL keeps its history ("" : $XDG_STATE_HOME/gworkbench)

	// Interactive says Out is a terminal a person watches: long commands (compare, sweep)
	// show a transient progress line.
	Interactive bool
	// Progress, when set, takes the transient progress lines of long work (loading,
	// generating, compare, sweep, tune: "\r\x1b[K" then the line) in place of Out; the TUI
	// shows them in its status line.
	Progress io.Writer
}

// Event is what a session reports to Options.Observer: RunStarted, RunRecord or RunFinished.
type Event any

// RunStarted is sent when a run begins (each run of a compare, sweep or repeat too).
type RunStarted struct {
	Algorithm engine.Algorithm
	Engine    string
	Graph     string
	Schedule  engine.Schedule
}

// RunRecord carries one trace record as the engine produces it.
type RunRecord struct {
	Record engine.Record
}

// RunFinished is sent when a run ends. Name is the result's name: NAME for a run, CMP.N for
// the last run of row N of a compare or sweep (sent once the row is verified), "" for a run not
// kept under a name (a warm-up, an earlier repeat, a tune's candidate); Err is non-nil when it
// failed or was cancelled.
type RunFinished struct {
	Name   string
	Result *engine.Result
	Err    error
}

// GraphEntry is a named graph of the session.
type GraphEntry struct {
	Name    string
	G       *graph.CSR
	Current bool
}

// ResultEntry is a named result of the session.
type ResultEntry struct {
	Name string
	R    *engine.Result
}

// Session holds the graphs, results and settings that commands act on. Exec runs one command
// line at a time; the accessors (Graphs, Results, Settings, LastAlgorithm) may be called from
// other goroutines while a command runs.
type Session struct {
	opts  Options
	out   io.Writer    // opts.Out, through the per-command capture
	width atomic.Int64 // opts.Width, changed by SetWidth (a resize) while a command may run

	mu          sync.Mutex // guards everything below
	graphs      []*graphItem
	current     string
	results     []*resultItem
	comparisons []*comparison
	engineName  string
	sched       engine.Schedule
	params      engine.Params
	live        string // live iteration lines: some, all, off
	lastAlg     engine.Algorithm
	lastName    string // the most recent result or comparison, for plot last
	history     []historyItem
	counters    map[string]int
	refCache    map[refKey]*engine.Result
	title       string // a lab's title, from its first line, for the report ("" : none)
}

type graphItem struct {
	name   string
	g      *graph.CSR
	source string // the command that made it (load or gen), replayed by open
}

type resultItem struct {
	name     string
	r        *engine.Result
	measured // its counted runs
	cmd      string
	verified string // "", "ok", or what differs
	restored bool   // from a saved session: summary and trace only, no per-vertex values
	g        *graph.CSR
	// cancelled: the run was cancelled (Ctrl-C); r holds the trace up to then and no values.
	cancelled bool
}

// partial reports why a result has no per-vertex values ("" when it has them).
func (it *resultItem) partial() string {
	switch {
	case it.cancelled:
		return "cancelled: only the trace up to the cancellation was kept"
	case it.restored || it.g == nil:
		return "restored from a saved session without per-vertex values"
	}
	return ""
}

type historyItem struct {
	cmd    string
	output string
	result *engine.Result
	name   string      // result's name ("" : none)
	comp   *comparison // a compare, sweep or tune's outcome (nil: none)
	report bool        // a report, help or quit command: left out of reports
}

type refKey struct {
	graph  *graph.CSR
	alg    engine.Algorithm
	params engine.Params
}

// New returns a session with no graphs, the cpu engine and the all-auto schedule.
func New(opts Options) *Session {
	if opts.Out == nil {
		opts.Out = io.Discard
	}
	if opts.Format == "" {
		opts.Format = "text"
	}
	s := &Session{
		opts:       opts,
		out:        opts.Out,
		engineName: "cpu",
		params:     engine.DefaultParams(),
		live:       "some",
		counters:   map[string]int{},
		refCache:   map[refKey]*engine.Result{},
	}
	s.width.Store(int64(opts.Width))
	return s
}

// SetWidth sets the width in columns that output is laid out for (tables cut, notes wrapped,
// charts fitted; 0: no limit), as a terminal or an output panel is resized. It may be called
// while a command runs.
func (s *Session) SetWidth(w int) { s.width.Store(int64(max(w, 0))) }

// lineWidth is the width output is laid out for (0: no limit).
func (s *Session) lineWidth() int { return int(s.width.Load()) }

// Exec runs one input line: commands separated by ';', '#' to the end of the line is a comment.
// It stops at the first command that fails and returns its error (one line, meant for the
// user). Cancelling ctx stops a running command. The quit command returns ErrQuit.
func (s *Session) Exec(ctx context.Context, line string) error {
	cmds, err := splitCommands(line)
	if err != nil {
		return err
	}
	for _, c := range cmds {
		if err := s.execOne(ctx, c); err != nil {
			return err
		}
	}
	return nil
}

func (s *Session) execOne(ctx context.Context, c string) error {
	words, err := tokenize(c)
	if n := echoWords(c + " "); n > 0 {
		words, err = strings.Fields(c)[:n], nil
	}
	if err != nil {
		return err
	}
	if len(words) == 0 {
		return nil
	}
	name := strings.ToLower(words[0])
	cmd, ok := lookupCommand(name)
	if !ok {
		return fmt.Errorf("unknown command %q%s (type help for the list)", words[0], engine.DidYouMean(name, typoNames()))
	}
	var buf bytes.Buffer
	s.out = io.MultiWriter(s.opts.Out, &buf)
	var res *engine.Result
	ec := &execCtx{ctx: ctx, s: s, args: words[1:], line: c, result: &res}
	err = runCommand(cmd, ec)
	s.out = s.opts.Out
	if err == nil || !errors.Is(err, ErrQuit) {
		s.mu.Lock()
		out := buf.String()
		if len(out) > maxRecordedOutput {
			out = out[:maxRecordedOutput/2] + "\n[... output cut ...]\n" + out[len(out)-maxRecordedOutput/2:]
		}
		if err != nil {
			out += "error: " + err.Error() + "\n"
		}
		s.history = append(s.history, historyItem{cmd: c, output: out, result: res, name: ec.name, comp: ec.comp,
			report: cmd.name == "report" || cmd.name == "help" || cmd.name == "lab" || cmd.name == "labs"})
		s.mu.Unlock()
	}
	return err
}

// maxRecordedOutput caps the output of one command kept for the report.
const maxRecordedOutput = 1 << 20

// runCommand runs a handler; a panic in it (a bug) becomes an error, so the session goes on.
func runCommand(cmd *command, ec *execCtx) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%s: internal error: %v (the session goes on; please report this)", cmd.name, p)
		}
	}()
	return cmd.run(ec)
}

// execCtx is what a command handler gets.
type execCtx struct {
	ctx    context.Context
	s      *Session
	args   []string
	line   string
	result **engine.Result // set by commands that produce a result, for the report
	name   string          // the name of that result, for the report's heading
	comp   *comparison     // set by compare, sweep and tune, for the report's chart
}

// Graphs returns the session's graphs in the order they were made.
func (s *Session) Graphs() []GraphEntry {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]GraphEntry, len(s.graphs))
	for i, g := range s.graphs {
		out[i] = GraphEntry{Name: g.name, G: g.g, Current: g.name == s.current}
	}
	return out
}

// Results returns the session's named results in the order they were made.
func (s *Session) Results() []ResultEntry {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]ResultEntry, len(s.results))
	for i, r := range s.results {
		out[i] = ResultEntry{Name: r.name, R: r.r}
	}
	return out
}

// ComparisonEntry is a compare, sweep or tune of the session.
type ComparisonEntry struct {
	Name, Kind, Title string
	Rows, Ran         int           // combinations tried, and those that ran
	Best              time.Duration // the fastest that ran (0: none ran)
}

// Comparisons returns the session's compares, sweeps and tunes in the order they were made.
func (s *Session) Comparisons() []ComparisonEntry {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]ComparisonEntry, len(s.comparisons))
	for i, c := range s.comparisons {
		e := ComparisonEntry{Name: c.name, Kind: c.kind, Title: c.title, Rows: len(c.rows)}
		for _, row := range c.rows {
			if row.r != nil {
				e.Ran++
				if e.Best == 0 || row.r.Summary.Time < e.Best {
					e.Best = row.r.Summary.Time
				}
			}
		}
		out[i] = e
	}
	return out
}

// Settings returns the default engine and schedule.
func (s *Session) Settings() (engineName string, sched engine.Schedule) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.engineName, s.sched
}

// Set sets one session default, as `set knob=value` does.
func (s *Session) Set(knob, value string) error {
	return s.setOne(knob, value)
}

// LastAlgorithm returns the algorithm of the most recent run ("" before the first).
func (s *Session) LastAlgorithm() engine.Algorithm {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastAlg
}

// AddGraph adds g under name (replacing a graph of that name) and makes it current. source is
// the command that rebuilds it for save/open ("" if none).
func (s *Session) AddGraph(name string, g *graph.CSR, source string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g.Origin.Name = name
	for _, it := range s.graphs {
		if it.name == name {
			it.g, it.source = g, source
			s.current = name
			return
		}
	}
	s.graphs = append(s.graphs, &graphItem{name: name, g: g, source: source})
	s.current = name
}

func (s *Session) emit(e Event) {
	if s.opts.Observer != nil {
		s.opts.Observer(e)
	}
}

func (s *Session) printf(format string, a ...any) {
	fmt.Fprintf(s.out, format, a...)
}
