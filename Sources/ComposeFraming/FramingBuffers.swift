public import Compose
import ComposeApp
import NIOCore

/// The buffers an app's streams share (one per app context,
/// `AppContext.framingStore`): the scratch buffer replies are encoded
/// into before they go to a stream's `write`, which takes what it needs
/// before it returns. One for the app rather than one per connection, so
/// that writing costs no allocation and an idle connection holds nothing.
@usableFromInline
@MainActor
final class FramingBuffers {
    // @exclusivity(unchecked), both: taken and put back on every message;
    // every access is a plain statement of this class's methods (the
    // closure given to `modifyIfUniquelyOwned` works on the parameter, not
    // on these), so no two accesses can overlap.

    /// The scratch buffer, while nobody uses it.
    #if DEBUG
    private var scratch: ByteBuffer?
    #else
    @exclusivity(unchecked) private var scratch: ByteBuffer?
    #endif
    /// An input buffer a stream emptied and released, for the next stream
    /// that reads: one allocation less per message of a request-reply
    /// protocol, and still no buffer held by an idle stream.
    #if DEBUG
    private var spareInput: ByteBuffer?
    #else
    @exclusivity(unchecked) private var spareInput: ByteBuffer?
    #endif
    /// A buffer that grew past this is not kept.
    static let keptCapacity = 64 * 1024

    /// The spare input buffer (empty), if there is one.
    func takeSpareInput() -> ByteBuffer? {
        guard let buffer = spareInput else { return nil }
        spareInput = nil
        return buffer
    }

    /// Keeps `buffer`, emptied, as the spare input buffer, unless there is
    /// one, it grew large, or a frame still holds its memory.
    func putBackInput(_ buffer: inout ByteBuffer) {
        guard spareInput == nil, buffer.capacity <= Self.keptCapacity,
              buffer.modifyIfUniquelyOwned({ $0.clear() }) != nil else { return }
        spareInput = buffer
    }

    /// The scratch buffer, empty; a fresh one while it is in use (an
    /// encoder that writes to another stream).
    func takeScratch() -> ByteBuffer {
        if let buffer = scratch {
            scratch = nil
            return buffer
        }
        return ByteBufferAllocator().buffer(capacity: 1024)
    }

    /// Takes `buffer` back for the next write, unless the slot is taken,
    /// it grew large, or someone kept a copy of it.
    func putBack(_ buffer: inout ByteBuffer) {
        guard scratch == nil, buffer.capacity <= Self.keptCapacity,
              buffer.modifyIfUniquelyOwned({ $0.clear() }) != nil else { return }
        scratch = buffer
    }
}

extension AppContext {
    /// The context's ``FramingBuffers``, made on first use.
    @usableFromInline
    var framingBuffers: FramingBuffers {
        if let store = framingStore as? FramingBuffers { return store }
        let store = FramingBuffers()
        framingStore = store
        return store
    }
}

extension Optional where Wrapped == AppContext {
    /// Encodes with `encode` into the context's scratch buffer (a fresh
    /// buffer without a context), then hands the bytes to `write`.
    @MainActor
    func encoding<Failure: Error>(
        _ encode: (inout ByteBuffer) throws(Failure) -> Void,
        then write: (ByteBuffer) -> WriteResult
    ) throws(Failure) -> WriteResult {
        let store = self?.framingBuffers
        var buffer = store?.takeScratch() ?? ByteBuffer()
        do {
            try encode(&buffer)
        } catch {
            store?.putBack(&buffer)
            throw error
        }
        let result = write(buffer)
        store?.putBack(&buffer)
        return result
    }
}
