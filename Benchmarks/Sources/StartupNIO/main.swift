// The SwiftNIO contender of the startup benchmark: an event-loop group of
// one thread (as EchoNIO runs), whose first task on the loop prints the
// CLOCK_MONOTONIC time (ns) as "appeared T" and exits at once (_exit), as
// the C and Compose contenders do in their first callback.

import NIOCore
import NIOPosix
#if canImport(Glibc)
import Glibc
#endif

let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
group.next().execute {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    var line = "appeared \(UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec))\n"
    line.withUTF8 { _ = write(1, $0.baseAddress, $0.count) }
    _exit(0)
}
while true { pause() }
