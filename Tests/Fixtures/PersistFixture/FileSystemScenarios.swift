import ComposeApp
import ComposePersistence
#if canImport(Glibc)
import Glibc
#endif

/// `seed`, `diskfull` and `readonly`: what a full or read-only file system
/// does to saves, step by step, printed.
@MainActor
enum FileSystemScenarios {
    static func run(_ mode: String) {
        switch mode {
        case "seed":
            save(Counter(number: 1, paddingBytes: 100))
        case "diskfull":
            save(Counter(number: 1, paddingBytes: 100))
            report()
            // Larger than the file system: the write fails with ENOSPC.
            save(Counter(number: 2, paddingBytes: 1 << 20))
            report()
            // Small again: the retry succeeds.
            save(Counter(number: 3, paddingBytes: 100))
            report()
        case "readonly":
            let restored = persistence.restore(Counter.self, key: "counter")
            say("restored \(restored.map { String($0.number) } ?? "none")")
            save(Counter(number: 2, paddingBytes: 100))
            report()
        default:
            say("unknown mode \(mode)")
        }
        Application.shutdown()
    }

    /// Changes the state and saves it at once.
    private static func save(_ counter: Counter) {
        persistence.stateDidChange(counter, key: "counter")
        persistence.flush()
    }

    /// What the file holds, the temporary files left, and what is unsaved.
    private static func report() {
        let storage = persistence.storage
        let onDisk = (try? storage.load(key: "counter")).flatMap { $0 }.flatMap { try? StateEnvelope.decode(Counter.self, from: $0) }
        say("on disk \(onDisk.map { String($0.number) } ?? "none") intact \(onDisk?.isIntact ?? false)")
        say("temporaries \(temporaryFiles(in: storage.directory))")
        say("unsaved \(persistence.unsavedKeys.joined(separator: ","))")
    }

    private static func temporaryFiles(in directory: String) -> Int {
        guard let stream = opendir(directory) else { return -1 }
        defer { closedir(stream) }
        var count = 0
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
                String(cString: UnsafeRawPointer(pointer).assumingMemoryBound(to: CChar.self))
            }
            if name.hasSuffix(".tmp") { count += 1 }
        }
        return count
    }
}
