#!/usr/bin/env python3
"""TLS echo, handshakes and idle memory: Compose against C (make bench-tls).

The contenders (Benchmarks/Sources): EchoTLSCompose, the echo daemon of
EchoCompose with `tls:` on its listener; EchoTLSC, EchoC's libuv server
with OpenSSL through memory BIOs (the anchor: the same design, in C); and,
for handshakes only, `openssl s_server -www` (one connection at a time).
The client is TLSLoad (EchoLoad over OpenSSL; it verifies nothing and
never resumes a session, so every handshake is a full one). A test
authority and an EC P-256 server certificate are made in a temporary
folder with the openssl command (TLS 1.3, X25519, ECDSA P-256 signatures).

Throughput: the servers run at once, each pinned to CPU 0 (`taskset -c
0`), TLSLoad pinned to CPU 1. For each load (ping-pong 64 B on 1 and 50
connections, a stream of 16 KiB writes on 10 connections) the servers are
measured in rotating order, ROUNDS times (WARMUP ms unmeasured, then
DURATION ms measured); a figure is the median of the rounds, a ratio the
median of the rounds' ratios (two servers measured one after the other
in one round see the same machine). CPU per message: the server's utime +
stime (/proc/PID/stat) over the run divided by every message (or 16 KiB
chunk) it echoed, warm-up included. Client CPU: TLSLoad's own CPU time
over its wall time, the largest of the run: well under 100% says the
client was not the bottleneck.

When the client used 90% of its CPU or more in some round (a quiet
machine: TLSLoad does for each echo what the server does, and for each
handshake more), it set the pace; the verdict is then on the servers'
CPU per message (the anchor's over Compose's, "capacity") instead.

Handshakes: TLSLoad keeps 16 connections handshaking at a time (connect,
full handshake, close_notify, close, again) against each server in
rotating order; handshakes per second, and the server's CPU per
handshake.

Memory per idle TLS connection: a fresh server of each kind (s_server
cannot hold more than one), one connection with its handshake done and
one message echoed (the baseline RSS, VmRSS), then IDLE more such
connections left idle for a second, and the RSS again: (after - before) /
IDLE.

Usage: scripts/tls_bench.py --bin Benchmarks/.build/release [--rounds 7]
           [--quick] [--only echo|handshake|memory] [--idle 1000]
Prints markdown tables, then one PASS/FAIL line per target of issue #31.
"""
import argparse
import datetime
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

LOADS = [
    # name, mode, connections, size
    ("ping-pong 64 B, 1 connection", "pingpong", 1, 64),
    ("ping-pong 64 B, 50 connections", "pingpong", 50, 64),
    ("stream 16 KiB writes, 10 connections", "stream", 10, 16 * 1024),
]
HANDSHAKE_CONNECTIONS = 16
SERVER_CPU, CLIENT_CPU = "0", "1"


def make_certificates(folder, openssl):
    def run(*arguments):
        subprocess.run([openssl, *arguments], check=True, capture_output=True)
    with open(f"{folder}/server.ext", "w") as f:
        f.write("subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n")
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    run("req", "-x509", *ec, "-keyout", f"{folder}/ca.key", "-out", f"{folder}/ca.pem", "-days", "2", "-subj", "/CN=Bench CA")
    run("req", *ec, "-keyout", f"{folder}/server.key", "-out", f"{folder}/server.csr", "-subj", "/CN=localhost")
    run("x509", "-req", "-in", f"{folder}/server.csr", "-CA", f"{folder}/ca.pem", "-CAkey", f"{folder}/ca.key",
        "-CAcreateserial", "-out", f"{folder}/server.pem", "-days", "2", "-extfile", f"{folder}/server.ext")
    return f"{folder}/server.pem", f"{folder}/server.key"


class Server:
    def __init__(self, name, command, port=None):
        self.name = name
        self.process = subprocess.Popen(["taskset", "-c", SERVER_CPU] + command, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if port is None:
            line = self.process.stdout.readline()
            if not line.startswith("listening "):
                sys.exit(f"tls_bench: {name} did not start: {line}{self.process.stderr.read()}")
            self.port = int(line.split()[1])
        else:
            self.port = port
            time.sleep(0.5)
            if self.process.poll() is not None:
                sys.exit(f"tls_bench: {name} exited: {self.process.stderr.read()}")

    def cpu_seconds(self):
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


def free_port():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_servers(args, certificate, key, with_s_server=False):
    servers = [
        Server("Compose", [f"{args.bin}/EchoTLSCompose", "0", certificate, key]),
        Server("C libuv + OpenSSL", [f"{args.bin}/EchoTLSC", "0", certificate, key]),
    ]
    if with_s_server:
        port = free_port()
        servers.append(Server("openssl s_server", [args.openssl, "s_server", "-www", "-quiet", "-accept", str(port),
                                                   "-cert", certificate, "-key", key], port=port))
    return servers


def load(args, server, mode, connections, size):
    """One TLSLoad run: its fields, and the server's CPU seconds over it."""
    before = server.cpu_seconds()
    command = ["taskset", "-c", CLIENT_CPU, f"{args.bin}/TLSLoad", str(server.port), mode, str(connections), str(size),
               str(args.warmup), str(args.duration)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60)
    after = server.cpu_seconds()
    fields = dict(field.split("=", 1) for field in result.stdout.split() if "=" in field)
    if result.returncode != 0 or "messages" not in fields:
        sys.exit(f"tls_bench: TLSLoad against {server.name} ({mode}, {connections}) failed:\n{result.stdout}{result.stderr}")
    return {key: float(value) for key, value in fields.items()}, after - before


def rounds(args, servers, run):
    """run(server) for every server in rotating order, args.rounds times."""
    results = {server.name: [] for server in servers}
    for round_index in range(args.rounds):
        for offset in range(len(servers)):
            server = servers[(round_index + offset) % len(servers)]
            results[server.name].append(run(server))
    return results


def ratio(ours, theirs):
    values = [a / b for a, b in zip(ours, theirs) if b > 0]
    return statistics.median(values), min(values), max(values)


def verdict(what, anchor, to, capacity, client):
    """A target line: Compose ≥ 0.9x `anchor` in throughput (`to`: the
    median and extremes of the rounds' ratios), unless the client used
    90% of its CPU or more in a round: then the client, not the server,
    set the pace, and the verdict is on the capacity, the anchor's CPU
    per message over Compose's."""
    measured = f"{to[0]:.2f}x, rounds {to[1]:.2f} to {to[2]:.2f}; CPU per message {capacity:.2f}x; client CPU up to {client * 100:.0f}%"
    if client >= 0.9:
        return (f"{what}: Compose ≥ 0.9x {anchor} (client-bound: judged on CPU per message)", measured, capacity >= 0.9)
    return (f"{what}: Compose ≥ 0.9x {anchor}", measured, to[0] >= 0.9)


def echo(args, certificate, key, targets):
    servers = start_servers(args, certificate, key)
    print("| load | server | throughput | to C | rounds' ratios | p50 RTT | p99 RTT | server CPU/msg (user+sys) | client CPU, most |")
    print("|---|---|---:|---:|---|---:|---:|---:|---:|")
    try:
        for name, mode, connections, size in LOADS:
            print(f"tls_bench: echo, {name}", file=sys.stderr)

            def run(server):
                fields, cpu = load(args, server, mode, connections, size)
                streaming = mode == "stream"
                throughput = fields["bytes"] / fields["seconds"] if streaming else fields["messages"] / fields["seconds"]
                echoed = fields["all_bytes"] / size if streaming else fields["all_messages"]
                return throughput, fields["p50_us"], fields["p99_us"], cpu / max(echoed, 1), fields["cpu_s"] / fields["wall_s"]
            results = rounds(args, servers, run)
            compose, c = results["Compose"], results["C libuv + OpenSSL"]
            to_c = ratio([r[0] for r in compose], [r[0] for r in c])
            for server in servers:
                values = results[server.name]
                throughput = statistics.median(r[0] for r in values)
                shown = f"{throughput / 1e6:,.0f} MB/s" if mode == "stream" else f"{throughput:,.0f} msg/s"
                to = f"{to_c[0]:.2f}x" if server.name == "Compose" else "1.00x"
                spread = f"{to_c[1]:.2f}-{to_c[2]:.2f}" if server.name == "Compose" else ""
                rtt = (f"{statistics.median(r[1] for r in values):.0f} µs", f"{statistics.median(r[2] for r in values):.0f} µs") \
                    if mode != "stream" else ("", "")
                print(f"| {name} | {server.name} | {shown} | {to} | {spread} | {rtt[0]} | {rtt[1]} "
                      f"| {statistics.median(r[3] for r in values) * 1e9:,.0f} ns | {max(r[4] for r in values) * 100:.0f}% |")
            targets.append(verdict(f"TLS echo {name}", "C libuv + OpenSSL", to_c,
                                   statistics.median(r[3] for r in c) / statistics.median(r[3] for r in compose),
                                   max(r[4] for r in compose + c)))
    finally:
        for server in servers:
            server.stop()
    print()


def handshakes(args, certificate, key, targets):
    servers = start_servers(args, certificate, key, with_s_server=True)
    print(f"| handshakes, {HANDSHAKE_CONNECTIONS} at a time | per second | Compose to it | rounds' ratios | server CPU/handshake | client CPU, most |")
    print("|---|---:|---:|---|---:|---:|")
    try:
        print("tls_bench: handshakes", file=sys.stderr)

        def run(server):
            fields, cpu = load(args, server, "handshake", HANDSHAKE_CONNECTIONS, 64)
            return fields["handshakes"] / fields["seconds"], cpu / max(fields["all_handshakes"], 1), fields["cpu_s"] / fields["wall_s"]
        results = rounds(args, servers, run)
        compose = [r[0] for r in results["Compose"]]
        for server in servers:
            values = results[server.name]
            to = ratio(compose, [r[0] for r in values])
            print(f"| {server.name} | {statistics.median(r[0] for r in values):,.0f} | {to[0]:.2f}x | {to[1]:.2f}-{to[2]:.2f} "
                  f"| {statistics.median(r[1] for r in values) * 1e6:,.0f} µs | {max(r[2] for r in values) * 100:.0f}% |")
            if server.name != "Compose":
                targets.append(verdict("handshakes per second", server.name, to,
                                       statistics.median(r[1] for r in values) / statistics.median(r[1] for r in results["Compose"]),
                                       max(r[2] for r in results["Compose"] + values)))
    finally:
        for server in servers:
            server.stop()
    print()


def idle(args, server, connections):
    """A TLSLoad holding `connections` idle connections, once they are ready."""
    client = subprocess.Popen(["taskset", "-c", CLIENT_CPU, f"{args.bin}/TLSLoad", str(server.port), "idle",
                               str(connections), "64", "0", "0"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    line = client.stdout.readline()
    if not line.startswith("ready"):
        sys.exit(f"tls_bench: TLSLoad idle against {server.name} failed: {line}")
    return client


def memory(args, certificate, key, targets):
    figures = {}
    servers = start_servers(args, certificate, key)
    try:
        for server in servers:
            print(f"tls_bench: memory, {server.name}", file=sys.stderr)
            first = idle(args, server, 1)
            time.sleep(1)
            before = server.rss_kib()
            many = idle(args, server, args.idle)
            time.sleep(1)
            after = server.rss_kib()
            figures[server.name] = (before, after, (after - before) / args.idle)
            for client in (many, first):
                client.stdin.close()
                client.wait(timeout=30)
    finally:
        for server in servers:
            server.stop()
    print(f"| memory, {args.idle:,} idle TLS connections | RSS before | RSS after | per connection |")
    print("|---|---:|---:|---:|")
    for name, (before, after, per) in figures.items():
        print(f"| {name} | {before / 1024:.1f} MiB | {after / 1024:.1f} MiB | {per * 1024:,.0f} B |")
    print()
    compose, c = figures["Compose"][2], figures["C libuv + OpenSSL"][2]
    targets.append(("memory per idle TLS connection, stated next to the anchor's",
                    f"Compose {compose * 1024:,.0f} B, C {c * 1024:,.0f} B ({compose / c:.2f}x)", True))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True, help="Benchmarks/.build/release (EchoTLSCompose, EchoTLSC, TLSLoad)")
    parser.add_argument("--openssl", default=shutil.which("openssl") or "/usr/bin/openssl")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--warmup", type=int, default=300, help="ms")
    parser.add_argument("--duration", type=int, default=1000, help="ms")
    parser.add_argument("--quick", action="store_true", help="3 rounds")
    parser.add_argument("--only", choices=["echo", "handshake", "memory"])
    parser.add_argument("--idle", type=int, default=1000, help="idle connections for the memory figure")
    args = parser.parse_args()
    if args.quick:
        args.rounds = 3
    for tool in ("taskset", args.openssl, f"{args.bin}/EchoTLSCompose", f"{args.bin}/EchoTLSC", f"{args.bin}/TLSLoad"):
        if not shutil.which(tool):
            sys.exit(f"tls_bench: {tool} not found (make bench-tls builds them)")
    version = subprocess.run([args.openssl, "version"], capture_output=True, text=True).stdout.strip()
    print("## TLS: Compose and C libuv + OpenSSL")
    print()
    print(f"- date: {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}; {version}; "
          f"release builds; servers on CPU {SERVER_CPU}, TLSLoad on CPU {CLIENT_CPU}; {args.rounds} rounds per load in rotating order "
          f"({args.warmup} ms warm-up, {args.duration} ms measured), medians; EC P-256 certificate, TLS 1.3")
    print()
    with tempfile.TemporaryDirectory(prefix="compose-tls-bench-") as folder:
        certificate, key = make_certificates(folder, args.openssl)
        targets = []
        if args.only in (None, "echo"):
            echo(args, certificate, key, targets)
        if args.only in (None, "handshake"):
            handshakes(args, certificate, key, targets)
        if args.only in (None, "memory"):
            memory(args, certificate, key, targets)
    for description, measured, passed in targets:
        print(f"- {'PASS' if passed else 'FAIL'}: {description} (measured {measured})")


if __name__ == "__main__":
    main()
