#!/usr/bin/env python3
"""Slowloris against the Compose HTTP server (make soak-http; not in make test).

Starts HTTPCompose (the benchmark's hello-world, default limits: a 10 s
header-read timeout) pinned to CPU 0, then opens SLOW connections (10,000,
in about 5 s) that each send one byte of a request head per second, each
on its own 10 ms phase of the second, and never finish it.
The server answers each 408 and closes it once its header timeout passes;
the soak reconnects at once, so SLOW stay open, and counts the 408s and the
closes without one. Meanwhile a well-behaved client on its own keep-alive
connection sends `GET /` every 10 ms and measures each answer's latency
(from the moment all slow connections are open). The server's RSS is read
every second.

The slow connections are driven by one epoll loop (Python's selectors) in
this process, pinned to CPU 1; the well-behaved client is a process of its
own (this script with `--good`, on any CPU), with a blocking socket. The soft limit of open files is raised to the hard limit
(for this process and the server), which must be above SLOW + a few.

Usage: scripts/soak_http.py --bin Benchmarks/.build/release [--slow 10000]
           [--seconds 60]
Prints the figures, then PASS/FAIL lines: the well-behaved client's p99
under 10 ms, and the server's RSS bounded (stated per slow connection).
"""
import argparse
import errno
import os
import resource
import selectors
import socket
import statistics
import subprocess
import sys
import time

HEAD = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 4096


def raise_file_limit(needed):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < needed:
        sys.exit(f"soak_http: the hard limit of open files is {hard}, under the {needed} needed")
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def good_client(port, seconds):
    """The well-behaved client (run as a process of its own: `--good PORT
    SECONDS`, so that the slow connections' loop does not delay it): GET /
    every 10 ms on one keep-alive connection for SECONDS; prints one line,
    `latencies_ms=a,b,... failures=N`."""
    request = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    connection = None
    latencies, failures = [], 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            if connection is None:
                connection = socket.create_connection(("127.0.0.1", port), timeout=5)
                connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            started = time.monotonic()
            connection.sendall(request)
            answer = b""
            while not answer.endswith(b"Hello, World!"):
                chunk = connection.recv(4096)
                if not chunk:
                    raise ConnectionError("closed")
                answer += chunk
            latencies.append(time.monotonic() - started)
        except OSError:
            failures += 1
            if connection is not None:
                connection.close()
            connection = None
        time.sleep(0.01)
    print("latencies_ms=" + ",".join(f"{value * 1000:.3f}" for value in latencies) + f" failures={failures}", flush=True)


def summary(output):
    """The good client's line: (latencies in s, failures, p50, p99, worst)."""
    fields = dict(field.split("=", 1) for field in output.split())
    latencies = sorted(float(value) / 1000 for value in fields["latencies_ms"].split(",") if value)
    nan = float("nan")
    return (latencies, int(fields["failures"]), statistics.median(latencies) if latencies else nan,
            latencies[int(len(latencies) * 0.99)] if latencies else nan, latencies[-1] if latencies else nan)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True, help="Benchmarks/.build/release (HTTPCompose)")
    parser.add_argument("--slow", type=int, default=10000, help="slow connections kept open")
    parser.add_argument("--seconds", type=int, default=60, help="seconds of soak once all are open")
    parser.add_argument("--control", type=int, default=10, help="seconds of the client alone first")
    parser.add_argument("--good", nargs=2, type=int, metavar=("PORT", "SECONDS"), help=argparse.SUPPRESS)
    if "--good" in sys.argv:
        port, seconds = (int(value) for value in sys.argv[sys.argv.index("--good") + 1:][:2])
        os.sched_setaffinity(0, range(os.cpu_count()))   # not the slow loop's CPU only
        good_client(port, seconds)
        return
    args = parser.parse_args()
    raise_file_limit(args.slow + 100)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen(["taskset", "-c", "0", f"{args.bin}/HTTPCompose", str(port)],
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    os.sched_setaffinity(0, {1})
    try:
        line = server.stdout.readline()
        if not line.startswith("listening"):
            sys.exit(f"soak_http: HTTPCompose did not start: {line}")
        time.sleep(0.2)
        baseline = rss_kib(server.pid)
        # The control: the well-behaved client alone, for the machine's own
        # noise (a busy machine delays the server's CPU too).
        control = summary(subprocess.run([sys.executable, os.path.abspath(__file__), "--good", str(port), str(args.control)],
                                         capture_output=True, text=True, timeout=args.control + 60).stdout)
        good = None

        selector = selectors.DefaultSelector()
        sent = {}          # socket -> bytes of HEAD sent
        # Each connection sends on its own 10 ms phase of the second (100
        # phases), so the server sees SLOW bytes a second, spread evenly,
        # not all at once; new connections take the phase of the tick they
        # open in.
        phases = [set() for _ in range(100)]
        phase_of = {}
        counts = {"opened": 0, "408": 0, "closed": 0, "refused": 0}
        peak = baseline

        def open_one(phase):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.setblocking(False)
            try:
                s.connect(("127.0.0.1", port))
            except BlockingIOError:
                pass
            except OSError:
                counts["refused"] += 1
                s.close()
                return
            sent[s] = 0
            phases[phase].add(s)
            phase_of[s] = phase
            selector.register(s, selectors.EVENT_READ)
            counts["opened"] += 1

        def drop(s):
            selector.unregister(s)
            del sent[s]
            phases[phase_of.pop(s)].discard(s)
            s.close()

        started = time.monotonic()
        all_open_at = None
        tick = 0
        next_tick = started
        samples = []
        while True:
            now = time.monotonic()
            if all_open_at is None and len(sent) >= args.slow:
                all_open_at = now
                print(f"soak_http: {args.slow:,} slow connections open after {now - started:.1f} s", file=sys.stderr)
                good = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--good", str(port), str(args.seconds)],
                                        stdout=subprocess.PIPE, text=True)
            if all_open_at is not None and now - all_open_at >= args.seconds:
                break
            if now - started > args.seconds + 120:
                sys.exit(f"soak_http: only {len(sent):,} slow connections open after {now - started:.0f} s")
            if now >= next_tick:
                phase = tick % 100
                # Up to SLOW / 500 new connections a tick (10,000 open in
                # about 5 s), and those closed meanwhile replaced.
                for _ in range(min(max(args.slow // 500, 1), args.slow - len(sent))):
                    open_one(phase)
                # One more byte on this phase's connections (each once a second).
                for s in list(phases[phase]):
                    offset = sent[s]
                    try:
                        if s.send(HEAD[offset:offset + 1]) == 1:
                            sent[s] = offset + 1
                    except BlockingIOError:
                        pass
                    except OSError:
                        counts["closed"] += 1
                        drop(s)
                if phase == 0:
                    rss = rss_kib(server.pid)
                    peak = max(peak, rss)
                    samples.append((now - started, len(sent), rss))
                tick += 1
                next_tick += 0.01
            for key, _ in selector.select(timeout=max(0, next_tick - time.monotonic())):
                s = key.fileobj
                try:
                    data = s.recv(4096)
                except OSError:
                    data = b""
                if data.startswith(b"HTTP/1.1 408"):
                    counts["408"] += 1
                elif data:
                    print(f"soak_http: unexpected answer {data[:40]!r}", file=sys.stderr)
                else:
                    counts["closed"] += 1
                drop(s)
        latencies, failures, p50, p99, worst = summary(good.communicate(timeout=60)[0])
        load = os.getloadavg()
        per = (peak - baseline) * 1024 / args.slow
        print(f"## Slowloris: {args.slow:,} connections, one header byte a second, against HTTPCompose")
        print()
        print(f"- {args.seconds} s once all were open; load average at the end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
        print(f"- slow connections opened {counts['opened']:,}; answered 408 and closed {counts['408']:,}; "
              f"closed without an answer {counts['closed']:,}; refused {counts['refused']:,}")
        print(f"- well-behaved keep-alive client: {len(latencies):,} requests, p50 {p50 * 1000:.2f} ms, "
              f"p99 {p99 * 1000:.2f} ms, worst {worst * 1000:.2f} ms, failures {failures}")
        print(f"- the same client alone for {args.control} s before (the machine's own noise): {len(control[0]):,} requests, "
              f"p50 {control[2] * 1000:.2f} ms, p99 {control[3] * 1000:.2f} ms, worst {control[4] * 1000:.2f} ms")
        print(f"- server RSS: {baseline / 1024:.1f} MiB before, peak {peak / 1024:.1f} MiB "
              f"({per:,.0f} B per slow connection), {samples[-1][2] / 1024:.1f} MiB at the end")
        print(f"- {'PASS' if p99 < 0.010 and failures == 0 else 'FAIL'}: well-behaved client's p99 under 10 ms "
              f"(measured {p99 * 1000:.2f} ms, {failures} failures)")
        bound = 64 * 1024
        print(f"- {'PASS' if per < bound else 'FAIL'}: server memory bounded: {per:,.0f} B per slow connection "
              f"(bound: {bound:,} B, a read buffer and the 16 KiB header limit with room)")
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


if __name__ == "__main__":
    main()
