import Compose
import ComposeApp
import ComposeTesting
import Logging
import Testing

private struct Hushed: PassiveComponent {
    let numbers = Emitter<Int>()
}

@MainActor
@Suite struct TestLogTests {
    @Test func aTestAppKeepsItsLogLinesInMemory() {
        let app = TestApp(root: Hushed())
        app.send(.terminate)
        let shutdown = app.logs.first { $0.message.contains("Shutting down (SIGTERM)") }
        #expect(shutdown?.level == .info)
    }

    @Test func aDiagnosticIsLoggedAsAWarningAndRecorded() {
        let app = TestApp(root: Hushed())
        app.context.report(Diagnostic(.unknownInstance, "remove(1) on nothing", path: "quiet"))
        #expect(app.diagnostics.map(\.code) == [.unknownInstance])
        #expect(app.logs.contains { $0.level == .warning && $0.message.contains("remove(1) on nothing") })
    }

    @Test func aTestHostKeepsItsTreesDiagnosticsInItsLog() {
        let host = TestHost(Hushed())
        host.tree.context.report(Diagnostic(.unknownInstance, "remove(2) on nothing", path: "quiet"))
        #expect(host.logs.map(\.level) == [.warning])
    }

    @Test func anAppWithItsOwnLogHandlerKeepsIt() {
        let app = TestApp(root: Hushed(), configuration: StartupConfiguration(makeLogHandler: { _ in SwiftLogNoOpLogHandler() }))
        app.send(.terminate)
        #expect(app.logs.isEmpty)
    }
}
