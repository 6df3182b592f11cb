package session

import (
	"os"
	"strings"
	"testing"

	"github.com/gworkbench/gworkbench/engine"
)

// TestEverySettingHasHelp: every name show settings lists (session settings, knobs and
// parameters) has help, the session settings are in knobs and in the README.
func TestEverySettingHasHelp(t *testing.T) {
	s, out := newTest(t)
	shown := do(t, s, out, "show settings")
	names := append(append(append([]string{}, settingNames...), engine.KnobNames()...), engine.ParamNames()...)
	for _, n := range names {
		if !strings.Contains(shown, n) {
			t.Errorf("show settings lacks %s", n)
		}
		if got := do(t, s, out, "help "+n); !strings.Contains(got, n+":") {
			t.Errorf("help %s: %q", n, got)
		}
	}
	knobs := do(t, s, out, "knobs")
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range settingNames {
		if !strings.Contains(knobs, n+" ") {
			t.Errorf("knobs lacks the setting %s", n)
		}
		if !strings.Contains(string(readme), "`"+n+"`") {
			t.Errorf("README lacks the setting `%s`", n)
		}
	}
	mustContain(t, "help live", do(t, s, out, "help live"), "some, all, off (default some)")
}
