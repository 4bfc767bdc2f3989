import ComposeApp
import ComposeTesting
import Testing

/// `StandardInput` in a `TestApp` reads what the test writes, as from a
/// pipe; fd 0 is never read.
@MainActor
@Suite struct TestAppStandardInputTests {
    @Test func linesSplitAcrossWritesArriveWholeAndEndOfInputEndsTheApp() throws {
        let app = TestApp(root: Shell())
        let shell = try #require(app.root(as: Shell.self))
        app.standardInput.write("sta")
        #expect(shell.journal.entries == [])
        app.standardInput.write("tus\nhe")
        #expect(shell.journal.entries == ["status"])
        app.standardInput.write("lp\r\n\nbye")
        #expect(shell.journal.entries == ["status", "help", ""])
        #expect(app.exitStatus == nil)

        app.standardInput.close()
        #expect(shell.journal.entries == ["status", "help", "", "bye", "<end>"])
        #expect(app.exitStatus == 0)
    }

    @Test func inputWrittenBeforeTheAppReadsWaitsForItAsInAPipe() throws {
        let app = TestApp(root: Shell()) { app in
            app.standardInput.write("first\nsecond\n")
            app.standardInput.close()
        }
        let shell = try #require(app.root(as: Shell.self))
        #expect(shell.journal.entries == ["first", "second", "<end>"])
        #expect(app.exitStatus == 0)
    }

    @Test func readingKeepsTheAppRunningUntilEndOfInput() throws {
        let app = TestApp(root: Reader())
        app.runUntilExit(limit: .seconds(3600))
        #expect(!app.hasExited)
        app.standardInput.close()
        app.runUntilExit()
        #expect(app.exitStatus == 0)
    }

    @Test func linesReachTheAppOnItsClockNotInsideTheWrite() throws {
        let app = TestApp(root: Shell())
        let shell = try #require(app.root(as: Shell.self))
        app.run {
            app.standardInput.write("now\n")
            // Still inside the app's code: nothing is delivered yet.
            #expect(shell.journal.entries == [])
        }
        #expect(shell.journal.entries == ["now"])
    }
}
