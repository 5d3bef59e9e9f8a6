# A thin layer over CMake for the two everyday commands:
#   make        install what is missing, build, run every plugin over data/
#   make test   install what is missing, build, run the CPU test suite
# Variables: BUILD (build folder), ARCHS (CUDA architectures), JOBS,
# PLUGINS (instances for `make run`), DTYPE.

BUILD   ?= build
ARCHS   ?= 80;90
JOBS    ?= $(shell nproc 2>/dev/null || echo 2)
PLUGINS ?= csr,cusparse,coo,ell,hyb,jds,sell,csr5,dasp,bcsr,dia,csrdu,merge,bccoo,tilespmv,vbr
DTYPE   ?= f64
export PATH := $(PATH):/usr/local/cuda/bin

.PHONY: all run test deps build gpu-test install clean

all: run

deps:
	@tools/install-deps.sh

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CUDA_ARCHITECTURES=$(ARCHS)"

build: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

run: build
	$(BUILD)/host/spmvlab run -p $(PLUGINS) --dtype $(DTYPE) -o $(BUILD)/results.csv data/

test: build
	ctest --test-dir $(BUILD) -L cpu --output-on-failure -j $(JOBS)

gpu-test: build
	ctest --test-dir $(BUILD) -L gpu --output-on-failure

install: build
	cmake --install $(BUILD)

clean:
	rm -rf $(BUILD)
