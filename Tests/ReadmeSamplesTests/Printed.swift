import ComposeApp

/// The README's samples call `print`. This module-level `print` shadows the
/// standard one inside this test target, so the samples compile unchanged and
/// tests assert what they printed. Suites that read it are `.serialized`.
@MainActor
enum Printed {
    static var lines: [String] = []

    static func take() -> [String] {
        defer { lines = [] }
        return lines
    }
}

@MainActor
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    Printed.lines.append(items.map { "\($0)" }.joined(separator: separator))
}
