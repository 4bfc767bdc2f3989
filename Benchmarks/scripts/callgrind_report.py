#!/usr/bin/env python3
"""Reads a callgrind output file without kcachegrind: who calls what, and
what changed between two profiles.

    callgrind_report.py self    FILE PATTERN   # self cost of functions matching PATTERN
    callgrind_report.py callees FILE PATTERN   # inclusive cost of the calls PATTERN makes
    callgrind_report.py callers FILE PATTERN   # inclusive cost of the calls into PATTERN
    callgrind_report.py diff    OLD NEW        # the 25 largest self-cost changes

Costs are instructions (callgrind's default event). PATTERN is a Python
regular expression matched against the (mangled or demangled) name.
Used with profile_keyvalue.sh; see docs/protocols.md, "What framing costs
per message", for how the figures there were read.
"""
import collections
import re
import sys


def load(path):
    """Self cost per function, and inclusive cost and count per call edge."""
    names = {}

    def name(token):
        # callgrind compresses repeated names: "(12) name" defines, "(12)" reuses.
        match = re.match(r"\((\d+)\)(?: (.*))?", token)
        if not match:
            return token
        if match.group(2):
            names[match.group(1)] = match.group(2)
        return names.get(match.group(1), token)

    self_cost = collections.Counter()
    edges = collections.Counter()
    calls = collections.Counter()
    function = callee = None
    pending = None
    with open(path) as lines:
        for line in lines:
            line = line.rstrip("\n")
            if line.startswith("fn="):
                function = name(line[3:])
            elif line.startswith("cfn="):
                callee = name(line[4:])
            elif line.startswith(("fl=", "fi=", "fe=", "cfi=", "cfl=", "ob=", "cob=")):
                continue
            elif line.startswith("calls="):
                pending = int(line[6:].split()[0])
            elif line and (line[0].isdigit() or line[0] in "+-*"):
                parts = line.split()
                if len(parts) < 2:
                    continue
                cost = int(parts[1])
                if pending is not None:
                    edges[(function, callee)] += cost
                    calls[(function, callee)] += pending
                    pending = None
                else:
                    self_cost[function] += cost
    return self_cost, edges, calls


def main(argv):
    if len(argv) != 4 or argv[1] not in ("self", "callees", "callers", "diff"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    mode = argv[1]
    if mode == "diff":
        old, _, _ = load(argv[2])
        new, _, _ = load(argv[3])
        keys = sorted(set(old) | set(new), key=lambda k: -abs(new[k] - old[k]))
        for key in keys[:25]:
            print(f"{new[key] - old[key]:>+14,} {old[key]:>14,} {new[key]:>14,} {key[:150]}")
        return 0
    self_cost, edges, calls = load(argv[2])
    pattern = re.compile(argv[3])
    if mode == "self":
        for function, cost in self_cost.most_common():
            if pattern.search(function):
                print(f"{cost:>14,} self {function[:170]}")
        return 0
    for (caller, callee), cost in edges.most_common():
        if mode == "callees" and pattern.search(caller):
            print(f"{cost:>14,} {calls[(caller, callee)]:>9}x  -> {callee[:170]}")
        if mode == "callers" and pattern.search(callee):
            print(f"{cost:>14,} {calls[(caller, callee)]:>9}x  <- {caller[:170]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
