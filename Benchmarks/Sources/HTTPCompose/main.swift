// The Compose contender of the HTTP benchmark (make bench-http,
// scripts/http_bench.py): a hello-world written as the ComposeHTTP article
// teaches. `GET /` answers the 13 bytes "Hello, World!"; `POST /echo`
// answers its body (collected, up to 1 MiB).
//
// Usage: HTTPCompose [PORT]  (0 or none: any free port). Listens on
// 127.0.0.1, prints "listening PORT" when the root appears, and runs until
// SIGTERM (graceful drain).

import ComposeHTTP
#if canImport(Glibc)
import Glibc
#endif

@main
struct HelloServer: StartupComponent {
    static let port = CommandLine.arguments.count > 1 ? UInt16(CommandLine.arguments[1]) ?? 0 : 0
    static let hello = Array("Hello, World!".utf8)

    let server = HTTPServer(host: "127.0.0.1", port: HelloServer.port)

    init() {}

    /// PORT is the first argument (read above): declared, since a
    /// positional argument nobody declares is a usage error.
    static var configuration: StartupConfiguration {
        StartupConfiguration(config: ConfigOptions(positionalKeys: ["port"]))
    }

    var observers: Void {
        server.route(.get, "/") += { exchange in
            exchange.respond(.ok, body: HelloServer.hello)
        }
        server.route(.post, "/echo") += { exchange in
            exchange.collectBody(upTo: 1 << 20) += { body in
                exchange.respond(.ok, body: body)
            }
        }
        server.errors += { error in
            say("HTTPCompose: \(error)", to: 2)
            Application.shutdown(status: 1)
        }
        didAppear += {
            say("listening \(server.port)")
        }
    }
}

/// Writes `text` and a newline to file descriptor `fd` at once (the runner
/// reads stdout through a pipe, which stdio would buffer).
func say(_ text: String, to fd: Int32 = 1) {
    var line = text + "\n"
    line.withUTF8 { _ = write(fd, $0.baseAddress, $0.count) }
}
