#!/usr/bin/env python3
"""Keeps docs/unsafe.md true: every unsafe construct in Sources/ is listed
there, and nothing listed there is gone from Sources/.

Usage: scripts/unsafe-inventory.py [--list] [--root DIR]

Greps every Swift file under Sources/ (comments and string literals left
out) for the construct kinds of KINDS below, and reads the entries of
docs/unsafe.md: lines of the form

    - `Sources/Path/File.swift` · `kind` · symbol ... (free text)

Each (file, kind) pair found in Sources must have at least one entry, and
each entry's pair must still be found in Sources. On a mismatch it prints,
for each pair, the exact entry to add (with the lines that need it) or the
exact entry to delete, and exits 1. It also exits 1 on any `unsafeBitCast`
to a function type (issue #28 bans those: never bit-cast between function
types), whatever the document says.

--list prints every site found (file:line, kind, code) and exits 0.
Run by `make test`, after the Swift tests; it takes milliseconds.
"""
import argparse
import os
import re
import sys

# (kind as docs/unsafe.md names it, pattern over comment- and string-free code)
KINDS = [
    ("Unmanaged", re.compile(r"\bUnmanaged\b")),
    ("unowned(unsafe)", re.compile(r"\bunowned\s*\(\s*unsafe\s*\)")),
    ("@exclusivity(unchecked)", re.compile(r"@exclusivity\s*\(\s*unchecked\s*\)")),
    ("nonisolated(unsafe)", re.compile(r"\bnonisolated\s*\(\s*unsafe\s*\)")),
    ("@unchecked Sendable", re.compile(r"@unchecked\s+Sendable\b")),
    ("unsafeBitCast", re.compile(r"\bunsafeBitCast\b")),
    ("unsafeDowncast", re.compile(r"\bunsafeDowncast\b")),
    ("assumingMemoryBound", re.compile(r"\bassumingMemoryBound\b")),
    ("withMemoryRebound", re.compile(r"\bwithMemoryRebound\b")),
    ("bindMemory", re.compile(r"\b(?:bindMemory|rebindMemory|withUnsafeTemporaryAllocation)\b")),
    ("unsafelyUnwrapped", re.compile(r"\bunsafelyUnwrapped\b")),
    # An address as an integer or an integer as an address: pointer tagging,
    # a count carried in a `void *`.
    ("pointer bit pattern", re.compile(
        r"\b(?:Unsafe\w*Pointer|OpaquePointer)\s*\(\s*bitPattern\s*:"
        r"|\bU?Int\s*\(\s*bitPattern\s*:[^)]*(?:toOpaque|\.data\b|Pointer)")),
    # Memory allocated and freed by hand (the proof is who frees it, once).
    ("allocate", re.compile(r"\.allocate\s*\(")),
    # The standard library's reflection SPI, imported under its SPI name.
    ("@_spi import Swift", re.compile(r"@_spi\s*\(\s*\w+\s*\)\s*(?:\w+\s+)?import\s+Swift\b")),
]

# Underscored API: any identifier `_lower...` called, accessed as a member or
# used as an accessor (`_modify`), is reported under its own name as the
# kind (`_forEachField`, `_withUnsafeGuaranteedRef`, ...). Names that are not
# the standard library's underscored API are ignored here, each with why.
UNDERSCORED = re.compile(r"(?<![\w$#@`])_([a-z]\w*)\b")
NOT_STDLIB_UNDERSCORED = {
    "_exit": "POSIX _exit(2), from Glibc: not a Swift standard-library API",
}

# Stored properties whose type is a raw or typed unsafe pointer: raw-pointer
# state (memory the object owns or points into, outside Swift's checks).
POINTER_TYPE = r"(?:Unsafe(?:Mutable)?(?:Raw)?(?:Buffer)?Pointer|OpaquePointer)\b"
STORED_POINTER = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+|(?:private|fileprivate|internal|public|package|open)(?:\(set\))?\s+"
    r"|(?:final|static|lazy|weak|override|nonisolated(?:\(unsafe\))?|unowned(?:\(\w+\))?)\s+)*"
    r"(?:let|var)\s+\w+\s*(?::\s*(?P<type>[^={]*?)\s*)?(?P<rest>(?:=.*|\{.*)?)$")
RAW_POINTER_STATE = "raw-pointer state"

ALL_KINDS = [name for name, _ in KINDS] + [RAW_POINTER_STATE]

# An entry of docs/unsafe.md.
ENTRY = re.compile(r"^- `(?P<file>Sources/[^`]+\.swift)` · `(?P<kind>[^`]+)`")


def strip(text):
    """The text with comments and string literals blanked out (newlines and
    columns kept, so line numbers hold). Interpolations stay code."""
    out = []
    i, n = 0, len(text)
    # Frames: ("code", interpolation paren depth or None), ("str", hashes),
    # ("mstr", hashes), ("block",)
    stack = [("code", None)]
    while i < n:
        frame = stack[-1]
        c = text[i]
        if frame[0] == "code":
            if text.startswith("//", i):
                j = text.find("\n", i)
                j = n if j < 0 else j
                out.append(" " * (j - i))
                i = j
                continue
            if text.startswith("/*", i):
                stack.append(("block",))
                out.append("  ")
                i += 2
                continue
            m = re.match(r'(#*)("""|")', text[i:i + 16])
            if m and (m.group(1) or c == '"'):
                hashes = len(m.group(1))
                kind = "mstr" if m.group(2) == '"""' else "str"
                stack.append((kind, hashes))
                out.append(" " * len(m.group(0)))
                i += len(m.group(0))
                continue
            if frame[1] is not None:
                if c == "(":
                    stack[-1] = ("code", frame[1] + 1)
                elif c == ")":
                    if frame[1] == 1:
                        stack.pop()
                        out.append(" ")
                        i += 1
                        continue
                    stack[-1] = ("code", frame[1] - 1)
            out.append(c)
            i += 1
            continue
        if frame[0] == "block":
            if text.startswith("/*", i):
                stack.append(("block",))
                out.append("  ")
                i += 2
            elif text.startswith("*/", i):
                stack.pop()
                out.append("  ")
                i += 2
            else:
                out.append("\n" if c == "\n" else " ")
                i += 1
            continue
        # A string literal (single- or multi-line, maybe raw).
        hashes = frame[1]
        escape = "\\" + "#" * hashes
        if text.startswith(escape + "(", i):
            stack.append(("code", 1))
            out.append(" " * (len(escape) + 1))
            i += len(escape) + 1
            continue
        if text.startswith(escape, i) and i + len(escape) < n:
            out.append(" " * (len(escape) + 1))
            i += len(escape) + 1
            continue
        close = ('"""' if frame[0] == "mstr" else '"') + "#" * hashes
        if text.startswith(close, i):
            stack.pop()
            out.append(" " * len(close))
            i += len(close)
            continue
        if c == "\n" and frame[0] == "str":
            stack.pop()  # unterminated: never in code that compiles
        out.append("\n" if c == "\n" else " ")
        i += 1
    return "".join(out)


TYPE_HEADER = re.compile(r"\b(?:class|struct|enum|extension|actor|protocol)\s+(?!func\b|var\b|let\b|override\b|subscript\b)[A-Za-z_]")


def type_level_lines(code):
    """For each line (0-based), whether it starts directly inside a type's
    body (where a `let`/`var` is a stored property), not inside a function,
    closure or accessor."""
    result = []
    stack = []  # True for a type body, False for anything else
    line_start = True
    previous_line = ""
    current = []
    for c in code:
        if line_start:
            result.append(bool(stack) and stack[-1])
            line_start = False
        if c == "{":
            header = "".join(current).strip() or previous_line
            stack.append(bool(TYPE_HEADER.search(header)))
        elif c == "}":
            if stack:
                stack.pop()
        if c == "\n":
            text = "".join(current).strip()
            if text:
                previous_line = text
            current = []
            line_start = True
        else:
            current.append(c)
    return result


def swift_sources(root):
    """(path, path relative to root, text) of every Swift file under Sources/."""
    sources = os.path.join(root, "Sources")
    for directory, _, files in sorted(os.walk(sources)):
        for name in sorted(files):
            if name.endswith(".swift"):
                path = os.path.join(directory, name)
                with open(path, encoding="utf-8") as handle:
                    yield path, os.path.relpath(path, root), handle.read()


def scan(root):
    """Every site: (file, kind, line number, code line)."""
    sites = []
    for path, relative, text in swift_sources(root):
        code = strip(text)
        lines = code.split("\n")
        originals = text.split("\n")
        at_type_level = type_level_lines(code)
        for number, line in enumerate(lines, 1):
            shown = originals[number - 1].strip()
            for kind, pattern in KINDS:
                if pattern.search(line):
                    sites.append((relative, kind, number, shown))
            for match in UNDERSCORED.finditer(line):
                word = "_" + match.group(1)
                if word not in NOT_STDLIB_UNDERSCORED:
                    sites.append((relative, word, number, shown))
            if number - 1 < len(at_type_level) and at_type_level[number - 1]:
                stored = STORED_POINTER.match(line)
                if stored:
                    declared = stored.group("type") or ""
                    rest = stored.group("rest") or ""
                    computed = rest.startswith("{")
                    closure = "->" in declared  # a closure taking a pointer holds none
                    if not computed and not closure and (re.search(POINTER_TYPE, declared) or re.match(r"=\s*" + POINTER_TYPE, rest)):
                        sites.append((relative, RAW_POINTER_STATE, number, shown))
    return sites


def function_type_bit_casts(root):
    """`unsafeBitCast(x, to: (...) -> ...)`: a bit-cast to a function type."""
    found = []
    for path, relative, text in swift_sources(root):
        code = strip(text)
        for match in re.finditer(r"\bunsafeBitCast\s*\(", code):
            # The call's arguments, to its closing parenthesis.
            depth, j = 1, match.end()
            while j < len(code) and depth:
                depth += {"(": 1, ")": -1}.get(code[j], 0)
                j += 1
            arguments = code[match.end():j - 1]
            target = re.search(r"\bto\s*:(.*)$", arguments, re.S)
            if target and ("->" in target.group(1) or "@convention" in target.group(1)):
                line = code.count("\n", 0, match.start()) + 1
                found.append(f"{relative}:{line}")
    return found


def entries(doc_path):
    """The (file, kind) pairs docs/unsafe.md lists, with the line of each."""
    listed = {}
    with open(doc_path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            match = ENTRY.match(line)
            if match:
                listed.setdefault((match.group("file"), match.group("kind")), []).append(number)
    return listed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    parser.add_argument("--list", action="store_true", help="print every site found and exit")
    args = parser.parse_args()
    root = os.path.normpath(args.root)
    doc = os.path.join(root, "docs", "unsafe.md")

    sites = scan(root)
    if args.list:
        for file, kind, line, shown in sites:
            print(f"{file}:{line}\t{kind}\t{shown}")
        return 0

    problems = []
    for location in function_type_bit_casts(root):
        problems.append(f"{location}: unsafeBitCast to a function type. Never bit-cast between function types "
                        "(docs/unsafe.md, issue #28): call the closure as its own type, or wrap it in a closure of the other.")

    found = {}
    for file, kind, line, _ in sites:
        found.setdefault((file, kind), []).append(line)
    if not os.path.exists(doc):
        problems.append("docs/unsafe.md is missing")
        listed = {}
    else:
        listed = entries(doc)

    for (file, kind), lines in sorted(found.items()):
        if (file, kind) not in listed:
            where = ", ".join(f"{file}:{n}" for n in lines)
            problems.append(f"missing from docs/unsafe.md: add an entry under \"{kind}\"\n"
                            f"    - `{file}` · `{kind}` · <symbol>\n"
                            f"  (with what it is, the benchmark row it pays for, its proof and its test; and the counts in its Summary row) for {where}")
    for (file, kind), lines in sorted(listed.items()):
        if (file, kind) not in found:
            where = ", ".join(f"docs/unsafe.md:{n}" for n in lines)
            reason = "the file no longer exists" if not os.path.exists(os.path.join(root, file)) \
                else f"no `{kind}` is left in {file}"
            problems.append(f"stale in docs/unsafe.md: delete the entry `{file}` · `{kind}` at {where} ({reason}), "
                            "and adjust the counts in its Summary row")

    if problems:
        print("unsafe-inventory: docs/unsafe.md does not match Sources/\n", file=sys.stderr)
        for problem in problems:
            print("- " + problem, file=sys.stderr)
        print(f"\n{len(problems)} problem(s). `scripts/unsafe-inventory.py --list` prints every site found.", file=sys.stderr)
        return 1
    kinds = {}
    for (file, kind) in found:
        kinds[kind] = kinds.get(kind, 0) + 1
    print(f"unsafe-inventory: docs/unsafe.md lists all {len(found)} (file, construct) pairs of Sources/ "
          f"({len(sites)} sites, {len(kinds)} kinds); no bit-cast to a function type")
    return 0


if __name__ == "__main__":
    sys.exit(main())
