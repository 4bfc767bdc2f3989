// AddressSanitizer's default options, linked into every executable of the
// ASan build (`make test-asan`): the test runner and the fixture, example
// and tool executables the tests start as child processes. Options given
// here hold even in a child whose environment a test replaced or cleared
// (ToolchainCheckTests, systemd-socket-activate), which ASAN_OPTIONS would
// not reach. ASAN_OPTIONS, when set, still overrides them.
//
// detect_leaks=0: LeakSanitizer reports every Swift object that still has a
// weak reference at exit (its side table, allocated by swift_weakInit or
// swift_weakAssign, is found only through an encoded pointer in the
// object's reference count, which LeakSanitizer cannot follow), and the
// XCTest runner's own objects: hundreds of false reports, and a child that
// exits 1 instead of 0. Leaks are what `make check-leaks` (valgrind's
// memcheck, with scripts/valgrind-swift.supp) checks.
__attribute__((visibility("default"), used))
const char *__asan_default_options(void) {
    return "detect_leaks=0";
}
