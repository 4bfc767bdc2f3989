import ComposeTerminal
import Testing

/// The decoder, one family of input at a time.
@Suite struct InputDecoderTests {
    static func decode(_ text: String, flush: Bool = true, limits: InputDecoder.Limits = InputDecoder.Limits()) -> [TerminalInput] {
        decode(Array(text.utf8), flush: flush, limits: limits)
    }

    static func decode(_ bytes: [UInt8], flush: Bool = true, limits: InputDecoder.Limits = InputDecoder.Limits()) -> [TerminalInput] {
        var decoder = InputDecoder(limits: limits)
        var events = decoder.decode(bytes)
        if flush { events += decoder.flush() }
        return events
    }

    static func keys(_ events: [KeyEvent]) -> [TerminalInput] { events.map { .key($0) } }

    @Test func textIsOneKeyPerScalarWithUTF8Decoded() {
        #expect(Self.decode("aZ ~") == Self.keys(["a", "Z", .space, "~"]))
        #expect(Self.decode("é日😀") == Self.keys(["é", "日", "😀"]))
    }

    @Test func invalidUTF8BecomesReplacementCharacters() {
        // A stray continuation, an overlong lead, a surrogate, a cut
        // sequence before ASCII, and one cut at the end of the input.
        let bytes: [UInt8] = [0x80, 0x61, 0xC0, 0xAF, 0xED, 0xA0, 0x80, 0xE6, 0x97, 0x62, 0xF0, 0x9F]
        #expect(Self.decode(bytes) == Self.keys(["\u{FFFD}", "a", "\u{FFFD}", "\u{FFFD}", "\u{FFFD}", "\u{FFFD}", "\u{FFFD}", "\u{FFFD}", "b", "\u{FFFD}"]))
        // As the standard library decodes the same bytes.
        let expected = String(decoding: bytes, as: UTF8.self).unicodeScalars.map { TerminalInput.key(KeyEvent(.character(Character($0)))) }
        #expect(Self.decode(bytes) == expected)
    }

    @Test func controlBytesAreControlKeys() {
        #expect(Self.decode([0x0D, 0x0A, 0x09, 0x7F, 0x08]) == Self.keys([.enter, .enter, .tab, .backspace, .backspace]))
        #expect(Self.decode([0x03, 0x01, 0x1A, 0x00, 0x1C]) == Self.keys([.ctrl("c"), .ctrl("a"), .ctrl("z"), .ctrl(" "), .ctrl("\\")]))
        #expect(KeyEvent.ctrl("C") == .ctrl("c"))
    }

    @Test func cursorKeysInCSIAndSS3FormsWithXtermModifiers() {
        #expect(Self.decode("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D\u{1B}[H\u{1B}[F") == Self.keys([.up, .down, .right, .left, .home, .end]))
        #expect(Self.decode("\u{1B}OA\u{1B}OD\u{1B}OP\u{1B}OS") == Self.keys([.up, .left, .function(1), .function(4)]))
        #expect(Self.decode("\u{1B}[1;5A") == Self.keys([KeyEvent(.up, modifiers: .control)]))
        #expect(Self.decode("\u{1B}[1;2D\u{1B}[1;3C\u{1B}[1;8B") == Self.keys([
            KeyEvent(.left, modifiers: .shift), KeyEvent(.right, modifiers: .alt), KeyEvent(.down, modifiers: [.shift, .alt, .control]),
        ]))
        #expect(Self.decode("\u{1B}[1;5P\u{1B}[Z") == Self.keys([KeyEvent(.function(1), modifiers: .control), .backTab]))
        #expect(KeyEvent(.up, modifiers: .control).description == "Ctrl+Up")
    }

    /// Keys as help lines show them: a letter with Control in capitals
    /// (Control ignores case), other characters as typed (Alt+x is not
    /// Alt+X).
    @Test func aKeysDescriptionIsHowAHelpLineShowsIt() {
        #expect(KeyEvent.ctrl("d").description == "Ctrl+D")
        #expect(KeyEvent.ctrl("D").description == "Ctrl+D")
        #expect(KeyEvent(.character("x"), modifiers: [.control, .alt]).description == "Ctrl+Alt+X")
        #expect(KeyEvent.ctrl("]").description == "Ctrl+]")
        #expect(KeyEvent.ctrl(" ").description == "Ctrl+Space")
        #expect(KeyEvent.alt("x").description == "Alt+x")
        #expect(KeyEvent.alt("X").description == "Alt+X")
        #expect(KeyEvent("q").description == "q")
        #expect(KeyEvent(.delete, modifiers: .control).description == "Ctrl+Delete")
    }

    @Test func tildeKeysAndFunctionKeys() {
        let text = "\u{1B}[2~\u{1B}[3~\u{1B}[5~\u{1B}[6~\u{1B}[1~\u{1B}[4~\u{1B}[15~\u{1B}[24~\u{1B}[3;5~"
        #expect(Self.decode(text) == Self.keys([
            .insert, .delete, .pageUp, .pageDown, .home, .end, .function(5), .function(12), KeyEvent(.delete, modifiers: .control),
        ]))
        // CSI u (fixterms, kitty).
        #expect(Self.decode("\u{1B}[99;5u\u{1B}[13u") == Self.keys([.ctrl("c"), .enter]))
    }

    @Test func escapeBeforeAKeyIsAlt() {
        #expect(Self.decode("\u{1B}x\u{1B}\u{7F}\u{1B}\u{1}\u{1B}é") == Self.keys([.alt("x"), KeyEvent(.backspace, modifiers: .alt), KeyEvent(.character("a"), modifiers: [.control, .alt]), .alt("é")]))
    }

    @Test func aLoneEscapeIsHeldUntilFlush() {
        var decoder = InputDecoder()
        #expect(decoder.decode([0x1B]).isEmpty)
        #expect(decoder.isHolding)
        #expect(decoder.flush() == Self.keys([.escape]))
        #expect(!decoder.isHolding)
        // Two Escapes: the first is a key at once.
        #expect(decoder.decode([0x1B, 0x1B]) == Self.keys([.escape]))
        #expect(decoder.flush() == Self.keys([.escape]))
        // Escape and "[" flushed: Alt+[.
        #expect(decoder.decode(Array("\u{1B}[".utf8)).isEmpty)
        #expect(decoder.flush() == Self.keys([.alt("[")]))
        // A sequence cut between reads waits for its end without a flush.
        #expect(decoder.decode(Array("\u{1B}[1;".utf8)).isEmpty)
        #expect(decoder.decode(Array("5A".utf8)) == Self.keys([KeyEvent(.up, modifiers: .control)]))
    }

    @Test func bracketedPasteIsOnePasteWithLineBreaksAsNewlines() {
        let text = "x\u{1B}[200~hello\r\nworld\r\u{1B}[A\u{1B}[201~y"
        #expect(Self.decode(text) == [.key("x"), .paste("hello\nworld\n\u{1B}[A"), .key("y")])
        // Cut anywhere, even inside the end marker.
        var decoder = InputDecoder()
        var events: [TerminalInput] = []
        for byte in text.utf8 { events += decoder.decode([byte]) }
        #expect(events == [.key("x"), .paste("hello\nworld\n\u{1B}[A"), .key("y")])
        // A flush inside a paste does not end it.
        var waiting = InputDecoder()
        waiting.decode(Array("\u{1B}[200~abc\u{1B}".utf8))
        #expect(waiting.flush().isEmpty)
        #expect(waiting.isInPaste)
        #expect(waiting.decode(Array("[201~".utf8)) == [.paste("abc")])
    }

    @Test func aPasteOverTheLimitIsCutAtACharacterBoundaryAndReported() {
        var decoder = InputDecoder(limits: InputDecoder.Limits(maximumPasteBytes: 5))
        // "abcd" and a 2-byte "é" would be 6 bytes: cut to "abcd".
        let events = decoder.decode(Array("\u{1B}[200~abcdéfgh\u{1B}[201~z".utf8))
        #expect(events == [.paste("abcd"), .key("z")])
        #expect(decoder.takeProblems() == [.pasteTruncated(limit: 5, received: 9)])
        #expect(decoder.problems.isEmpty)
        // Under the limit: nothing reported.
        #expect(decoder.decode(Array("\u{1B}[200~abc\u{1B}[201~".utf8)) == [.paste("abc")])
        #expect(decoder.problems.isEmpty)
    }

    @Test func anOverlongSequenceIsDroppedAndDecodingResynchronises() {
        var decoder = InputDecoder(limits: InputDecoder.Limits(maximumSequenceBytes: 16))
        let long = "\u{1B}[" + String(repeating: "1;", count: 40) + "A"
        let events = decoder.decode(Array((long + "b\u{1B}[B").utf8))
        #expect(events == Self.keys(["b", .down]))
        #expect(decoder.takeProblems() == [.sequenceTooLong(limit: 16)])
        // A byte that cannot be in a sequence ends the skipping too.
        var other = InputDecoder(limits: InputDecoder.Limits(maximumSequenceBytes: 16))
        #expect(other.decode(Array(("\u{1B}[" + String(repeating: "9", count: 30) + "\rq").utf8)) == Self.keys([.enter, "q"]))
    }

    @Test func unknownAndMalformedSequencesGiveNoEvent() {
        // A focus report, a private reply, an unknown final, a sequence
        // broken by a control byte (which is decoded afresh).
        #expect(Self.decode("\u{1B}[I\u{1B}[?1;2c\u{1B}[5x\u{1B}[12\u{7F}a") == Self.keys([.backspace, "a"]))
        #expect(Self.decode("\u{1B}[99999999999999999999~") == [])
    }

    @Test func sgrMouseReports() {
        let events = Self.decode("\u{1B}[<0;10;5M\u{1B}[<0;10;5m\u{1B}[<2;1;1M\u{1B}[<32;11;5M\u{1B}[<35;12;6M\u{1B}[<64;3;4M\u{1B}[<65;3;4M\u{1B}[<16;2;2M\u{1B}[<129;1;1M")
        #expect(events == [
            .mouse(MouseEvent(.press(.left), at: Point(x: 9, y: 4))),
            .mouse(MouseEvent(.release(.left), at: Point(x: 9, y: 4))),
            .mouse(MouseEvent(.press(.right), at: Point(x: 0, y: 0))),
            .mouse(MouseEvent(.drag(.left), at: Point(x: 10, y: 4))),
            .mouse(MouseEvent(.move, at: Point(x: 11, y: 5))),
            .mouse(MouseEvent(.wheelUp, at: Point(x: 2, y: 3))),
            .mouse(MouseEvent(.wheelDown, at: Point(x: 2, y: 3))),
            .mouse(MouseEvent(.press(.left), at: Point(x: 1, y: 1), modifiers: .control)),
            .mouse(MouseEvent(.press(.other(9)), at: Point(x: 0, y: 0))),
        ])
    }

    @Test func modesTurnOnAndOffInReverseOrder() {
        let on = String(decoding: TerminalModes.standard.union(.mouse).enterSequence, as: UTF8.self)
        let off = String(decoding: TerminalModes.standard.union(.mouse).leaveSequence, as: UTF8.self)
        #expect(on == "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?2004h\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1006h")
        #expect(off == "\u{1B}[0m\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l\u{1B}[?2004l\u{1B}[?25h\u{1B}[?1049l")
    }
}
