# Compose for Linux: the commands a newcomer types.
#   make test   installs what a fresh Debian machine lacks, runs every test
#               (failures and the summary shown; the full log in .build/test.log)
#   make run    runs the example app (installs nc, its client, if missing)
#   make run-keyvalue  runs the redis-protocol example on port 6380 (installs redis-cli)
#   make run-notes     runs the notes example, a terminal app (make run-stepper: the stepper)
#   make bench  runs the benchmarks (release build) and prints the table
#   make bench-redis  redis-benchmark against the key-value example and redis-server
#   make bench-tls    TLS echo, handshakes and idle memory against C libuv + OpenSSL
#   make bench-http   wrk against the HTTP hello-world, Node.js, Hummingbird 2 and C
#   make bench-instructions  counts instructions per operation with callgrind
#   make bench-echo-counts   system calls and instructions per echo message
#   make bench-linking  the echo servers' memory and first echo linked other ways
#   make bench-terminal  terminal frames: one changed line of 200x60 vs a redraw
#   make check-leaks  runs fixture apps under valgrind: no leak, no invalid access
#   make test-asan  builds and runs the tests with AddressSanitizer
#   make test-tsan  the tests that involve other threads, with ThreadSanitizer
#               (both: TEST_ARGS="--filter Suite" for some suites only,
#               ASAN_SCRATCH=/TSAN_SCRATCH= for another scratch path)
#   make test-examples  builds and tests the example packages (Examples/OutgoingHTTP:
#               AsyncHTTPClient from an observer; minutes, not in `make test`)
#   make soak   the relay and chat daemons against hostile clients (about 2 min)
#   make soak-http  10,000 slowloris connections against the HTTP server (about 2 min)
#   make docs   builds the API reference and articles (DocC), warnings as errors
#   make docs-preview  serves one module's documentation on localhost:8080 (DOC=ComposeApp)
#   make install  installs the release `compose` tool into PREFIX (/usr/local)

SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)

.PHONY: bench-terminal
# Before a benchmark build: the sources touched (a benchmark never runs a
# stale build), and SwiftPM's cached build plan of the Benchmarks package
# dropped, since a source file added to the library since the last
# benchmark build is otherwise left out of it (its functions "no member").
BENCH_FRESH = find Sources Benchmarks/Sources -name '*.swift' -exec touch {} + && rm -f Benchmarks/.build/release.yaml

.PHONY: all build test tmux-deps test-asan test-tsan test-examples run run-keyvalue run-notes run-stepper client-deps redis-deps bench bench-redis bench-tls bench-http soak-http http-bench-deps bench-instructions bench-echo-counts bench-linking deps clean check-leaks soak docs docs-preview install uninstall

all: build

# libuv1-dev, libssl-dev and libhttp-parser-dev (and pkg-config, which
# SwiftPM uses to find the first two; http-parser has no .pc file, so its
# header is looked for) when missing; the openssl command too, the peer of
# the TLS tests (s_client, s_server) and the maker of their test
# certificates; curl, a peer of the HTTP tests.
deps:
	@if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists libuv || ! pkg-config --exists openssl || \
	    ! [ -f /usr/include/http_parser.h ] || ! command -v openssl >/dev/null 2>&1 || ! command -v curl >/dev/null 2>&1; then \
		echo "Installing libuv1-dev, libssl-dev, libhttp-parser-dev, openssl, curl and pkg-config with apt-get..."; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq libuv1-dev libssl-dev libhttp-parser-dev openssl curl pkg-config; \
	fi

build: deps
	$(SWIFT) build

# The unsafe inventory first (milliseconds), so that the tests' summary is
# the last thing printed. scripts/test-summary.py runs `swift test` (Swift
# Testing only: the package has no XCTest tests), shows what failed or
# warned and the summary, explains the known issues, keeps the whole output
# in $(TEST_LOG), and exits with the test run's status.
# SCRATCH=.build-x builds and tests in another scratch path.
#
# The tests of real apps in tmux (TERMINAL_E2E) run first, on their own:
# each waits for what a real terminal shows, and beside the rest of the
# suite (package builds, apps by the dozen) a busy machine made them miss
# their 20 s more than once. With TEST_ARGS, one run does as it says.
SCRATCH ?= .build
TEST_LOG = $(SCRATCH)/test.log
TERMINAL_E2E := TerminalEndToEndTests|TerminalFallbackTests|ViewsEndToEndTests|TopEndToEndTests|TopFallbackTests|StopSignalIgnoredEndToEndTests
test: deps redis-deps tmux-deps
	$(SWIFT) build --build-tests --scratch-path $(SCRATCH)
	python3 scripts/unsafe-inventory.py
	@if [ -z "$(TEST_ARGS)" ]; then \
		python3 scripts/test-summary.py --log $(SCRATCH)/test-terminal.log -- $(SWIFT) test --skip-build --disable-xctest --scratch-path $(SCRATCH) --filter '$(TERMINAL_E2E)' && \
		python3 scripts/test-summary.py --log $(TEST_LOG) -- $(SWIFT) test --skip-build --disable-xctest --scratch-path $(SCRATCH) --skip '$(TERMINAL_E2E)'; \
	else \
		python3 scripts/test-summary.py --log $(TEST_LOG) -- $(SWIFT) test --skip-build --disable-xctest --scratch-path $(SCRATCH) $(TEST_ARGS); \
	fi

# The tests built with AddressSanitizer (debug), in their own scratch path.
# The fixture, example and tool executables the tests start as child
# processes are built there too, so they run instrumented as well. Every
# executable is linked with scripts/asan-default-options.c (compiled by the
# toolchain's clang), which turns LeakSanitizer off where ASAN_OPTIONS does
# not reach (see that file for why; leaks are `make check-leaks`'s job).
# lld instead of gold: gold prints "Cannot export local symbol" for each of
# ASan's ~1,100 check routines at every link. (After changing the options
# file, delete $(ASAN_SCRATCH)'s executables: SwiftPM relinks when the flags
# change, but does not know the object as an input.)
# Skipped:
#   EndToEndTests (ComposeToolTests): `compose new` for real, then
#     `swift build` and `swift test` of the new package, which build Compose
#     from scratch with the ordinary (uninstrumented) compiler: about 4 of
#     the 4.5 minutes of the ASan run, nothing instrumented but the few
#     `compose` calls that CommandTests, GoldenTests and RoughEdgeTests
#     already make, and two cores kept busy under the timed tests. `make
#     test` runs it.
# SWIFT_BACKTRACE=enable=no: a child that stops on purpose (the tests of
# re-entrant loop drivers) would start Swift's backtracer, which never
# finishes with a sanitizer's shadow memory mapped (seen: swift-backtrace
# processes still waiting after 15 minutes, holding the child's stderr, so
# the test reading it never ended).
SANITIZER_ENV := SWIFT_BACKTRACE=enable=no
ASAN_SCRATCH ?= .build-asan
ASAN_FLAGS := --sanitize=address --scratch-path $(ASAN_SCRATCH) \
	-Xswiftc -use-ld=lld -Xlinker $(CURDIR)/$(ASAN_SCRATCH)/asan-default-options.o
# TerminalEndToEndTests: real processes in tmux, some of which crash on
# purpose; a sanitizer's own SIGSEGV handler takes the crash over (its
# report, its exit status), so the tests that check what the shell sees
# after a crash cannot hold. The restoration's C code runs in-process under
# both sanitizers (TerminalRestorationTests); `make test` runs the suite.
# ViewsEndToEndTests, TopEndToEndTests and StopSignalIgnoredEndToEndTests
# (tmux, waiting for screens) are
# left to `make test` too: an instrumented app beside the whole suite is
# too slow for their waits; the views' runtime runs instrumented in
# TerminalScreenTests and ViewsRuntimeTests.
ASAN_SKIP := --skip 'ComposeToolTests\.EndToEndTests' --skip 'TerminalEndToEndTests' --skip 'ViewsEndToEndTests' --skip 'TopEndToEndTests' --skip 'StopSignalIgnoredEndToEndTests'
# The toolchain's clang, next to swift (any C compiler would do; a fresh
# Debian has none).
CLANG ?= $(shell dirname "$$(readlink -f "$$(command -v $(SWIFT))")")/clang
$(ASAN_SCRATCH)/asan-default-options.o: scripts/asan-default-options.c
	mkdir -p $(ASAN_SCRATCH)
	$(CLANG) -c -fPIC -O1 -Wall -Werror $< -o $@
test-asan: deps $(ASAN_SCRATCH)/asan-default-options.o
	$(SWIFT) build --build-tests $(ASAN_FLAGS)
	$(SANITIZER_ENV) $(SWIFT) test --skip-build $(ASAN_FLAGS) $(ASAN_SKIP) $(TEST_ARGS)

# The tests built with ThreadSanitizer (debug), in their own scratch path,
# the child executables too. Every suite runs, not only those written about
# threads (AsyncEmitterTests, ConcurrencyTests, LoopThreadTests,
# HostResolutionTests, WorkersTests, WorkerReadinessTests,
# SystemdNotifierTests, SystemdDaemonTests, ConfigurationTests' reloads...):
# the other threads are everywhere (FixtureProcess's reader threads, libuv's
# thread pool for stdin files and host names, the main dispatch queue the
# loop drains), and the whole run takes about 2 minutes. A race in a child
# process makes it exit 66, which fails its test with the report in the
# transcript. scripts/tsan-defaults.c, linked into every executable, holds
# the suppressions (false reports about Synchronization.Mutex; see there).
# Skipped:
#   EndToEndTests and the exit tests: as in test-asan.
#   anAppWritingPastTheFileSizeLimitKeepsRunningAndExits0 (BrokenPeerTests):
#     under `ulimit -f 1` every TSan-built program, even an empty one, dies
#     at startup with "ThreadSanitizer: BUS on unknown address" (exit 66)
#     before any of its code runs; the test is about the app, not about
#     threads, and `make test` and `make test-asan` run it.
#   openingAndClosingManyHandlesEndsCleanly (StressTests) and
#   everyRestartAfterSIGKILLRestoresTheLastCompletedSaveOrALaterOne
#     (StateCrashTests): bounds in real time (the stress scenario within
#     the fixture's 20 s failure timeout; each SIGKILL within 30-300 ms of a run's start, before the run
#     can finish) that the 5-15x slowdown of ThreadSanitizer on two busy
#     cores breaks now and then (48 s; a run that finished before its kill
#     came), which says nothing about threads; test-asan runs both.
TSAN_SCRATCH ?= .build-tsan
TSAN_FLAGS := --sanitize=thread --scratch-path $(TSAN_SCRATCH) \
	-Xlinker $(CURDIR)/$(TSAN_SCRATCH)/tsan-defaults.o
TSAN_SKIP := --skip 'ComposeToolTests\.EndToEndTests' --skip 'TerminalEndToEndTests' --skip 'ViewsEndToEndTests' --skip 'TopEndToEndTests' --skip 'StopSignalIgnoredEndToEndTests' --skip anAppWritingPastTheFileSizeLimitKeepsRunningAndExits0 \
	--skip openingAndClosingManyHandlesEndsCleanly \
	--skip everyRestartAfterSIGKILLRestoresTheLastCompletedSaveOrALaterOne
$(TSAN_SCRATCH)/tsan-defaults.o: scripts/tsan-defaults.c
	mkdir -p $(TSAN_SCRATCH)
	$(CLANG) -c -fPIC -O1 -Wall -Werror $< -o $@
test-tsan: deps $(TSAN_SCRATCH)/tsan-defaults.o
	$(SWIFT) build --build-tests $(TSAN_FLAGS)
	$(SANITIZER_ENV) $(SWIFT) test --skip-build $(TSAN_FLAGS) $(TSAN_SKIP) $(TEST_ARGS)

# The example packages beside the project (their own Package.swift, Compose
# by path): Examples/OutgoingHTTP calls a ComposeHTTP server with
# AsyncHTTPClient from an observer (the ComposeHTTP article "Calling HTTP
# APIs" shows its code). Not part of `make test`: AsyncHTTPClient's first
# build takes minutes, and the example builds Compose again in its own
# scratch path. EXAMPLES_SCRATCH= for another scratch path.
EXAMPLES_SCRATCH ?= .build
test-examples: deps
	cd Examples/OutgoingHTTP && $(SWIFT) build --build-tests --scratch-path $(EXAMPLES_SCRATCH) && \
		$(SWIFT) test --skip-build --disable-xctest --scratch-path $(EXAMPLES_SCRATCH)

# nc (netcat), the client the quick start chats with, when missing.
client-deps:
	@if ! command -v nc >/dev/null 2>&1; then \
		echo "Installing netcat-openbsd (nc, the chat's client in the quick start) with apt-get..."; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq netcat-openbsd; \
	fi

run: deps client-deps
	$(SWIFT) run ComposeChat $(ARGS)

# redis-cli (redis-tools): the key-value example's client, which its
# end-to-end tests (KeyValueDaemonTests, make test) drive; redis-server too
# for make bench-redis (REDIS_SERVER=1).
# tmux: the real terminal of the terminal end-to-end tests
# (TerminalEndToEndTests, which skip without it).
tmux-deps:
	@if ! command -v tmux >/dev/null 2>&1; then \
		echo "Installing tmux with apt-get..."; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq tmux; \
	fi

redis-deps:
	@if ! command -v redis-cli >/dev/null 2>&1 || ! command -v redis-benchmark >/dev/null 2>&1 || \
	    { [ -n "$(REDIS_SERVER)" ] && ! command -v redis-server >/dev/null 2>&1; }; then \
		echo "Installing redis-tools$(if $(REDIS_SERVER), and redis-server,) with apt-get..."; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq redis-tools $(if $(REDIS_SERVER),redis-server,); \
	fi

# The terminal examples (issue #34): Examples/Notes (type a note, Enter
# adds it, Tab to the list, Ctrl+D deletes, Escape quits; the notes are
# kept in ~/.local/state/ComposeNotes) and Examples/Stepper (+, -, r, q).
# In a pipe they read keys from standard input and print the rows of their
# screen that changed as plain lines.
run-notes: deps
	$(SWIFT) run ComposeNotes $(ARGS)

run-stepper: deps
	$(SWIFT) run ComposeStepper $(ARGS)

# The key-value example (Examples/KeyValue), release build, on 127.0.0.1:6380
# (ARGS="--port 6400"); then `redis-cli -p 6380`.
run-keyvalue: deps redis-deps
	$(SWIFT) run -c release ComposeKeyValue $(ARGS)

# Builds every product first: the runner starts the timer, startup and echo
# contenders (Benchmarks/Sources/*) as child processes. This project's own
# Swift files are touched first so that all of its modules are recompiled:
# an incremental release build does not recompile a client of Compose after
# Compose's inlinable code changed, and the stale client crashes or measures
# the old code. (Dependencies such as SwiftNIO stay built.)
bench: deps
	$(BENCH_FRESH)
	cd Benchmarks && $(SWIFT) build -c release && $(SWIFT) run -c release --skip-build ComposeBenchmarks
	$(MAKE) bench-instructions
	$(MAKE) bench-redis
	$(MAKE) bench-tls
	$(MAKE) bench-http

# redis-benchmark against the key-value example (release build) and
# redis-server 7 in one run (Benchmarks/scripts/redis_bench.py): requests
# per second at 1, 50 and 1,000 connections and 50 pipelining 16,
# alternating servers pinned to CPU 0, the client on CPU 1, medians of 5
# rounds; server CPU per request; memory per idle connection (10,000 of
# them). ARGS="--quick" for 3 shorter rounds. About 10 minutes. The
# example's sources and the library's are touched first (see bench). The
# example is built as RunningInProduction recommends, the Swift runtime
# linked in (--static-swift-stdlib): its thread-local lookups (each
# exclusivity check makes one) then skip __tls_get_addr, 4.5% of a
# pipelined request's instructions.
bench-redis: deps
	$(MAKE) redis-deps REDIS_SERVER=1
	find Sources Examples/KeyValue -name '*.swift' -exec touch {} +
	$(SWIFT) build -c release --static-swift-stdlib --product ComposeKeyValue
	python3 Benchmarks/scripts/redis_bench.py --keyvalue .build/release/ComposeKeyValue $(ARGS)

# TLS (Benchmarks/scripts/tls_bench.py): the echo daemon with `tls:`
# (EchoTLSCompose) against EchoC with OpenSSL through memory BIOs
# (EchoTLSC, the anchor) under TLSLoad (EchoLoad over OpenSSL): ping-pong
# 64 B on 1 and 50 connections and a 16 KiB stream, servers pinned to CPU
# 0, the client to CPU 1, rounds in rotating order, medians and ratios of
# the same rounds, server CPU per message and the client's CPU share;
# full handshakes per second (no resumption) against both and `openssl
# s_server`; memory per idle TLS connection (1,000). ARGS="--quick" for 3
# rounds, ARGS="--only handshake" for one part. About 2 minutes. The
# sources are touched first (see bench).
bench-tls: deps
	$(BENCH_FRESH)
	cd Benchmarks && for product in EchoTLSCompose EchoTLSC TLSLoad; do \
		$(SWIFT) build -c release --product $$product || exit 1; done && python3 scripts/tls_bench.py --bin .build/release $(ARGS)

# HTTP/1.1 (Benchmarks/scripts/http_bench.py): wrk (one thread, CPU 1)
# against four servers on one loop thread each, pinned to CPU 0: the
# ComposeHTTP hello-world (HTTPCompose), Node.js's `http`
# (scripts/http_node.js), Hummingbird 2 (HTTPHummingbird) and C libuv +
# libhttp-parser (HTTPC, the floor); GET / on 1, 50 and 256 connections, a
# 1 KiB POST echo, 16 pipelined; rounds in rotating order, medians and
# ratios of the same rounds; req/s, p99, server CPU per request, peak RSS,
# start to first response. ARGS="--quick" for 2 short rounds. About 8
# minutes (the first build of Hummingbird takes a few more). Both Swift
# servers are built as the recommended release build, `--static-swift-stdlib`
# (as bench-redis does): the dynamic loader no longer relocates the Swift
# runtime at start, and exclusivity checks skip `__tls_get_addr`. Instructions
# and allocations per request: Benchmarks/scripts/profile_http.sh.
http-bench-deps:
	@command -v wrk >/dev/null 2>&1 || { echo "Installing wrk with apt-get..."; DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq wrk; }
	@command -v node >/dev/null 2>&1 || { echo "Installing nodejs with apt-get..."; DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq nodejs; }

bench-http: deps http-bench-deps
	$(BENCH_FRESH)
	cd Benchmarks && for product in HTTPCompose HTTPHummingbird HTTPC; do \
		$(SWIFT) build -c release --static-swift-stdlib --product $$product || exit 1; done && python3 scripts/http_bench.py --bin .build/release $(ARGS)

# Slowloris (Benchmarks/scripts/soak_http.py; not in make test): 10,000
# connections sending one header byte a second each, spread over the
# second, to HTTPCompose (reconnecting when its 10 s header timeout answers
# 408), while a keep-alive client measures its requests' latency (p99 under
# 10 ms; the same client alone first, for the machine's own noise) and the
# server's RSS is read every second. Raises the soft limit of open files to
# the hard one (which must be above 10,100). About 2 minutes with the
# build; ARGS="--seconds 30 --slow 10000".
soak-http: deps
	$(BENCH_FRESH)
	cd Benchmarks && $(SWIFT) build -c release --static-swift-stdlib --product HTTPCompose && python3 scripts/soak_http.py --bin .build/release $(ARGS)

# Instructions per operation of the in-process cases, counted by valgrind's
# callgrind (Benchmarks/scripts/instructions.py): repeatable on a busy
# machine, where wall times are not. Takes a few minutes.
bench-instructions: deps
	@command -v valgrind >/dev/null 2>&1 || { echo "Installing valgrind with apt-get..."; DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq valgrind; }
	cd Benchmarks && $(SWIFT) build -c release --product InstructionCounts && python3 scripts/instructions.py

# System calls (strace -f -c) and instructions (callgrind) per message of
# the echo servers, Compose's and the C one (and, with ARGS="--servers
# EchoFramed --loads 1,2", the echo through ComposeFraming's frames), from two runs of different
# message counts (Benchmarks/scripts/echo_counts.py): repeatable on a busy
# machine, where the echo's wall times are not. Takes a few minutes.
bench-echo-counts: deps
	@command -v valgrind >/dev/null 2>&1 || { echo "Installing valgrind with apt-get..."; DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq valgrind; }
	@command -v strace >/dev/null 2>&1 || { echo "Installing strace with apt-get..."; DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq strace; }
	$(BENCH_FRESH)
	cd Benchmarks && $(SWIFT) build -c release --product EchoCompose && $(SWIFT) build -c release --product EchoFramed && $(SWIFT) build -c release --product EchoC && $(SWIFT) build -c release --product EchoLoad && python3 scripts/echo_counts.py $(ARGS)

# Peak RSS and start to first echo of the Compose, SwiftNIO and bare
# Swift-on-libuv echo servers linked other ways than SwiftPM links them
# (Benchmarks/scripts/link_variants.py): -static-stdlib, without the
# executable's exported symbols, with the hot code first (lld), as static
# executables. What linking can and cannot do for issue #33's 8 MiB
# (docs/footprint.md, "Linking"). About 2 minutes; needs valgrind.
bench-linking: deps
	@command -v valgrind >/dev/null 2>&1 || { echo "Installing valgrind with apt-get..."; DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq valgrind; }
	$(BENCH_FRESH)
	cd Benchmarks && for product in EchoLoad EchoC EchoComposeStatic EchoNIOStatic EchoSwiftUVStatic; do \
		$(SWIFT) build -c release --product $$product || exit 1; done && python3 scripts/link_variants.py $(ARGS)

# Terminal frames (Benchmarks/scripts/terminal_bench.py, issue #34):
# ComposeTerminal's FrameRenderer on a 200x60 screen, one changed line per
# frame and whole redraws, against copying the same bytes into a reused
# buffer: instructions per frame (callgrind), bytes per frame, nanoseconds
# per frame and the CPU share of 60 frames a second. About a minute after
# the build; needs valgrind. The build is made fresh first (BENCH_FRESH).
bench-terminal: deps
	@command -v valgrind >/dev/null 2>&1 || { echo "Installing valgrind with apt-get..."; DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq valgrind; }
	$(BENCH_FRESH)
	cd Benchmarks && $(SWIFT) build -c release --product TerminalRender && python3 scripts/terminal_bench.py --bin .build/release $(ARGS)

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
# ComposePersistence, ComposeConfiguration, ComposeFraming and ComposeTesting (Sources/*/*.docc), built by
# swift-docc-plugin with warnings as errors (a broken link or a bad symbol
# reference fails), then scripts/doc-coverage.py fails on any public symbol
# without a doc comment. No network needed. Its own scratch path, so it
# never invalidates the test build. Archives: .build-docs/plugins/Swift-DocC/outputs/.
DOC_TARGETS := Compose ComposeApp ComposePersistence ComposeConfiguration ComposeFraming ComposeTLS ComposeHTTP ComposeTesting
DOC_TARGETS += ComposeHTTPS ComposeHTTPTesting ComposeTerminal ComposeTerminalTesting
docs: deps
	$(SWIFT) package --scratch-path .build-docs generate-documentation \
		$(foreach t,$(DOC_TARGETS),--target $(t)) --warnings-as-errors
	python3 scripts/doc-coverage.py .build-docs $(DOC_TARGETS)

# One module's documentation, served by swift-docc-plugin's
# preview-documentation on http://localhost:8080/documentation/<module>
# (lowercase) until Ctrl-C; it rebuilds when an article changes. DOC is
# one of $(DOC_TARGETS). --disable-sandbox: the plugin needs to open the
# port. Same scratch path as `make docs`.
DOC ?= ComposeApp
docs-preview: deps
	$(SWIFT) package --disable-sandbox --scratch-path .build-docs preview-documentation --target $(DOC)
