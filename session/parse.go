package session

import (
	"fmt"
	"strings"
)

// splitCommands splits an input line into commands at ';', drops a '#' comment, and keeps
// both characters when they are inside quotes.
func splitCommands(line string) ([]string, error) {
	var cmds []string
	var cur strings.Builder
	var quote rune
	for i, r := range line {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
			cur.WriteRune(r)
		case (r == '"' || r == '\'') && !isEcho(cur.String()),
			// In echo text an apostrophe is prose, but a closed double quote still keeps ';'
			// and '#' in the text: echo "step 1; then 2".
			r == '"' && strings.ContainsRune(line[i+1:], '"'):
			quote = r
			cur.WriteRune(r)
		case r == ';':
			cmds = append(cmds, cur.String())
			cur.Reset()
		case r == '#':
			goto done
		case r == '\n' || r == '\r':
			cmds = append(cmds, cur.String())
			cur.Reset()
		default:
			cur.WriteRune(r)
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unterminated %c quote", quote)
	}
done:
	cmds = append(cmds, cur.String())
	out := cmds[:0]
	for _, c := range cmds {
		if strings.TrimSpace(c) != "" {
			out = append(out, strings.TrimSpace(c))
		}
	}
	return out, nil
}

// isEcho reports whether a command so far is an echo, whose text is taken literally (an
// apostrophe in prose is not a quote).
func isEcho(cmd string) bool {
	return echoWords(cmd) > 0
}

// echoWords is the number of command words before an echo's text: 1 for `echo TEXT`, 3 for
// `on ENGINE echo TEXT`, 0 when cmd (so far) is no echo.
func echoWords(cmd string) int {
	f := strings.Fields(cmd)
	n := 1
	if len(f) >= 3 && strings.EqualFold(f[0], "on") {
		f, n = f[2:], 3
	}
	if len(f) > 0 && strings.EqualFold(f[0], "echo") && (len(f) > 1 || strings.HasSuffix(cmd, " ")) {
		return n
	}
	return 0
}

// tokenize splits a command into words at white space. Quotes ("..." or '...') group a word
// with spaces, also inside k=v ("path=my file.el"), and are removed.
func tokenize(cmd string) ([]string, error) {
	var words []string
	var cur strings.Builder
	in := false
	var quote rune
	for _, r := range cmd {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '"' || r == '\'':
			quote = r
			in = true
		case r == ' ' || r == '\t':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unterminated %c quote", quote)
	}
	if in {
		words = append(words, cur.String())
	}
	return words, nil
}

// kv is one key=value argument, or a bare word (Key "", Value the word).
type kv struct {
	Key, Value string
}

// splitArgs separates key=value words from bare words, and takes a trailing `as NAME`.
func splitArgs(args []string) (pairs []kv, bare []string, as string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.EqualFold(a, "as") {
			if i+1 >= len(args) {
				return nil, nil, "", fmt.Errorf("as: want a name after it (as NAME)")
			}
			if i+2 < len(args) {
				return nil, nil, "", fmt.Errorf("as %s: the name comes last, found %q after it", args[i+1], args[i+2])
			}
			as = args[i+1]
			if err := checkName(as); err != nil {
				return nil, nil, "", err
			}
			break
		}
		if k, v, ok := strings.Cut(a, "="); ok {
			k = strings.ToLower(strings.TrimSpace(k))
			if k == "" {
				return nil, nil, "", fmt.Errorf("%q: want key=value", a)
			}
			if v == "" {
				return nil, nil, "", fmt.Errorf("%s=: missing value", k)
			}
			pairs = append(pairs, kv{k, v})
			continue
		}
		bare = append(bare, a)
	}
	return pairs, bare, as, nil
}

// checkName refuses a graph or result name that the language could not refer to.
func checkName(n string) error {
	if n == "" {
		return fmt.Errorf("empty name")
	}
	if n == "last" || n == "as" {
		return fmt.Errorf("%q is a reserved word, pick another name", n)
	}
	for i, r := range n {
		ok := r == '_' || r == '-' || r == '.' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9' && i > 0)
		if !ok {
			return fmt.Errorf("name %q: use letters, digits, '_', '-' and '.', starting with a letter", n)
		}
	}
	return nil
}

// nameEquals parses `NAME = REST...` or `NAME=REST ...` at the start of args.
func nameEquals(args []string) (name string, rest []string, ok bool) {
	if len(args) >= 3 && args[1] == "=" {
		return args[0], args[2:], true
	}
	if len(args) >= 1 {
		if n, v, found := strings.Cut(args[0], "="); found && n != "" && v != "" {
			if _, err := parseKnobName(n); err != nil {
				return n, append([]string{v}, args[1:]...), true
			}
		}
	}
	return "", args, false
}

// parseKnobName reports whether n is a loader or generator option rather than a graph name;
// used to tell `load g=file.el` from `load file.el format=el`.
func parseKnobName(n string) (string, error) {
	switch strings.ToLower(n) {
	case "format", "base", "selfloops", "duplicates", "weights", "seed", "cache", "scale", "degree", "rows", "cols", "vertices":
		return n, nil
	}
	return "", fmt.Errorf("not an option")
}
