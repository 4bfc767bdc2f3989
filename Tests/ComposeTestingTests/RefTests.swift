import ComposeApp
import ComposeTesting
import Testing

/// `@Ref`: one value per id and app, the same everywhere at once.
@MainActor
@Suite struct RefTests {
    let log = StoreLog()

    @Test func aWriteIsSeenByEveryComponentInTheSameTurn() {
        let app = TestApp(root: SessionApp(log: log))
        let root = app.root(as: SessionApp.self)!
        // The first @Ref bound gave the value.
        #expect(root.status.session == Session())
        app.run { root.logIn.logIn.send("ada") }
        #expect(root.status.session == Session(user: "ada", logins: 1))
        // One send (two writes in one observer), seen by both components.
        #expect(log.notes == ["login saw ada", "status saw ada (reads ada)"])
        #expect(app.scheduler.now == .zero)
    }

    @Test func aWriteOutsideAnyDispatchSendsAtOnce() {
        let app = TestApp(root: SessionApp(log: log))
        let root = app.root(as: SessionApp.self)!
        root.status.session.user = "grace"
        #expect(root.logIn.session.user == "grace")
        #expect(log.notes == ["login saw grace", "status saw grace (reads grace)"])
    }

    @Test func twoAppsNeverShareAValue() {
        let logA = StoreLog(), logB = StoreLog()
        let a = TestApp(root: SessionApp(log: logA))
        let b = TestApp(root: SessionApp(log: logB))
        let rootA = a.root(as: SessionApp.self)!
        let rootB = b.root(as: SessionApp.self)!
        a.run { rootA.logIn.logIn.send("ada") }
        #expect(rootA.status.session.user == "ada")
        #expect(rootB.status.session.user == nil)
        #expect(logB.notes.isEmpty)
        b.run { rootB.logIn.logIn.send("grace") }
        #expect(rootA.status.session.user == "ada")
        #expect(rootB.logIn.session.user == "grace")
    }

    @Test func anIdSharedAsAnotherTypeIsADiagnostic() {
        struct Mixed: Component {
            let logIn: LogInComponent
            let wrong = WrongSession()
            var observers: Void { None }
        }
        let app = TestApp(root: Mixed(logIn: LogInComponent(log: log)))
        let root = app.root(as: Mixed.self)!
        #expect(app.diagnostics.map(\.code) == [.sharedReferenceTypeMismatch])
        #expect(app.diagnostics.first?.message.contains("mixed.wrong.session") == true)
        // It keeps a value of its own; the shared one is untouched.
        root.wrong.session = 7
        #expect(root.wrong.session == 7)
        #expect(root.logIn.session == Session())
    }

    @Test func anUnboundRefHoldsItsOwnValue() {
        let status = StatusComponent(log: log)
        #expect(status.session.user == "ignored: not the first")
        status.session.user = "local"
        #expect(status.session.user == "local")
    }
}
