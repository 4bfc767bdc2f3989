# Compose for Linux: the commands a newcomer types.
#   make test   installs what a fresh Debian machine lacks, runs every test
#   make run    runs the example app
#   make bench  runs the benchmarks (release build) and prints the table

SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)

.PHONY: all build test run bench deps clean

all: build

# libuv1-dev (and pkg-config, which SwiftPM uses to find it) when missing.
deps:
	@if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists libuv; then \
		echo "Installing libuv1-dev and pkg-config with apt-get..."; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq libuv1-dev pkg-config; \
	fi

build: deps
	$(SWIFT) build

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

run: deps
	$(SWIFT) run ComposeChat $(ARGS)

bench: deps
	cd Benchmarks && $(SWIFT) run -c release ComposeBenchmarks

clean:
	rm -rf .build Benchmarks/.build
