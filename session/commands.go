package session

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gworkbench/gworkbench/engine"
)

// command is one command of the language.
type command struct {
	name    string
	aliases []string
	usage   string // the syntax
	summary string // one line for the help list
	detail  string // more, for help COMMAND
	example []string
	run     func(*execCtx) error
}

var commands []*command

func init() {
	commands = []*command{
		{name: "load", usage: "load NAME = PATH [format=F] [directed|undirected] [base=0|1] [weights=keep|drop|uniform:LO:HI] [selfloops=keep|drop] [duplicates=keep|drop] [seed=N] [cache=on|off]",
			summary: "read a graph file and make it the current graph",
			detail:  "Formats (by extension and content, or format=): mtx, snap, dimacs (.gr), pace, metis, el, wel, gwg, each optionally .gz. Direction follows the format unless told. `load PATH` names the graph after the file.",
			example: []string{"load road = testdata/road.gr", "load fb = facebook.el undirected base=0"},
			run:     cmdLoad},
		{name: "gen", usage: "gen NAME = KIND [k=v ...]", summary: "generate a synthetic graph (kron, urand, grid, road, rgg) and make it current",
			detail:  "kron scale= degree= seed=; urand scale= degree= seed=; grid rows= cols=; road vertices= seed=; rgg scale= degree= seed=; each takes weights=uniform:LO:HI.",
			example: []string{"gen k = kron scale=10 degree=8", "gen r = road vertices=5000", "gen g = grid rows=64 cols=64 weights=uniform:1:100"},
			run:     cmdGen},
		{name: "graphs", usage: "graphs", summary: "list the graphs (* marks the current one)", example: []string{"graphs"}, run: cmdGraphs},
		{name: "use", usage: "use NAME", summary: "make a graph the current one", example: []string{"use road"}, run: cmdUse},
		{name: "info", usage: "info [NAME]", summary: "a graph's properties and degree histogram", example: []string{"info", "info road"}, run: cmdInfo},
		{name: "drop", usage: "drop NAME", summary: "forget a graph or a result", example: []string{"drop k", "drop bfs1"}, run: cmdDrop},
		{name: "set", usage: "set KNOB=VALUE ... | set engine=NAME | set PARAM=VALUE | set live=some|all|off",
			summary: "session defaults: schedule knobs, engine, parameters",
			detail:  "Defaults apply to every later run, compare and sweep, and are overridden by the knobs given to a command. `set KNOB=auto` restores a default. `knobs` lists the knobs.",
			example: []string{"set engine=cpu", "set direction=pull driven=data", "set direction=auto"},
			run:     cmdSet},
		{name: "reset", usage: "reset", summary: "restore the default engine, schedule and parameters (graphs and results stay)", example: []string{"reset"},
			run: func(ec *execCtx) error {
				if len(ec.args) > 0 {
					return fmt.Errorf("reset: takes nothing (set KNOB=auto resets one knob)")
				}
				s := ec.s
				s.mu.Lock()
				s.engineName, s.sched, s.params, s.live = "cpu", engine.Schedule{}, engine.DefaultParams(), "some"
				s.mu.Unlock()
				s.note("engine=cpu, every knob auto, default parameters\n")
				return nil
			}},
		{name: "show", usage: "show [settings|knobs|algorithms|engines]", summary: "show the session defaults (engine, schedule, parameters)", example: []string{"show settings"}, run: cmdShow},
		{name: "knobs", usage: "knobs [ALGO]", summary: "list the schedule knobs, their values and where they apply", example: []string{"knobs", "knobs bfs"}, run: cmdKnobs},
		{name: "algorithms", aliases: []string{"algos"}, usage: "algorithms", summary: "list the algorithms and their parameters", example: []string{"algorithms"}, run: cmdAlgorithms},
		{name: "run", usage: "run ALGO [k=v ...] [repeat=N] [warmup=N] [engine=E] [as NAME]",
			summary: "run an algorithm on the current graph, printing each iteration and a summary",
			detail:  "k=v are parameters (src, damping, tolerance, max_iter, sources, seed) or schedule knobs (see `knobs`), overriding the session defaults for this run. A run is timed after warmup=N uncounted runs (default 1, 0 allowed); repeat=N counts N runs (default 1) and reports their median, min and max. src=random picks a source with seed=; sources=N (bfs, sssp) times one run from each of N random sources and reports the median over them (help src, help teps). The result is kept as NAME (default ALGO1, ALGO2, ...); `last` names the most recent.",
			example: []string{"run bfs", "run bfs direction=pull src=0 as pullbfs", "run sssp delta=4 repeat=5", "run bfs sources=16 seed=2"},
			run:     cmdRun},
		{name: "results", usage: "results", summary: "list the results", example: []string{"results"}, run: cmdResults},
		{name: "verify", usage: "verify [NAME|last]", summary: "check a result against the reference engine and say what differs", example: []string{"verify", "verify pullbfs", "verify cmp1.2"}, run: cmdVerify},
		{name: "trace", usage: "trace [NAME|last] [FROM:TO|switches]", summary: "the per-iteration table of a result (a range of iterations, or only the switches)", example: []string{"trace", "trace bfs1", "trace cmp1.2", "trace last 100:200", "trace last switches"}, run: cmdTrace},
		{name: "compare", usage: "compare ALGO [k=v1,v2,... ...] [repeat=N] [warmup=N] [as NAME]",
			summary: "run every combination of the listed values, verify each, and tabulate them",
			detail:  "Comma lists give the values to try (engine= too); the cross product runs and each row is verified against the reference engine. " + methodText + " An invalid combination is listed with the reason instead of run; a row that differs from the reference makes the command fail after its table. Row N of comparison CMP is a result named CMP.N: trace cmp1.2, verify cmp1.2, export cmp1.2 json x.json.",
			example: []string{"compare bfs direction=push,pull,auto", "compare sssp driven=data,topology,hybrid engine=cpu,ref"},
			run:     cmdCompare},
		{name: "sweep", usage: "sweep ALGO KNOB=a:b:step|v1,v2,... [k=v ...] [repeat=N] [warmup=N] [as NAME]",
			summary: "run a knob over a range and chart time against it",
			detail:  "a:b:step is an inclusive numeric range; v1,v2,... a list. Rows are timed and judged as by compare (help compare): a table with each row's median, spread and verdict against the first, and a chart of time against the knob with the spread (min-max) of each value; best is marked only on a row whose verdict is faster. Each row is verified (one that differs makes the command fail after its table).",
			example: []string{"sweep bfs alpha=5:30:5 direction=auto", "sweep sssp threshold=0.1:0.9:0.2 driven=hybrid"},
			run:     cmdSweep},
		{name: "tune", usage: "tune ALGO [k=v ...] [KNOB=v1,v2,... ...] [repeat=N] [warmup=N] [as NAME]",
			summary: "search the schedule knobs for the fastest verified schedule on the current graph",
			detail:  "Coordinate descent from the current schedule: each value of each knob that applies, and that the engine lists in its schedule space, is tried (invalid combinations skipped), timed round-robin against the best schedule so far (repeat=5 and warmup=1 by default), and kept only when verified and faster by compare's verdict, corrected over the candidates of a pass. At the end the winner is re-timed against the start with twice the runs, and the last line gives the speed-up, its 95% interval and the verdict. Knobs given as k=v stay fixed; knobs given lists (direction=push,pull,auto alpha=5,15,30) are the only ones tuned, over those values.",
			example: []string{"tune bfs", "tune sssp engine=cpu repeat=7", "tune pr direction=pull", "tune bfs direction=push,pull,auto alpha=5,15,30"},
			run:     cmdTune},
		{name: "expect", usage: "expect CLAIM",
			summary: "check a claim about measured results; fail (a script stops at FILE:LINE) with the numbers when it does not hold",
			detail:  "Timing claims use the verdict of the runs' repeats (run with repeat=N; compare and sweep rows): A faster than B [by Nx], A slower than B, A same as B, ROW fastest (no row of its compare faster), CMP best KNOB in LO..HI (the fastest row, or one tied with it, has KNOB in the range). Counter claims: EXPR OP EXPR (< <= > >= == !=) or EXPR in LO..HI, EXPR arithmetic over numbers (10%, 0.1) and NAME.FIELD. A result's fields: iterations, scanned, active, checked, max_scanned, max_active, max_checked, reached, depth, max_dist, components, switches, first_switch, push_iterations, pull_iterations, data_iterations, topology_iterations; a graph's: vertices, edges, arcs, max_degree, avg_degree.",
			example: []string{"expect cmp1.1 faster than cmp1.2", "expect cmp1.1 fastest", "expect data.max_scanned < 10% * road.arcs", "expect sweep1 best threshold in 0.4..0.7", "expect auto.first_switch in 1..3"},
			run:     cmdExpect},
		{name: "on", usage: "on ENGINE COMMAND ...", summary: "run a command only when the session's engine is ENGINE (labs: claims that hold on one engine)",
			example: []string{"on gpu compare bfs fuse=off,on repeat=5", "on cpu echo The CPU engine has no fused loop."}, run: cmdOn},
		{name: "export", usage: "export NAME values|trace|json PATH  |  export CMP json|csv PATH",
			summary: "write a result: per-vertex values (CSV), the trace (CSV or JSON), or everything (JSON)",
			detail:  "A compare or sweep exports as one table: json (every row with its summary, schedule and trace) or csv (one line per row). Row N of a comparison is a result: export cmp1.2 values x.csv.",
			example: []string{"export last values depths.csv", "export bfs1 trace trace.json", "export bfs1 json bfs1.json", "export cmp1 csv cmp1.csv"},
			run:     cmdExport},
		{name: "plot", usage: "plot NAME|last [PATH.svg|.png|.html]", summary: "chart a result or comparison (in the terminal, or to a file)",
			example: []string{"plot last", "plot bfs1 bfs1.svg", "plot cmp1 cmp1.html"}, run: cmdPlot},
		{name: "report", usage: "report PATH.html", summary: "write the whole session as an HTML notebook", example: []string{"report lab.html"}, run: cmdReport},
		{name: "save", usage: "save PATH", summary: "save the session (commands, graph sources, settings, results' summaries and traces) as JSON", example: []string{"save lab.json"}, run: cmdSave},
		{name: "open", usage: "open PATH", summary: "resume a saved session: rebuild its graphs, restore settings and results", example: []string{"open lab.json"}, run: cmdOpen},
		{name: "labs", usage: "labs", summary: "list the labs: papers' findings reproduced and checked as they run", example: []string{"labs"}, run: cmdLabs},
		{name: "lab", usage: "lab NAME", summary: "run a lab (on the session's engine: set engine=gpu first for the GPU)", example: []string{"lab push-pull", "set engine=gpu; lab data-vs-topology"}, run: cmdLab},
		{name: "echo", usage: "echo TEXT", summary: "print a line of text (for scripts and labs)", example: []string{"echo Now the same run, pull-based:"},
			run: func(ec *execCtx) error {
				text := strings.TrimSpace(ec.line)
				text = strings.TrimSpace(text[len("echo"):])
				if len(text) >= 2 && text[0] == '"' && text[len(text)-1] == '"' && !strings.Contains(text[1:len(text)-1], `"`) {
					text = text[1 : len(text)-1] // echo "a; b" prints a; b
				}
				ec.s.printf("%s\n", text)
				return nil
			}},
		{name: "help", aliases: []string{"?"}, usage: "help [COMMAND|ALGO|KNOB]", summary: "this list, or the usage and an example of one command", example: []string{"help", "help run", "help direction"}, run: cmdHelp},
		{name: "quit", aliases: []string{"exit", "q"}, usage: "quit", summary: "leave the workbench", example: []string{"quit"}, run: func(*execCtx) error { return ErrQuit }},
	}
}

// methodText says how compare, sweep and tune time rows and reach a verdict (help compare).
const methodText = "Every row is warmed up (warmup=1 uncounted run) and then timed repeat=5 times (more when many rows need them), the rows round-robin so that drift on a busy machine hits all alike; the table gives each row's median and spread (min-max). " +
	"The verdict against the first row comes from the Mann-Whitney rank test on the two rows' times, exact for small samples, with the confidence interval of the speed-up (the ratio of times) that inverts it, Bonferroni-corrected so that the whole table is wrong with probability at most 5%: faster or slower when the interval excludes 1, same otherwise. " +
	"A speed-up, and best, are claimed only where the verdict says faster."

// tepsText says what TEPS counts (help teps).
const tepsText = "TEPS (traversed edges per second, in GTEPS = 1e9) follows Graph500 and GAPBS: for bfs, sssp and bc it is the number of undirected edges in the component reached from the source (on a directed graph the arcs leaving the reached vertices; for bc summed over its sources), divided by the run's time, so that every schedule and engine of one search counts the same edges. " +
	"For the algorithms that process the whole graph, cc, tc, mis and mst count the graph's edges once and pr once per iteration. " +
	"The work a run did is a figure of its own, edges scanned (the JSON's edges_scanned): a direction-optimizing BFS scans fewer edges than it counts, a pull BFS more. With sources=N, TEPS is the median over the runs. Rows of the serial reference engine (ref) are marked serial."

func lookupCommand(name string) (*command, bool) {
	for _, c := range commands {
		if c.name == name {
			return c, true
		}
		for _, a := range c.aliases {
			if a == name {
				return c, true
			}
		}
	}
	return nil, false
}

func commandNames() []string {
	var n []string
	for _, c := range commands {
		n = append(n, c.name)
	}
	sort.Strings(n)
	return n
}

// typoNames are the commands offered for a mistyped one: those of three letters or more, so
// that `on` is never the guess for a typo of run.
func typoNames() []string {
	var n []string
	for _, c := range commandNames() {
		if len(c) >= 3 {
			n = append(n, c)
		}
	}
	return n
}
