#!/usr/bin/env python3
"""redis-benchmark against Examples/KeyValue and redis-server, in one run.

Both servers run at once, each pinned to CPU 0 (`taskset -c 0`), and
redis-benchmark runs pinned to CPU 1, so a round measures the server and
not where the scheduler put it. For each load (1, 50 and 1,000 connections
unpipelined, 50 connections with 16 commands pipelined) the two servers are
measured in alternating order, ROUNDS times (`redis-benchmark -t set,get -n
REQUESTS --csv`, 16 times as many requests when pipelining 16, so that
each test runs for seconds); a figure is the median of the rounds, a ratio
the median of the rounds' ratios. CPU per request is the server's utime + stime
(/proc/PID/stat) over the run divided by the requests it answered.

Memory per idle connection: a fresh server of each kind, one client
connection that sent a PING (the baseline RSS, VmRSS), then 10,000 more
connections that each sent a PING and read its PONG, left idle for 3
seconds (redis's clientsCron trims idle clients' buffers), and the RSS
again: (after - before) / 10,000. The file-descriptor limit is raised to
its hard limit first, for the servers and this client; redis-server gets
`--maxclients 20000` for this part (its default, 10,000, counts the
baseline connection too).

Usage: scripts/redis_bench.py --keyvalue PATH [--redis-server PATH]
           [--rounds 5] [--requests 200000] [--quick] [--only throughput|memory]
           [--loads 1,2,3,4]
Prints a markdown table, then one PASS/FAIL line per target of issue #30.
"""
import argparse
import datetime
import os
import re
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import time

LOADS = [
    # name, connections, pipeline
    ("1 connection", 1, 1),
    ("50 connections", 50, 1),
    ("1,000 connections", 1000, 1),
    ("50 connections, -P 16", 50, 16),
]
TESTS = ["SET", "GET"]
IDLE_CONNECTIONS = 10_000


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port, process, name):
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            sys.exit(f"redis_bench: {name} exited with status {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
                s.sendall(b"PING\r\n")
                if s.recv(16).startswith(b"+PONG"):
                    return
        except OSError:
            time.sleep(0.05)
    process.kill()
    sys.exit(f"redis_bench: {name} did not answer on port {port}")


class Server:
    def __init__(self, name, command, port):
        self.name = name
        self.port = port
        self.process = subprocess.Popen(["taskset", "-c", "0"] + command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        wait_for_port(port, self.process, name)

    def cpu_seconds(self):
        """utime + stime of every thread, in seconds."""
        with open(f"/proc/{self.process.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss_kib(self):
        with open(f"/proc/{self.process.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def start_servers(args, extra_redis=()):
    kv_port, redis_port = free_port(), free_port()
    keyvalue = Server("KeyValue", [args.keyvalue, "--port", str(kv_port)], kv_port)
    redis = Server("redis-server", [args.redis_server, "--save", "", "--appendonly", "no", "--port", str(redis_port),
                                    "--bind", "127.0.0.1", *extra_redis], redis_port)
    return keyvalue, redis


def benchmark(server, connections, pipeline, requests):
    """Requests per second of each test, and the server's CPU µs per request."""
    requests *= pipeline
    before = server.cpu_seconds()
    command = ["taskset", "-c", "1", "redis-benchmark", "-p", str(server.port), "-c", str(connections),
               "-n", str(requests), "-P", str(pipeline), "-t", "set,get", "--csv"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    after = server.cpu_seconds()
    rates = {}
    for line in result.stdout.splitlines():
        match = re.match(r'"(\w+)","([\d.]+)"', line)
        if match:
            rates[match.group(1)] = float(match.group(2))
    if set(TESTS) - set(rates):
        sys.exit(f"redis_bench: redis-benchmark against {server.name} printed no {TESTS} rates:\n"
                 f"{result.stdout[-2000:]}{result.stderr[-2000:]}")
    return rates, (after - before) * 1e6 / (requests * len(TESTS))


def throughput(args):
    keyvalue, redis = start_servers(args)
    results = {}  # (load, server) -> list of (rates, cpu)
    try:
        for load_index, (load, connections, pipeline) in enumerate(args.loads):
            for round_index in range(args.rounds):
                order = [keyvalue, redis] if (round_index + load_index) % 2 == 0 else [redis, keyvalue]
                for server in order:
                    print(f"redis_bench: {load}, round {round_index + 1}/{args.rounds}, {server.name}", file=sys.stderr)
                    results.setdefault((load, server.name), []).append(benchmark(server, connections, pipeline, args.requests))
    finally:
        keyvalue.stop()
        redis.stop()
    return results


def idle_memory(args):
    """KiB of RSS per idle connection, of each server."""
    figures = {}
    keyvalue, redis = start_servers(args, extra_redis=("--maxclients", "20000"))
    try:
        for server in (keyvalue, redis):
            first = socket.create_connection(("127.0.0.1", server.port))
            first.sendall(b"PING\r\n")
            first.recv(16)
            time.sleep(1)
            before = server.rss_kib()
            clients = []
            for _ in range(IDLE_CONNECTIONS):
                client = socket.create_connection(("127.0.0.1", server.port))
                clients.append(client)
            for client in clients:
                client.sendall(b"PING\r\n")
            for client in clients:
                reply = client.recv(16)
                if not reply.startswith(b"+PONG"):
                    sys.exit(f"redis_bench: {server.name} answered {reply!r} to an idle client's PING")
            time.sleep(3)
            after = server.rss_kib()
            figures[server.name] = (before, after, (after - before) / IDLE_CONNECTIONS)
            for client in clients + [first]:
                client.close()
    finally:
        keyvalue.stop()
        redis.stop()
    return figures


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--keyvalue", required=True)
    parser.add_argument("--redis-server", default=shutil.which("redis-server") or "/usr/bin/redis-server")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--requests", type=int, default=200_000)
    parser.add_argument("--quick", action="store_true", help="3 rounds of 50,000 requests")
    parser.add_argument("--only", choices=["throughput", "memory"])
    parser.add_argument("--loads", default="1,2,3,4", help="which loads, by number (1: one connection ... 4: -P 16)")
    args = parser.parse_args()
    args.loads = [LOADS[int(n) - 1] for n in args.loads.split(",")]
    if args.quick:
        args.rounds, args.requests = 3, 50_000
    for tool in ("taskset", "redis-benchmark", args.redis_server, args.keyvalue):
        if not shutil.which(tool):
            sys.exit(f"redis_bench: {tool} not found")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if hard < IDLE_CONNECTIONS + 100:
        sys.exit(f"redis_bench: the open-file limit ({hard}) is too low for {IDLE_CONNECTIONS} connections")
    version = subprocess.run([args.redis_server, "--version"], capture_output=True, text=True).stdout.split()
    redis_version = next((word[2:] for word in version if word.startswith("v=")), "?")

    print("## redis-benchmark: Examples/KeyValue and redis-server")
    print()
    print(f"- date: {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}")
    print(f"- redis-server {redis_version} (`--save '' --appendonly no`), KeyValue release build (`--static-swift-stdlib`); servers on CPU 0, "
          f"redis-benchmark on CPU 1; `-t set,get -n {args.requests}` ({args.requests * 16} with `-P 16`), {args.rounds} rounds per load in alternating order, medians")
    print()
    targets = []
    if args.only in (None, "throughput"):
        results = throughput(args)
        print("| load | test | KeyValue req/s | redis req/s | KeyValue/redis | KeyValue CPU µs/req | redis CPU µs/req |")
        print("|---|---|---:|---:|---:|---:|---:|")
        for load, connections, pipeline in args.loads:
            kv_rounds, redis_rounds = results[(load, "KeyValue")], results[(load, "redis-server")]
            for test in TESTS:
                ratios = [kv[0][test] / rs[0][test] for kv, rs in zip(kv_rounds, redis_rounds)]
                ratio = statistics.median(ratios)
                print(f"| {load} | {test} | {statistics.median(r[0][test] for r in kv_rounds):,.0f} "
                      f"| {statistics.median(r[0][test] for r in redis_rounds):,.0f} | {ratio:.2f}x "
                      f"| {statistics.median(r[1] for r in kv_rounds):.2f} | {statistics.median(r[1] for r in redis_rounds):.2f} |")
                bound = 0.9 if pipeline > 1 else 1.0
                if connections >= 50:
                    targets.append((f"{load} {test}: KeyValue ≥ {bound:.1f}x redis-server's requests/s",
                                    f"{ratio:.2f}x, rounds {', '.join(f'{r:.2f}' for r in ratios)}", ratio >= bound))
        print()
        print("CPU per request: the server's utime + stime over the run, over the SET and GET requests.")
        print()
    if args.only in (None, "memory"):
        memory = idle_memory(args)
        print(f"| memory, {IDLE_CONNECTIONS:,} idle connections | RSS before | RSS after | per connection |")
        print("|---|---:|---:|---:|")
        for name, (before, after, per) in memory.items():
            print(f"| {name} | {before / 1024:.1f} MiB | {after / 1024:.1f} MiB | {per * 1024:,.0f} B |")
        print()
        kv, rs = memory["KeyValue"][2], memory["redis-server"][2]
        targets.append(("memory per idle connection: KeyValue ≤ redis-server",
                        f"{kv * 1024:,.0f} B vs {rs * 1024:,.0f} B", kv <= rs))
    for description, measured, passed in targets:
        print(f"- {'PASS' if passed else 'FAIL'}: {description} (measured {measured})")


if __name__ == "__main__":
    main()
