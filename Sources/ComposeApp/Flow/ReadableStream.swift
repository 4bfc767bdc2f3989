import Compose

/// A stream whose reading can stop for a while: a ``TCPConnection``, a
/// child's output. A relay pauses it while the stream it feeds is full.
@MainActor
public protocol ReadableStream: AnyObject {
    /// Stops reading until ``resumeReading()``; what the peer sends waits
    /// in the kernel (and the peer, once that is full).
    func pauseReading()
    /// Reads again after ``pauseReading()``.
    func resumeReading()
}

/// A stream written with back-pressure: ``write(_:)`` says
/// ``WriteResult/full`` above its high-water mark, and ``didBecomeWritable`` is sent
/// once it is back at its low one.
@MainActor
public protocol WritableStream: AnyObject {
    /// Writes `buffer` (copied if it must wait).
    @discardableResult
    func write(_ buffer: UnsafeRawBufferPointer) -> WriteResult
    /// Sent when a full stream is back at its low-water mark, and when a
    /// full stream closes (nothing is left to wait for: its writes say
    /// ``WriteResult/closed``). What waits for it (a relay's source, frames
    /// paced by it) also goes on when this emitter's observation ends: the
    /// stream's component removed, or the stream freed.
    var didBecomeWritable: SignalEmitter { get }
    /// Whether the stream reached its high-water mark and has not drained
    /// to its low one yet: writes should wait for ``didBecomeWritable``.
    /// Frames decoded for this stream wait meanwhile (ComposeFraming's
    /// `frames(using:pausedWhileFull:)`).
    var isFull: Bool { get }
}

/// What a write to a ``WritableStream`` did with the bytes.
public enum WriteResult: Sendable, Equatable {
    /// The stream took every byte.
    case written
    /// Some bytes are queued; the queue is below the high-water mark.
    case queued
    /// Queued, and the queue is at or above the high-water mark: stop
    /// writing until the stream's `didBecomeWritable`.
    case full
    /// The stream is closed or closing, or this write took its queue past
    /// its limit and closed it; nothing more will be written.
    case closed
}
