import ComposeFraming
import ComposeTesting
import Testing

/// `write { }` encodes into one scratch buffer the app reuses: what an
/// encoder keeps of it stays its own, and a reply of any size leaves whole.
@MainActor
@Suite struct ScratchBufferTests {
    /// Answers each line with the reply `reply(line)` encodes; keeps a copy
    /// of the buffer the first reply was encoded into.
    struct Replier: Component {
        let listener = TCPServer(port: 7000)
        let sessions = InstanceComponent<Session>()
        let kept = Kept()
        var observers: Void {
            listener += { connection in sessions.add { Session(connection: connection, kept: kept) } }
        }
    }

    final class Kept {
        var buffer: ByteBuffer?
    }

    struct Session: Component {
        let connection: TCPConnection
        let kept: Kept
        var observers: Void {
            connection.frames(using: LineDecoder()) += { line in
                let size = Int(String(buffer: line)) ?? 0
                connection.write { buffer in
                    buffer.writeString("\(size):")
                    buffer.writeRepeatingByte(UInt8(ascii: "x"), count: size)
                    buffer.writeString("\n")
                    if kept.buffer == nil { kept.buffer = buffer }
                }
            }
        }
    }

    @Test func aCopyAnEncoderKeepsStaysItsOwnWhenTheScratchBufferIsReused() throws {
        let app = TestApp(root: Replier())
        let replier = try #require(app.root(as: Replier.self))
        let peer = try app.connect(port: 7000)
        peer.write("3\n")
        #expect(peer.receivedText == "3:xxx\n")
        // The next replies reuse the scratch buffer (emptied in place, or
        // copied first because the encoder kept it): the copy is unchanged.
        peer.write("1\n2\n")
        #expect(peer.receivedText == "3:xxx\n1:x\n2:xx\n")
        let kept = try #require(replier.kept.buffer)
        #expect(String(buffer: kept) == "3:xxx\n")
        #expect(app.diagnostics.isEmpty)
    }

    @Test func repliesLargerThanTheKeptScratchBufferLeaveWholeAndSmallOnesAfterThem() throws {
        let app = TestApp(root: Replier())
        let peer = try app.connect(port: 7000)
        // 200 KiB (more than the 64 KiB a kept scratch buffer may hold),
        // then small replies, then large again: each whole, in order.
        let sizes = [200 * 1024, 5, 70 * 1024, 1, 64 * 1024]
        for size in sizes { peer.write("\(size)\n") }
        let expected = sizes.map { "\($0):" + String(repeating: "x", count: $0) + "\n" }.joined()
        #expect(peer.receivedText.utf8.count == expected.utf8.count)
        #expect(peer.receivedText == expected)
    }
}
