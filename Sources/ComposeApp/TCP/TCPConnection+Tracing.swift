import Compose

extension TCPConnection {
    /// The app counts or records sends (an inspector follows it, a trace
    /// records it, or it counts): a write is an ``AppEvent/Kind/wrote``
    /// event at the connection's path, as its received bytes are `sent`
    /// events there, so `compose inspect follow` shows what the app writes
    /// as well as what it reads.
    @inline(never)
    func traceWrite(_ buffer: UnsafeRawBufferPointer) {
        emitter.recordTraced(.wrote) { Self.describeWrite(buffer) }
    }

    /// The most bytes of a write an event shows.
    nonisolated static let writePreviewLength = 48

    /// `12 bytes "Hello, ada!\n"`: the size and, for text, the first
    /// ``writePreviewLength`` bytes (cut with `…`); the size alone for
    /// bytes that are not text.
    nonisolated static func describeWrite(_ buffer: UnsafeRawBufferPointer) -> String {
        let size = buffer.count == 1 ? "1 byte" : "\(buffer.count) bytes"
        let isCut = buffer.count > writePreviewLength
        var text = String(decoding: buffer.prefix(writePreviewLength), as: UTF8.self)
        // A character cut by the preview's end is not a sign of binary data.
        while isCut, text.unicodeScalars.last == "\u{FFFD}" { text.unicodeScalars.removeLast() }
        let isText = text.unicodeScalars.allSatisfy { scalar in
            scalar != "\u{FFFD}" && (scalar.value >= 0x20 || scalar == "\n" || scalar == "\r" || scalar == "\t") && scalar.value != 0x7F
        }
        guard isText, !text.isEmpty else { return size }
        return "\(size) \(text.debugDescription)\(isCut ? "…" : "")"
    }
}
