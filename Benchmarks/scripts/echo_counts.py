#!/usr/bin/env python3
"""System calls and instructions per message of the echo servers.

Each server (EchoCompose, EchoC) runs under `strace -f -c` (system calls) and
under valgrind's callgrind (instructions) while EchoLoad sends a fixed
number of messages (its LIMIT argument); every run starts a fresh server.
Two runs with N1 and N2 messages: (count(N2) - count(N1)) / (N2 - N1) is
the cost of one message, with start, accept and shutdown cancelled out.
Counts hold on a busy machine, where wall times do not (the batching of the
many-connection loads still varies a little with scheduling: --repeat takes
the median of several pairs).

A message is one round trip for ping-pong (one read and one write on the
server when nothing is batched) and one 16 KiB chunk the client writes for
stream (the server reads and writes them in whatever pieces the socket
gives).

EchoFramed (the echo through ComposeFraming's frames of 64 bytes) runs when
named: --servers EchoFramed --loads 1,2 (docs/protocols.md).

Usage: scripts/echo_counts.py [--bin DIR] [--quick] [--repeat K] [--only syscalls|instructions]
                              [--servers EchoCompose,EchoC,EchoFramed] [--loads 1,2,3]
Prints a markdown table, then the system calls of one message by name.
"""
import argparse
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

LOADS = [
    # name, mode, connections, size, N1, N2
    ("ping-pong 64 B, 1 connection", "pingpong", 1, 64, 4_000, 20_000),
    ("ping-pong 64 B, 50 connections", "pingpong", 50, 64, 4_000, 20_000),
    ("stream 16 KiB writes, 10 connections", "stream", 10, 16 * 1024, 1_000, 5_000),
]
SERVERS = ["EchoCompose", "EchoC"]


def start(command):
    """Starts a server (under a tool) and returns it with its port."""
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = server.stdout.readline()
    match = re.match(r"listening (\d+)", line)
    if not match:
        server.kill()
        sys.exit(f"echo_counts: {command[-2]} did not listen: {line!r} {server.stderr.read()[-2000:]}")
    return server, match.group(1)


def traced_pid(tracer):
    """The pid of strace's child (the server), to stop it and not strace."""
    for _ in range(100):
        try:
            with open(f"/proc/{tracer.pid}/task/{tracer.pid}/children") as f:
                children = f.read().split()
            if children:
                return int(children[0])
        except OSError:
            pass
        time.sleep(0.05)  # strace forks the server just after it starts
    sys.exit("echo_counts: no server under strace")


def load(port, mode, connections, size, n):
    out = subprocess.run(
        [os.path.join(BIN, "EchoLoad"), port, mode, str(connections), str(size), "0", "600000", str(n)],
        capture_output=True, text=True, timeout=900,
    )
    if out.returncode != 0:
        sys.exit(f"echo_counts: EchoLoad failed: {out.stdout} {out.stderr}")


def sockets(pid):
    """How many sockets the process has open."""
    count = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            if os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:"):
                count += 1
        except OSError:
            pass
    return count


def settle(pid, baseline):
    """Waits until the server closed the load's connections (their close
    belongs to the run: stopping it earlier would count it in one run and
    not in the other)."""
    for _ in range(600):
        if sockets(pid) <= baseline:
            return
        time.sleep(0.05)  # polling /proc: the server closes on its own time
    sys.exit("echo_counts: the server kept the load's connections open")


def stop(server, pid):
    os.kill(pid, signal.SIGTERM)
    try:
        server.wait(timeout=120)
    except subprocess.TimeoutExpired:
        server.kill()
        sys.exit("echo_counts: a server did not stop on SIGTERM")


def syscalls(binary, spec, n):
    """System calls of one run, by name (strace -f -c)."""
    name, mode, connections, size = spec
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "strace.txt")
        server, port = start(["strace", "-f", "-c", "-o", out, binary, "0"])
        pid = traced_pid(server)
        baseline = sockets(pid)
        load(port, mode, connections, size, n)
        settle(pid, baseline)
        stop(server, pid)
        calls = {}
        with open(out) as f:
            for line in f:
                fields = line.split()
                # % time, seconds, usecs/call, calls, [errors,] syscall
                if len(fields) >= 5 and fields[-1] != "total" and re.match(r"[\d.]+$", fields[0]):
                    calls[fields[-1]] = int(fields[3])
        return calls


def instructions(binary, spec, n):
    """Instructions of one run (callgrind's "Collected")."""
    name, mode, connections, size = spec
    with tempfile.TemporaryDirectory() as tmp:
        server, port = start(["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out", binary, "0"])
        baseline = sockets(server.pid)
        load(port, mode, connections, size, n)
        settle(server.pid, baseline)
        stop(server, server.pid)
        match = re.search(r"Collected\s*:\s*(\d+)", server.stderr.read())
        if not match:
            sys.exit(f"echo_counts: no instruction count for {binary}")
        return int(match.group(1))


def per_message(measure, binary, spec, n1, n2, repeat):
    """The median over `repeat` pairs of (count(n2) - count(n1)) / (n2 - n1)."""
    results = []
    for _ in range(repeat):
        first, second = measure(binary, spec, n1), measure(binary, spec, n2)
        if isinstance(first, dict):
            names = set(first) | set(second)
            results.append({k: (second.get(k, 0) - first.get(k, 0)) / (n2 - n1) for k in names})
        else:
            results.append((second - first) / (n2 - n1))
    if isinstance(results[0], dict):
        totals = [sum(r.values()) for r in results]
        return results[totals.index(statistics.median_low(totals))]
    return statistics.median(results)


def main():
    global BIN
    parser = argparse.ArgumentParser()
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument("--bin", default=os.path.join(here, "..", ".build", "release"))
    parser.add_argument("--quick", action="store_true", help="fewer messages (a smoke test)")
    parser.add_argument("--repeat", type=int, default=1, help="pairs of runs per figure (median)")
    parser.add_argument("--only", choices=["syscalls", "instructions"])
    parser.add_argument("--servers", default=",".join(SERVERS), help="comma-separated: EchoCompose,EchoC,EchoFramed")
    parser.add_argument("--loads", default="", help="comma-separated load numbers (1-3), all by default")
    args = parser.parse_args()
    BIN = args.bin
    for tool in (["strace"] if args.only != "instructions" else []) + (["valgrind"] if args.only != "syscalls" else []):
        if not shutil.which(tool):
            sys.exit(f"echo_counts: {tool} is not installed (apt-get install {tool})")
    rows, breakdown = [], []
    with tempfile.TemporaryDirectory() as tmp:
        binaries = {}
        servers = args.servers.split(",")
        loads = [LOADS[int(i) - 1] for i in args.loads.split(",")] if args.loads else LOADS
        for server in servers:
            # This valgrind cannot read the DWARF 5 the Swift toolchain
            # writes: count a copy without debug information (symbols stay).
            binaries[server] = os.path.join(tmp, server)
            subprocess.run(["objcopy", "--strip-debug", os.path.join(BIN, server), binaries[server]], check=True)
        for name, mode, connections, size, n1, n2 in loads:
            if args.quick:
                n1, n2 = n1 // 4, n2 // 4
            spec = (name, mode, connections, size)
            for server in servers:
                print(f"echo_counts: {name}, {server}", file=sys.stderr)
                calls = ins = None
                if args.only != "instructions":
                    calls = per_message(syscalls, binaries[server], spec, n1, n2, args.repeat)
                if args.only != "syscalls":
                    ins = per_message(instructions, binaries[server], spec, n1, n2, args.repeat)
                rows.append((name, server, calls, ins))
                if calls:
                    kept = sorted((k for k, v in calls.items() if abs(v) >= 0.0005), key=lambda k: -calls[k])
                    breakdown.append((name, server, ", ".join(f"{k} {calls[k]:.3f}" for k in kept)))
    print("| load | server | system calls / message | instructions / message |")
    print("|---|---|---:|---:|")
    for name, server, calls, ins in rows:
        print(f"| {name} | {server} | {'' if calls is None else f'{sum(calls.values()):.3f}'} | {'' if ins is None else f'{ins:,.0f}'} |")
    if breakdown:
        print()
        print("System calls of one message, by name:")
        print()
        for name, server, text in breakdown:
            print(f"- {name}, {server}: {text}")


if __name__ == "__main__":
    main()
