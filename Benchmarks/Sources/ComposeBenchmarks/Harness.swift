import Foundation

// A small release-mode harness: every variant of a case is timed in the same
// rounds, interleaved (round 1: A, B, C; round 2: A, B, C; ...), so that a
// noisy neighbour slows all of them alike; each variant's result is the
// median per-operation time over the rounds.

/// Where benchmarked closures put their work, so the optimizer cannot drop
/// it. Its `sum` is printed at the end as a checksum.
///
/// `@unchecked Sendable` so that one `@Sendable` observer closure can be
/// handed to Compose (whose observers are `@MainActor`, hence Sendable),
/// OpenCombine and the closure array alike; it is only ever touched on the
/// main thread.
final class Sink: @unchecked Sendable {
    var sum = 0
}

/// One contender of a case.
struct Variant {
    let name: String
    /// Operations per batch; `nil` calibrates it so a batch lasts about
    /// ``Harness/batchTarget``.
    let operations: Int?
    /// Runs a batch of `operations` operations and returns how long the timed
    /// part took. Setup and teardown stay outside ``timed(_:)``.
    let run: @MainActor (_ operations: Int) -> Duration

    init(_ name: String, operations: Int? = nil, run: @escaping @MainActor (_ operations: Int) -> Duration) {
        self.name = name
        self.operations = operations
        self.run = run
    }
}

/// Times `body` with the continuous clock.
@inline(__always)
func timed(_ body: () -> Void) -> Duration {
    let clock = ContinuousClock()
    let start = clock.now
    body()
    return start.duration(to: clock.now)
}

extension Duration {
    var nanoseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    }
}

enum Harness {
    /// How long a calibrated batch should take.
    static let batchTarget = Duration.milliseconds(20)
    /// Rounds per case (each variant runs one batch per round).
    static let rounds = 15

    /// The median nanoseconds per operation of each variant, in order.
    @MainActor
    static func measure(_ variants: [Variant], rounds: Int = rounds) -> [Double] {
        // Warm up and calibrate: grow the batch until it lasts long enough.
        let sizes = variants.map { variant -> Int in
            if let fixed = variant.operations {
                _ = variant.run(fixed)
                return fixed
            }
            var operations = 1
            while true {
                let elapsed = variant.run(operations).nanoseconds
                if elapsed >= batchTarget.nanoseconds { break }
                let scale = elapsed > 0 ? batchTarget.nanoseconds / elapsed : 16
                operations = Int(Double(operations) * Swift.min(16, Swift.max(2, scale * 1.1)))
            }
            _ = variant.run(operations)
            return operations
        }
        var samples = Array(repeating: [Double](), count: variants.count)
        for _ in 0..<rounds {
            for (index, variant) in variants.enumerated() {
                let elapsed = variant.run(sizes[index])
                samples[index].append(elapsed.nanoseconds / Double(sizes[index]))
            }
        }
        return samples.map(median)
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

// MARK: Reporting

/// Tells the terminal what is being measured (on stderr: stdout is the report).
func progress(_ step: String) {
    FileHandle.standardError.write(Data("measuring \(step)...\n".utf8))
}

/// A Markdown table whose columns are padded to line up in a terminal.
struct Table {
    let header: [String]
    /// How many leading columns hold text (left-aligned); the rest are
    /// numbers (right-aligned).
    let textColumns: Int
    var rows: [[String]] = []

    init(textColumns: Int = 1, _ header: String...) {
        self.header = header
        self.textColumns = textColumns
    }

    mutating func add(_ cells: String...) {
        rows.append(cells)
    }

    var markdown: String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            let padded = cells.enumerated().map { column, cell in
                // Text left, numbers right.
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column < textColumns ? cell + padding : padding + cell
            }
            return "| " + padded.joined(separator: " | ") + " |"
        }
        let rule = "|" + widths.enumerated().map { column, width in
            column < textColumns ? String(repeating: "-", count: width + 2) : String(repeating: "-", count: width + 1) + ":"
        }.joined(separator: "|") + "|"
        return ([line(header), rule] + rows.map(line)).joined(separator: "\n")
    }
}

enum Format {
    static let none = "—"

    static func ns(_ value: Double) -> String {
        value < 10 ? String(format: "%.2f", value) : value < 100 ? String(format: "%.1f", value) : String(format: "%.0f", value)
    }

    static func ratio(_ value: Double) -> String {
        value < 10 ? String(format: "%.2fx", value) : String(format: "%.1fx", value)
    }

    /// A difference with its sign, like `ns(_:)` otherwise.
    static func signed(_ value: Double) -> String {
        (value < 0 ? "−" : "+") + ns(abs(value))
    }

    static func count(_ value: Int) -> String {
        let digits = String(value)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return result
    }
}

/// A goal checked at the end of the run.
struct Target {
    let description: String
    let measured: String
    let passed: Bool

    var line: String {
        "- \(passed ? "PASS" : "FAIL"): \(description) (measured \(measured))"
    }
}

// MARK: Machine

enum Machine {
    /// The first line of a command's standard output, or `nil`.
    static func output(of arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do {
            try process.run()
        } catch {
            return nil
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self)
            .split(separator: "\n").first.map(String.init)
    }

    static var cpuModel: String {
        guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
              let line = info.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
              let colon = line.firstIndex(of: ":")
        else { return "unknown CPU" }
        return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }

    static var processorCount: String {
        output(of: ["nproc"]) ?? String(ProcessInfo.processInfo.activeProcessorCount)
    }

    static var swiftVersion: String {
        output(of: ["swift", "--version"]) ?? "unknown"
    }

    static var utcDate: String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date())
    }
}
