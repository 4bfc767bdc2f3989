#!/usr/bin/env python3
"""Documentation coverage of the public API, from the symbol graphs that
`make docs` (swift-docc-plugin) extracted.

Usage: scripts/doc-coverage.py SCRATCH_PATH MODULE...

For each module, reads every `MODULE.symbols.json` and `MODULE@OTHER.symbols.json`
(the module's extensions of other modules' types) under SCRATCH_PATH, and
counts its public and open symbols:

- documented: the symbol has a `///` doc comment of its own;
- inherited: no comment, but it implements a protocol requirement (the
  symbol graph names the requirement as its `sourceOrigin`), so DocC shows
  the requirement's documentation (`==`, `description`, `observers`, ...);
- missing: neither. Each is listed with its file and line.

Synthesized members (memberwise initialisers, default implementations the
compiler copies into conforming types) and extension blocks are not
symbols a reader looks up, and are not counted. Prints one line per module
and exits 1 when any symbol is missing, so `make docs` fails.
"""
import glob
import json
import os
import sys


def graphs(scratch, module):
    """The newest symbol graph files of `module` under `scratch`, one per file name."""
    found = {}
    patterns = [f"{module}.symbols.json", f"{module}@*.symbols.json"]
    # swift-docc-plugin extracts into <triple>/extracted-symbols/<package>/<module>/;
    # any other copy (an older layout, a hand-run extract) only if there is none.
    roots = glob.glob(os.path.join(scratch, "*", "extracted-symbols")) or [scratch]
    for pattern in patterns:
        for root in roots:
            for path in glob.glob(os.path.join(root, "**", pattern), recursive=True):
                name = os.path.basename(path)
                if name not in found or os.path.getmtime(path) > os.path.getmtime(found[name]):
                    found[name] = path
    return sorted(found.values())


def coverage(paths):
    documented, inherited, missing = 0, 0, []
    seen = set()
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            graph = json.load(handle)
        implements = {
            r["source"]
            for r in graph.get("relationships", [])
            if r.get("sourceOrigin") is not None
        }
        for symbol in graph.get("symbols", []):
            precise = symbol["identifier"]["precise"]
            kind = symbol["kind"]["identifier"]
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            if "::SYNTHESIZED::" in precise or kind == "swift.extension":
                continue
            if precise in seen:
                continue
            seen.add(precise)
            comment = symbol.get("docComment", {}).get("lines", [])
            if any(line.get("text", "").strip() for line in comment):
                documented += 1
            elif precise in implements:
                inherited += 1
            else:
                location = symbol.get("location", {})
                where = location.get("uri", "?").replace("file://", "")
                line = location.get("position", {}).get("line", -1) + 1
                title = ".".join(symbol.get("pathComponents", [symbol["names"]["title"]]))
                missing.append(f"{os.path.relpath(where)}:{line}: {kind.replace('swift.', '')} {title}")
    return documented, inherited, missing


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    scratch, modules = sys.argv[1], sys.argv[2:]
    failed = False
    for module in modules:
        paths = graphs(scratch, module)
        if not paths:
            print(f"{module}: no symbol graph under {scratch} (run `make docs` first)")
            failed = True
            continue
        documented, inherited, missing = coverage(paths)
        total = documented + inherited + len(missing)
        percent = 100.0 * (documented + inherited) / total if total else 100.0
        print(f"{module}: {percent:.1f}% of {total} public symbols documented "
              f"({documented} with a comment, {inherited} inherited from a protocol requirement, "
              f"{len(missing)} missing)")
        for entry in sorted(missing):
            print(f"  missing: {entry}")
        failed = failed or bool(missing)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
