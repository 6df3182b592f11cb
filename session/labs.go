package session

import (
	"bytes"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/scripts"
)

// lab is one teaching lab: scripts/lab-NAME.gw, whose first line says what it teaches.
type lab struct {
	name, file, title string
}

// labs lists the embedded labs, sorted by name.
func labs() []lab {
	files, _ := fs.Glob(scripts.FS, "lab-*.gw")
	var out []lab
	for _, f := range files {
		b, err := scripts.FS.ReadFile(f)
		if err != nil {
			continue
		}
		first, _, _ := strings.Cut(string(b), "\n")
		title := strings.TrimSpace(strings.TrimLeft(first, "# "))
		title = strings.TrimPrefix(title, "Lab: ")
		out = append(out, lab{name: strings.TrimSuffix(strings.TrimPrefix(f, "lab-"), ".gw"), file: f, title: title})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

func cmdLabs(ec *execCtx) error {
	s := ec.s
	if len(ec.args) > 0 {
		return fmt.Errorf("labs: takes nothing; run one with lab NAME")
	}
	ls := labs()
	w := 0
	for _, l := range ls {
		w = max(w, len(l.name))
	}
	for _, l := range s.hanging("Labs: each reproduces a paper's finding, says what to look at, and checks the claim with expect as it runs. `lab NAME` runs one on the session's engine (set engine=gpu first for the GPU); `report lab.html` then writes it as a notebook. Run them from the repository root: they read testdata/graphs.", 0) {
		s.printf("%s\n", l)
	}
	for _, l := range ls {
		lines := s.hanging(l.title, w+4)
		s.printf("  %s  %s\n", s.paint(ansiBold, fmt.Sprintf("%-*s", w, l.name)), lines[0])
		for _, x := range lines[1:] {
			s.printf("%s%s\n", strings.Repeat(" ", w+4), x)
		}
	}
	return nil
}

func cmdLab(ec *execCtx) error {
	s := ec.s
	ls := labs()
	var names []string
	for _, l := range ls {
		names = append(names, l.name)
	}
	if len(ec.args) != 1 {
		return fmt.Errorf("lab: want one lab's name: lab %s (labs lists them)", strings.Join(names, "|"))
	}
	want := strings.TrimSuffix(strings.TrimPrefix(ec.args[0], "lab-"), ".gw")
	for _, l := range ls {
		if l.name != want {
			continue
		}
		b, err := scripts.FS.ReadFile(l.file)
		if err != nil {
			return fmt.Errorf("lab: %v", err)
		}
		var errs bytes.Buffer
		err = RunScript(ec.ctx, s, l.file, bytes.NewReader(b), &errs, false)
		if err != nil {
			// The failing line, as FILE:LINE: message, is the error the user sees.
			msg := strings.TrimSpace(errs.String())
			if msg == "" {
				msg = err.Error()
			}
			return fmt.Errorf("lab %s: %s", l.name, msg)
		}
		return nil
	}
	return fmt.Errorf("lab: no lab %q%s (labs: %s)", want, engine.DidYouMean(want, names), strings.Join(names, ", "))
}
