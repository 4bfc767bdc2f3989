// ThreadSanitizer's default suppressions, linked into every executable of
// the TSan build (`make test-tsan`), so that they hold in child processes
// too, whatever environment a test gives them.
//
// Synchronization.Mutex is invisible to ThreadSanitizer on Linux (Swift
// 6.3.1): the standard library that locks it is not instrumented, so two
// accesses made under the same Mutex by two threads are reported as a race
// (a 10-line program with two threads incrementing a Mutex<Int> shows it).
// A file is listed here only when every report from it was of that kind;
// FixtureOutput (Tests/ComposeAppTests) keeps all its state in one Mutex,
// which its reader thread and the waiting tasks share.
__attribute__((visibility("default"), used))
const char *__tsan_default_suppressions(void) {
    return "race:FixtureOutput.swift\n";
}
