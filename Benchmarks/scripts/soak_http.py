#!/usr/bin/env python3
"""Slowloris against the Compose HTTP server (make soak-http; not in make test).

Starts HTTPCompose (the benchmark's hello-world, default limits: a 10 s
header-read timeout) pinned to CPU 0, then opens SLOW connections (10,000)
that each send one byte of a request head per second and never finish it.
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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True, help="Benchmarks/.build/release (HTTPCompose)")
    parser.add_argument("--slow", type=int, default=10000, help="slow connections kept open")
    parser.add_argument("--seconds", type=int, default=60, help="seconds of soak once all are open")
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
        good = None

        selector = selectors.DefaultSelector()
        sent = {}          # socket -> bytes of HEAD sent
        counts = {"opened": 0, "408": 0, "closed": 0, "refused": 0}
        peak = baseline

        def open_one():
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
            selector.register(s, selectors.EVENT_READ)
            counts["opened"] += 1

        def drop(s):
            selector.unregister(s)
            del sent[s]
            s.close()

        started = time.monotonic()
        all_open_at = None
        next_tick = started
        samples = []
        while True:
            now = time.monotonic()
            if all_open_at is None and len(sent) >= args.slow:
                all_open_at = now
                good = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--good", str(port), str(args.seconds)],
                                        stdout=subprocess.PIPE, text=True)
                print(f"soak_http: {args.slow:,} slow connections open after {now - started:.1f} s", file=sys.stderr)
            if all_open_at is not None and now - all_open_at >= args.seconds:
                break
            if now - started > args.seconds + 120:
                sys.exit(f"soak_http: only {len(sent):,} slow connections open after {now - started:.0f} s")
            # Open up to 500 new connections per 50 ms (the listen backlog is 511).
            for _ in range(min(500, args.slow - len(sent))):
                open_one()
            if now >= next_tick:
                # One more byte on every slow connection, once a second.
                for s in list(sent):
                    offset = sent[s]
                    try:
                        if s.send(HEAD[offset:offset + 1]) == 1:
                            sent[s] = offset + 1
                    except BlockingIOError:
                        pass
                    except OSError:
                        counts["closed"] += 1
                        drop(s)
                next_tick += 1
                rss = rss_kib(server.pid)
                peak = max(peak, rss)
                samples.append((now - started, len(sent), rss))
            for key, _ in selector.select(timeout=0.05):
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
        output = good.communicate(timeout=60)[0]
        fields = dict(field.split("=", 1) for field in output.split())
        latencies = sorted(float(value) / 1000 for value in fields["latencies_ms"].split(",") if value)
        failures = int(fields["failures"])
        p50 = statistics.median(latencies) if latencies else float("nan")
        p99 = latencies[int(len(latencies) * 0.99)] if latencies else float("nan")
        worst = latencies[-1] if latencies else float("nan")
        load = os.getloadavg()
        per = (peak - baseline) * 1024 / args.slow
        print(f"## Slowloris: {args.slow:,} connections, one header byte a second, against HTTPCompose")
        print()
        print(f"- {args.seconds} s once all were open; load average at the end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
        print(f"- slow connections opened {counts['opened']:,}; answered 408 and closed {counts['408']:,}; "
              f"closed without an answer {counts['closed']:,}; refused {counts['refused']:,}")
        print(f"- well-behaved keep-alive client: {len(latencies):,} requests, p50 {p50 * 1000:.2f} ms, "
              f"p99 {p99 * 1000:.2f} ms, worst {worst * 1000:.2f} ms, failures {failures}")
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
