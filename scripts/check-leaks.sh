#!/usr/bin/env bash
# Runs scenarios of the fixture app (Tests/Fixtures/AppFixture) under
# valgrind's memcheck and fails on any definite (or indirect) leak, invalid
# read or write, or other memcheck error, on a libuv handle left open at
# exit (uv_loop_close), or on an unexpected exit status.
# "possibly lost" and "still reachable" blocks (the Swift runtime's caches)
# are not counted. One summary line per scenario; full logs in $LOG_DIR.
#
#   scripts/check-leaks.sh                 # every scenario
#   scripts/check-leaks.sh stress signals  # some
#
# Environment: SWIFT (swift), SCRATCH_PATH (.build), LOG_DIR
# ($SCRATCH_PATH/check-leaks), LINE_TIMEOUT (seconds to wait for one line
# of output, 120).
set -uo pipefail

cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
SCRATCH_PATH=${SCRATCH_PATH:-.build}
LOG_DIR=${LOG_DIR:-$SCRATCH_PATH/check-leaks}
LINE_TIMEOUT=${LINE_TIMEOUT:-120}

command -v valgrind >/dev/null || { echo "check-leaks: valgrind is not installed (make check-leaks installs it)" >&2; exit 2; }

echo "Building ComposeFixture..."
"$SWIFT" build --scratch-path "$SCRATCH_PATH" --product ComposeFixture >/dev/null || { echo "check-leaks: build failed" >&2; exit 2; }
BIN="$("$SWIFT" build --scratch-path "$SCRATCH_PATH" --show-bin-path)/ComposeFixture"
mkdir -p "$LOG_DIR"

VALGRIND=(valgrind --tool=memcheck --leak-check=full
    --errors-for-leak-kinds=definite,indirect --error-exitcode=99
    --suppressions=scripts/valgrind-swift.supp)

# --- Running one scenario ---------------------------------------------------

# start NAME [VAR=value...]: the fixture on scenario NAME under valgrind, as a
# coprocess whose output is read with expect_line.
start() {
    NAME=$1
    shift
    : >"$LOG_DIR/$NAME.out"
    coproc FIXTURE { exec env COMPOSE_FIXTURE="$NAME" "$@" "${VALGRIND[@]}" --log-file="$LOG_DIR/$NAME.valgrind" "$BIN" 2>"$LOG_DIR/$NAME.err"; }
    PID=$FIXTURE_PID
    # Bash closes a coprocess's descriptors when it exits; read from a copy.
    exec {OUT}<&"${FIXTURE[0]}"
}

# expect_line LINE: reads output until LINE comes; fails at end of output or
# after LINE_TIMEOUT seconds without a line.
expect_line() {
    local line
    while IFS= read -r -t "$LINE_TIMEOUT" line <&"$OUT"; do
        printf '%s\n' "$line" >>"$LOG_DIR/$NAME.out"
        [[ $line == "$1" ]] && return 0
    done
    echo "  $NAME: \"$1\" never came" >&2
    return 1
}

# finish: the rest of the output, then the exit status in STATUS.
finish() {
    cat <&"$OUT" >>"$LOG_DIR/$NAME.out"
    exec {OUT}<&-
    wait "$PID"
    STATUS=$?
}

FAILED=0

# report EXPECTED_STATUS [LINE...]: the summary line of the scenario that
# just finished; fails unless it exited with EXPECTED_STATUS, memcheck found
# nothing, and every LINE was printed.
report() {
    local expected=$1 log="$LOG_DIR/$NAME.valgrind" problems=()
    shift
    local errors definite indirect possible suppressed
    errors=$(sed -n 's/.*ERROR SUMMARY: \([0-9,]*\) errors.*/\1/p' "$log" | tail -1)
    definite=$(sed -n 's/.*definitely lost: \([0-9,]*\) bytes.*/\1/p' "$log" | tail -1)
    indirect=$(sed -n 's/.*indirectly lost: \([0-9,]*\) bytes.*/\1/p' "$log" | tail -1)
    possible=$(sed -n 's/.*possibly lost: \([0-9,]*\) bytes.*/\1/p' "$log" | tail -1)
    suppressed=$(sed -n 's/.*suppressed: \([0-9,]*\) bytes.*/\1/p' "$log" | tail -1)
    [[ -z $errors ]] && problems+=("no valgrind summary")
    [[ ${errors:-0} != 0 ]] && problems+=("$errors memcheck errors")
    [[ $STATUS != "$expected" ]] && problems+=("exit $STATUS, expected $expected")
    # A handle never closed is still reachable through the loop, so memcheck
    # does not see it; the runtime's uv_loop_close does, and logs it.
    grep -q "uv_loop_close failed" "$LOG_DIR/$NAME.err" && problems+=("a libuv handle was never closed")
    for line in "$@"; do
        grep -qxF -- "$line" "$LOG_DIR/$NAME.out" || problems+=("no \"$line\"")
    done
    local verdict=ok
    if ((${#problems[@]})); then
        verdict="FAIL: $(IFS=';'; echo "${problems[*]}")"
        FAILED=1
    fi
    printf '%-14s exit %-3s errors %-3s definitely lost %-6s indirectly lost %-6s possibly lost %-6s suppressed %-6s %s\n' \
        "$NAME" "$STATUS" "${errors:-?}" "${definite:-0}" "${indirect:-0}" "${possible:-0}" "${suppressed:-0}" "$verdict"
    if [[ $verdict != ok ]]; then
        echo "  log: $log" >&2
    fi
}

# --- Scenarios ----------------------------------------------------------------

scenario_stress() {
    start stress
    finish
    report 0 "stress done"
}

scenario_lifecycle() {
    start lifecycle
    expect_line ready && kill -TERM "$PID"
    finish
    report 0 "shutting down" "disappear app"
}

scenario_timers() {
    start timers
    finish
    report 0 "done"
}

scenario_signals() {
    start signals
    expect_line ready && kill -HUP "$PID" &&
        expect_line hup && kill -USR1 "$PID" &&
        expect_line usr1 && kill -TERM "$PID"
    finish
    report 0 "shutting down"
}

scenario_stdin() {
    NAME=stdin
    printf 'a\nb\r\npartial' | COMPOSE_FIXTURE=stdin "${VALGRIND[@]}" --log-file="$LOG_DIR/stdin.valgrind" "$BIN" \
        >"$LOG_DIR/stdin.out" 2>"$LOG_DIR/stdin.err"
    STATUS=$?
    report 0 "line: a" "line: b" "line: partial" "end"
}

scenario_stdinFile() {
    NAME=stdinFile
    printf 'x\ny\r\nz' >"$LOG_DIR/stdinFile.in"
    COMPOSE_FIXTURE=stdin "${VALGRIND[@]}" --log-file="$LOG_DIR/stdinFile.valgrind" "$BIN" \
        <"$LOG_DIR/stdinFile.in" >"$LOG_DIR/stdinFile.out" 2>"$LOG_DIR/stdinFile.err"
    STATUS=$?
    report 0 "line: x" "line: y" "line: z" "end"
}

scenario_async() {
    start async
    finish
    report 0 "received 42 on main" "slept" "dispatched"
}

scenario_debounce() {
    start debounce
    finish
    report 0 "debounced 3"
}

scenario_selfShutdown() {
    start selfShutdown
    finish
    report 7 "disappear selfShutdown"
}

scenario_earlyShutdown() {
    start earlyShutdown
    finish
    report 5 "disappear earlyShutdown"
}

scenario_deadline() {
    start deadline COMPOSE_DEADLINE_MS=1000
    expect_line "appear deadline" && kill -TERM "$PID"
    finish
    report 3 "disappear deadline"
}

scenario_loopError() {
    start loopError
    finish
    report 0 "operation: uv_pipe_open name: EBADF"
}

# I/O: a TCP server and 200 in-process clients closing in every way;
# 50 child processes in turn and one left for the shutdown to terminate;
# a file watcher through 20 create/modify/delete cycles.
scenario_tcp() {
    start tcp
    finish
    report 0 "tcp done" "disappear app"
}

scenario_process() {
    start process
    finish
    report 0 "process done" "disappear app"
}

scenario_files() {
    start files
    finish
    report 0 "files done" "disappear app"
}

# Reads in libuv's thread pool at the shutdown: each uv_fs_t, and what it
# retains, is freed in its callback, which the loop runs before it closes.
scenario_readFiles() {
    start readFiles
    finish
    report 0 "reads done 32 4" "disappear app"
}

# TLS (ComposeTLS on OpenSSL): handshakes, data both ways, close_notify
# and aborts, three failed handshakes (a refused certificate, plain text, a
# client that sends nothing and meets the handshake timeout), a certificate
# reloaded on SIGHUP, then a reload that fails (a key that is not PEM) and
# keeps it, and the shutdown's drain of the TLS connections left. The
# certificates are made here with the openssl command (no key committed).
# The scenario releases its listener after the drain: a TLS connection
# still alive at exit (the listener keeps the last one it accepted) would
# show its OpenSSL state as "definitely lost", since memcheck does not see
# the tagged pointer a connection holds its filtered transport through.
scenario_tls() {
    local dir="$LOG_DIR/tls-certificates" ec=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes)
    rm -rf "$dir" && mkdir -p "$dir"
    printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' >"$dir/server.ext"
    {
        openssl req -x509 "${ec[@]}" -keyout "$dir/ca.key" -out "$dir/ca.pem" -days 2 -subj "/CN=Compose Test CA" &&
        for name in server renewed; do
            openssl req "${ec[@]}" -keyout "$dir/$name.key" -out "$dir/$name.csr" \
                -subj "/CN=$([[ $name == server ]] && echo localhost || echo "localhost (renewed)")" &&
            openssl x509 -req -in "$dir/$name.csr" -CA "$dir/ca.pem" -CAkey "$dir/ca.key" -CAcreateserial \
                -out "$dir/$name.pem" -days 2 -extfile "$dir/server.ext" || return 1
        done
    } >"$LOG_DIR/tls-certificates.log" 2>&1 || { echo "  tls: openssl could not make the certificates" >&2; FAILED=1; return; }
    start tls COMPOSE_TLS_DIR="$dir"
    expect_line "tls ready" &&
        cp "$dir/renewed.pem" "$dir/server.pem" && cp "$dir/renewed.key" "$dir/server.key" && kill -HUP "$PID" &&
        expect_line "subject: /CN=localhost (renewed)" &&
        echo "not a key" >"$dir/server.key" && kill -HUP "$PID" &&
        expect_line "reload failed" && expect_line "subject: /CN=localhost (renewed)" && kill -TERM "$PID"
    finish
    report 0 "handshakes failed" "tls ready" "reload failed" "shutting down" "disappear app"
    rm -rf "$dir"
}

ALL=(stress lifecycle timers signals stdin stdinFile async debounce selfShutdown earlyShutdown deadline loopError tcp process files readFiles tls)
SELECTED=("$@")
((${#SELECTED[@]})) || SELECTED=("${ALL[@]}")

echo "valgrind memcheck on $BIN (logs in $LOG_DIR):"
for name in "${SELECTED[@]}"; do
    if ! declare -F "scenario_$name" >/dev/null; then
        echo "check-leaks: no scenario \"$name\" (choices: ${ALL[*]})" >&2
        exit 2
    fi
    "scenario_$name"
done

if ((FAILED)); then
    echo "check-leaks: FAILED"
    exit 1
fi
echo "check-leaks: no leak or invalid access in ${#SELECTED[@]} scenarios"
