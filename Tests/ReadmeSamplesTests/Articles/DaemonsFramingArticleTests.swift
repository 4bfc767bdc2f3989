import ComposeApp
import ComposeTesting
import Testing
import ComposeFraming

struct FramedSession: Component {
    let connection: TCPConnection
    var observers: Void {
        connection.frames(using: LengthPrefixedDecoder(maximumLength: 64 * 1024)) += { request in
            connection.write { buffer in
                buffer.writeInteger(UInt32(request.readableBytes))
                buffer.writeImmutableBuffer(request)
            }
        }
    }
}

// Sources/ComposeApp/ComposeApp.docc/DaemonsAndIO.md, "Protocols": the
// session above, behind a listener.

struct FramedEchoServer: Component {
    let listener = TCPServer(port: 9100)
    let sessions = InstanceComponent<FramedSession>()
    var observers: Void {
        listener += { connection in sessions.add { FramedSession(connection: connection) } }
    }
}

/// `text` after its 4-byte big-endian length.
func lengthPrefixed(_ text: String) -> [UInt8] {
    var buffer = ByteBuffer()
    buffer.writeInteger(UInt32(text.utf8.count))
    buffer.writeString(text)
    return Array(buffer.readableBytesView)
}

@MainActor
@Test func aSessionAnswersEachLengthPrefixedRequestWithItself() throws {
    let app = TestApp(root: FramedEchoServer())
    let peer = try app.connect(port: 9100)
    let requests = lengthPrefixed("hello") + lengthPrefixed("") + lengthPrefixed("frames")
    peer.write(Array(requests.prefix(7)))
    peer.write(Array(requests.dropFirst(7)))
    #expect(peer.received == requests)
}
