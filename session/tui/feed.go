package tui

import (
	"strings"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gworkbench/gworkbench/session"
)

// Feed carries what a session produces while a command runs (its printed output and its run
// events) from the session's goroutines to the TUI. The session must be created with the
// feed's Observer and Writer (Options does both) so that the TUI sees them.
//
// Observer and Write never block and never wait for the screen: they append to a pending
// list under a mutex and poke the TUI, which drains the list at most every frameInterval.
// That is what keeps a 50,000-iteration run as fast with the TUI as without it.
type Feed struct {
	mu      sync.Mutex
	pending []any // session.Event or outputChunk, in the order they happened
	poked   atomic.Bool
	poke    chan struct{}
}

// outputChunk is text the session printed.
type outputChunk string

// progressLine is the latest state of a long command (loading, generating, compare, tune),
// redrawn in place on a terminal; the TUI shows it in the status line.
type progressLine string

// progressWriter is the session's Options.Progress: each redraw ("\r\x1b[K" and the line)
// becomes a progressLine.
type progressWriter struct{ f *Feed }

func (w progressWriter) Write(p []byte) (int, error) {
	s := string(p)
	if i := strings.LastIndexByte(s, '\r'); i >= 0 {
		s = s[i+1:]
	}
	w.f.push(progressLine(strings.TrimSpace(strings.ReplaceAll(s, "\x1b[K", ""))))
	return len(p), nil
}

// NewFeed returns an empty feed.
func NewFeed() *Feed {
	return &Feed{poke: make(chan struct{}, 1)}
}

// Options returns base with Out, Observer and Progress set to the feed and colour on (the TUI's
// renderer downgrades colour to what the terminal supports). A width of 0 becomes 100.
func (f *Feed) Options(base session.Options) session.Options {
	base.Out = f
	base.Observer = f.Observer
	base.Progress = progressWriter{f}
	base.Color = true
	if base.Width == 0 {
		base.Width = 100
	}
	return base
}

// Observer is a session.Options.Observer: it queues the event for the TUI.
func (f *Feed) Observer(e session.Event) {
	f.push(e)
}

// Write queues session output for the TUI; it implements io.Writer for session.Options.Out.
func (f *Feed) Write(p []byte) (int, error) {
	f.push(outputChunk(p))
	return len(p), nil
}

func (f *Feed) push(x any) {
	f.mu.Lock()
	f.pending = append(f.pending, x)
	f.mu.Unlock()
	if !f.poked.Load() && !f.poked.Swap(true) {
		f.poke <- struct{}{} // never blocks: poked guards the one slot
	}
}

// drain takes everything queued so far.
func (f *Feed) drain() []any {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.pending
	// The next batch is likely as large as this one: give it the room now rather than grow
	// the slice while an engine waits.
	f.pending = make([]any, 0, max(cap(out), 64))
	return out
}

// frameInterval caps how often queued events reach Update: at most 20 batches a second.
const frameInterval = 50 * time.Millisecond

// feedMsg is a batch of queued events and output, in order.
type feedMsg struct{ items []any }

// wait returns the command that blocks until the feed has something, lets a frame's worth
// of events gather, and delivers them as one feedMsg. Update re-issues it after each
// feedMsg, as Bubble Tea's examples/realtime does with waitForActivity.
func (f *Feed) wait() tea.Cmd {
	return func() tea.Msg {
		<-f.poke
		time.Sleep(frameInterval)
		f.poked.Store(false)
		return feedMsg{items: f.drain()}
	}
}
