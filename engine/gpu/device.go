//go:build cuda

package gpu

import (
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"time"
	"unsafe"

	"gorgonia.org/cu"
)

// driverError is a failed driver call, named.
type driverError struct {
	call string
	code int
	name string
	err  error
}

func (e driverError) Error() string {
	if e.err != nil {
		return fmt.Sprintf("gpu: %s: %v", e.call, e.err)
	}
	return fmt.Sprintf("gpu: %s: %s (%d)", e.call, e.name, e.code)
}

func (e driverError) Unwrap() error { return e.err }

// sticky errors leave the context unusable: the engine marks itself broken.
var stickyErrs = []error{cu.IllegalAddress, cu.LaunchFailed, cu.MisalignedAddress, cu.IllegalInstruction,
	cu.HardwareStackError, cu.Assert, cu.LaunchTimeout, cu.EccUncorrectable, cu.Unknown}

var stickyNames = map[string]bool{
	"CUDA_ERROR_ILLEGAL_ADDRESS": true, "CUDA_ERROR_LAUNCH_FAILED": true, "CUDA_ERROR_MISALIGNED_ADDRESS": true,
	"CUDA_ERROR_ILLEGAL_INSTRUCTION": true, "CUDA_ERROR_HARDWARE_STACK_ERROR": true, "CUDA_ERROR_ASSERT": true,
	"CUDA_ERROR_LAUNCH_TIMEOUT": true, "CUDA_ERROR_ECC_UNCORRECTABLE": true, "CUDA_ERROR_UNKNOWN": true,
	"CUDA_ERROR_INVALID_PC": true,
}

func isSticky(err error) bool {
	var de driverError
	if errors.As(err, &de) {
		if stickyNames[de.name] {
			return true
		}
		err = de.err
	}
	for _, s := range stickyErrs {
		if err == s {
			return true
		}
	}
	return false
}

// check wraps a driver error with the call's name.
func check(call string, err error) error {
	if err == nil {
		return nil
	}
	return driverError{call: call, err: err}
}

// device owns the CUDA context. Its goroutine is locked to one OS thread, and every driver call
// runs there, sent through work.
type device struct {
	work    chan func()
	ctx     cu.CUContext
	dev     cu.Device
	name    string
	sms     int
	shOptin int // the most dynamic shared memory a block may ask for, in bytes
	l2      int // the L2 cache, in bytes (CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE)
	mem     int64
	cc      int
	modules map[string]cu.Module
	funcs   map[string]cu.Function
	events  []cu.Event
	span    [2]cu.Event // a run's start and end marks (device.wake, Engine.Run)
	pin     *staging    // page-locked read-back buffers, made on first use
}

// staging is page-locked host memory the runs read the device's counters into (one run at a
// time uses it): the counters and queue lengths (run.hostCtl), and a fused loop's lengths and
// trace rows. A read-back into it is a direct copy, without the driver's staging buffer.
type staging struct {
	ctl   []uint64
	lens  []uint32
	trace []uint64
}

// staging returns the device's page-locked read-back buffers.
func (d *device) staging() (*staging, error) {
	if d.pin != nil {
		return d.pin, nil
	}
	nl, nt := fuseChunk+2, (fuseChunk+1)*nCounters
	p, err := hostAlloc(ctlWords*8 + nt*8 + nl*4)
	if err != nil {
		return nil, err
	}
	st := &staging{ctl: unsafe.Slice((*uint64)(p), ctlWords)}
	st.trace = unsafe.Slice((*uint64)(unsafe.Add(p, ctlWords*8)), nt)
	st.lens = unsafe.Slice((*uint32)(unsafe.Add(p, ctlWords*8+nt*8)), nl)
	d.pin = st
	return st, nil
}

// attrMaxSharedOptin is CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, which
// gorgonia.org/cu v0.9.6 does not name.
const attrMaxSharedOptin = cu.DeviceAttribute(97)

// openDevice starts the device goroutine, creates the context on device 0, and loads the PTX.
func openDevice() (*device, error) {
	if err := initError(); err != nil {
		return nil, fmt.Errorf("%w (no usable NVIDIA GPU or driver here; engine=cpu runs on the CPU)", err)
	}
	d := &device{work: make(chan func()), modules: map[string]cu.Module{}, funcs: map[string]cu.Function{}}
	ready := make(chan error)
	go func() {
		runtime.LockOSThread()
		ready <- d.start()
		for f := range d.work {
			f()
		}
	}()
	if err := <-ready; err != nil {
		return nil, err
	}
	return d, nil
}

func (d *device) start() error {
	n, err := cu.NumDevices()
	if err != nil {
		return check("cuDeviceGetCount", err)
	}
	if n == 0 {
		return fmt.Errorf("gpu: no CUDA device found")
	}
	if d.dev, err = cu.GetDevice(0); err != nil {
		return check("cuDeviceGet", err)
	}
	if d.name, err = d.dev.Name(); err != nil {
		return check("cuDeviceGetName", err)
	}
	if d.sms, err = d.dev.Attribute(cu.MultiprocessorCount); err != nil {
		return check("cuDeviceGetAttribute", err)
	}
	if d.shOptin, err = d.dev.Attribute(attrMaxSharedOptin); err != nil {
		return check("cuDeviceGetAttribute", err)
	}
	if d.l2, err = d.dev.Attribute(cu.L2CacheSize); err != nil {
		return check("cuDeviceGetAttribute", err)
	}
	major, err := d.dev.Attribute(cu.ComputeCapabilityMajor)
	if err != nil {
		return check("cuDeviceGetAttribute", err)
	}
	minor, err := d.dev.Attribute(cu.ComputeCapabilityMinor)
	if err != nil {
		return check("cuDeviceGetAttribute", err)
	}
	d.cc = major*10 + minor
	if d.mem, err = d.dev.TotalMem(); err != nil {
		return check("cuDeviceTotalMem", err)
	}
	if d.cc < 70 {
		return fmt.Errorf("gpu: %s has compute capability %d.%d; the kernels need 7.0 (Volta) or newer", d.name, major, minor)
	}
	if d.ctx, err = d.dev.MakeContext(cu.SchedAuto); err != nil {
		return check("cuCtxCreate", err)
	}
	if err := cu.SetCurrentContext(d.ctx); err != nil {
		return check("cuCtxSetCurrent", err)
	}
	for i := range d.span {
		if d.span[i], err = cu.MakeEvent(cu.DefaultEvent); err != nil {
			return check("cuEventCreate", err)
		}
	}
	for name, src := range ptxSources() {
		m, err := cu.LoadData(src)
		if err != nil {
			return check("cuModuleLoadData "+name, err)
		}
		d.modules[name] = m
	}
	return nil
}

// do runs f on the device goroutine and waits for it.
func (d *device) do(f func() error) error {
	done := make(chan error, 1)
	d.work <- func() {
		defer func() {
			if p := recover(); p != nil {
				done <- fmt.Errorf("gpu: internal error: %v\n%s", p, debug.Stack())
			}
		}()
		done <- f()
	}
	return <-done
}

// fn returns the kernel with the given name from whichever module defines it.
func (d *device) fn(name string) (cu.Function, error) {
	if f, ok := d.funcs[name]; ok {
		return f, nil
	}
	for _, m := range d.modules {
		if f, err := m.Function(name); err == nil {
			d.funcs[name] = f
			return f, nil
		}
	}
	return cu.Function{}, fmt.Errorf("gpu: no kernel %q in the embedded PTX: %w", name, errUnsupportedKernel)
}

var errUnsupportedKernel = errors.New("kernel missing")

// buffer is one device allocation.
type buffer struct {
	ptr   cu.DevicePtr
	bytes int64
}

func (b buffer) addr() uint64 { return uint64(b.ptr) }

func alloc(bytes int64) (buffer, error) {
	if bytes <= 0 {
		bytes = 8
	}
	p, err := cu.MemAlloc(bytes)
	if err != nil {
		return buffer{}, check(fmt.Sprintf("cuMemAlloc(%d bytes)", bytes), err)
	}
	return buffer{ptr: p, bytes: bytes}, nil
}

func (b *buffer) free() {
	if b.ptr != 0 {
		cu.MemFree(b.ptr)
		b.ptr = 0
	}
}

func upload[T any](s []T) (buffer, error) {
	var z T
	bytes := int64(len(s)) * int64(unsafe.Sizeof(z))
	b, err := alloc(bytes)
	if err != nil {
		return b, err
	}
	if len(s) > 0 {
		if err := markStart(); err != nil {
			b.free()
			return buffer{}, err
		}
		if err := cu.MemcpyHtoD(b.ptr, unsafe.Pointer(&s[0]), bytes); err != nil {
			b.free()
			return buffer{}, check("cuMemcpyHtoD", err)
		}
	}
	return b, nil
}

func download[T any](dst []T, b buffer) error {
	if len(dst) == 0 {
		return nil
	}
	if err := markStart(); err != nil {
		return err
	}
	var z T
	return check("cuMemcpyDtoH", cu.MemcpyDtoH(unsafe.Pointer(&dst[0]), b.ptr, int64(len(dst))*int64(unsafe.Sizeof(z))))
}

func memset32(b buffer, v uint32, n int64) error {
	if n == 0 {
		return nil
	}
	if err := markStart(); err != nil {
		return err
	}
	return check("cuMemsetD32", cu.MemsetD32(b.ptr, v, n))
}

func memset8(b buffer, v byte, n int64) error {
	if n == 0 {
		return nil
	}
	if err := markStart(); err != nil {
		return err
	}
	return check("cuMemsetD8", cu.MemsetD8(b.ptr, v, n))
}

// event returns the i-th pooled timing event, creating it on first use.
func (d *device) event(i int) (cu.Event, error) {
	for len(d.events) <= i {
		ev, err := cu.MakeEvent(cu.DefaultEvent)
		if err != nil {
			return cu.Event{}, check("cuEventCreate", err)
		}
		d.events = append(d.events, ev)
	}
	return d.events[i], nil
}

// wakeSpin is how long device.wake keeps the GPU busy before a run's clock starts.
const wakeSpin = 50 * time.Microsecond

// wake brings the GPU out of its idle state before a run's clock starts: a kernel that spins
// for wakeSpin, then a synchronize. After a few milliseconds idle (the host's verification, a
// user typing) the first kernel of a run is slower than back to back: a power state of the
// device, not the algorithm's cost, and not what a CUDA program timing its kernels right after
// uploading its graph sees (docs/gpu-notes.md, "The first kernel after idle"). The run's start
// mark is left pending (markStart).
func (d *device) wake() error {
	pendingStart = nil
	fn, err := d.fn("util_spin")
	if err != nil {
		return err
	}
	a := kargs{n: int64(wakeSpin / time.Nanosecond)}
	if err := launch(fn, 1, 32, unsafe.Pointer(&a), false); err != nil {
		return fmt.Errorf("%w (kernel util_spin)", err)
	}
	if err := check("cuCtxSynchronize", cu.Synchronize()); err != nil {
		return err
	}
	pendingStart = &d.span[0]
	return nil
}

// pendingStart is the run's start mark while it waits for the run's first device operation
// (nil otherwise). The engine runs one run at a time, on the device goroutine.
var pendingStart *cu.Event

// markStart records the pending start mark, if any, right before the run's first launch, copy
// or memset: where an event-timed CUDA program starts its timer, after its host-side setup,
// so that the device's time does not count the host's work before the first operation.
func markStart() error {
	if pendingStart == nil {
		return nil
	}
	ev := pendingStart
	pendingStart = nil
	return check("cuEventRecord", ev.Record(cu.Stream{}))
}

// spanEnd records the run's end mark, after its last operation (and the start mark first if
// the run had none).
func (d *device) spanEnd() error {
	if err := markStart(); err != nil {
		return err
	}
	return check("cuEventRecord", d.span[1].Record(cu.Stream{}))
}

// spanTime is the device's time between the run's marks (after a synchronize): what a CUDA
// program's event timer around its kernels measures.
func (d *device) spanTime() (time.Duration, error) {
	ms, err := d.span[0].Elapsed(d.span[1])
	if err != nil {
		return 0, check("cuEventElapsedTime", err)
	}
	return time.Duration(float64(ms) * 1e6), nil
}

// readI64 reads the int64 at byte offset off of b.
func readI64(b buffer, off int64) (int64, error) {
	var v [1]int64
	err := download(v[:], buffer{ptr: b.ptr + cu.DevicePtr(off), bytes: 8})
	return v[0], err
}
