/// Splits a byte stream into lines (`\n`, with an optional `\r` before it).
struct LineBuffer {
    private var pending: [UInt8] = []

    /// Appends `bytes` and returns the lines they complete.
    mutating func append(_ bytes: UnsafeRawBufferPointer) -> [String] {
        pending.append(contentsOf: bytes)
        var lines: [String] = []
        var start = pending.startIndex
        while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(Self.decode(pending[start..<newline]))
            start = newline + 1
        }
        pending.removeSubrange(pending.startIndex..<start)
        return lines
    }

    /// The unterminated last line, if any, at end of input.
    mutating func finish() -> String? {
        defer { pending = [] }
        return pending.isEmpty ? nil : Self.decode(pending[...])
    }

    private static func decode(_ bytes: ArraySlice<UInt8>) -> String {
        var line = bytes
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        return String(decoding: line, as: UTF8.self)
    }
}
