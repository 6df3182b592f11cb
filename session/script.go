package session

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
)

// ScriptError reports how a script went: the number of lines that failed. Each failure has
// already been written as FILE:LINE: message.
type ScriptError struct {
	Name   string
	Failed int
}

func (e *ScriptError) Error() string {
	if e.Failed == 1 {
		return fmt.Sprintf("%s: 1 command failed", e.Name)
	}
	return fmt.Sprintf("%s: %d commands failed", e.Name, e.Failed)
}

// RunScript runs the .gw commands read from r, one line at a time. A failing line is reported
// on errOut as `name:line: message`; the script stops there unless keepGoing is set. It returns
// nil when every line succeeded (or `quit` ended it), a *ScriptError when some failed, and the
// context's error when ctx was cancelled.
func RunScript(ctx context.Context, s *Session, name string, r io.Reader, errOut io.Writer, keepGoing bool) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	failed := 0
	lineNo := 0
	for sc.Scan() {
		lineNo++
		line := sc.Text()
		start := lineNo
		// A line ending in a backslash continues on the next one (at the end of the file,
		// on nothing).
		for strings.HasSuffix(line, "\\") {
			line = strings.TrimSuffix(line, "\\")
			if !sc.Scan() {
				break
			}
			lineNo++
			line += " " + sc.Text()
		}
		if start == 1 {
			line = strings.TrimPrefix(line, "\ufeff") // a byte-order mark from a Windows editor
			if title, ok := strings.CutPrefix(line, "# Lab: "); ok {
				s.mu.Lock()
				s.title = "Lab: " + strings.TrimSpace(title) // the report's title
				s.mu.Unlock()
			}
			if strings.HasPrefix(line, "#!") {
				continue
			}
		}
		err := s.Exec(ctx, line)
		switch {
		case err == nil:
			continue
		case errors.Is(err, ErrQuit):
			return failures(name, failed)
		case ctx.Err() != nil:
			fmt.Fprintf(errOut, "%s:%d: %s\n", name, start, s.errText(err))
			return ctx.Err()
		}
		failed++
		fmt.Fprintf(errOut, "%s:%d: %s\n", name, start, s.errText(err))
		if !keepGoing {
			return failures(name, failed)
		}
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		fmt.Fprintf(errOut, "%s:%d: this line is longer than 16 MiB: a script has one command per line\n", name, lineNo+1)
		failed++
	} else if err != nil {
		fmt.Fprintf(errOut, "%s:%d: %v\n", name, lineNo+1, err)
		failed++
	}
	return failures(name, failed)
}

func failures(name string, n int) error {
	if n == 0 {
		return nil
	}
	return &ScriptError{Name: name, Failed: n}
}

// errText is an error as the user sees it: one line.
func (s *Session) errText(err error) string {
	msg := err.Error()
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	return msg
}
