import Foundation

/// The processes of this machine that have one argument equal to a unique
/// marker (`sleep 300.482913`), found in /proc: how the process-group tests
/// find what a child left behind without `pgrep` on a shared machine.
/// A zombie has an empty command line, so it does not count: it is dead,
/// only not reaped yet (by whoever inherited it).
struct MarkedProcesses {
    /// The markers: `300.N` and `301.N`, N unique to this value.
    let markers: [String]

    init() {
        let unique = UInt32.random(in: 100_000...999_999)
        markers = ["300.\(unique)", "301.\(unique)"]
    }

    /// The script of a shell that starts two marked sleeps in the
    /// background, says "ready" and waits for them; with `ignoringTerm` it
    /// (and so the sleeps) ignores SIGTERM first.
    func script(ignoringTerm: Bool = false) -> String {
        (ignoringTerm ? "trap '' TERM; " : "") + "sleep \(markers[0]) & sleep \(markers[1]) & echo ready; wait"
    }

    /// The PIDs of live processes with a marker among their arguments.
    var pids: [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> Int32? in
            guard let pid = Int32(entry),
                  let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"), !data.isEmpty
            else { return nil }
            let arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return arguments.dropFirst().contains(where: markers.contains) ? pid : nil
        }
    }

    /// Whether both sleeps run (have exec'd: a forked shell that has not
    /// exec'd yet has the shell's arguments).
    var bothRun: Bool { pids.count == 2 }

    /// Kills whatever is left (so that a failing test leaves nothing).
    func killLeftovers() {
        for pid in pids { kill(pid, SIGKILL) }
    }

    /// Polls /proc until `condition` holds, at most `timeout`. A bounded
    /// poll on purpose: a process vanishing sends no event this test
    /// could wait on (it is not our child once its parent died).
    func wait(until condition: () -> Bool, timeout: Duration = .seconds(5)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            if ContinuousClock.now > deadline { return false }
            try? await Task.sleep(for: .milliseconds(10))   // real time: polling /proc, which sends no event
        }
        return true
    }
}
