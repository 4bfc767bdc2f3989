import Compose

/// The standard input of a test context: what the test writes, read by the
/// app's `StandardInput` as it would read a pipe.
///
/// Bytes written before anything reads wait, as in a pipe's buffer; each
/// write reaches a reader as one chunk, and the reader splits lines (a
/// partial line waits for its newline). Once the test closes it and every
/// byte was read, each reader reads end of input. Deliveries go through the
/// context's clock, never inside the call that caused them.
@MainActor
package final class SimulatedStandardInput {
    /// One `StandardInput` reading; ``close()`` stops it.
    @MainActor
    final class Reader {
        fileprivate weak var input: SimulatedStandardInput?
        fileprivate var onRead: (@MainActor (UnsafeRawBufferPointer?) -> Void)?
        /// Whether it reads nothing until ``resume()`` (frames held back).
        fileprivate var isPaused = false

        fileprivate init(input: SimulatedStandardInput, onRead: @escaping @MainActor (UnsafeRawBufferPointer?) -> Void) {
            self.input = input
            self.onRead = onRead
        }

        /// Reads nothing more until ``resume()``; what the test writes
        /// meanwhile waits, as in a pipe.
        func pause() {
            isPaused = true
        }

        /// Reads again after ``pause()``.
        func resume() {
            guard isPaused else { return }
            isPaused = false
            input?.scheduleDelivery()
        }

        /// Stops reading. Idempotent.
        func close() {
            onRead = nil
            input?.detach(self)
            input = nil
        }
    }

    /// Weak: the context owns its world.
    private weak var context: AppContext?
    private var pending: [[UInt8]] = []
    private var readers: [Reader] = []
    private var deliveryScheduled = false
    /// Whether the test ended the input.
    package private(set) var isClosed = false

    init(context: AppContext) {
        self.context = context
    }

    // MARK: The test's side

    /// Writes `bytes` to the app's standard input. Ignored once closed.
    package func write(_ bytes: [UInt8]) {
        guard !isClosed, !bytes.isEmpty else { return }
        pending.append(bytes)
        scheduleDelivery()
    }

    /// Ends the input: once what was written is read, readers read end of
    /// input. Idempotent.
    package func close() {
        guard !isClosed else { return }
        isClosed = true
        scheduleDelivery()
    }

    // MARK: The app's side

    /// Starts reading: `onRead` gets each chunk, then `nil` at end of input.
    /// A reader keeps the app running, as a reading pipe keeps a loop alive.
    func read(_ onRead: @escaping @MainActor (UnsafeRawBufferPointer?) -> Void) -> Reader {
        let reader = Reader(input: self, onRead: onRead)
        readers.append(reader)
        context?.beginWork()
        scheduleDelivery()
        return reader
    }

    private func detach(_ reader: Reader) {
        guard let index = readers.firstIndex(where: { $0 === reader }) else { return }
        readers.remove(at: index)
        context?.endWork()
    }

    fileprivate func scheduleDelivery() {
        guard !deliveryScheduled, !readers.isEmpty, !pending.isEmpty || isClosed, let context else { return }
        deliveryScheduled = true
        context.simulate { [weak self] in
            self?.deliver()
        }
    }

    /// Each chunk goes to one reader (the first, as the oldest read of a
    /// pipe gets the bytes); end of input reaches every reader.
    private func deliver() {
        deliveryScheduled = false
        while let reader = readers.first, !reader.isPaused, !pending.isEmpty {
            let bytes = pending.removeFirst()
            bytes.withUnsafeBytes { reader.onRead?($0) }
        }
        guard isClosed, pending.isEmpty else { return }
        for reader in readers where !reader.isPaused {
            reader.onRead?(nil)
        }
    }
}

extension AppContext {
    /// The standard input of a test context (`TestApp`'s).
    var simulatedStandardInput: SimulatedStandardInput? { simulation?.standardInput }
}
