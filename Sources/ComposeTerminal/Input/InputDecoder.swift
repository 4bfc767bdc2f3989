/// Turns the bytes a terminal sends into ``TerminalInput`` events: UTF-8
/// text, control keys, CSI and SS3 sequences with xterm's modifiers, Alt
/// as an Escape prefix, bracketed paste and SGR mouse reports.
///
/// ```swift
/// var decoder = InputDecoder()
/// decoder.decode(Array("\u{1B}[1;5A".utf8))   // [.key(.up.with(.control))]
/// decoder.decode([0x1B])                      // [] (held: Escape, or a sequence?)
/// decoder.flush()                             // [.key(.escape)]
/// ```
///
/// Bytes may come in any chunks: a sequence cut between two reads is
/// held until its end arrives, so feeding a stream in pieces gives the
/// same events as feeding it whole. The one thing bytes alone cannot
/// settle is a lone Escape (the start of a sequence, or the key?):
/// the decoder holds it, and its owner calls ``flush()`` once no byte
/// followed for a moment (the terminal device waits 30 ms), which makes
/// it the Escape key (and anything else held final).
///
/// Every input has a limit and a defined answer:
/// - a paste longer than ``Limits/maximumPasteBytes`` (1 MiB by default)
///   is delivered cut to that many bytes (at a character boundary), and
///   ``Problem/pasteTruncated(limit:received:)`` is recorded;
/// - an escape sequence longer than ``Limits/maximumSequenceBytes`` (256)
///   is dropped up to its final byte, and
///   ``Problem/sequenceTooLong(limit:)`` recorded; decoding goes on after it;
/// - bytes that are not UTF-8 become U+FFFD, one per maximal invalid
///   subpart (as Swift's `String(decoding:as:)` does);
/// - sequences the decoder does not know (replies, focus reports) are
///   dropped without an event.
///
/// Each Unicode scalar typed is one key (a combining accent typed after a
/// letter is a second key). Byte 0x08 (Ctrl+H) is Backspace, a line feed
/// (Ctrl+J) is Enter, and Ctrl+Space is `.ctrl(" ")`.
public struct InputDecoder: Sendable {
    /// The decoder's bounds.
    public struct Limits: Hashable, Sendable {
        /// The longest paste delivered, in bytes (UTF-8 as pasted); the
        /// rest of a longer one is dropped. 1 MiB unless set.
        public var maximumPasteBytes: Int
        /// The longest escape sequence decoded, in bytes from its Escape;
        /// a longer one is dropped. 256 unless set.
        public var maximumSequenceBytes: Int

        /// Limits; each at least 1 (a sequence's at least 8).
        public init(maximumPasteBytes: Int = 1 << 20, maximumSequenceBytes: Int = 256) {
            self.maximumPasteBytes = max(1, maximumPasteBytes)
            self.maximumSequenceBytes = max(8, maximumSequenceBytes)
        }
    }

    /// Input the decoder cut or dropped (see ``takeProblems()``).
    public enum Problem: Hashable, Sendable, CustomStringConvertible {
        /// A paste of `received` bytes was delivered cut to `limit` bytes.
        case pasteTruncated(limit: Int, received: Int)
        /// An escape sequence longer than `limit` bytes was dropped.
        case sequenceTooLong(limit: Int)

        public var description: String {
            switch self {
            case .pasteTruncated(let limit, let received):
                "A paste of \(received) bytes was cut to the first \(limit) bytes (InputDecoder.Limits.maximumPasteBytes)."
            case .sequenceTooLong(let limit):
                "An escape sequence longer than \(limit) bytes was dropped (InputDecoder.Limits.maximumSequenceBytes)."
            }
        }
    }

    /// The bounds in force.
    public var limits: Limits

    /// Bytes of a unit not complete yet (a sequence, a character).
    private var held: [UInt8] = []
    /// Inside a bracketed paste: what was pasted so far.
    private var paste: Paste?
    /// Dropping the rest of a sequence that was too long, up to its final byte.
    private var isSkippingSequence = false
    /// What was cut or dropped since the last ``takeProblems()``.
    public private(set) var problems: [Problem] = []

    /// A decoder with `limits`.
    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Whether bytes are held that ``flush()`` would settle (a lone
    /// Escape, a sequence or character cut short), outside a paste: the
    /// owner then arms its flush timer.
    public var isHolding: Bool { !held.isEmpty && paste == nil }

    /// Whether the decoder is inside a bracketed paste (its end not seen yet).
    public var isInPaste: Bool { paste != nil }

    /// Decodes `bytes`, following what came before; returns the events
    /// completed.
    @discardableResult
    public mutating func decode(_ bytes: some Sequence<UInt8>) -> [TerminalInput] {
        var events: [TerminalInput] = []
        for byte in bytes { feed(byte, into: &events) }
        return events
    }

    /// Settles what is held as if nothing more will follow: a lone Escape
    /// becomes the Escape key, Escape and `[` or `O` become Alt+`[` or
    /// Alt+`O`, a cut character U+FFFD, a cut sequence nothing. A paste
    /// under way is not ended (it waits for its end marker).
    @discardableResult
    public mutating func flush() -> [TerminalInput] {
        guard paste == nil else { return [] }
        var events: [TerminalInput] = []
        parseHeld(final: true, into: &events)
        return events
    }

    /// Returns ``problems`` and forgets them.
    public mutating func takeProblems() -> [Problem] {
        defer { problems.removeAll() }
        return problems
    }

    // MARK: Bytes

    private mutating func feed(_ byte: UInt8, into events: inout [TerminalInput]) {
        if isSkippingSequence {
            if (0x20...0x3F).contains(byte) { return }
            isSkippingSequence = false
            if (0x40...0x7E).contains(byte) { return }
        }
        if paste != nil {
            pasteByte(byte, into: &events)
            return
        }
        held.append(byte)
        parseHeld(final: false, into: &events)
    }

    private mutating func parseHeld(final: Bool, into events: inout [TerminalInput]) {
        var start = 0
        defer { held.removeFirst(start) }
        while start < held.count {
            switch Self.parse(held[start...], final: final) {
            case .event(let event, let count):
                if let event { events.append(event) }
                start += count
            case .beginPaste(let count):
                start += count
                paste = Paste()
                // What is held after the marker is pasted text.
                let rest = Array(held[start...])
                start = held.count
                for byte in rest { pasteByte(byte, into: &events) }
                return
            case .incomplete:
                if held.count - start >= limits.maximumSequenceBytes {
                    problems.append(.sequenceTooLong(limit: limits.maximumSequenceBytes))
                    start = held.count
                    isSkippingSequence = true
                }
                return
            }
        }
    }

    // MARK: Paste

    private struct Paste: Sendable {
        var content: [UInt8] = []
        var received = 0
        var isTruncated = false
        /// How many bytes of the end marker were matched.
        var matched = 0
    }

    /// `ESC [ 2 0 1 ~`, the end of a bracketed paste.
    private static let pasteEnd: [UInt8] = [0x1B, 0x5B, 0x32, 0x30, 0x31, 0x7E]

    private mutating func pasteByte(_ byte: UInt8, into events: inout [TerminalInput]) {
        guard var state = paste else { return }
        paste = nil
        if byte == Self.pasteEnd[state.matched] {
            state.matched += 1
            if state.matched == Self.pasteEnd.count {
                finishPaste(state, into: &events)
                return
            }
        } else {
            for held in Self.pasteEnd[0..<state.matched] { append(held, to: &state) }
            state.matched = 0
            if byte == Self.pasteEnd[0] {
                state.matched = 1
            } else {
                append(byte, to: &state)
            }
        }
        paste = state
    }

    private func append(_ byte: UInt8, to state: inout Paste) {
        state.received += 1
        if state.content.count < limits.maximumPasteBytes {
            state.content.append(byte)
        } else {
            state.isTruncated = true
        }
    }

    private mutating func finishPaste(_ state: Paste, into events: inout [TerminalInput]) {
        var content = state.content
        if state.isTruncated {
            Self.dropCutCharacter(&content)
            problems.append(.pasteTruncated(limit: limits.maximumPasteBytes, received: state.received))
        }
        events.append(.paste(Self.normalizingLineBreaks(String(decoding: content, as: UTF8.self))))
    }

    /// Removes a last UTF-8 character the cut left incomplete.
    private static func dropCutCharacter(_ bytes: inout [UInt8]) {
        var lead = bytes.count - 1
        while lead >= 0, lead > bytes.count - 4, bytes[lead] & 0xC0 == 0x80 { lead -= 1 }
        guard lead >= 0 else { return }
        let length = switch bytes[lead] {
        case 0xC0...0xDF: 2
        case 0xE0...0xEF: 3
        case 0xF0...0xF7: 4
        default: 1
        }
        if bytes.count - lead < length { bytes.removeSubrange(lead...) }
    }

    /// `"\r\n"` and `"\r"` as `"\n"` (terminals paste line breaks as CR).
    private static func normalizingLineBreaks(_ text: String) -> String {
        guard text.utf8.contains(0x0D) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var previousWasReturn = false
        for scalar in text.unicodeScalars {
            if scalar == "\r" {
                result.unicodeScalars.append("\n")
                previousWasReturn = true
                continue
            }
            if scalar == "\n", previousWasReturn {
                previousWasReturn = false
                continue
            }
            previousWasReturn = false
            result.unicodeScalars.append(scalar)
        }
        return result
    }
}
