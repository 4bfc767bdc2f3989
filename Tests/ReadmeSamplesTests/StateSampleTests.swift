import ComposeApp
import ComposePersistence
import ComposeTesting
import Testing

// Tutorial.md (once the README), "State".

struct Laps: Equatable, Codable { var count = 0; var name = "" }

struct LapCounter: Component {
    @Store var state = Laps()
    let increment = SignalEmitter()
    let rename = Emitter<String>()
}

extension LapCounter {
    var observers: Void {
        increment += { state.count += 1 }
        rename += { name in
            state.name = name
            state.count = 0                      // one send for both writes
        }
        $state.map(\.count).undup() += { print("count", $0) }
        $state ~+= { new, old in print("\(old.name) → \(new.name)") }
    }
}

@MainActor
@Suite(.serialized) struct StateSampleTests {
    @Test func writesInOneDispatchMakeOneSend() {
        let app = TestApp(root: LapCounter())
        let counter = app.root(as: LapCounter.self)!
        app.run { counter.increment.send() }
        app.run { counter.rename.send("laps") }
        #expect(counter.state == Laps(count: 0, name: "laps"))
        #expect(Printed.take() == ["count 1", " → ", "count 0", " → laps"])
    }

    @Test func aPersistedStoreComesBackInTheNextRun() {
        let first = TestApp(Notebook.self)
        first.run { first.root(as: Notebook.self)!.add.send("milk") }
        first.send(.terminate)                       // saved at graceful shutdown
        first.runUntilExit()

        let second = TestApp(Notebook.self, setUp: { app in
            app.stateStorage = first.stateStorage    // what the first run saved
        })
        #expect(second.root(as: Notebook.self)!.notes.lines == ["milk"])
    }

    @Test func validationListsErrorsInDeclarationOrder() {
        let result = signUpRules.validate(SignUp(email: "ada@", password: "short", repeated: "shorts"))
        #expect(!result.isValid)
        #expect(result.errors.map(\.field) == ["email", "password", "repeated password"])
    }

    @Test func theStatusFlagIsOnWhileTheWorkRuns() async {
        let status = Status()
        let count = await status.while(.loading) {
            #expect(status.contains(.loading))
            return 42
        }
        #expect(count == 42)
        #expect(!status.contains(.loading))
    }
}

// Tutorial.md (once the README), "State": persistence.

struct Notes: Equatable, Codable { var lines: [String] = [] }

struct Notebook: Component {
    @Store(persistedAs: "notes") var notes = Notes()   // import ComposePersistence
    let add = Emitter<String>()
}

extension Notebook {
    var observers: Void {
        add += { line in notes.lines.append(line) }
    }
}

extension Notebook: StartupComponent {}            // nothing more to persist

// Tutorial.md (once the README), "State": validation.

struct SignUp: Equatable { var email = ""; var password = ""; var repeated = "" }

let signUpRules = Validation<SignUp> {
    Field(\.email, "email") { NonEmpty(); Email() }
    Field(\.password, "password") { Length(8...64) }
    Field(\.repeated, "repeated password") { Equal(to: \.password) }
}
