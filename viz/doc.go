// Package viz renders tables, per-iteration charts and plot files of runs as plain strings
// (ANSI colour only when asked), so the TUI, the line REPL and .gw scripts print the same
// pictures; it keeps no state and does no I/O except in the Write* file functions.
package viz
