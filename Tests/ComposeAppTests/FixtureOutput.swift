import Foundation
import Synchronization

/// The lines a child process printed (or a socket received), split as they
/// arrive, and the tasks waiting for one of them. A reader thread feeds it;
/// a waiting task is resumed by the chunk that brings its line (or the end
/// of output), never by polling.
final class FixtureOutput: Sendable {
    private struct Waiter {
        /// Whether what arrived so far is what the task waits for.
        let isSatisfied: @Sendable ([String]) -> Bool
        let continuation: CheckedContinuation<Bool, Never>
        /// The failure guard, cancelled once the waiter is resumed.
        let failureGuard: Task<Void, Never>
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

    /// Whether the output has ended (end of file, or the socket closed).
    var hasEnded: Bool {
        state.withLock { $0.ended }
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
        let resumed: [(Waiter, Bool)] = state.withLock { state in
            var resumed: [(Waiter, Bool)] = []
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
                if waiter.isSatisfied(state.lines) {
                    resumed.append((waiter, true))
                    state.waiters[id] = nil
                } else if state.ended {
                    resumed.append((waiter, false))
                    state.waiters[id] = nil
                }
            }
            return resumed
        }
        for (waiter, found) in resumed {
            waiter.failureGuard.cancel()
            waiter.continuation.resume(returning: found)
        }
    }

    /// Waits until a line satisfying `matches` was printed (now or before).
    /// Returns `false` if output ended or `timeout` passed first.
    func waitForLine(timeout: Duration, matching matches: @escaping @Sendable (String) -> Bool) async -> Bool {
        await waitUntil(timeout: timeout) { $0.contains(where: matches) }
    }

    /// Waits until at least `count` complete lines arrived. Returns `false`
    /// if output ended or `timeout` passed first.
    func waitForLines(count: Int, timeout: Duration) async -> Bool {
        await waitUntil(timeout: timeout) { $0.count >= count }
    }

    /// Waits for the end of output (or `timeout`).
    func waitForEnd(timeout: Duration) async {
        _ = await waitUntil(timeout: timeout) { _ in false }
    }

    /// Waits until the lines so far satisfy `isSatisfied` (checked now and
    /// on every chunk). Returns `false` if output ended or `timeout` passed
    /// first.
    func waitUntil(timeout: Duration, _ isSatisfied: @escaping @Sendable ([String]) -> Bool) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let registered: Bool = state.withLock { state in
                if isSatisfied(state.lines) || state.ended { return false }
                let id = state.nextID
                state.nextID += 1
                // The failure guard: only a hang reaches its end. Real
                // time, because the output comes from a real process.
                let failureGuard = Task { [weak self] in
                    guard (try? await Task.sleep(for: timeout)) != nil else { return }   // real time: a hang guard on a real process
                    self?.expire(id)
                }
                state.waiters[id] = Waiter(isSatisfied: isSatisfied, continuation: continuation, failureGuard: failureGuard)
                return true
            }
            if !registered {
                continuation.resume(returning: state.withLock { isSatisfied($0.lines) })
            }
        }
    }

    private func expire(_ id: Int) {
        let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
        waiter?.continuation.resume(returning: false)
    }
}
