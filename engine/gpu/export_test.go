//go:build cuda

package gpu

// TwcRichWarp lets the benchmark measure lb=twc's warp threshold on rich frontiers.
var TwcRichWarp = &twcRichWarp

// SsspScout switches fused SSSP's frontier-edge count (for measuring it).
var SsspScout = &ssspScout
