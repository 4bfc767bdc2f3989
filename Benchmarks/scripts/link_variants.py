#!/usr/bin/env python3
"""Peak RSS of the echo servers linked in other ways than SwiftPM links
them (docs/footprint.md, "Linking"): what static linking and code layout
do to an app's memory, with the same object files.

Usage (from Benchmarks/, after `swift build -c release`):
    python3 scripts/link_variants.py [--scratch .build] [--rounds 3]
        [--programs EchoComposeStatic,EchoNIOStatic,EchoSwiftUVStatic]

For each program (a target linked with -static-stdlib), it asks SwiftPM for
its link command (`swift build -v` after removing the executable), then
links it again into a temporary folder as:

  static-stdlib         the command as it is (what `--static-swift-stdlib` does)
  + no-export-dynamic   the same without the executable's own symbols in its
                        dynamic symbol table (the toolchain's
                        static-stdlib-args.lnk exports them)
  + hot code first      the same, linked by lld with the functions that ran
                        under a load first (--symbol-ordering-file from one
                        run under callgrind: a profile of this program)
  static executable     -static-executable's arguments: libc, libstdc++, libm
                        and libuv inside the executable too (glibc warns that
                        getaddrinfo and getpwuid_r then need its shared NSS
                        libraries at run time; Debian names libuv's archive
                        libuv_a.a, so a folder with a libuv.a link to it is
                        put on the search path)
  static executable, hot code first

and prints each one's peak RSS (VmHWM) after the memory benchmark's load
(ping-pong of 64 B on 50 connections), the median of --rounds fresh
processes, alternating; and its start to first echo (from just before the
spawn to the first byte echoed on a connection retried every 100 us, as
ComposeBenchmarks' FirstEchoBenchmarks measures it), the median of
--starts alternating starts, with the C server's (EchoC-cc, which
`ComposeBenchmarks startup` builds with cc, or EchoC) in the same rotation
as the baseline. Needs valgrind and lld (the toolchain's ld.lld).
"""
import argparse
import os
import re
import shlex
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

LOAD = ["pingpong", "50", "64", "200", "1000"]
STATIC_STDLIB = "static-stdlib-args.lnk"
STATIC_EXECUTABLE = "static-executable-args.lnk"


def link_command(scratch, program):
    """The clang command SwiftPM links `program` with, as a list."""
    release = os.path.join(scratch, "release")
    executable = os.path.realpath(os.path.join(release, program))
    if os.path.exists(executable):
        os.remove(executable)
    output = subprocess.run(
        ["swift", "build", "-c", "release", "--scratch-path", scratch, "--product", program, "-v"],
        capture_output=True, text=True, check=True,
    ).stdout
    for line in output.splitlines():
        words = shlex.split(line)
        if words and words[0].endswith("clang") and "-o" in words and words[words.index("-o") + 1] == executable:
            return [w for w in words if w != "-v"], executable
    sys.exit(f"no link command for {program} in swift build -v's output")


def relink(command, executable, output, extra=(), static_executable=False, libuv_folder=None):
    words = [output if w == executable else w for w in command]
    if static_executable:
        words = [w.replace(STATIC_STDLIB, STATIC_EXECUTABLE) for w in words if w != "-pie"]
        words.append(f"-L{libuv_folder}")
    subprocess.run(words + list(extra), check=True, capture_output=True, text=True)


def start(executable, runtime):
    environment = dict(os.environ, XDG_RUNTIME_DIR=runtime, XDG_STATE_HOME=runtime)
    server = subprocess.Popen([executable, "0"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              env=environment, text=True)
    line = server.stdout.readline().split()
    if len(line) != 2 or line[0] != "listening":
        server.kill()
        sys.exit(f"{executable} printed {line}")
    return server, line[1]


def load(bin_folder, port):
    result = subprocess.run([os.path.join(bin_folder, "EchoLoad"), port] + LOAD, capture_output=True, text=True)
    if result.returncode != 0 or not result.stdout.startswith("messages="):
        sys.exit(f"EchoLoad failed: {result.stdout} {result.stderr}")


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def first_echo_ms(executable, runtime):
    """Milliseconds from just before spawning `executable` to the first byte
    it echoes back."""
    port = free_port()
    environment = dict(os.environ, XDG_RUNTIME_DIR=runtime, XDG_STATE_HOME=runtime)
    started = time.monotonic_ns()
    server = subprocess.Popen([executable, str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=environment)
    try:
        deadline = started + 10_000_000_000
        while True:
            client = socket.socket()
            try:
                client.connect(("127.0.0.1", port))
            except OSError:
                client.close()
                if time.monotonic_ns() > deadline:
                    sys.exit(f"{executable} never listened on {port}")
                time.sleep(0.0001)
                continue
            with client:
                client.settimeout(10)
                client.sendall(b"*")
                if client.recv(1) != b"*":
                    sys.exit(f"{executable} echoed nothing")
                return (time.monotonic_ns() - started) / 1e6
    finally:
        server.terminate()
        server.wait(timeout=30)


def peak_rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def profile(executable, bin_folder, folder):
    """The functions `executable` ran under the load, in the order callgrind
    first met them: one run under callgrind, without debug information
    (this valgrind cannot read DWARF 5)."""
    stripped = os.path.join(folder, "profiled")
    subprocess.run(["objcopy", "--strip-debug", executable, stripped], check=True)
    out = os.path.join(folder, "callgrind.out")
    runtime = tempfile.mkdtemp(dir=folder)
    environment = dict(os.environ, XDG_RUNTIME_DIR=runtime, XDG_STATE_HOME=runtime)
    server = subprocess.Popen(["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={out}", stripped, "0"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=environment, text=True)
    port = server.stdout.readline().split()[1]
    load(bin_folder, port)
    server.terminate()
    server.wait(timeout=60)
    names, seen = [], set()
    with open(out) as counts:
        for line in counts:
            match = re.match(r"^c?fn=\(\d+\) (.+)$", line.rstrip("\n"))
            if match and match.group(1) not in seen:
                seen.add(match.group(1))
                names.append(match.group(1))
    order = os.path.join(folder, "order.txt")
    with open(order, "w") as file:
        file.write("\n".join(names) + "\n")
    return order


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scratch", default=".build")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--starts", type=int, default=21)
    parser.add_argument("--programs", default="EchoComposeStatic,EchoNIOStatic,EchoSwiftUVStatic")
    arguments = parser.parse_args()
    for tool in ["valgrind", "objcopy"]:
        if not shutil.which(tool):
            sys.exit(f"{tool} is missing")
    release = os.path.join(arguments.scratch, "release")
    folder = tempfile.mkdtemp(prefix="compose-link-")
    libuv_folder = os.path.join(folder, "libuv")
    os.makedirs(libuv_folder)
    archive = subprocess.run(["pkg-config", "--variable=libdir", "libuv"], capture_output=True, text=True).stdout.strip()
    os.symlink(os.path.join(archive, "libuv_a.a"), os.path.join(libuv_folder, "libuv.a"))
    lld = ["-fuse-ld=lld", "-Xlinker", "--no-warn-symbol-ordering"]
    variants = []  # (program, variant, path)
    for program in arguments.programs.split(","):
        print(f"linking {program}...", file=sys.stderr)
        command, executable = link_command(arguments.scratch, program)
        base = os.path.join(folder, program)
        profile_folder = os.path.join(folder, program + "-profile")
        os.makedirs(profile_folder)
        order = profile(executable, release, profile_folder)
        ordered = lld + ["-Xlinker", f"--symbol-ordering-file={order}"]
        no_export = ["-Xlinker", "--no-export-dynamic"]
        builds = [
            ("static-stdlib", [], False),
            ("+ no-export-dynamic", no_export, False),
            ("+ hot code first", no_export + ordered, False),
            ("static executable", [], True),
            ("static executable, hot code first", ordered, True),
        ]
        for index, (variant, extra, static) in enumerate(builds):
            path = f"{base}-{index}"
            relink(command, executable, path, extra, static, libuv_folder)
            variants.append((program, variant, path))
    c_server = os.path.join(release, "EchoC-cc")
    if not os.path.exists(c_server):
        c_server = os.path.join(release, "EchoC")
    timed = [("EchoC", "C libuv, cc", c_server)] + variants
    echoes = {}
    for start_index in range(arguments.starts):
        for offset in range(len(timed)):
            program, variant, path = timed[(start_index + offset) % len(timed)]
            echoes.setdefault((program, variant), []).append(first_echo_ms(path, tempfile.mkdtemp(dir=folder)))
    c_ms = statistics.median(echoes[("EchoC", "C libuv, cc")])
    peaks = {}
    for round in range(arguments.rounds):
        for program, variant, path in variants:
            runtime = tempfile.mkdtemp(dir=folder)
            server, port = start(path, runtime)
            load(release, port)
            peaks.setdefault((program, variant), []).append(peak_rss_kib(server.pid))
            server.terminate()
            server.wait(timeout=30)
    print(f"Peak RSS after ping-pong of 64 B on 50 connections, median of {arguments.rounds} processes; "
          f"start to first echo, median of {arguments.starts} starts "
          f"({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; load {open('/proc/loadavg').read().split()[0]}):")
    print()
    print("| program | linked | peak RSS MiB | first echo ms | first echo / C | executable MiB |")
    print("|---|---|---:|---:|---:|---:|")
    print(f"| EchoC | C libuv, cc | | {c_ms:.2f} | 1.00x | |")
    for program, variant, path in variants:
        size = os.path.getsize(path) / 1048576
        echo = statistics.median(echoes[(program, variant)])
        print(f"| {program} | {variant} | {statistics.median(peaks[(program, variant)]) / 1024:.1f} | "
              f"{echo:.2f} | {echo / c_ms:.2f}x | {size:.1f} |")
    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
