import ComposeApp
import ComposePersistence
import Foundation

// Saving a 1 MB state crash-safely: FileStateStorage (temporary file,
// write, fsync, rename, fsync of the directory) against Foundation's
// `Data.write(to:options: .atomic)` (temporary file and rename, no fsync)
// followed by the same two fsyncs, the least a crash-safe save costs. Both
// write to the same directory under /tmp, interleaved; the disk's fsync
// dominates both. A second row adds the JSON encoding: the coordinator's
// save (StatePersistence: envelope, sorted keys) against JSONEncoder's
// default output written the same way as the baseline.

/// One record of the state.
struct Record: Codable {
    var id: Int
    var name: String
    var tags: [String]
    var score: Double
}

struct PersistResult {
    let bytes: Int
    /// Milliseconds per save of the bytes.
    let storage: Double
    let atomicWrite: Double
    /// Milliseconds per save of the state, encoding included.
    let coordinator: Double
    let encodeAndWrite: Double
}

enum PersistBenchmarks {
    @MainActor
    static func run() throws -> PersistResult {
        let directory = NSTemporaryDirectory() + "compose-persist-bench-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }

        // ~1 MB of JSON.
        let state = (0..<11_500).map { Record(id: $0, name: "record \($0)", tags: ["alpha", "beta", "gamma"], score: Double($0) / 7) }
        let bytes = try StateEnvelope.encode(state)
        let data = Data(bytes)
        let storage = FileStateStorage(directory: directory)
        // No scheduler: every change is saved at once.
        let persistence = StatePersistence(storage: storage, context: AppContext(name: "bench"))
        let baselineURL = URL(fileURLWithPath: directory + "/baseline.json")
        let failures = Sink()

        func atomicWrite(_ data: Data) {
            do {
                try data.write(to: baselineURL, options: .atomic)
            } catch {
                failures.sum += 1
            }
            for path in [baselineURL.path, directory] {
                let fd = open(path, O_RDONLY)
                if fd < 0 || fsync(fd) != 0 { failures.sum += 1 }
                close(fd)
            }
        }

        let results = Harness.measure([
            Variant("FileStateStorage.save", operations: 2) { operations in
                timed {
                    for _ in 0..<operations {
                        do { try storage.save(bytes, key: "bytes") } catch { failures.sum += 1 }
                    }
                }
            },
            Variant("Data.write(.atomic) + fsyncs", operations: 2) { operations in
                timed { for _ in 0..<operations { atomicWrite(data) } }
            },
            Variant("StatePersistence save", operations: 2) { operations in
                timed { for _ in 0..<operations { persistence.stateDidChange(state, key: "state") } }
            },
            Variant("JSONEncoder + Data.write(.atomic) + fsyncs", operations: 2) { operations in
                timed {
                    for _ in 0..<operations {
                        do { atomicWrite(try JSONEncoder().encode(state)) } catch { failures.sum += 1 }
                    }
                }
            },
        ])
        if failures.sum > 0 { throw CocoaError(.fileWriteUnknown) }
        return PersistResult(
            bytes: bytes.count,
            storage: results[0] / 1e6, atomicWrite: results[1] / 1e6,
            coordinator: results[2] / 1e6, encodeAndWrite: results[3] / 1e6
        )
    }
}
