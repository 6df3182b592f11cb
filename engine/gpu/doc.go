// Package gpu is gworkbench's CUDA engine, built on the CUDA driver API through gorgonia.org/cu.
// It is compiled only with the build tag cuda; without it, opening engine "gpu" answers that the
// binary was built without CUDA and how to build one that has it.
//
// Kernels are CUDA C in kernels/*.cu, compiled to PTX for compute_70 by `make ptx`, committed,
// and embedded; the driver JIT-compiles the PTX for the GPU it runs on. The engine runs BFS,
// SSSP, CC, PageRank, TC, BC, MIS and MST with the schedule knobs of engine.Schedule; each
// algorithm's file holds its resolve, prepare and run (algorithms.go). docs/gpu-notes.md
// records how it was built and tuned, with the figures measured.
package gpu
