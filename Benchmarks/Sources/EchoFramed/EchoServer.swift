// The echo daemon of EchoCompose, through frames (ComposeFraming): each
// connection's input is decoded into fixed-size frames (64 bytes, the
// ping-pong load's messages, unless FRAME_SIZE says otherwise) and each
// frame is written back. Against EchoCompose it measures what framing
// costs per message: the copy into the connection's input buffer, its
// allocation and release, the decoder, the slice, the write of a
// ByteBuffer (scripts/echo_counts.py --servers EchoCompose,EchoFramed).
//
// Usage: EchoFramed [PORT] [FRAME_SIZE]  (0 or none: any free port).

import ComposeFraming
#if canImport(Glibc)
import Glibc
#endif

/// One connection: echoes its frames; the frames wait while its send
/// queue is full (the frames' own back-pressure).
struct FramedSession: Component {
    let connection: TCPConnection

    var observers: Void {
        connection.frames(using: FixedLengthDecoder(length: EchoServer.frameSize)) += { frame in
            connection.write(frame)
        }
    }
}

@main
struct EchoServer: StartupComponent {
    static let port = CommandLine.arguments.count > 1 ? UInt16(CommandLine.arguments[1]) ?? 0 : 0
    static let frameSize = CommandLine.arguments.count > 2 ? Int(CommandLine.arguments[2]) ?? 64 : 64

    let listener = TCPServer(host: "127.0.0.1", port: EchoServer.port)
    let sessions = InstanceComponent<FramedSession>()

    init() {}

    static var configuration: StartupConfiguration {
        StartupConfiguration(config: ConfigOptions(positionalKeys: ["port", "frameSize"]))
    }

    var observers: Void {
        listener += { connection in
            sessions.add { FramedSession(connection: connection) }
        }
        sessions.forward(\.connection.didClose) += { id, _ in
            sessions.remove(id)
        }
        listener.errors += { error in
            say("EchoFramed: \(error)", to: 2)
            Application.shutdown(status: 1)
        }
        didAppear += {
            say("listening \(listener.port)")
        }
    }
}

/// Writes `text` and a newline to file descriptor `fd` at once.
func say(_ text: String, to fd: Int32 = 1) {
    var line = text + "\n"
    line.withUTF8 { _ = write(fd, $0.baseAddress, $0.count) }
}
