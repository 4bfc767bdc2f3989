@testable import ComposeApp
import Testing

/// The inspection protocol's requests and JSON (docs/inspection-protocol.md),
/// without a socket.
@Suite struct InspectionProtocolTests {
    @Test func aJSONRequestNamesVersionCommandFormatAndArguments() throws {
        let follow = try InspectionRequest.parse(#"{"v":1,"command":"follow","path":"app.server","format":"text"}"#)
        #expect(follow == InspectionRequest(command: .follow, wantsText: true, path: "app.server"))
        let open = try InspectionRequest.parse(#" {"command":"open","v":1,"route":"auth/signUp"}"#)
        #expect(open == InspectionRequest(command: .open, route: "auth/signUp"))
        let counting = try InspectionRequest.parse(#"{"v":1,"command":"counting","on":false}"#)
        #expect(counting.on == false)
    }

    @Test func wordsAskForTextUnlessTheyEndWithJSON() throws {
        #expect(try InspectionRequest.parse("tree") == InspectionRequest(command: .tree, wantsText: true))
        #expect(try InspectionRequest.parse("loop --json") == InspectionRequest(command: .loop))
        #expect(try InspectionRequest.parse("follow app.server") == InspectionRequest(command: .follow, wantsText: true, path: "app.server"))
        #expect(try InspectionRequest.parse("counting off").on == false)
    }

    @Test func aRequestNamesItsWidthAndHowFollowShowsTimes() throws {
        #expect(try InspectionRequest.parse("tree").width == 80)
        #expect(try InspectionRequest.parse(#"{"v":1,"command":"tree","format":"text","width":0}"#).width == 0)
        #expect(try InspectionRequest.parse("tree --width 132").width == 132)
        #expect(try InspectionRequest.parse("tree --width=0").width == 0)
        #expect(try InspectionRequest.parse("follow").time == .relative)
        #expect(try InspectionRequest.parse(#"{"v":1,"command":"follow","time":"utc"}"#).time == .utc)
        let follow = try InspectionRequest.parse("follow --utc app.server --width 40")
        #expect(follow == InspectionRequest(command: .follow, wantsText: true, path: "app.server", width: 40, time: .utc))
    }

    @Test(arguments: [
        (#"{"v":2,"command":"tree"}"#, InspectionFailure.Code.unsupportedVersion),
        (#"{"v":1,"command":"tree","width":-1}"#, .badRequest),
        (#"{"v":1,"command":"tree","width":"wide"}"#, .badRequest),
        (#"{"v":1,"command":"tree","width":100000}"#, .badRequest),
        (#"{"v":1,"command":"follow","time":"local"}"#, .badRequest),
        ("tree --width", .badRequest),
        ("tree --width x", .badRequest),
        ("tree --bogus", .badRequest),
        (#"{"command":"tree"}"#, .badRequest),
        (#"{"v":1,"command":"dance"}"#, .unknownCommand),
        ("dance", .unknownCommand),
        (#"{"v":1,"command":"tree""#, .badRequest),
        (#"{"v":1,"command":"open"}"#, .badRequest),
        (#"{"v":1,"command":"follow","path":3}"#, .badRequest),
        ("tree app", .badRequest),
        ("", .badRequest),
    ])
    func aBadRequestIsAnErrorWithACode(line: String, code: InspectionFailure.Code) {
        #expect(throws: InspectionFailure.self) { try InspectionRequest.parse(line) }
        do {
            _ = try InspectionRequest.parse(line)
        } catch {
            #expect(error.code == code, "\(error.message)")
        }
    }

    @Test func anUnsupportedVersionReplyListsTheVersionsSpoken() {
        let reply = InspectionFailure(.unsupportedVersion, "no").reply.text
        #expect(reply == #"{"v":1,"ok":false,"error":{"code":"unsupportedVersion","message":"no"},"versions":[1]}"#)
    }

    @Test func jsonTextEscapesWhatMustBeEscapedAndParsesBack() throws {
        let value = InspectionJSON.object([
            "text": .string("a \"quote\", a \\ and\na newline\t\u{01} é 🎉"),
            "n": .int(-12),
            "x": .double(2.5),
            "whole": .double(3),
            "list": .array([.bool(true), .null]),
            "absent": nil,
        ])
        let text = value.text
        #expect(text == #"{"text":"a \"quote\", a \\ and\na newline\t\u0001 é 🎉","n":-12,"x":2.5,"whole":3,"list":[true,null]}"#)
        #expect(!text.contains("\n"))
        #expect(try InspectionJSON.parse(text) == .object([
            "text": .string("a \"quote\", a \\ and\na newline\t\u{01} é 🎉"),
            "n": .int(-12),
            "x": .double(2.5),
            "whole": .int(3),
            "list": .array([.bool(true), .null]),
        ]))
    }

    @Test(arguments: ["", "plain", "\"", "\"at the start", "at the end\n", "\u{7F}\u{1F}", "\u{8}\u{C}\u{0}", "é\"🎉\\x", String(repeating: "a\tb", count: 100)])
    func aStringParsesBackAsItWasWritten(_ string: String) throws {
        let text = InspectionJSON.string(string).text
        #expect(!text.contains("\n"))
        #expect(try InspectionJSON.parse(text) == .string(string))
    }

    @Test func theParserReadsUnicodeEscapesAndRefusesWhatIsNotJSON() throws {
        #expect(try InspectionJSON.parse(#""\u00e9\ud83c\udf89""#) == .string("é🎉"))
        #expect(try InspectionJSON.parse(" [ 1 , 2.5e1 , {} ] ") == .array([.int(1), .double(25), .object([])]))
        for bad in ["", "{", "[1,]", "{\"a\" 1}", "tru", "\"unterminated", "1 2", String(repeating: "[", count: 40) + String(repeating: "]", count: 40)] {
            #expect(throws: InspectionJSON.ParseError.self, "\(bad)") { try InspectionJSON.parse(bad) }
        }
    }

    /// A surrogate that is not half of a pair (a request or a trace line
    /// from outside) reads as U+FFFD; it once made the pair's arithmetic
    /// overflow, which stopped the app.
    @Test func aBrokenSurrogatePairReadsAsAReplacementCharacterWithoutStoppingTheApp() throws {
        #expect(try InspectionJSON.parse(#""\ud800\u0041""#) == .string("\u{FFFD}A"))
        #expect(try InspectionJSON.parse(#""\ud800\ud800\udc00""#) == .string("\u{FFFD}\u{10000}"))
        #expect(try InspectionJSON.parse(#""\udc00x""#) == .string("\u{FFFD}x"))
        #expect(try InspectionJSON.parse(#""\ud800""#) == .string("\u{FFFD}"))
    }

    @Test func textLinesFitTheRequestsWidthAndAWidthOfZeroNeverCuts() {
        let long = String(repeating: "x", count: 200)
        #expect(InspectionText.fit(long, width: 80).count == 80)
        #expect(InspectionText.fit(long, width: 80).hasSuffix("…"))
        #expect(InspectionText.fit(long, width: 120).count == 120)
        #expect(InspectionText.fit(long, width: 0) == long)
        #expect(InspectionText.fit("short", width: 80) == "short")
        #expect(InspectionText.duration(.seconds(3725)) == "1h 02m")
        #expect(InspectionText.duration(.seconds(187)) == "3m 07s")
        #expect(InspectionText.duration(.milliseconds(12_500)) == "12.5s")
        #expect(InspectionText.duration(.milliseconds(12)) == "12ms")
        #expect(InspectionText.bytes(512) == "512 B")
        #expect(InspectionText.bytes(12 << 10) == "12 KiB")
    }

    /// Follow's times: since the follow began, to the millisecond, aligned;
    /// or UTC wall-clock time, ISO 8601.
    @Test func followTimesAreRelativeMillisecondsOrUTC() {
        #expect(InspectionText.relative(.zero) == "  +0.000s")
        #expect(InspectionText.relative(.milliseconds(1_234_5) / 10) == "  +1.234s")
        #expect(InspectionText.relative(.seconds(12) + .milliseconds(345)) == " +12.345s")
        #expect(InspectionText.relative(.seconds(754) + .milliseconds(250)) == "+754.250s")
        #expect(InspectionText.relative(.seconds(-1)) == "  +0.000s")
        #expect(InspectionText.utc(.zero) == "1970-01-01T00:00:00.000Z")
        // 2024-02-29T23:59:59.999Z, a leap day.
        #expect(InspectionText.utc(.seconds(1_709_251_199) + .milliseconds(999)) == "2024-02-29T23:59:59.999Z")
        #expect(InspectionText.utc(.seconds(1_748_781_296) + .nanoseconds(789_000_001)) == "2025-06-01T12:34:56.789Z")
        #expect(InspectionText.utc(.seconds(-1)) == "1969-12-31T23:59:59.000Z")
        let clock = InspectionText.Clock(start: .seconds(100), wallStart: .seconds(1_748_781_296), format: .utc)
        #expect(clock.stamp(.seconds(101) + .milliseconds(500)) == "2025-06-01T12:34:57.500Z")
        let relative = InspectionText.Clock(start: .seconds(100), wallStart: .zero, format: .relative)
        let event = AppEvent(time: .seconds(102), kind: .sent, path: "app.said", value: "hi")
        #expect(InspectionText.event(event, clock: relative, width: 0) == "  +2.000s app.said sent hi")
    }

    @Test func aWriteIsDescribedBySizeAndTheStartOfItsText() {
        func describe(_ bytes: [UInt8]) -> String {
            bytes.withUnsafeBytes { TCPConnection.describeWrite($0) }
        }
        #expect(describe(Array("Hello, ada!\n".utf8)) == #"12 bytes "Hello, ada!\n""#)
        #expect(describe([0x41]) == #"1 byte "A""#)
        #expect(describe([0x00, 0xFF, 0x10]) == "3 bytes")
        #expect(describe([]) == "0 bytes")
        let long = describe(Array(String(repeating: "é", count: 40).utf8))
        #expect(long == "80 bytes \"" + String(repeating: "é", count: 24) + "\"…")
    }
}
