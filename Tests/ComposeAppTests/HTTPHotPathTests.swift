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
}
