// The floor of the memory benchmark: a Swift program linked with
// -static-stdlib that does nothing. It prints "listening 0" (as the echo
// servers do, so the runner starts it the same way) and waits until
// SIGTERM ends it. Its peak RSS is what any Swift executable costs before
// it does anything: the runtime's start-up and the pages it touches.

#if canImport(Glibc)
import Glibc
#endif

var line = "listening 0\n"
line.withUTF8 { _ = write(1, $0.baseAddress, $0.count) }
while true {
    pause()
}
