// The Hummingbird 2 contender of the HTTP benchmark (make bench-http,
// scripts/http_bench.py): the same two routes as HTTPCompose on one
// SwiftNIO event-loop thread. `GET /` answers the 13 bytes "Hello,
// World!"; `POST /echo` answers its body (collected, up to 1 MiB).
//
// Usage: HTTPHummingbird [PORT]  (0 or none: any free port). Listens on
// 127.0.0.1, prints "listening PORT" once the server runs, and runs until
// SIGTERM.

import Hummingbird
import NIOCore
import NIOPosix
#if canImport(Glibc)
import Glibc
#endif

let port = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 0 : 0

let router = Router()
router.get("/") { _, _ in
    "Hello, World!"
}
router.post("/echo") { request, _ -> ByteBuffer in
    try await request.body.collect(upTo: 1 << 20)
}
let app = Application(
    router: router,
    configuration: .init(address: .hostname("127.0.0.1", port: port)),
    onServerRunning: { channel in
        say("listening \(channel.localAddress?.port ?? 0)")
    },
    eventLoopGroupProvider: .shared(MultiThreadedEventLoopGroup(numberOfThreads: 1))
)
try await app.runService()

/// Writes `text` and a newline to standard output at once (the runner
/// reads it through a pipe, which stdio would buffer).
func say(_ text: String) {
    var line = text + "\n"
    line.withUTF8 { _ = write(1, $0.baseAddress, $0.count) }
}
