package session

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"

	"github.com/chzyer/readline"
	"golang.org/x/term"
)

// REPL is the line REPL: readline with a history file, Ctrl-R search and tab completion.
// Ctrl-C cancels a running command and returns to the prompt; at an empty prompt, Ctrl-C
// twice in a row (or Ctrl-D, or quit) leaves.
type REPL struct {
	S      *Session
	Stdin  io.ReadCloser // nil: os.Stdin
	Stdout io.Writer     // nil: os.Stdout (the session's Out should be the same terminal)
	Prompt string        // "": "gw CURRENT-GRAPH> "
}

// HistoryPath is where the REPL keeps its history: $XDG_STATE_HOME/gworkbench/history, or
// ~/.local/state/gworkbench/history; dir overrides the directory.
func HistoryPath(dir string) string {
	if dir == "" {
		base := os.Getenv("XDG_STATE_HOME")
		if base == "" {
			home, err := os.UserHomeDir()
			if err != nil {
				return ""
			}
			base = filepath.Join(home, ".local", "state")
		}
		dir = filepath.Join(base, "gworkbench")
	}
	return filepath.Join(dir, "history")
}

// Run reads and executes lines until quit, Ctrl-D, or two Ctrl-C at an empty prompt.
func (r *REPL) Run(ctx context.Context) error {
	hist := HistoryPath(r.S.opts.StateDir)
	if hist != "" {
		if err := os.MkdirAll(filepath.Dir(hist), 0o755); err != nil {
			hist = ""
		}
	}
	prompt := func() string {
		if r.Prompt != "" {
			return r.Prompt
		}
		p := "gw"
		if g := r.S.currentName(); g != "" {
			p += " " + g
		}
		if r.S.opts.Color {
			return "\x1b[1;36m" + p + ">\x1b[0m "
		}
		return p + "> "
	}
	stdout := r.Stdout
	if stdout == nil {
		stdout = os.Stdout
	}
	rl, err := readline.NewEx(&readline.Config{
		Prompt:            prompt(),
		HistoryFile:       hist,
		HistoryLimit:      5000,
		HistorySearchFold: true,
		AutoComplete:      completer{r.S},
		InterruptPrompt:   "^C",
		EOFPrompt:         "quit",
		Stdin:             r.Stdin,
		Stdout:            stdout,
	})
	if err != nil {
		return fmt.Errorf("repl: %v", err)
	}
	defer rl.Close()

	// While a command runs, SIGINT (Ctrl-C in cooked mode) cancels it; at the prompt the
	// terminal is raw and readline sees Ctrl-C itself.
	var mu sync.Mutex
	var cancelRun context.CancelFunc
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	defer signal.Stop(sig)
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			select {
			case <-sig:
				mu.Lock()
				if cancelRun != nil {
					cancelRun()
				}
				mu.Unlock()
			case <-done:
				return
			}
		}
	}()

	interrupted := false
	for {
		rl.SetPrompt(prompt())
		line, err := rl.Readline()
		switch {
		case errors.Is(err, readline.ErrInterrupt):
			if strings.TrimSpace(line) != "" {
				interrupted = false
				continue
			}
			if interrupted {
				return nil
			}
			interrupted = true
			fmt.Fprintln(stdout, "(Ctrl-C again, Ctrl-D or quit to leave)")
			continue
		case errors.Is(err, io.EOF):
			return nil
		case err != nil:
			return err
		}
		interrupted = false
		// A line ending in a backslash continues on the next, as in scripts; Ctrl-C there
		// drops the whole command.
		for strings.HasSuffix(line, "\\") {
			rl.SetPrompt("... ")
			more, err := rl.Readline()
			line = strings.TrimSuffix(line, "\\")
			if errors.Is(err, readline.ErrInterrupt) {
				line = ""
				break
			}
			if err != nil {
				break
			}
			line += " " + more
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		if f, ok := stdout.(*os.File); ok && r.S.lineWidth() > 0 {
			if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 0 {
				r.S.SetWidth(w) // follow resizes
			}
		}
		cctx, cancel := context.WithCancel(ctx)
		mu.Lock()
		cancelRun = cancel
		mu.Unlock()
		err = r.S.Exec(cctx, line)
		mu.Lock()
		cancelRun = nil
		mu.Unlock()
		cancelled := cctx.Err() != nil
		cancel()
		switch {
		case err == nil:
		case errors.Is(err, ErrQuit):
			return nil
		case cancelled && ctx.Err() == nil:
			fmt.Fprintln(stdout, r.S.paint(ansiYellow, r.S.errText(err)))
		case ctx.Err() != nil:
			return ctx.Err()
		default:
			fmt.Fprintln(stdout, r.S.paint(ansiRed, "error: ")+r.S.errText(err))
		}
	}
}

// completer adapts Session.Complete to readline.
type completer struct{ s *Session }

func (c completer) Do(line []rune, pos int) ([][]rune, int) {
	head := string(line[:pos])
	last := ""
	if i := strings.LastIndexAny(head, " \t;"); i >= 0 {
		last = head[i+1:]
	} else {
		last = head
	}
	cands := c.s.Complete(head)
	// Paths complete their last element: readline then lists names, not whole paths.
	if i := strings.LastIndexByte(last, '/'); i >= 0 {
		dir := last[:i+1]
		all := true
		for _, cand := range cands {
			all = all && strings.HasPrefix(cand, dir)
		}
		if all {
			for j := range cands {
				cands[j] = cands[j][len(dir):]
			}
			last = last[i+1:]
		}
	}
	out := make([][]rune, 0, len(cands))
	for _, cand := range cands {
		suffix := strings.TrimPrefix(cand, last)
		if len(cands) == 1 && !strings.HasSuffix(cand, "=") && !strings.HasSuffix(cand, "/") {
			suffix += " "
		}
		out = append(out, []rune(suffix))
	}
	return out, len([]rune(last))
}
