package main

import (
	"context"
	"fmt"
	"io"

	"github.com/gworkbench/gworkbench/session"
	"github.com/gworkbench/gworkbench/session/tui"
)

// runTUI starts the full-screen workbench on the demo graph. ok is false when it could not
// start, and the caller falls back to the line REPL.
func runTUI(c config, opts session.Options, stderr io.Writer) (code int, ok bool) {
	feed := tui.NewFeed()
	// The TUI draws progress itself and lays output out in its own panel: no transient
	// progress lines in the output, and the panel's width, not the terminal's.
	opts.Interactive = false
	opts.Width = 0
	s := session.New(feed.Options(opts))
	if !c.noDemo {
		if err := s.LoadDemo(); err != nil {
			fmt.Fprintf(stderr, "gworkbench: the demo graph: %v\n", err)
		}
	}
	hist := tui.WithHistory(session.HistoryPath(opts.StateDir)) // the REPL's history file
	if err := tui.Run(context.Background(), s, tui.WithFeed(feed), hist); err != nil {
		fmt.Fprintf(stderr, "gworkbench: %v\n", err)
		return exitFailed, true
	}
	return exitOK, true
}
