import Compose

/// The standard output of a test context: what the app writes with
/// `Application.print(_:)`, kept for the test instead of reaching the
/// terminal (`TestApp.standardOutput`).
@MainActor
package final class SimulatedStandardOutput {
    /// Everything written, in order (until the reader closed).
    package private(set) var text = ""
    /// Whether the reader went away (``closeReader()``): writes fail, as
    /// with `EPIPE` on a pipe whose reader exited.
    package private(set) var isReaderClosed = false

    private var readerWatchers: [@MainActor () -> Void] = []

    init() {}

    /// Appends `text` as the app wrote it; returns `false`, dropping it,
    /// once the reader is closed.
    @discardableResult
    package func write(_ text: String) -> Bool {
        guard !isReaderClosed else { return false }
        self.text += text
        return true
    }

    /// The reader goes away (`app | head -1` after `head` read its line):
    /// what is written from now on is dropped and the writes fail.
    package func closeReader() {
        guard !isReaderClosed else { return }
        isReaderClosed = true
        let watchers = readerWatchers
        readerWatchers.removeAll()
        for watcher in watchers { watcher() }
    }

    /// Calls `closed` once when the reader goes away (at once if it has),
    /// as a live app watching a pipe's writing end hears of it.
    package func whenReaderCloses(_ closed: @escaping @MainActor () -> Void) {
        if isReaderClosed {
            closed()
        } else {
            readerWatchers.append(closed)
        }
    }

    /// The lines written so far (a last line without its newline included).
    package var lines: [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }
}

extension AppContext {
    /// The standard output of a test context (`TestApp`'s); `nil` in a
    /// live app.
    package var simulatedStandardOutput: SimulatedStandardOutput? { simulation?.standardOutput }
}
