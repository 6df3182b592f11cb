// Package ref holds serial, obviously correct versions of every algorithm: the oracle that
// every test checks the other engines against, and a selectable engine (engine=ref).
//
// Each algorithm lives in its own file and registers its driver in that file's init. The code
// is the simplest that could work; speed is not a goal.
package ref
