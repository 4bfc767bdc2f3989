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

    @Test(arguments: [
        (#"{"v":2,"command":"tree"}"#, InspectionFailure.Code.unsupportedVersion),
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

    @Test(arguments: ["", "plain", "\"", "\"at the start", "at the end\n", "\u{7F}\u{1F}", "é\"🎉\\x", String(repeating: "a\tb", count: 100)])
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

    @Test func textLinesFitEightyColumns() {
        let long = String(repeating: "x", count: 200)
        #expect(InspectionText.fit(long).count == 80)
        #expect(InspectionText.fit(long).hasSuffix("…"))
        #expect(InspectionText.fit("short") == "short")
        #expect(InspectionText.duration(.seconds(3725)) == "1h 02m")
        #expect(InspectionText.duration(.seconds(187)) == "3m 07s")
        #expect(InspectionText.duration(.milliseconds(12_500)) == "12.5s")
        #expect(InspectionText.duration(.milliseconds(12)) == "12ms")
        #expect(InspectionText.bytes(512) == "512 B")
        #expect(InspectionText.bytes(12 << 10) == "12 KiB")
    }
}
