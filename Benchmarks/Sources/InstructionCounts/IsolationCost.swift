import ComposeFraming

// What main-actor code pays to hand a closure to a nonisolated function
// (the Performance article, "Hot byte loops in main-actor code"): a
// closure formed in main-actor code and passed to a nonisolated function
// that does not get inlined into the caller starts with a runtime check
// that it runs on the main actor's executor (swift_task_isCurrentExecutor).
// Each case runs one call per iteration on a 64-byte buffer (4 KiB for the
// `-4k` searches). scripts/instructions.py prints them as a table.

/// A main-actor helper class, as the daemon had: every method is
/// main-actor isolated, so are the closures formed in it.
@MainActor
final class MainActorHasher {
    var sum = 0

    @inline(never)
    func take(_ bytes: UnsafeRawBufferPointer) -> Int {
        sum &+= bytes.count
        return bytes.count
    }

    /// Hashes a key: a main-actor closure handed to `withUnsafeBufferPointer`.
    @inline(never)
    func hash(_ key: [UInt8]) -> Int {
        key.withUnsafeBufferPointer { bytes in
            var hasher = Hasher()
            hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
            return hasher.finalize()
        }
    }

    /// The same, in a `nonisolated` method of the same class: its closure
    /// is not main-actor isolated, and is not checked.
    @inline(never)
    nonisolated func hashNonisolated(_ key: [UInt8]) -> Int {
        key.withUnsafeBufferPointer { bytes in
            var hasher = Hasher()
            hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
            return hasher.finalize()
        }
    }
}

/// The same in a plain struct (nonisolated): no check either.
struct KeyHasher {
    @inline(never)
    func hash(_ key: [UInt8]) -> Int {
        key.withUnsafeBufferPointer { bytes in
            var hasher = Hasher()
            hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
            return hasher.finalize()
        }
    }
}

/// Hides a value from the optimiser (nothing is hoisted out of the loops).
@inline(never)
func opaque<T>(_ value: T) -> T { value }

enum IsolationCost {
    @MainActor
    static func run(_ mode: String, n: Int, sink: Sink) -> Bool {
        let buffer = opaque(ByteBuffer(repeating: 1, count: 64))
        let page = opaque(ByteBuffer(repeating: 1, count: 4096))
        let array = opaque([UInt8](repeating: 1, count: 64))
        let main = MainActorHasher()
        let plain = KeyHasher()
        switch mode {
        // [UInt8]: main-actor closure, checked; the same closure from
        // nonisolated code, not checked.
        case "isolation-array-main":
            for _ in 0..<n { sink.sum &+= array.withUnsafeBytes { main.take($0) } }
        case "isolation-class-hash":
            for _ in 0..<n { sink.sum &+= main.hash(array) }
        case "isolation-class-nonisolated-hash":
            for _ in 0..<n { sink.sum &+= main.hashNonisolated(array) }
        case "isolation-struct-hash":
            for _ in 0..<n { sink.sum &+= plain.hash(array) }
        // ByteBuffer: its closure-taking methods are @inlinable; inlined
        // here, the closure and its check disappear (not something to rely
        // on: it is the optimiser's choice).
        case "isolation-bytebuffer-main":
            for _ in 0..<n { sink.sum &+= buffer.withUnsafeReadableBytes { main.take($0) } }
        case "isolation-bytebuffer-hash":
            for _ in 0..<n { sink.sum &+= buffer.hashValue }
        // Searching 64 bytes for a byte that is not there: the view's
        // Collection algorithm, byte by byte, and memchr.
        case "isolation-view-search":
            for _ in 0..<n { sink.sum &+= buffer.readableBytesView.firstIndex(of: 2) ?? buffer.readableBytes }
        case "isolation-memchr-search":
            for _ in 0..<n { sink.sum &+= buffer.firstIndex(of: 2) ?? buffer.readableBytes }
        case "isolation-view-search-4k":
            for _ in 0..<n { sink.sum &+= page.readableBytesView.firstIndex(of: 2) ?? page.readableBytes }
        case "isolation-memchr-search-4k":
            for _ in 0..<n { sink.sum &+= page.firstIndex(of: 2) ?? page.readableBytes }
        default:
            return false
        }
        sink.sum &+= main.sum
        return true
    }
}
