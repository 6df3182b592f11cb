package cpu

// cpuRelax tells the processor that the caller is spinning (PAUSE): the loop's loads then
// issue slowly, leaving the core's power and memory bandwidth to the workers still busy, and
// leaving the loop when the polled line changes does not flush the pipeline. OpenMP runtimes
// spin the same way. Go has no such intrinsic, hence the assembly.
func cpuRelax()
