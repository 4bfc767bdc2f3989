@_spi(Testing) @testable import ComposeApp
import Foundation
import Testing

/// Collects what a confined child reports.
@MainActor
private final class ConfinedProbe {
    var output: [String] = []
    var errorOutput: [String] = []
    var exits: [ChildProcess.Termination] = []

    init(_ process: ChildProcess) {
        process.output += { self.output.append($0) }
        process.errorOutput += { self.errorOutput.append($0) }
        process.didExit += { self.exits.append($0) }
    }

    /// Runs the loop until the child exited; returns how.
    func waitForExit() -> ChildProcess.Termination? {
        LoopDriver.run(until: { !self.exits.isEmpty })
        return exits.first
    }
}

/// Starts `process`, waits for its exit and returns what it wrote.
@MainActor
private func run(_ process: ChildProcess) throws -> (output: [String], errorOutput: [String], termination: ChildProcess.Termination) {
    let probe = ConfinedProbe(process)
    try process.start()
    let termination = try #require(probe.waitForExit())
    return (probe.output, probe.errorOutput, termination)
}

/// Resource limits, umask and the parent-death signal on real processes:
/// the child reports what the kernel applied to it. (The death of the app
/// itself: ParentDeathTests, on the fixture app.)
@MainActor
@Suite(.serialized, .liveLoop) struct ChildProcessConfinementTests {
    @Test func theChildSeesItsOpenFilesLimitSoftAndHard() throws {
        let result = try run(ChildProcess("/bin/sh", arguments: ["-c", "ulimit -n; ulimit -Hn"], limits: .init(openFiles: 77)))
        #expect(result.output == ["77", "77"], "\(result.errorOutput)")
        #expect(result.termination.succeeded)
    }

    @Test func theChildSeesItsAddressSpaceAndCPULimits() throws {
        // 1 GiB and 1000 bytes: applied in whole KiB, rounded down.
        let limits = ChildProcess.ResourceLimits(addressSpace: (1 << 30) + 1000, cpuSeconds: 42)
        let result = try run(ChildProcess("/bin/sh", arguments: ["-c", "ulimit -v; ulimit -t"], limits: limits))
        #expect(result.output == ["1048576", "42"], "\(result.errorOutput)")
    }

    @Test func theChildSeesItsUmask() throws {
        let result = try run(ChildProcess("/bin/sh", arguments: ["-c", "umask"], umask: 0o027))
        #expect(result.output == ["0027"], "\(result.errorOutput)")
    }

    @Test func withoutAnOptionTheChildKeepsTheAppsLimitsAndUmask() throws {
        // The app's umask as Linux reports it ("Umask:\t0022"), read
        // without setting it: other tests run in this process meanwhile.
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let mask = try #require(status.split(separator: "\n").first { $0.hasPrefix("Umask:") }?.split(separator: "\t").last)
        let result = try run(ChildProcess("/bin/sh", arguments: ["-c", "umask; ulimit -n"]))
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        #expect(result.output == [String(mask), String(limit.rlim_cur)])
    }

    @Test func theWrapperExecsSoThePIDAndNameAreTheProgramsOwn() throws {
        // `cat` reports its own PID and name; the PID is the one start()
        // gave, so nothing stands between the app and the program.
        let process = ChildProcess("cat", arguments: ["/proc/self/stat"], limits: .init(openFiles: 64), umask: 0o077, parentDeathSignal: .kill)
        let result = try run(process)
        let pid = try #require(process.pid)
        #expect(result.output.first?.hasPrefix("\(pid) (cat) ") == true, "\(result.output) \(result.errorOutput)")
        #expect(result.termination.succeeded)
    }

    @Test func theExitStatusAndTheSignalPassThrough() throws {
        let exiting = try run(ChildProcess("/bin/sh", arguments: ["-c", "exit 7"], umask: 0o022))
        #expect(exiting.termination == ChildProcess.Termination(status: 7, signal: nil))
        let killed = try run(ChildProcess("/bin/sh", arguments: ["-c", "kill -TERM $$"], limits: .init(cpuSeconds: 60)))
        #expect(killed.termination.signal == SIGTERM)
    }

    @Test func argumentsReachTheProgramVerbatimNeverAsScript() throws {
        let hostile = ["$(echo pwned)", "a b", "'quoted'", "\"; exit 9; \"", "`id`", "-n"]
        let result = try run(ChildProcess("printf", arguments: ["%s\\n"] + hostile, umask: 0o022, parentDeathSignal: .kill))
        #expect(result.output == hostile, "\(result.errorOutput)")
        #expect(result.termination.succeeded)
    }

    @Test func terminateSignalsTheConfinedChildsGroup() throws {
        let process = ChildProcess("/bin/sh", arguments: ["-c", "echo ready; exec sleep 30"], limits: .init(openFiles: 64))
        let probe = ConfinedProbe(process)
        try process.start()
        #expect(LoopDriver.run(until: { probe.output == ["ready"] }))
        process.terminate()
        let termination = try #require(probe.waitForExit())
        #expect(termination.signal == SIGTERM)
    }

    @Test func aMissingExecutableStillThrowsENOENTAtOnceAndLeavesNothingOpen() {
        let before = LoopDriver.openHandleCount
        for executable in ["no-such-tool-\(UInt32.random(in: 0...UInt32.max))", "/no/such/tool"] {
            let process = ChildProcess(executable, umask: 0o022)
            #expect {
                try process.start()
            } throws: { error in
                guard let error = error as? LoopError else { return false }
                return error.kind == .notFound && error.description.contains(executable)
            }
            #expect(!process.isRunning)
        }
        LoopDriver.settle()
        #expect(LoopDriver.openHandleCount == before)
    }

    @Test func valuesOutOfRangeAreInvalidArguments() {
        let cases: [ChildProcess] = [
            ChildProcess("true", limits: .init(openFiles: 0)),
            ChildProcess("true", limits: .init(addressSpace: 512)),
            ChildProcess("true", limits: .init(cpuSeconds: -1)),
            ChildProcess("true", umask: 0o1000),
            ChildProcess("true", parentDeathSignal: ProcessSignal.Name(rawValue: 40, name: "SIGRTMIN+6")),
        ]
        for process in cases {
            #expect {
                try process.start()
            } throws: { error in
                (error as? LoopError)?.kind == .invalidArgument
            }
        }
    }

    @Test func aLimitAboveTheAppsHardLimitIsNotPermitted() throws {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        // Another user: even root cannot raise a hard limit for a child
        // that gives up root (the wrapper runs as that user).
        let process = ChildProcess("true", user: 65_534, limits: .init(openFiles: Int(limit.rlim_max) + 1))
        #expect {
            try process.start()
        } throws: { error in
            guard let error = error as? LoopError else { return false }
            return error.kind == .operationNotPermitted && error.description.contains("limits.openFiles")
        }
    }

    @Test func aMissingSetprivIsAMissingHelperNamingWhatToInstall() {
        let process = ChildProcess("true", parentDeathSignal: .kill)
        #expect {
            _ = try process.launch(environment: nil, helperSearchPath: "/no/such/directory")
        } throws: { error in
            guard let error = error as? LoopError else { return false }
            return error.kind == .missingHelper && error.description.contains("setpriv") && error.description.contains("util-linux")
        }
    }

    @Test func theWrapperSignalsItselfWhenTheAppDiedBeforeTheDeathSignalWasSet() throws {
        // The wrapper of a child whose parent is not the app any more (as
        // if the app died between the spawn and setpriv): PID 1 stands for
        // the app. It must not run the program.
        let setpriv: String = try #require(ChildProcess.lookUp("setpriv", path: "/usr/bin:/bin"))
        let launch = ChildProcess.Launch.wrapping(
            "/bin/echo", arguments: ["ran"], limits: .none, umask: nil,
            parentDeathSignal: ("SIGKILL", SIGKILL), setpriv: setpriv, appPID: 1
        )
        let result = try run(ChildProcess(launch.file, arguments: launch.arguments))
        #expect(result.output.isEmpty)
        #expect(result.termination.signal == SIGKILL)
    }

    @Test func theScriptIsFixedTextAndEveryValueAnArgument() {
        let launch = ChildProcess.Launch.wrapping(
            "/usr/bin/tool", arguments: ["x"], limits: .init(openFiles: 10, addressSpace: 2048, cpuSeconds: 3), umask: 0o027,
            parentDeathSignal: ("SIGTERM", SIGTERM), setpriv: "/usr/bin/setpriv", appPID: 4242
        )
        #expect(launch.file == "/usr/bin/setpriv")
        #expect(Array(launch.arguments.prefix(5)) == ["--pdeathsig", "SIGTERM", "--", "/bin/sh", "-c"])
        // Only the fixed fragments: no value is part of the script's text.
        let fragments = ChildProcess.Launch.Fragment.self
        #expect(launch.arguments[5] == fragments.parentCheck + fragments.openFiles + fragments.addressSpace
            + fragments.cpuSeconds + fragments.umask + fragments.exec)
        #expect(Array(launch.arguments.dropFirst(6)) == ["ChildProcess", "4242", "15", "10", "2", "3", "027", "/usr/bin/tool", "x"])
    }
}
