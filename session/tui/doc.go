// Package tui is gworkbench's full-screen view of a session: an input line with history and
// completion, a live chart of the running algorithm, the session's graphs and results, a
// schedule panel, and scrollable trace and compare tables.
//
// The session must send its output and run events to the TUI, so create it with a Feed:
//
//	feed := tui.NewFeed()
//	s := session.New(feed.Options(session.Options{Width: width, StateDir: dir}))
//	err := tui.Run(ctx, s, tui.WithFeed(feed))
//
// Without WithFeed the TUI still runs commands, but it cannot show their output or the live
// chart, and says so.
package tui
