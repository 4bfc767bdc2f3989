import Foundation
import Synchronization

/// The lines a fixture process printed, split as they arrive, and the tasks
/// waiting for one of them. A reader thread feeds it; a waiting task is
/// resumed by the chunk that brings its line (or the end of output), never
/// by polling.
final class FixtureOutput: Sendable {
    private struct Waiter {
        let matches: @Sendable (String) -> Bool
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var pending = Data()
        var lines: [String] = []
        var ended = false
        var waiters: [Int: Waiter] = [:]
        var nextID = 0
    }

    private let state = Mutex(State())

    /// Every complete line so far.
    var lines: [String] {
        state.withLock { $0.lines }
    }

    /// Everything received so far, as text (complete lines and the rest).
    var text: String {
        state.withLock { state in
            (state.lines + [String(decoding: state.pending, as: UTF8.self)])
                .filter { !$0.isEmpty }
                .joined(separator: "\n")
        }
    }

    /// Adds bytes read; an empty chunk means end of output.
    func receive(_ data: Data) {
        let resumed: [(CheckedContinuation<Bool, Never>, Bool)] = state.withLock { state in
            var resumed: [(CheckedContinuation<Bool, Never>, Bool)] = []
            if data.isEmpty {
                state.ended = true
                if !state.pending.isEmpty {
                    state.lines.append(String(decoding: state.pending, as: UTF8.self))
                    state.pending = Data()
                }
            } else {
                state.pending.append(data)
            }
            while let newline = state.pending.firstIndex(of: UInt8(ascii: "\n")) {
                state.lines.append(String(decoding: state.pending[state.pending.startIndex..<newline], as: UTF8.self))
                state.pending = Data(state.pending[(newline + 1)...])
            }
            for (id, waiter) in state.waiters {
                if state.lines.contains(where: waiter.matches) {
                    resumed.append((waiter.continuation, true))
                    state.waiters[id] = nil
                } else if state.ended {
                    resumed.append((waiter.continuation, false))
                    state.waiters[id] = nil
                }
            }
            return resumed
        }
        for (continuation, found) in resumed { continuation.resume(returning: found) }
    }

    /// Waits until a line satisfying `matches` was printed (now or before).
    /// Returns `false` if output ended or `timeout` passed first.
    func waitForLine(timeout: Duration, matching matches: @escaping @Sendable (String) -> Bool) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let registered: Int? = state.withLock { state in
                if state.lines.contains(where: matches) || state.ended { return nil }
                let id = state.nextID
                state.nextID += 1
                state.waiters[id] = Waiter(matches: matches, continuation: continuation)
                return id
            }
            guard let registered else {
                continuation.resume(returning: state.withLock { $0.lines.contains(where: matches) })
                return
            }
            // The failure guard: only a hang reaches it.
            Task { [weak self] in
                try? await Task.sleep(for: timeout)
                self?.expire(registered)
            }
        }
    }

    /// Waits for the end of output (or `timeout`).
    func waitForEnd(timeout: Duration) async {
        _ = await waitForLine(timeout: timeout) { _ in false }
    }

    private func expire(_ id: Int) {
        let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
        waiter?.continuation.resume(returning: false)
    }
}
