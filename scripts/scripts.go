// Package scripts holds the .gw sessions of gworkbench: the tour and the teaching labs,
// embedded so that the workbench lists (`labs`) and runs (`lab NAME`) them from anywhere.
package scripts

import "embed"

// FS holds every script: tour.gw and the labs, lab-NAME.gw.
//
//go:embed *.gw
var FS embed.FS
