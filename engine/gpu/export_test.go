//go:build cuda

package gpu

// TwcRichWarp lets the benchmark measure lb=twc's warp threshold on rich frontiers.
var TwcRichWarp = &twcRichWarp

// SsspScout switches fused SSSP's frontier-edge count (for measuring it).
var SsspScout = &ssspScout

// CoopPerSM caps the blocks per SM of cooperative launches (for measuring).
var CoopPerSM = &coopPerSM
