// The Compose contender of the startup benchmark: the smallest app there
// is. When the root appears (the tree is bound and active, the loop about
// to run) it prints the CLOCK_MONOTONIC time (ns) as "appeared T" and
// exits at once (_exit), as the C contender does after its first
// callback: what the runner counts (instructions, system calls) ends
// there, with no shutdown in it. The runner takes its own CLOCK_MONOTONIC
// time just before spawning it. StartupComposeStatic is this file linked
// with -static-stdlib.

import ComposeApp
#if canImport(Glibc)
import Glibc
#endif

@main
struct StartupApp: StartupComponent {
    init() {}

    var observers: Void {
        didAppear += {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            var line = "appeared \(UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec))\n"
            line.withUTF8 { _ = write(1, $0.baseAddress, $0.count) }
            _exit(0)
        }
    }
}
