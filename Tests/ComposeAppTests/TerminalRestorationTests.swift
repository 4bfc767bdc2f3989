@testable import ComposeApp
import Foundation
import Testing

/// ComposeApp's terminal restoration (the C state a crash handler reads)
/// on a pseudo-terminal of this process: raw mode on, the undoing bytes
/// written and the termios back exactly, once. The crash handler and the
/// atexit hook run in TerminalEndToEndTests (a real terminal, a process
/// that dies).
@Suite(.serialized) struct TerminalRestorationTests {
    /// A pseudo-terminal: the controlling side and the program's side.
    /// (posix_openpt, grantpt, unlockpt and ptsname are XSI functions that
    /// Glibc's Swift module does not declare: looked up by name, as
    /// FixtureProcess looks up pipe2.)
    static func openPseudoTerminal() throws -> (controller: Int32, terminal: Int32) {
        typealias Open = @convention(c) (Int32) -> Int32
        typealias Prepare = @convention(c) (Int32) -> Int32
        typealias Name = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
        let library = dlopen(nil, RTLD_NOW)
        let openController = unsafeBitCast(try #require(dlsym(library, "posix_openpt")), to: Open.self)
        let grant = unsafeBitCast(try #require(dlsym(library, "grantpt")), to: Prepare.self)
        let unlock = unsafeBitCast(try #require(dlsym(library, "unlockpt")), to: Prepare.self)
        let name = unsafeBitCast(try #require(dlsym(library, "ptsname")), to: Name.self)
        let controller = openController(O_RDWR | O_NOCTTY)
        try #require(controller >= 0)
        try #require(grant(controller) == 0 && unlock(controller) == 0)
        let path = String(cString: try #require(name(controller)))
        let terminal = open(path, O_RDWR | O_NOCTTY)
        try #require(terminal >= 0)
        return (controller, terminal)
    }

    static func flags(_ descriptor: Int32) -> termios {
        var settings = termios()
        tcgetattr(descriptor, &settings)
        return settings
    }

    @Test func rawModeIsOnWhileArmedAndTheTerminalComesBackExactly() throws {
        let (controller, terminal) = try Self.openPseudoTerminal()
        defer {
            close(controller)
            close(terminal)
        }
        let before = Self.flags(terminal)
        #expect(before.c_lflag & tcflag_t(ECHO) != 0)
        #expect(TerminalRestoration.isTerminal(terminal))
        #expect(!TerminalRestoration.isArmed)

        let sequence = Array("\u{1B}[?25h\u{1B}[?1049l".utf8)
        try TerminalRestoration.arm(termiosDescriptor: terminal, outputDescriptor: terminal, restoring: sequence)
        #expect(TerminalRestoration.isArmed)
        let raw = Self.flags(terminal)
        #expect(raw.c_lflag & tcflag_t(ECHO | ICANON | ISIG | IEXTEN) == 0)
        #expect(raw.c_iflag & tcflag_t(ICRNL | IXON) == 0)
        #expect(raw.c_oflag & tcflag_t(ONLCR) != 0)
        // Armed once: a second arming is refused and changes nothing.
        #expect(throws: LoopError.self) {
            try TerminalRestoration.arm(termiosDescriptor: terminal, outputDescriptor: terminal, restoring: [])
        }

        #expect(TerminalRestoration.restore())
        #expect(!TerminalRestoration.isArmed)
        #expect(!TerminalRestoration.restore())
        let after = Self.flags(terminal)
        #expect(after.c_lflag == before.c_lflag && after.c_iflag == before.c_iflag && after.c_oflag == before.c_oflag)

        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(controller, &buffer, buffer.count)
        #expect(Array(buffer.prefix(max(0, count))) == sequence)
    }

    @Test func aSequenceLongerThanTheCapacityIsRefusedAndNothingChanges() throws {
        let (controller, terminal) = try Self.openPseudoTerminal()
        defer {
            close(controller)
            close(terminal)
        }
        let before = Self.flags(terminal)
        #expect(throws: LoopError.self) {
            try TerminalRestoration.arm(
                termiosDescriptor: terminal, outputDescriptor: terminal,
                restoring: [UInt8](repeating: 0x41, count: TerminalRestoration.sequenceCapacity + 1)
            )
        }
        #expect(!TerminalRestoration.isArmed)
        #expect(Self.flags(terminal).c_lflag == before.c_lflag)
    }

    /// A crash signal that arrives while a restore is under way on the same
    /// thread (taken, the termios not back yet) must not let the process
    /// die with the terminal still raw: the handler does the restore's work
    /// itself before handing the signal on. (Before, the handler found the
    /// restore taken, did nothing, and the default action ended the process
    /// with `echo` off.) The probe, in TerminalFixture, raises SIGQUIT from
    /// inside the restore's write, deterministically.
    @Test func aCrashSignalInsideARestoreStillGivesTheTerminalBack() async throws {
        let (controller, terminal) = try Self.openPseudoTerminal()
        defer {
            close(controller)
            close(terminal)
        }
        #expect(Self.flags(terminal).c_lflag & tcflag_t(ECHO) != 0)
        let probe = try FixtureProcess(
            executable: "TerminalFixture",
            environment: ["TERMINAL_FIXTURE_PROBE": "interrupted-restore", "SWIFT_BACKTRACE": "enable=no"],
            standardInput: FileHandle(fileDescriptor: terminal, closeOnDealloc: false)
        )
        try await probe.waitFor("armed")
        #expect(await probe.waitForExit() == -SIGQUIT, "\(probe.transcript)")
        #expect(!probe.output.lines.contains("survived the signal"))
        let after = Self.flags(terminal)
        #expect(after.c_lflag & tcflag_t(ECHO | ICANON | ISIG) == tcflag_t(ECHO | ICANON | ISIG), "the terminal was left raw")
    }

    @Test func theSizeIsTheTerminalsAndAPipeIsNoTerminal() throws {
        let (controller, terminal) = try Self.openPseudoTerminal()
        defer {
            close(controller)
            close(terminal)
        }
        // ioctl (TIOCSWINSZ) is variadic, which Swift cannot call: stty sets it.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/stty")
        process.arguments = ["rows", "33", "cols", "111"]
        process.standardInput = FileHandle(fileDescriptor: terminal, closeOnDealloc: false)
        try process.run()
        process.waitUntilExit()
        let measured = try #require(TerminalRestoration.size(of: terminal))
        #expect(measured.columns == 111 && measured.rows == 33)
        var pipe: [Int32] = [-1, -1]
        #expect(Glibc.pipe(&pipe) == 0)
        defer {
            close(pipe[0])
            close(pipe[1])
        }
        #expect(!TerminalRestoration.isTerminal(pipe[1]))
        #expect(TerminalRestoration.size(of: pipe[1]) == nil)
    }
}
