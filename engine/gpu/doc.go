// Package gpu is gworkbench's CUDA engine, built on the CUDA driver API through gorgonia.org/cu.
// It is compiled only with the build tag cuda; without it, opening engine "gpu" answers that the
// binary was built without CUDA and how to build one that has it.
//
// Kernels are CUDA C in kernels/*.cu, compiled to PTX for compute_70 by `make ptx`, committed,
// and embedded; the driver JIT-compiles the PTX for the GPU it runs on. The engine runs BFS,
// SSSP, CC and PageRank with the schedule knobs of engine.Schedule (see NOTES.md for what is
// implemented, how it was verified on an H200, and the measured figures).
package gpu
