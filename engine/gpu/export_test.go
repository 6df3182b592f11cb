//go:build cuda

package gpu

// TwcRichWarp lets the benchmark measure lb=twc's warp threshold on rich frontiers.
var TwcRichWarp = &twcRichWarp
