internal import CLibUV
import Compose

/// The executables of a test context: `ChildProcess` spawns nothing there,
/// it starts a ``SimulatedProcess`` run of the executable the test scripted,
/// or fails as `uv_spawn` does when the executable does not exist.
///
/// A script named without a `/` (`git`) answers for that name and for any
/// path ending in it (`/usr/bin/git`); one named with a `/` answers for
/// that exact path only.
@MainActor
package final class SimulatedProcesses {
    /// Runs once per start, with the new run (the test's script).
    package typealias Script = @MainActor (SimulatedProcess) -> Void

    /// Weak: the context owns its world.
    private weak var context: AppContext?
    private var scripts: [String: Script] = [:]
    private var nextPID: Int32 = 4_000

    init(context: AppContext) {
        self.context = context
    }

    /// Scripts `executable` (replacing its previous script).
    package func script(_ executable: String, _ script: @escaping Script) {
        scripts[executable] = script
    }

    /// Forgets the script of `executable`: starting it fails again.
    package func removeScript(_ executable: String) {
        scripts[executable] = nil
    }

    private func script(for executable: String) -> Script? {
        if let exact = scripts[executable] { return exact }
        guard let slash = executable.lastIndex(of: "/") else { return nil }
        return scripts[String(executable[executable.index(after: slash)...])]
    }

    /// A new run of `executable`, not started yet (``SimulatedProcess/begin()``
    /// runs its script).
    ///
    /// - Throws: `uv_spawn`'s `ENOENT`, naming the executable (and the
    ///   working directory) as a real spawn does, when no script answers
    ///   for it or the working directory is missing from the simulated
    ///   files.
    func spawn(
        executable: String,
        arguments: [String],
        environment: [String: String]?,
        workingDirectory: String?,
        acceptsInput: Bool
    ) throws(LoopError) -> SimulatedProcess {
        var target = executable
        if let workingDirectory { target += " in \(workingDirectory)" }
        guard let context, context.scheduler != nil else {
            throw LoopError.noEventLoop("ChildProcess(\(executable)).start")
        }
        guard let script = script(for: executable),
              workingDirectory.map({ context.simulatedFiles?.exists($0) ?? true }) ?? true else {
            throw LoopError("uv_spawn", code: UV_ENOENT.rawValue, context: target)
        }
        let pid = nextPID
        nextPID += 1
        return SimulatedProcess(
            executable: executable,
            arguments: arguments,
            environment: environment,
            workingDirectory: workingDirectory,
            acceptsInput: acceptsInput,
            pid: pid,
            script: script,
            context: context
        )
    }
}

extension AppContext {
    /// The executables of a test context (`TestApp`'s).
    var simulatedProcesses: SimulatedProcesses? { simulation?.processes }
}
