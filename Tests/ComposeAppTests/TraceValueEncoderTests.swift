@testable import ComposeApp
import Foundation
import Testing

/// The trace recorder's own JSON encoder writes what Foundation's
/// `JSONEncoder` writes with `.sortedKeys` and `.withoutEscapingSlashes`
/// (the recorder no longer loads Foundation: docs/footprint.md).
@Suite struct TraceValueEncoderTests {
    struct Point: Codable, Equatable {
        var x: Int
        var y: Double
    }

    enum Shape: Codable, Equatable {
        case circle(center: Point, radius: Double)
        case polygon([Point])
        case empty
    }

    struct Drawing: Codable, Equatable {
        var title: String
        var shapes: [Shape]
        var tags: [String: Int]
        var note: String?
        var visible: Bool
        var small: UInt8
        var big: Int64
        var ratio: Float
        var nested: [[Int?]]
    }

    /// A class whose `encode(to:)` writes its superclass's part under
    /// `super`.
    class Base: Encodable {
        var base = 1

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(base, forKey: .base)
        }

        enum CodingKeys: String, CodingKey { case base }
    }

    final class Derived: Base {
        var derived = "d"

        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(derived, forKey: .derived)
            try super.encode(to: container.superEncoder())
        }

        enum Keys: String, CodingKey { case derived }
    }

    static func foundation(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test func aValueOfNestedKeyedUnkeyedAndSingleValuesIsWrittenAsJSONEncoderWritesIt() throws {
        let drawing = Drawing(
            title: "a \"quoted\" /path/\n\ttab é 🦀 \u{1}",
            shapes: [.circle(center: Point(x: 1, y: 2.5), radius: 3), .polygon([Point(x: -4, y: 0.1)]), .empty],
            tags: ["zeta": 1, "alpha": 2, "Beta": 3],
            note: nil,
            visible: true,
            small: 255,
            big: -9_000_000_000,
            ratio: 0.1,
            nested: [[1, nil], [], [3]]
        )
        let ours = try TraceValueEncoder.encode(drawing)
        #expect(ours == (try Self.foundation(drawing)))
        // And it reads back as the same value.
        #expect(try JSONDecoder().decode(Drawing.self, from: Data(ours.utf8)) == drawing)
    }

    @Test func scalarsAtTheTopLevelAndNumbersWithoutAFraction() throws {
        for value in [2.0, 1.5, -0.25, 1e21, 123_456_789.0] {
            #expect(try TraceValueEncoder.encode(value) == (try Self.foundation(value)), "\(value)")
        }
        #expect(try TraceValueEncoder.encode("plain") == #""plain""#)
        #expect(try TraceValueEncoder.encode(42) == "42")
        #expect(try TraceValueEncoder.encode(false) == "false")
        #expect(try TraceValueEncoder.encode([Int?.none, 1]) == "[null,1]")
        #expect(try TraceValueEncoder.encode(UInt64.max) == "1.8446744073709552e+19")
    }

    @Test func aSuperclassPartGoesUnderSuper() throws {
        #expect(try TraceValueEncoder.encode(Derived()) == #"{"derived":"d","super":{"base":1}}"#)
        #expect(try TraceValueEncoder.encode(Derived()) == (try Self.foundation(Derived())))
    }

    @Test func aNumberJSONCannotHoldIsAnError() {
        #expect(throws: EncodingError.self) { try TraceValueEncoder.encode(Double.nan) }
        #expect(throws: EncodingError.self) { try TraceValueEncoder.encode([Point(x: 1, y: .infinity)]) }
    }
}

/// A second reader's attempts (issue #33's review): the corners where a
/// hand-written JSON writer most often parts from `JSONEncoder`.
extension TraceValueEncoderTests {
    @Test(arguments: [
        -0.0, 0.1 + 0.2, 1e15, 1e16, 1e17, 9_007_199_254_740_992, -1e15, 1e-7, .leastNonzeroMagnitude,
        .greatestFiniteMagnitude, -123_456_789_012_345.0, 0.5,
    ])
    func aDoubleIsWrittenAsJSONEncoderWritesIt(value: Double) throws {
        let ours = try TraceValueEncoder.encode(value), theirs = try Self.foundation(value)
        #expect(ours == theirs)
        let inArray = try TraceValueEncoder.encode([value]), theirsInArray = try Self.foundation([value])
        #expect(inArray == theirsInArray)
    }

    @Test(arguments: [Float(0.1), 16_777_216, 3.4028235e38, 1e-10, -0.0, 1.5])
    func aFloatIsWrittenAsJSONEncoderWritesIt(value: Float) throws {
        let ours = try TraceValueEncoder.encode(value), theirs = try Self.foundation(value)
        #expect(ours == theirs)
    }

    @Test func everyControlCharacterAndDeleteAreWrittenAsJSONEncoderWritesThem() throws {
        let text = String(decoding: Array(0...0x7F as ClosedRange<UInt8>), as: UTF8.self) + "\u{2028}\u{2029}/é"
        let ours = try TraceValueEncoder.encode(text), theirs = try Self.foundation(text)
        #expect(ours == theirs)
    }

    @Test func integerKeyedDictionariesAndEmptyContainers() throws {
        struct Box: Codable {
            var byNumber: [Int: String] = [10: "ten", 2: "two", -1: "minus one"]
            var empty: [String: Int] = [:]
            var none: [Int] = []
            var deep: [String: [String: Int?]] = ["b": ["y": nil, "x": 1], "a": [:]]
            var extremes: [Int] = [Int.min, Int.max]
        }
        #expect(try TraceValueEncoder.encode(Box()) == (try Self.foundation(Box())))
    }
}
