import Compose
import ComposeTesting
import Synchronization
import Testing

@MainActor
@Suite struct ValidatedEmitterTests {
    @Test func theResultFollowsTheStateAndSkipsEqualResults() {
        let state = Emitter<SignUp>()
        let results = Recorder(state.validated(by: signUpRules))
        state.send(SignUp(email: ""))
        state.send(SignUp(email: "", password: "another valid one"))   // a new error
        state.send(SignUp(email: "", password: "another valid one", repeated: "another valid one"))
        state.send(SignUp(email: "", password: "yet another valid", repeated: "yet another valid"))   // same errors
        state.send(SignUp())
        state.send(SignUp(tags: []))   // still valid
        #expect(results.values.map(\.errors.count) == [2, 3, 2, 0])
        #expect(results.values.map(\.isValid) == [false, false, false, true])
    }

    @Test func itStartsWithTheValidityOfTheCurrentStateWithoutSendingIt() {
        let state = Emitter<SignUp>()
        state.send(SignUp(email: "nope"))
        let validity = state.validated(by: signUpRules)
        #expect(validity.lastValue?.errors.map(\.rule) == [.email])
        let sent = Recorder(validity)
        var replayed: [Bool] = []
        validity ++= { replayed.append($0.isValid) }
        #expect(sent.values.isEmpty)
        #expect(replayed == [false])
        state.send(SignUp(email: "still nope"))   // the same error as the start: nothing
        state.send(SignUp())
        #expect(replayed == [false, true])
        #expect(sent.values.count == 1)
    }

    @Test func aStateThatNeverSentStartsWithNoResult() {
        let state = Emitter<SignUp>()
        let validity = state.validated(by: signUpRules)
        #expect(validity.lastValue == nil)
        let sent = Recorder(validity)
        state.send(SignUp())   // valid: the first result is sent even so
        #expect(sent.values.map(\.isValid) == [true])
    }

    @Test func eachStateIsValidatedOnceWhateverTheNumberOfObservers() {
        struct Counted { var value = "" }
        let checks = Checks()
        let rules = Validation<Counted> {
            Field(\.value) { Custom("is counted") { _ in checks.count(); return true } }
        }
        let state = Emitter<Counted>()
        let validity = state.validated(by: rules)
        for _ in 0..<5 { validity += { _ in } }
        state.send(Counted(value: "a"))
        state.send(Counted(value: "b"))
        #expect(checks.total == 2)
    }

    @Test func composesWithTheOtherCombinators() {
        let state = Emitter<SignUp>()
        let canSubmit = Recorder(state.validated(by: signUpRules).map(\.isValid).undup())
        state.send(SignUp(email: ""))
        state.send(SignUp(password: ""))
        state.send(SignUp())
        state.send(SignUp(tags: ["ok"]))
        #expect(canSubmit.values == [false, true])
    }

    @Test func itEndsWithTheComponentThatOwnsTheState() {
        struct Form: Component {
            let state = Emitter<SignUp>()
            var observers: Void { None }
        }
        let host = TestHost(Form())
        let results = Recorder(host.root.state.validated(by: signUpRules))
        host.root.state.send(SignUp(email: ""))
        host.tree.destroy()
        host.root.state.send(SignUp())
        #expect(results.values.count == 1)
    }
}

/// Counts rule checks from a `@Sendable` rule closure.
private final class Checks: Sendable {
    private let counter = Mutex(0)
    func count() { counter.withLock { $0 += 1 } }
    var total: Int { counter.withLock { $0 } }
}
