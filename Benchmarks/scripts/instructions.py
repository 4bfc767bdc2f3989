#!/usr/bin/env python3
"""Instruction counts of the in-process benchmark cases, with callgrind.

Each case runs twice under valgrind's callgrind, with N1 and N2 iterations;
(instructions(N2) - instructions(N1)) / (N2 - N1) is the cost of one
iteration, with process start, the runtime and set-up cancelled out. Counts
are repeatable on a busy machine, where wall times are not.

Usage: scripts/instructions.py [--binary PATH] [--quick]
Prints a markdown table and one PASS/FAIL line per target of issue #17.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

N1, N2 = 20_000, 120_000


def count(binary, case, n):
    """Instructions of one run (callgrind's "Collected")."""
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out", binary, case, str(n)],
            capture_output=True, text=True,
        )
        if out.returncode != 0:
            sys.exit(f"instructions: {case} {n} failed:\n{out.stderr[-2000:]}")
        match = re.search(r"Collected\s*:\s*(\d+)", out.stderr)
        if not match:
            sys.exit(f"instructions: no count for {case} {n}:\n{out.stderr[-2000:]}")
        return int(match.group(1))


def per_iteration(binary, case, n1=N1, n2=N2):
    return (count(binary, case, n2) - count(binary, case, n1)) / (n2 - n1)


def main():
    parser = argparse.ArgumentParser()
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument("--binary", default=os.path.join(here, "..", ".build", "release", "InstructionCounts"))
    parser.add_argument("--quick", action="store_true", help="fewer iterations (a smoke test)")
    args = parser.parse_args()
    n1, n2 = (2_000, 12_000) if args.quick else (N1, N2)
    if not shutil.which("valgrind"):
        sys.exit("instructions: valgrind is not installed (apt-get install valgrind)")
    # This valgrind cannot read the DWARF 5 the Swift toolchain writes: count
    # a copy without debug information (symbols stay).
    with tempfile.TemporaryDirectory() as tmp:
        binary = os.path.join(tmp, "InstructionCounts")
        subprocess.run(["objcopy", "--strip-debug", args.binary, binary], check=True)

        def cost(case):
            return per_iteration(binary, case, n1, n2)

        rows, targets = [], []

        def target(text, measured, passed):
            targets.append(f"- {'PASS' if passed else 'FAIL'}: {text} (measured {measured})")

        for k in (1, 10, 100):
            compose, floor, peer = cost(f"emitter-send-{k}") / k, cost(f"array-send-{k}") / k, cost(f"opencombine-send-{k}") / k
            rows.append((f"send to {k} observer{'s' if k > 1 else ''} (per call)", compose, floor, peer))
            bound = 2.0 if k == 1 else 1.5
            target(f"send to {k} observers ≤ {bound}x the closure array (instructions)", f"{compose / floor:.2f}x", compose / floor <= bound)
        signal, array_signal, emitter10 = cost("signal-send-10") / 10, cost("array-signal-10") / 10, cost("emitter-send-10") / 10
        rows.append(("SignalEmitter, 10 observers (per call)", signal, array_signal, None))
        target("SignalEmitter observers cost what Emitter<Int> observers cost (≤ 1.1x, 10 observers)", f"{signal / emitter10:.2f}x", signal / emitter10 <= 1.1)
        compose, floor, peer = cost("emitter-subscribe-10"), cost("array-subscribe-10"), cost("opencombine-subscribe-10")
        rows.append(("subscribe + cancel (10 observers)", compose, floor, peer))
        target("subscribe + cancel ≤ 2x append + removeLast (instructions)", f"{compose / floor:.2f}x", compose / floor <= 2)
        for k in (1, 10):
            compose, floor, peer = cost(f"store-write-{k}"), cost(f"didset-write-{k}"), cost(f"opencombine-write-{k}")
            rows.append((f"store write, {k} observer{'s' if k > 1 else ''}", compose, floor, peer))

        # InspectionCost: the same send (1 observer) with inspection off, on
        # with nobody connected, and with send counting on (after a `tree`).
        off, idle, counting, following = (cost(f"inspection-{mode}-1") for mode in ("off", "idle", "counting", "following"))
        target("inspection on, nobody connected: send cost < 1.05x inspection off (instructions)", f"{idle / off:.3f}x", idle / off < 1.05)

        print("| case (instructions)                     | Compose | floor | Compose/floor | OpenCombine | OpenCombine/Compose |")
        print("|-----------------------------------------|--------:|------:|--------------:|------------:|--------------------:|")
        for name, compose, floor, peer in rows:
            peer_text = f"{peer:.1f}" if peer is not None else "—"
            ratio_text = f"{peer / compose:.1f}x" if peer is not None else "—"
            print(f"| {name:<39} | {compose:7.1f} | {floor:5.1f} | {compose / floor:12.2f}x | {peer_text:>11} | {ratio_text:>19} |")
        print()
        print(f"Instructions per operation counted by callgrind: (count at N={n2:,} - count at N={n1:,}) / {n2 - n1:,}.")
        print("Floor: a ContiguousArray of closures called by index (send), its append + removeLast")
        print("(subscribe + cancel), a class whose didSet calls such an array (store). Closures made once.")
        print()
        print("| InspectionCost: send to 1 observer (instructions) | per send | /off   |")
        print("|---------------------------------------------------|---------:|-------:|")
        for name, value in (("inspection off", off), ("on, nobody connected", idle), ("counting on (after a `tree` request)", counting),
                            ("a follower attached (`follow`)", following)):
            print(f"| {name:<49} | {value:8.1f} | {value / off:5.2f}x |")
        print()
        # IsolationCost: a closure formed in main-actor code and handed to
        # a nonisolated function that is not inlined pays an executor check.
        isolation = [
            ("[UInt8].withUnsafeBytes, main-actor closure", "isolation-array-main"),
            ("hash a 64-byte [UInt8] key, @MainActor class method", "isolation-class-hash"),
            ("the same, nonisolated method of that class", "isolation-class-nonisolated-hash"),
            ("the same, method of a plain struct", "isolation-struct-hash"),
            ("ByteBuffer.withUnsafeReadableBytes, main-actor closure (inlined)", "isolation-bytebuffer-main"),
            ("ByteBuffer.hashValue, 64 bytes", "isolation-bytebuffer-hash"),
            ("search 64 bytes: readableBytesView.firstIndex(of:)", "isolation-view-search"),
            ("search 64 bytes: ByteBuffer.firstIndex(of:) (memchr)", "isolation-memchr-search"),
            ("search 4 KiB: readableBytesView.firstIndex(of:)", "isolation-view-search-4k"),
            ("search 4 KiB: ByteBuffer.firstIndex(of:) (memchr)", "isolation-memchr-search-4k"),
        ]
        print("| IsolationCost: one call (instructions)                            | per call |")
        print("|-------------------------------------------------------------------|---------:|")
        for name, case in isolation:
            print(f"| {name:<65} | {cost(case):8.1f} |")
        print()
        print("\n".join(targets))


if __name__ == "__main__":
    main()
