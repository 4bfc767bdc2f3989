import Foundation

/// Adds a new component's stored property to its parent component's
/// struct, when the parent's file is simple enough to edit without a
/// parser: one component struct, no multi-line or raw string literal, no
/// property of the same name. Otherwise it says why and gives the line to
/// add by hand.
enum ParentEditor {
    /// What to do with the parent's file.
    enum Plan: Equatable {
        /// The parent's new text, with `line` inserted in `type`'s body.
        case edit(text: String, type: String, line: String)
        /// The file could not be edited safely, for `reason`; `line` is to
        /// be added to the stored properties of `type` (when known).
        case manual(reason: String, type: String?, line: String)
    }

    /// Parents larger than this are left alone.
    static let byteLimit = 1 << 20

    /// The plan for adding `declaration` (such as `let profile =
    /// ProfileComponent()`, without indentation) as `property` to the one
    /// component struct in `text`.
    static func plan(for text: String, property: String, declaration: String) -> Plan {
        if text.utf8.count > byteLimit {
            return .manual(reason: "the file is larger than \(byteLimit) bytes", type: nil, line: declaration)
        }
        if text.contains("\"\"\"") || text.contains("#\"") {
            return .manual(reason: "it has a multi-line or raw string literal, which this tool does not parse", type: nil, line: declaration)
        }
        var lines = text.components(separatedBy: "\n")
        let scanned = scan(lines)
        let structs = scanned.indices.filter { scanned[$0].start == 0 && componentStructName(lines[$0]) != nil }
        guard structs.count == 1, let declarationLine = structs.first, let type = componentStructName(lines[declarationLine]) else {
            let reason = structs.isEmpty ? "no `struct NAME: ...Component {` declaration was found in it" : "it declares \(structs.count) component structs"
            return .manual(reason: reason, type: nil, line: declaration)
        }
        guard scanned[declarationLine].end == 1 else {
            return .manual(reason: "the opening brace of \(type) is not on its declaration line", type: type, line: declaration)
        }
        guard let closing = scanned.indices.first(where: { $0 > declarationLine && scanned[$0].end == 0 }) else {
            return .manual(reason: "the end of \(type) was not found", type: type, line: declaration)
        }
        var insertAfter = declarationLine
        var indentation = String(lines[declarationLine].prefix(while: { $0 == " " || $0 == "\t" })) + "    "
        for index in (declarationLine + 1)..<closing where scanned[index].start == 1 && scanned[index].end == 1 && scanned[index].balanced {
            guard let name = storedPropertyName(lines[index]) else { continue }
            if name == property {
                return .manual(reason: "\(type) already has a property named \(property)", type: type, line: declaration)
            }
            insertAfter = index
            indentation = String(lines[index].prefix(while: { $0 == " " || $0 == "\t" }))
        }
        let line = indentation + declaration
        lines.insert(line, at: insertAfter + 1)
        return .edit(text: lines.joined(separator: "\n"), type: type, line: line)
    }

    /// The struct's name when `line` declares a struct conforming to a
    /// `...Component` protocol on that line.
    static func componentStructName(_ line: String) -> String? {
        let words = code(of: line).split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard let index = words.firstIndex(of: "struct"), index + 1 < words.count,
              words[..<index].allSatisfy({ $0.hasPrefix("@") || ["public", "internal", "private", "fileprivate", "package"].contains($0) })
        else { return nil }
        let name = words[index + 1].prefix(while: { $0.isLetter || $0.isNumber || $0 == "_" })
        let conformances = words[(index + 1)...].joined(separator: " ").drop(while: { $0 != ":" }).prefix(while: { $0 != "{" })
        guard !name.isEmpty, conformances.contains("Component") else { return nil }
        return String(name)
    }

    /// The name of the stored property `line` declares (`let x`, `var x:`,
    /// `@Store var x =`), or `nil` for anything else, including computed
    /// properties (a `{` on the line).
    static func storedPropertyName(_ line: String) -> String? {
        let text = code(of: line)
        if text.contains("{") { return nil }
        let words = withoutAttributes(text).split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard let index = words.firstIndex(where: { $0 == "let" || $0 == "var" }), index + 1 < words.count,
              words[..<index].allSatisfy({ ["public", "internal", "private", "fileprivate", "package", "nonisolated", "lazy", "weak", "unowned"].contains($0) || $0.hasPrefix("private(") })
        else { return nil }
        let name = words[index + 1].prefix(while: { $0.isLetter || $0.isNumber || $0 == "_" })
        return name.isEmpty ? nil : String(name)
    }

    /// `text` without its leading attributes, arguments included
    /// (`@Store(persistedAs: "home") var state` → `var state`).
    static func withoutAttributes(_ text: String) -> Substring {
        var rest = text.drop(while: { $0 == " " || $0 == "\t" })
        while rest.first == "@" {
            rest = rest.dropFirst().drop(while: { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." })
            if rest.first == "(" {
                var depth = 0
                var inString = false
                while let character = rest.first {
                    rest = rest.dropFirst()
                    if character == "\"" { inString.toggle() }
                    if inString { continue }
                    if character == "(" { depth += 1 }
                    if character == ")" { depth -= 1 }
                    if depth == 0 { break }
                }
            }
            rest = rest.drop(while: { $0 == " " || $0 == "\t" })
        }
        return rest
    }

    /// A line's brace depth at its start and end, and whether its
    /// parentheses and brackets balance.
    struct Line {
        var start: Int
        var end: Int
        var balanced: Bool
    }

    /// Brace depths line by line, ignoring braces in comments and
    /// single-line string literals (the caller refused the other kinds).
    static func scan(_ lines: [String]) -> [Line] {
        var depth = 0
        var inBlockComment = false
        var result: [Line] = []
        for line in lines {
            let start = depth
            var parentheses = 0
            var inString = false
            var escaped = false
            var previous: Character = " "
            characters: for character in line {
                let before = previous
                previous = character
                if inBlockComment {
                    if before == "*", character == "/" { inBlockComment = false; previous = " " }
                    continue
                }
                if inString {
                    if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
                    continue
                }
                switch character {
                case "\"": inString = true
                case "/" where before == "/": break characters
                case "*" where before == "/": inBlockComment = true; previous = " "
                case "{": depth += 1
                case "}": depth -= 1
                case "(", "[": parentheses += 1
                case ")", "]": parentheses -= 1
                default: break
                }
            }
            result.append(Line(start: start, end: depth, balanced: parentheses == 0 && !inString))
        }
        return result
    }

    /// `line` without a trailing `//` comment (outside string literals).
    static func code(of line: String) -> String {
        var inString = false
        var escaped = false
        var previous: Character = " "
        var index = line.startIndex
        while index < line.endIndex {
            let character = line[index]
            if inString {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
            } else if character == "\"" {
                inString = true
            } else if character == "/", previous == "/" {
                return String(line[..<line.index(before: index)])
            }
            previous = character
            index = line.index(after: index)
        }
        return line
    }
}
