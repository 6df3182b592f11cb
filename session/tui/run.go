package tui

import (
	"context"
	"errors"

	tea "charm.land/bubbletea/v2"

	"github.com/gworkbench/gworkbench/session"
)

// Option configures Run.
type Option func(*runConfig)

type runConfig struct {
	feed     *Feed
	program  []tea.ProgramOption
	histFile string
}

// WithHistory keeps the command history in path, the file the line REPL keeps it in
// (session.HistoryPath): read at start, each command appended as it is run. "" keeps none.
func WithHistory(path string) Option { return func(c *runConfig) { c.histFile = path } }

// WithFeed connects the TUI to the feed the session was created with (see Feed.Options).
func WithFeed(f *Feed) Option { return func(c *runConfig) { c.feed = f } }

// WithProgramOptions passes options to the Bubble Tea program (input, output, size, colour
// profile: what tests need).
func WithProgramOptions(opts ...tea.ProgramOption) Option {
	return func(c *runConfig) { c.program = append(c.program, opts...) }
}

// Run shows the TUI over s until the user quits or ctx is cancelled. Commands run off the UI
// goroutine; Ctrl+C cancels the running one.
func Run(ctx context.Context, s *session.Session, opts ...Option) error {
	return run(ctx, s, opts...)
}

func run(ctx context.Context, s Session, opts ...Option) error {
	var c runConfig
	for _, o := range opts {
		o(&c)
	}
	m := newModel(ctx, s, c.feed)
	m.loadHistory(c.histFile)
	p := tea.NewProgram(m, append([]tea.ProgramOption{tea.WithContext(ctx)}, c.program...)...)
	_, err := p.Run()
	if m.cancel != nil {
		m.cancel()
	}
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return nil
	}
	return err
}
