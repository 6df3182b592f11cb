// Command gworkbench is a terminal workbench for exploring how graph algorithms execute on GPUs
// and CPUs.
//
// Usage:
//
//	gworkbench                     the full-screen workbench on a terminal (--plain: a line REPL)
//	gworkbench FILE.gw ...         run scripts; stop at the first error with FILE:LINE
//	gworkbench -e 'cmd; cmd'       run commands and exit
//	cmds | gworkbench              run the commands on standard input
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"golang.org/x/term"

	"github.com/gworkbench/gworkbench/engine"
	_ "github.com/gworkbench/gworkbench/engine/cpu"
	_ "github.com/gworkbench/gworkbench/engine/gpu"
	_ "github.com/gworkbench/gworkbench/engine/ref"
	"github.com/gworkbench/gworkbench/session"
)

// Exit codes.
const (
	exitOK        = 0
	exitFailed    = 1   // a command failed
	exitUsage     = 2   // bad flags
	exitInterrupt = 130 // Ctrl-C in a script
)

type config struct {
	plain     bool
	exprs     []string
	keepGoing bool
	format    string
	noDemo    bool
	files     []string
	order     []input // -e commands and script files, in the order given
}

// input is one -e or one script file ("-": standard input).
type input struct {
	expr, file string
	isExpr     bool
}

// exprFlag collects -e values, each also in c.order so that `lab.gw -e 'report x.html'`
// runs the report after the lab.
type exprFlag struct{ c *config }

func (f exprFlag) String() string {
	if f.c == nil {
		return ""
	}
	return strings.Join(f.c.exprs, "; ")
}

func (f exprFlag) Set(v string) error {
	f.c.exprs = append(f.c.exprs, v)
	f.c.order = append(f.c.order, input{expr: v, isExpr: true})
	return nil
}

func (c *config) addFiles(fs ...string) {
	c.files = append(c.files, fs...)
	for _, f := range fs {
		c.order = append(c.order, input{file: f})
	}
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin *os.File, stdout, stderr *os.File) int {
	var c config
	fs := flag.NewFlagSet("gworkbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.BoolVar(&c.plain, "plain", false, "use the line REPL instead of the full-screen workbench")
	fs.Var(exprFlag{&c}, "e", "run these commands (';' separates) and exit; may be repeated (with script files, in the order given)")
	fs.BoolVar(&c.keepGoing, "keep-going", false, "in scripts, report a failing line and go on")
	fs.StringVar(&c.format, "format", "text", "how run, compare and sweep report: text or json")
	fs.BoolVar(&c.noDemo, "no-demo", false, "start without the embedded demo graph")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: gworkbench [flags] [FILE.gw ...]\n\n"+
			"  gworkbench                the workbench on a terminal (--plain: a line REPL)\n"+
			"  gworkbench FILE.gw ...    run scripts, stop at the first error (FILE:LINE: message)\n"+
			"  gworkbench -e 'cmd; cmd'  run commands and exit\n"+
			"  cmds | gworkbench         run the commands on standard input\n\nflags:\n")
		fs.PrintDefaults()
		fmt.Fprintf(stderr, "\nType help inside the workbench for the commands.\n")
	}
	version := fs.Bool("version", false, "print the version and exit")
	// Flags may come after the script files too: gworkbench lab.gw --keep-going.
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return exitOK
			}
			return exitUsage
		}
		args = fs.Args()
		i := 0
		for i < len(args) && (!strings.HasPrefix(args[i], "-") || args[i] == "-") {
			c.addFiles(args[i])
			i++
		}
		if i >= len(args) {
			break
		}
		if args[i] == "--" {
			c.addFiles(args[i+1:]...)
			break
		}
		args = args[i:]
	}
	if *version {
		p := engine.MachineProvenance()
		v := "gworkbench " + p.Version
		if p.Commit != "" {
			v += " (commit " + p.Commit + ")"
		}
		fmt.Fprintf(stdout, "%s %s\n", v, p.GoVersion)
		return exitOK
	}
	if c.format != "text" && c.format != "json" {
		fmt.Fprintf(stderr, "gworkbench: --format=%s: want text or json\n", c.format)
		return exitUsage
	}

	outTTY := term.IsTerminal(int(stdout.Fd()))
	inTTY := term.IsTerminal(int(stdin.Fd()))
	opts := session.Options{
		Out:         stdout,
		Color:       outTTY && os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb",
		Format:      c.format,
		Interactive: outTTY,
	}
	if outTTY {
		if w, _, err := term.GetSize(int(stdout.Fd())); err == nil {
			opts.Width = w
		}
	}

	interactive := len(c.exprs) == 0 && len(c.files) == 0 && inTTY
	if interactive && !c.plain && outTTY {
		if code, ok := runTUI(c, opts, stderr); ok {
			return code
		}
	}
	s := session.New(opts)
	if !c.noDemo {
		if err := s.LoadDemo(); err != nil {
			fmt.Fprintf(stderr, "gworkbench: the demo graph: %v\n", err)
		}
	}
	if interactive {
		if outTTY {
			fmt.Fprintln(stdout, "gworkbench: the demo graph is loaded; type help for the commands, Tab to complete, Ctrl-D to quit.")
		}
		r := &session.REPL{S: s, Stdin: stdin, Stdout: stdout}
		if err := r.Run(context.Background()); err != nil {
			fmt.Fprintf(stderr, "gworkbench: %v\n", err)
			return exitFailed
		}
		return exitOK
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	status := exitOK
	script := func(name string, r io.Reader) bool {
		err := session.RunScript(ctx, s, name, r, stderr, c.keepGoing)
		switch {
		case err == nil:
			return true
		case ctx.Err() != nil:
			fmt.Fprintln(stderr, "gworkbench: interrupted")
			status = exitInterrupt
			return false
		}
		status = exitFailed
		return c.keepGoing
	}
	nexpr := 0
	for _, in := range c.order {
		if in.isExpr {
			// With several -e, each is numbered in messages: -e#2:1: is the second's first line.
			nexpr++
			name := "-e"
			if len(c.exprs) > 1 {
				name = fmt.Sprintf("-e#%d", nexpr)
			}
			if !script(name, strings.NewReader(in.expr)) {
				return status
			}
			continue
		}
		f := in.file
		if f == "-" {
			if !script("stdin", stdin) {
				return status
			}
			continue
		}
		fh, err := openScript(f)
		if err != nil {
			fmt.Fprintf(stderr, "gworkbench: %v\n", err)
			status = exitFailed
			if !c.keepGoing {
				return status
			}
			continue
		}
		ok := script(f, fh)
		fh.Close()
		if !ok {
			return status
		}
	}
	if len(c.exprs) == 0 && len(c.files) == 0 {
		script("stdin", stdin)
	}
	return status
}

// graphExts are the extensions of graph files: given as a script, such a file is a slip for
// `load`, and running its lines as commands would only print "unknown command".
var graphExts = []string{".mtx", ".gr", ".el", ".wel", ".graph", ".metis", ".gwg", ".gz"}

// openScript opens a script file, refusing a directory or a graph file with what to do instead.
func openScript(path string) (*os.File, error) {
	ext := strings.ToLower(filepath.Ext(path))
	for _, g := range graphExts {
		if ext == g {
			name, _, _ := strings.Cut(filepath.Base(path), ".")
			if !isPlainName(name) {
				name = "g"
			}
			return nil, fmt.Errorf("%s is a graph file, not a .gw script: load it with gworkbench -e 'load %s = %s' (or type the load in the workbench)", path, name, path)
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err == nil && st.IsDir() {
		f.Close()
		return nil, fmt.Errorf("%s is a directory, not a .gw script", path)
	}
	return f, nil
}

func isPlainName(n string) bool {
	for i, r := range n {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && (r >= '0' && r <= '9' || r == '-')) {
			return false
		}
	}
	return n != ""
}
