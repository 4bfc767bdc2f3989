@testable import ComposeApp
@testable import ComposeFraming
import Compose

/// Drives the frame delivery of ComposeApp with ComposeFraming's reader, as
/// a stream would, without a stream: chunks in, frames out, and a sink that
/// the test fills and drains.
@MainActor
final class FrameHarness<Decoder: FrameDecoder>: FrameSource {
    private(set) var frames: [Decoder.Frame] = []
    private(set) var failure: LoopError?
    /// Whether the delivery told the stream to stop reading.
    private(set) var isHeld = false
    /// The most bytes buffered after a chunk was handed over.
    private(set) var mostBuffered = 0
    var acceptsFrames = true
    let sink = TestSink()
    private var delivery: FrameDelivery!
    private var subscription: Subscription?

    init(_ decoder: Decoder) {
        let state = DecodingState(decoder)
        let reader = FrameReader(state, operation: "Test.frames", context: "test", contextOf: state.emitter)
        delivery = FrameDelivery(reader, source: self, loop: nil) { [unowned self] in acceptsFrames ? .open : .paused }
        delivery.pace(by: sink)
        subscription = state.emitter.observe { [unowned self] frame in
            frames.append(frame)
            sink.frameDelivered()
        }
    }

    var bufferedBytes: Int { delivery.bufferedBytes }

    /// Hands `bytes` over, as a read would (ignored while the delivery
    /// holds the input: a stream would not read then).
    func read(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { delivery.received($0) }
        mostBuffered = max(mostBuffered, delivery.bufferedBytes)
    }

    func end() {
        delivery.finish()
    }

    func framesHoldInput(_ held: Bool) {
        isHeld = held
    }

    func framesFailed(_ error: LoopError) {
        failure = error
    }

    var frameScheduler: (any Scheduler)? { nil }
}

/// A sink that becomes full after a set number of frames, until drained.
@MainActor
final class TestSink: WritableStream {
    let didBecomeWritable = SignalEmitter()
    private(set) var isFull = false
    /// Full again after this many more frames (`nil`: never).
    var fullAfter: Int?

    func write(_ buffer: UnsafeRawBufferPointer) -> WriteResult { isFull ? .full : .written }

    func frameDelivered() {
        guard let count = fullAfter else { return }
        if count <= 1 {
            isFull = true
            fullAfter = nil
        } else {
            fullAfter = count - 1
        }
    }

    func drain() {
        guard isFull else { return }
        isFull = false
        didBecomeWritable.send()
    }
}

extension FrameHarness {
    /// What a stream would deliver of `bytes` read in chunks of the given
    /// sizes (cycled), with the sink full after `fullAfter[i]` frames
    /// (cycled; 0: never) and drained before the next read: the frames, the
    /// error, the most bytes ever buffered, and the largest chunk.
    static func run(
        _ decoder: Decoder, _ bytes: [UInt8], chunks: [Int], fullAfter: [Int]
    ) -> (frames: [Decoder.Frame], failure: LoopError?, mostBuffered: Int, largestChunk: Int) {
        let harness = FrameHarness(decoder)
        var start = 0
        var step = 0
        var largest = 0
        func drainWhileHeld() {
            var guardCount = 0
            while harness.isHeld, harness.failure == nil, guardCount < 100_000 {
                harness.sink.fullAfter = fullAfter[step % fullAfter.count] == 0 ? nil : fullAfter[step % fullAfter.count]
                step += 1
                harness.sink.drain()
                guardCount += 1
            }
        }
        harness.sink.fullAfter = fullAfter[0] == 0 ? nil : fullAfter[0]
        while start < bytes.count, harness.failure == nil {
            // A stream does not read while the delivery holds it.
            drainWhileHeld()
            let end = min(bytes.count, start + chunks[step % chunks.count])
            largest = max(largest, end - start)
            step += 1
            harness.read(Array(bytes[start..<end]))
            start = end
        }
        drainWhileHeld()
        if harness.failure == nil {
            harness.end()
            drainWhileHeld()
        }
        return (harness.frames, harness.failure, harness.mostBuffered, largest)
    }
}
