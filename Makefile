# Compose for Linux: the commands a newcomer types.
#   make test   installs what a fresh Debian machine lacks, runs every test
#               (failures and the summary shown; the full log in .build/test.log)
#   make run    runs the example app (installs nc, its client, if missing)
#   make bench  runs the benchmarks (release build) and prints the table
#   make bench-instructions  counts instructions per operation with callgrind
#   make bench-echo-counts   system calls and instructions per echo message
#   make check-leaks  runs fixture apps under valgrind: no leak, no invalid access
#   make soak   the relay and chat daemons against hostile clients (about 2 min)
#   make docs   builds the API reference and articles (DocC), warnings as errors
#   make install  installs the release `compose` tool into PREFIX (/usr/local)

SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)

.PHONY: all build test run client-deps bench bench-instructions bench-echo-counts deps clean check-leaks soak docs install uninstall

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

# The unsafe inventory first (milliseconds), so that the tests' summary is
# the last thing printed. scripts/test-summary.py runs `swift test` (Swift
# Testing only: the package has no XCTest tests), shows what failed or
# warned and the summary, explains the known issues, keeps the whole output
# in $(TEST_LOG), and exits with the test run's status.
# SCRATCH=.build-x builds and tests in another scratch path.
SCRATCH ?= .build
TEST_LOG = $(SCRATCH)/test.log
test: deps
	$(SWIFT) build --build-tests --scratch-path $(SCRATCH)
	python3 scripts/unsafe-inventory.py
	@python3 scripts/test-summary.py --log $(TEST_LOG) -- $(SWIFT) test --skip-build --disable-xctest --scratch-path $(SCRATCH) $(TEST_ARGS)

# nc (netcat), the client the quick start chats with, when missing.
client-deps:
	@if ! command -v nc >/dev/null 2>&1; then \
		echo "Installing netcat-openbsd (nc, the chat's client in the quick start) with apt-get..."; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq netcat-openbsd; \
	fi

run: deps client-deps
	$(SWIFT) run ComposeChat $(ARGS)

# Builds every product first: the runner starts the timer, startup and echo
# contenders (Benchmarks/Sources/*) as child processes. This project's own
# Swift files are touched first so that all of its modules are recompiled:
# an incremental release build does not recompile a client of Compose after
# Compose's inlinable code changed, and the stale client crashes or measures
# the old code. (Dependencies such as SwiftNIO stay built.)
bench: deps
	find Sources Benchmarks/Sources -name '*.swift' -exec touch {} +
	cd Benchmarks && $(SWIFT) build -c release && $(SWIFT) run -c release --skip-build ComposeBenchmarks
	$(MAKE) bench-instructions

# Instructions per operation of the in-process cases, counted by valgrind's
# callgrind (Benchmarks/scripts/instructions.py): repeatable on a busy
# machine, where wall times are not. Takes a few minutes.
bench-instructions: deps
	@command -v valgrind >/dev/null 2>&1 || { echo "Installing valgrind with apt-get..."; DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq valgrind; }
	cd Benchmarks && $(SWIFT) build -c release --product InstructionCounts && python3 scripts/instructions.py

# System calls (strace -f -c) and instructions (callgrind) per message of
# the echo servers, Compose's and the C one, from two runs of different
# message counts (Benchmarks/scripts/echo_counts.py): repeatable on a busy
# machine, where the echo's wall times are not. Takes a few minutes.
bench-echo-counts: deps
	@command -v valgrind >/dev/null 2>&1 || { echo "Installing valgrind with apt-get..."; DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq valgrind; }
	@command -v strace >/dev/null 2>&1 || { echo "Installing strace with apt-get..."; DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq strace; }
	find Sources Benchmarks/Sources -name '*.swift' -exec touch {} +
	cd Benchmarks && $(SWIFT) build -c release --product EchoCompose && $(SWIFT) build -c release --product EchoC && $(SWIFT) build -c release --product EchoLoad && python3 scripts/echo_counts.py $(ARGS)

# Scenarios of the fixture app (Tests/Fixtures/AppFixture) under valgrind's
# memcheck; fails on a definite leak or an invalid read or write. See
# scripts/check-leaks.sh (one summary line per scenario).
check-leaks: deps
	@if ! command -v valgrind >/dev/null 2>&1; then \
		echo "Installing valgrind with apt-get..."; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq valgrind; \
	fi
	SWIFT="$(SWIFT)" scripts/check-leaks.sh

# The flow-control figures (scripts/soak.py): peak RSS, echo and timer
# latency under a flood, 256 MiB without a newline, process groups left
# behind, a chat member who never reads. Release builds, real sockets and
# processes on 127.0.0.1; prints one PASS/FAIL line per figure.
soak: deps
	$(SWIFT) build -c release --product ComposeRelay --scratch-path .build-soak
	$(SWIFT) build -c release --product ComposeChat --scratch-path .build-soak
	$(SWIFT) build -c release --product compose --scratch-path .build-soak
	python3 scripts/soak.py --bin .build-soak/release $(ARGS)

clean:
	rm -rf .build Benchmarks/.build

# The `compose` tool, release build, onto the PATH: the binary and the
# templates bundle it reads at run time (found next to the real
# executable) go to PREFIX/lib/compose, and PREFIX/bin/compose links to the
# binary. `make install PREFIX=$$HOME/.local` needs no root; DESTDIR stages
# a package. Builds in its own scratch path, as the invoking user.
PREFIX ?= /usr/local
INSTALL_SCRATCH := .build-install
install:
	$(SWIFT) build -c release --product compose --scratch-path $(INSTALL_SCRATCH)
	install -d "$(DESTDIR)$(PREFIX)/lib/compose" "$(DESTDIR)$(PREFIX)/bin"
	install -m 755 "$(INSTALL_SCRATCH)/release/compose" "$(DESTDIR)$(PREFIX)/lib/compose/compose"
	rm -rf "$(DESTDIR)$(PREFIX)/lib/compose/Compose_ComposeTemplates.resources"
	cp -R "$(INSTALL_SCRATCH)/release/Compose_ComposeTemplates.resources" "$(DESTDIR)$(PREFIX)/lib/compose/"
	ln -sf ../lib/compose/compose "$(DESTDIR)$(PREFIX)/bin/compose"
	@echo "Installed $(DESTDIR)$(PREFIX)/bin/compose ($$(cat VERSION))."

uninstall:
	rm -f "$(DESTDIR)$(PREFIX)/bin/compose"
	rm -rf "$(DESTDIR)$(PREFIX)/lib/compose"

# The API reference and articles: the DocC catalogs of Compose, ComposeApp,
# ComposePersistence and ComposeTesting (Sources/*/*.docc), built by
# swift-docc-plugin with warnings as errors (a broken link or a bad symbol
# reference fails), then scripts/doc-coverage.py fails on any public symbol
# without a doc comment. No network needed. Its own scratch path, so it
# never invalidates the test build. Archives: .build-docs/plugins/Swift-DocC/outputs/.
DOC_TARGETS := Compose ComposeApp ComposePersistence ComposeTesting
docs: deps
	$(SWIFT) package --scratch-path .build-docs generate-documentation \
		$(foreach t,$(DOC_TARGETS),--target $(t)) --warnings-as-errors
	python3 scripts/doc-coverage.py .build-docs $(DOC_TARGETS)
