# gworkbench. `make run` starts the workbench on the embedded demo graph; `make test` runs the
# whole suite (formatting, vet, tests, the CPU engine under -race, a short fuzz of each parser).

GO        ?= go
PKGS      := ./...
FUZZTIME  ?= 4000x
BIN       := bin/gworkbench
NVCC      ?= nvcc
CU        := $(wildcard engine/gpu/kernels/*.cu)
PTX       := $(CU:.cu=.ptx)

# Provenance stamped into the binary (gworkbench --version, the provenance of every result):
# the version is the nearest tag (dev without one), the commit the abbreviated revision, both
# marked -dirty when the tree has changes. Outside a git checkout both stay as the code has them.
VERSION   ?= $(shell git describe --tags --dirty 2>/dev/null || echo dev)
COMMIT    ?= $(shell git describe --always --dirty --abbrev=12 --exclude '*' 2>/dev/null)
LDFLAGS   := -X github.com/gworkbench/gworkbench/engine.Version=$(VERSION) -X github.com/gworkbench/gworkbench/engine.Commit=$(COMMIT)

.PHONY: run build test check unit race fuzz labs bench bench-cpu bench-loader ptx gpu gpu-test gpu-bench cuda-toolkit vet-cuda clean

run: build
	./$(BIN)

build:
	$(GO) build -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/gworkbench

test: check unit race fuzz

check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)

unit:
	$(GO) test -count=1 -timeout 20m $(PKGS)

race:
	$(GO) test -count=1 -race -short -timeout 20m ./engine/cpu/...

# Each Fuzz target of each package, briefly, from its seed corpus in testdata/fuzz. The length is
# a count of inputs, not a time: a timed run that expires while Go's fuzzer minimizes a new input
# ends in "context deadline exceeded" with no failing input, which failed CI falsely.
fuzz:
	@for pkg in ./loader; do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "fuzz $$pkg $$f"; \
	    $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	  done; \
	done

# Every lab on ENGINE (cpu, or gpu with a CUDA build: make gpu labs ENGINE=gpu BIN=bin/gworkbench-gpu);
# a claim that does not hold stops its lab with FILE:LINE and the numbers measured.
ENGINE    ?= cpu
labs: $(if $(filter gpu,$(ENGINE)),,build)
	@for f in scripts/lab-*.gw; do \
	  echo "== $$f (engine=$(ENGINE))"; \
	  ./$(BIN) -e 'set engine=$(ENGINE)' $$f || exit 1; \
	done

bench: bench-loader bench-cpu

bench-cpu:
	$(GO) test -run '^$$' -bench . -benchtime 8x -timeout 60m ./engine/cpu

# Loader benchmarks: MB/s end to end (file to CSR), peak heap during the load (peakMB) and its
# ratio to the final CSR (peak/CSR), kron generation; GWLOADER_TRACE=1 prints phase times.
bench-loader:
	$(GO) test -run '^$$' -bench . -benchtime 3x -timeout 30m ./loader ./graph

# CUDA: install the toolkit (Debian non-free nvidia-cuda-toolkit), compile kernels to PTX,
# build the CUDA binary, build the GPU test binary for the device machine.
cuda-toolkit:
	bash .ci/cuda-toolkit.sh

ptx: $(PTX)

engine/gpu/kernels/%.ptx: engine/gpu/kernels/%.cu $(wildcard engine/gpu/kernels/*.cuh)
	$(NVCC) -ptx -arch=compute_70 -O3 -std=c++14 -o $@ $<

gpu:
	$(GO) build -tags cuda -ldflags '$(LDFLAGS)' -o bin/gworkbench-gpu ./cmd/gworkbench

# The GPU test binary needs only libcuda where it runs (a GPU machine without Go): copy .gpu/
# there and run `cd engine/gpu && ../../.gpu/gpu.test -test.v` from the repository root.
gpu-test:
	mkdir -p .gpu
	$(GO) test -c -tags cuda -o .gpu/gpu.test ./engine/gpu

# The GPU benchmark (kron and urand scale 20 degree 16, NY.gr, road 1.5M vertices): time,
# GTEPS and fraction of the measured copy bandwidth per algorithm and schedule.
# GW_BENCH_GRAPHS=kron,urand,ny,road and GW_BENCH_ALGS=bfs,sssp,cc,pr narrow it.
gpu-bench: gpu-test
	cd engine/gpu && GW_BENCH=1 ../../.gpu/gpu.test -test.run '^TestBench$$' -test.v -test.timeout 60m

vet-cuda:
	$(GO) vet -tags cuda $(PKGS)

clean:
	rm -rf bin .gpu
