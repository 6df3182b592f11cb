package cpu

import "syscall"

// osYield gives this thread's CPU to another runnable thread, if any (sched_yield): a spinning
// worker on a machine busy with other processes lets the thread it waits for run. With nothing
// else runnable it returns at once.
func osYield() { syscall.RawSyscall(syscall.SYS_SCHED_YIELD, 0, 0, 0) }
