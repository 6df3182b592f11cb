//go:build race

package cpu

// raceBuild: see race_off.go.
const raceBuild = true
