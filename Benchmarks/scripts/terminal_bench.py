#!/usr/bin/env python3
"""Terminal frames (issue #34, Deliver 7): ComposeTerminal's FrameRenderer on a
full 200x60 screen where one line changes per frame, and the same screen
redrawn whole, against the floor of copying the same bytes once into a
reused buffer (Benchmarks/Sources/TerminalRender).

Instructions per frame are counted by valgrind's callgrind:
(count at N2 - count at N1) / (N2 - N1), process start and set-up cancelled
out, repeatable on a busy machine. Bytes per frame are exact. Wall-clock
nanoseconds per frame (median of 15 rounds, one process) give the CPU share
of 60 frames a second.

Usage: Benchmarks/scripts/terminal_bench.py [--bin DIR] [--quick]
Prints a markdown table and one PASS/FAIL line per target of issue #34.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from instructions import per_iteration  # noqa: E402  (callgrind's count, one place)


def pairs(output):
    return {name: float(value) for name, value in (line.split() for line in output.strip().splitlines() if line.strip())}


def main():
    parser = argparse.ArgumentParser()
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument("--bin", default=os.path.join(here, "..", ".build", "release"))
    parser.add_argument("--quick", action="store_true", help="fewer frames (a smoke test)")
    args = parser.parse_args()
    if not shutil.which("valgrind"):
        sys.exit("terminal_bench: valgrind is not installed (apt-get install valgrind)")
    source = os.path.join(args.bin, "TerminalRender")
    line_n, full_n = ((20, 120), (4, 24)) if args.quick else ((200, 1200), (20, 120))

    sizes = pairs(subprocess.run([source, "bytes", "0"], capture_output=True, text=True, check=True).stdout)
    timing = pairs(subprocess.run([source, "time", "2000" if not args.quick else "200"], capture_output=True, text=True, check=True).stdout)

    # This valgrind cannot read the DWARF 5 the Swift toolchain writes: count
    # a copy without debug information (symbols stay).
    with tempfile.TemporaryDirectory() as tmp:
        binary = os.path.join(tmp, "TerminalRender")
        subprocess.run(["objcopy", "--strip-debug", source, binary], check=True)
        line = per_iteration(binary, "line", *line_n)
        full = per_iteration(binary, "full", *full_n)
        floor_line = per_iteration(binary, "floor-line", *line_n)
        floor_full = per_iteration(binary, "floor-full", *line_n)
        view_n = (4, 24) if args.quick else (20, 120)
        view_line = per_iteration(binary, "view-line", *view_n)
        view_full = per_iteration(binary, "view-full", *view_n)

    print("| 200x60 frame                  | instructions | floor (copy the bytes) | /floor | bytes  | ns (median) |")
    print("|-------------------------------|-------------:|-----------------------:|-------:|-------:|------------:|")
    print(f"| one changed line              | {line:12,.0f} | {floor_line:22,.0f} | {line / floor_line:5.1f}x | {sizes['line']:6,.0f} | {timing['line']:11,.0f} |")
    print(f"| whole redraw                  | {full:12,.0f} | {floor_full:22,.0f} | {full / floor_full:5.1f}x | {sizes['full']:6,.0f} | {timing['full']:11,.0f} |")
    print(f"| views: one changed line       | {view_line:12,.0f} | {floor_line:22,.0f} | {view_line / floor_line:5.1f}x | {sizes['view-line']:6,.0f} | {timing['view-line']:11,.0f} |")
    print(f"| views: whole redraw           | {view_full:12,.0f} | {floor_full:22,.0f} | {view_full / floor_full:5.1f}x |        | {timing['view-full']:11,.0f} |")
    print()
    print(f"Instructions per frame counted by callgrind: (count at N={line_n[1]} - count at N={line_n[0]}) / {line_n[1] - line_n[0]}"
          f" (whole redraws: N={full_n[1]} and {full_n[0]}). Floor: the frame's bytes, made once, appended to a reused buffer.")
    share = 60 * timing["line"] / 1e9
    targets = [
        (f"one changed line of 200x60 writes under 1 KiB (measured {sizes['line']:.0f} bytes)", sizes["line"] < 1024),
        (f"one changed line costs under 5% of a whole redraw (instructions: {100 * line / full:.1f}%)", line < 0.05 * full),
        (f"60 frames/s of one changed line use under 5% of one core (wall clock: {100 * share:.2f}%)", share < 0.05),
        (f"views: one changed line writes under 1 KiB (measured {sizes['view-line']:.0f} bytes)", sizes["view-line"] < 1024),
        (f"views: 60 frames/s of one changed line (view, layout, diff) use under 5% of one core (wall clock: {100 * 60 * timing['view-line'] / 1e9:.2f}%)", 60 * timing["view-line"] / 1e9 < 0.05),
    ]
    print()
    for text, passed in targets:
        print(f"- {'PASS' if passed else 'FAIL'}: {text}")


if __name__ == "__main__":
    main()
