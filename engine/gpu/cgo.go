//go:build cuda

package gpu

/*
#cgo LDFLAGS: -lcuda -ldl
#cgo linux CFLAGS: -I/usr/local/cuda/include -I/usr/include
#define _GNU_SOURCE
#include <dlfcn.h>
#include <cuda.h>

// gorgonia.org/cu calls cuInit from its package init and exits the process when it fails,
// which would make a CUDA build of gworkbench unusable on a machine without a GPU. This
// definition interposes cuInit for the whole program: it calls the driver's own cuInit,
// keeps its result for the engine to report, and lets cu's init go on.
static CUresult gw_init_result = CUDA_ERROR_NOT_INITIALIZED;
static int gw_init_called = 0;

CUresult CUDAAPI cuInit(unsigned int flags) {
	typedef CUresult (*init_fn)(unsigned int);
	init_fn real = (init_fn)dlsym(RTLD_NEXT, "cuInit");
	gw_init_result = real ? real(flags) : CUDA_ERROR_NOT_INITIALIZED;
	gw_init_called = 1;
	return CUDA_SUCCESS;
}

static CUresult gw_init_status(void) {
	if (!gw_init_called) {
		cuInit(0);
	}
	return gw_init_result;
}

// gw_launch launches f with one by-value parameter block of size bytes (gorgonia.org/cu's
// Launch copies 8 bytes per parameter), normally or cooperatively.
static CUresult gw_launch(CUfunction f, unsigned grid, unsigned block, void* args, int coop) {
	void* params[1] = {args};
	if (coop) {
		return cuLaunchCooperativeKernel(f, grid, 1, 1, block, 1, 1, 0, 0, params);
	}
	return cuLaunchKernel(f, grid, 1, 1, block, 1, 1, 0, 0, params, NULL);
}

// gw_launch_shared is gw_launch with dynamic shared memory: shmem bytes a block, allowed to
// pass 48 KB (the function's limit is raised to it first).
static CUresult gw_launch_shared(CUfunction f, unsigned grid, unsigned block, unsigned shmem, void* args, int coop) {
	void* params[1] = {args};
	CUresult r = cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)shmem);
	if (r != CUDA_SUCCESS) {
		return r;
	}
	if (coop) {
		return cuLaunchCooperativeKernel(f, grid, 1, 1, block, 1, 1, shmem, 0, params);
	}
	return cuLaunchKernel(f, grid, 1, 1, block, 1, 1, shmem, 0, params, NULL);
}

// gw_max_dynamic_shared raises f's dynamic shared memory limit to shmem bytes (for an
// occupancy query).
static CUresult gw_max_dynamic_shared(CUfunction f, unsigned shmem) {
	return cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)shmem);
}

// gw_host_alloc allocates bytes of page-locked host memory.
static CUresult gw_host_alloc(void** p, size_t bytes) {
	return cuMemAllocHost(p, bytes);
}

static const char* gw_error_name(CUresult r) {
	const char* s = 0;
	cuGetErrorName(r, &s);
	return s ? s : "CUDA_ERROR_UNKNOWN";
}
*/
import "C"

import (
	"fmt"
	"unsafe"

	"gorgonia.org/cu"
)

// initError reports why the CUDA driver could not start, nil when it did.
func initError() error {
	if r := C.gw_init_status(); r != C.CUDA_SUCCESS {
		return fmt.Errorf("gpu: cuInit: %s", C.GoString(C.gw_error_name(r)))
	}
	return nil
}

// launch starts fn with grid x block threads and the argument block args.
func launch(fn cu.Function, grid, block int, args unsafe.Pointer, coop bool) error {
	if err := markStart(); err != nil {
		return err
	}
	f := *(*C.CUfunction)(unsafe.Pointer(&fn))
	c := C.int(0)
	if coop {
		c = 1
	}
	if r := C.gw_launch(f, C.uint(grid), C.uint(block), args, c); r != C.CUDA_SUCCESS {
		return driverError{call: "cuLaunchKernel", code: int(r), name: C.GoString(C.gw_error_name(r))}
	}
	return nil
}

// launchShared starts fn as launch does, with shmem bytes of dynamic shared memory a block.
func launchShared(fn cu.Function, grid, block, shmem int, args unsafe.Pointer, coop bool) error {
	if err := markStart(); err != nil {
		return err
	}
	f := *(*C.CUfunction)(unsafe.Pointer(&fn))
	c := C.int(0)
	if coop {
		c = 1
	}
	if r := C.gw_launch_shared(f, C.uint(grid), C.uint(block), C.uint(shmem), args, c); r != C.CUDA_SUCCESS {
		return driverError{call: "cuLaunchKernel", code: int(r), name: C.GoString(C.gw_error_name(r))}
	}
	return nil
}

// hostAlloc returns bytes of page-locked host memory (cuMemAllocHost), which the device copies
// into directly; a copy into Go's pageable memory goes through a staging buffer of the driver.
// The memory lives as long as the process (the context is never destroyed).
func hostAlloc(bytes int) (unsafe.Pointer, error) {
	var p unsafe.Pointer
	if r := C.gw_host_alloc(&p, C.size_t(bytes)); r != C.CUDA_SUCCESS {
		return nil, driverError{call: "cuMemAllocHost", code: int(r), name: C.GoString(C.gw_error_name(r))}
	}
	return p, nil
}

// maxDynamicShared raises fn's dynamic shared memory limit to shmem bytes.
func maxDynamicShared(fn cu.Function, shmem int) error {
	f := *(*C.CUfunction)(unsafe.Pointer(&fn))
	if r := C.gw_max_dynamic_shared(f, C.uint(shmem)); r != C.CUDA_SUCCESS {
		return driverError{call: "cuFuncSetAttribute (dynamic shared memory)", code: int(r), name: C.GoString(C.gw_error_name(r))}
	}
	return nil
}
