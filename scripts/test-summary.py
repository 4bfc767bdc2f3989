#!/usr/bin/env python3
"""Runs a `swift test` command quietly: what failed or warned, then the
summary as the last thing printed, with a line that says what the known
issues are. The whole output goes to a log file.

Usage: scripts/test-summary.py --log FILE -- swift test --skip-build ...

Shown as they come: every line except Swift Testing's "started",
"passing arguments" and "passed" messages (one or two per test and suite),
the known issues and their details (the line after the summary names
them), what a passing test printed, and XCTest's lines for a run without
XCTest tests ("Executed 0 tests"). Then Swift Testing's run summary
("Test run with N tests ... passed"), and, when it mentions known issues,
which tests recorded them and why that is expected. Exits with the test
command's exit status, whatever this script filtered.

Run by `make test`.
"""
import argparse
import re
import subprocess
import sys

# A message of Swift Testing starts with its symbol and a space (◇ started,
# ✔ passed, ✘ failed, ━ known issue, ⚠ warning, ↳ detail); a line that does
# not (an argument's or an issue's text going on, or what a test printed)
# belongs to the message before it and is shown only when that one is.
MESSAGE = re.compile(r"^[^\x00-\x7f\s]\S* ")
# A test's or suite's start or success, and the arguments a test is passed:
# one or two lines per test, thousands in all. A test that passed with a
# known issue is counted in the summary too.
ROUTINE = re.compile(r"^(◇ |✔ |\S+ (Test|Suite) .*passed after [0-9.]+ seconds( with \d+ known issues?)?\.$)")
# Swift Testing's last line: "✔ Test run with 1200 tests in 230 suites
# passed after 250.1 seconds with 4 known issues." (or "failed").
RUN_SUMMARY = re.compile(r"^\S+ Test run with \d+ tests?.*(passed|failed)")
# "━ Test exhaustiveModeFails...() recorded a known issue at File.swift:12:3: ..."
KNOWN_ISSUE = re.compile(r"^\S+ Test (?P<test>[^\s(]+)\S* recorded a known issue")
KNOWN_ISSUE_COUNT = re.compile(r"(\d+) known issues?")
# SwiftPM's and Swift Testing's preamble.
PREAMBLE = re.compile(r"^(\[\d+/\d+\] Planning build|↳ Testing Library Version:|↳ Target Platform:)")
# XCTest's own run, empty here: "Test Suite 'All tests' started ...",
# "Executed 0 tests, with 0 failures ...".
XCTEST = re.compile(r"^(Test Suite '.*' (started|passed|failed) at|\s*Executed \d+ tests?, with \d+ failures?)")

# Why each test that records a known issue does so; the summary names them.
EXPECTED_KNOWN_ISSUES = {
    "exhaustiveModeFailsOnAnUnassertedEventAndNamesIt": "an unasserted event fails the test",
    "eventsLeftUnassertedFailTheTestWhenTheAppGoesAway": "events left unasserted fail at the end",
    "anExpectedEventThatDidNotHappenFailsListingWhatDid": "a missing event fails, listing what happened",
    "aPathSpelledAsTheStoresStorageFailsNamingThePathToWrite": "a misspelt path fails, naming the right one",
    "nonExhaustiveModeCanListWhatItSkipped": "skipped events are listed as a known issue",
    "aMisusedFileSystemCallIsATestIssue": "a file-system call the simulation refuses is a test issue",
    "aKeyNoTerminalSendsIsAnIssueAndTypesNothing": "app.press of a key no terminal sends is a test issue",
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--log", required=True, help="file that receives the whole output")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- then the swift test command")
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no test command after --")

    print(f"Running the tests; the whole output goes to {args.log}.", flush=True)
    summary = None
    tail = []
    known = []
    hiding = False
    with open(args.log, "w", encoding="utf-8") as log:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        for raw in process.stdout:
            line = raw.decode("utf-8", errors="replace")
            log.write(line)
            tail = (tail + [line])[-40:]
            text = line.rstrip("\n")
            if RUN_SUMMARY.match(text):
                summary = text
                hiding = True
                continue
            if PREAMBLE.match(text) or XCTEST.match(text):
                continue
            if MESSAGE.match(text) and not text.startswith("↳"):
                match = KNOWN_ISSUE.match(text)
                if match:
                    known.append(match.group("test"))
                hiding = bool(match) or bool(ROUTINE.match(text))
            if hiding:
                continue
            sys.stdout.write(line)
            sys.stdout.flush()
        status = process.wait()

    if summary:
        print(summary)
        count = KNOWN_ISSUE_COUNT.search(summary)
        if count:
            print(explain_known_issues(int(count.group(1)), known))
    else:
        # A crash or a build error: what it printed last, whatever it was.
        sys.stdout.write("".join(tail))
        print(f"No test summary (the test command exited with status {status}); the whole output is in {args.log}.")
    sys.exit(status)


def explain_known_issues(count, tests):
    """One line: which tests recorded the known issues and that they are meant."""
    names = sorted(set(tests))
    unexpected = [name for name in names if name not in EXPECTED_KNOWN_ISSUES]
    reasons = "; ".join(EXPECTED_KNOWN_ISSUES[name] for name in names if name in EXPECTED_KNOWN_ISSUES)
    line = (f"The {count} known issue{'s are' if count != 1 else ' is'} expected: TestEventsTests, "
            f"TestAppFileWatcherTests and TerminalPlumbingTests check the failure messages of app.events, "
            f"app.files and app.press inside withKnownIssue ({reasons}).")
    if unexpected:
        line += " Not among them, so look at: " + ", ".join(unexpected) + "."
    return line


if __name__ == "__main__":
    main()
