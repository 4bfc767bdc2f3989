import PropertyBased
import Testing
@testable import ComposeHTTP

/// The hot path's hand-made helpers (Benchmarks/scripts/profile_http.sh
/// showed the library calls they replace) say what those calls said.
@MainActor
@Suite struct HTTPHotPathTests {
    @Test func pathSegmentsAreWhatSplitAtSlashGives() {
        for path in ["/", "", "/echo", "//a///b/", "/a/b/c", "a/b", "/hello/grace%20hopper", "/é/ü/", "/x?y"] {
            let expected = path[...].split(separator: "/", omittingEmptySubsequences: true)
            #expect(HTTPRoutes.segments(of: path[...]) == expected, "\(path)")
        }
    }

    @Test func aTargetSplitsIntoPathAndQueryOnItsFirstQuestionMark() {
        let cases: [(String, String, String?)] = [
            ("/", "/", nil),
            ("/a/b?x=1&y=2", "/a/b", "x=1&y=2"),
            ("/a?", "/a", ""),
            ("/a?b?c", "/a", "b?c"),
            ("/é?ü", "/é", "ü"),
            ("http://example.com/p/q?r", "/p/q", "r"),
            ("http://example.com", "", nil),
            ("*", "*", nil),
        ]
        for (target, path, query) in cases {
            let (foundPath, foundQuery) = HTTPConnection.split(target)
            #expect(foundPath == path[...], "\(target)")
            #expect(foundQuery.map(String.init) == query, "\(target)")
        }
    }

    @Test func decimalsAreWrittenWithoutAString() {
        for value in [0, 1, 9, 10, 99, 100, 200, 404, 999, 1000, 65_536, 1 << 20, Int.max] {
            var buffer: [UInt8] = []
            HTTPResponseEncoder.appendDecimal(value, to: &buffer)
            #expect(String(decoding: buffer, as: UTF8.self) == String(value))
        }
    }

    /// A parsed field value made on the fast path (visible ASCII) is the
    /// field HTTPTypes' lenient initialiser makes: same string, same bytes;
    /// for any bytes, plain or not (controls, tabs, spaces at either end,
    /// bytes past ASCII, broken UTF-8).
    @Test func aParsedFieldIsTheLenientField() async {
        // Bytes drawn from classes the fast path tells apart.
        let byte = Gen.oneOf(
            Gen.int(in: 0x21...0x7E), Gen.int(in: 0x21...0x7E), Gen.int(in: 0x21...0x7E),
            Gen.always(0x20), Gen.always(0x09), Gen.int(in: 0...0x1F), Gen.always(0x7F), Gen.int(in: 0x80...0xFF)
        ).map { UInt8($0) }
        await propertyCheck(count: 2000, input: byte.array(of: 0...24), Gen.int(in: 0...3)) { bytes, offset in
            // A slice that does not start at 0, as the parser's do.
            let whole = Array(repeating: UInt8(ascii: "x"), count: offset) + bytes
            let value = whole[offset...]
            let fast = HTTPField(name: .accept, parsedValue: value)
            let lenient = HTTPField(name: .accept, lenientValue: value)
            #expect(fast.value == lenient.value, "\(bytes)")
            #expect(fast.withUnsafeBytesOfValue(Array.init) == lenient.withUnsafeBytesOfValue(Array.init), "\(bytes)")
        }
    }

    @Test func onlyVisibleASCIIWithInnerBlanksIsPlain() {
        #expect(HTTPField.isPlainValue(Array("localhost:8080".utf8)[...]))
        #expect(HTTPField.isPlainValue(Array("a b\tc".utf8)[...]))
        #expect(!HTTPField.isPlainValue([][...]))
        #expect(!HTTPField.isPlainValue(Array(" a".utf8)[...]))
        #expect(!HTTPField.isPlainValue(Array("a ".utf8)[...]))
        #expect(!HTTPField.isPlainValue(Array("a\u{1}b".utf8)[...]))
        #expect(!HTTPField.isPlainValue(Array("café".utf8)[...]))
    }
}
