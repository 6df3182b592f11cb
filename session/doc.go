// Package session is the gworkbench session: the .gw command language, the command set
// (load, gen, run, verify, compare, sweep, export, ...), and the session state they act on
// (named graphs, named results, the default engine and schedule).
//
// The TUI, the line REPL, scripts and `gworkbench -e` all drive a Session through Exec, one
// input line at a time.
package session
