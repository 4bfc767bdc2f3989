import NIOCore

/// What a main-actor class pays to hand a closure to a nonisolated
/// function (`ByteBuffer.withUnsafeReadableBytes`, `Array.withUnsafeBytes`).
@MainActor
final class MainActorSink {
    var sum = 0

    @inline(never)
    func take(_ bytes: UnsafeRawBufferPointer) -> Int {
        sum &+= bytes.count
        return bytes.count
    }
}

/// The count of the readable bytes, through the closure-taking method, from
/// a nonisolated function: its closure is not main-actor isolated.
@inline(never)
nonisolated func readableCount(_ buffer: ByteBuffer) -> Int {
    buffer.withUnsafeReadableBytes { $0.count }
}

@inline(never)
nonisolated func arrayCount(_ array: [UInt8]) -> Int {
    array.withUnsafeBytes { $0.count }
}

/// Hides a value from the optimiser (nothing is hoisted out of the loops).
@inline(never)
func opaque<T>(_ value: T) -> T { value }

enum IsolationCost {
    @MainActor
    static func run(_ mode: String, n: Int, sink: Sink) -> Bool {
        let buffer = opaque(ByteBuffer(repeating: 1, count: 64))
        let array = opaque([UInt8](repeating: 1, count: 64))
        let main = MainActorSink()
        switch mode {
        case "isolation-main-closure":
            for _ in 0..<n { sink.sum &+= buffer.withUnsafeReadableBytes { main.take($0) } }
        case "isolation-pure-closure":
            for _ in 0..<n { sink.sum &+= buffer.withUnsafeReadableBytes { $0.count } }
        case "isolation-nonisolated-helper":
            for _ in 0..<n { sink.sum &+= readableCount(buffer) }
        case "isolation-local-let":
            let body: (UnsafeRawBufferPointer) -> Int = { main.take($0) }
            for _ in 0..<n { sink.sum &+= buffer.withUnsafeReadableBytes(body) }
        case "isolation-method":
            for _ in 0..<n { sink.sum &+= buffer.readableBytesView.firstIndex(of: 2) ?? buffer.readableBytes }
        case "isolation-array-closure":
            for _ in 0..<n { sink.sum &+= array.withUnsafeBytes { main.take($0) } }
        case "isolation-array-helper":
            for _ in 0..<n { sink.sum &+= arrayCount(array) }
        default:
            return false
        }
        sink.sum &+= main.sum
        return true
    }
}
