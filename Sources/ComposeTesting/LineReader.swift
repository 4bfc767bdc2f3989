/// Reads complete lines out of a growing byte buffer: what `readLines()`
/// of the test's ends returns.
///
/// It splits what the app wrote (the test's side), so it has no line limit;
/// it scans each byte once (a line still missing its newline is not
/// rescanned by the next call).
struct LineReader {
    /// Where the first line not yet returned starts.
    private var offset = 0
    /// How far `bytes` was scanned for a newline.
    private var scanned = 0

    /// The complete lines of `bytes` past the last call (without `\n` or
    /// `\r\n`); a line still missing its newline waits for a later call.
    mutating func readLines(_ bytes: [UInt8]) -> [String] {
        var lines: [String] = []
        var start = offset
        var index = max(scanned, offset)
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\n") {
                var end = index
                if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                lines.append(String(decoding: bytes[start..<end], as: UTF8.self))
                start = index + 1
            }
            index += 1
        }
        offset = start
        scanned = index
        return lines
    }
}
