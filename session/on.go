package session

import (
	"fmt"
	"strings"
)

// cmdOn runs the rest of the line only when the session's engine is the one named: labs
// check GPU-only claims with `on gpu expect ...` and narrate with `on cpu echo ...`.
func cmdOn(ec *execCtx) error {
	s := ec.s
	if len(ec.args) < 2 {
		return fmt.Errorf("on: want an engine and a command: on gpu compare bfs fuse=off,on")
	}
	want := strings.ToLower(ec.args[0])
	if err := knownEngine(want); err != nil {
		return fmt.Errorf("on: %v", trimPkg(err))
	}
	s.mu.Lock()
	cur := s.engineName
	s.mu.Unlock()
	if cur != want {
		return nil
	}
	rest := strings.TrimSpace(ec.line)
	rest = strings.TrimSpace(rest[len(strings.Fields(rest)[0]):])
	rest = strings.TrimSpace(rest[len(strings.Fields(rest)[0]):])
	words := strings.Fields(rest)
	cmd, ok := lookupCommand(strings.ToLower(words[0]))
	if !ok {
		return fmt.Errorf("on %s: unknown command %q", want, words[0])
	}
	if cmd.name == "on" {
		return fmt.Errorf("on %s: one engine at a time", want)
	}
	args, err := tokenize(rest)
	if cmd.name == "echo" {
		args, err = words[:1], nil // the text is taken from the line, as prose
	}
	if err != nil {
		return fmt.Errorf("on %s: %v", want, err)
	}
	sub := &execCtx{ctx: ec.ctx, s: s, args: args[1:], line: rest, result: ec.result}
	err = runCommand(cmd, sub)
	ec.name, ec.comp = sub.name, sub.comp
	return err
}
