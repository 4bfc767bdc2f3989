import ComposeApp
import ComposeTesting
import Testing

/// `@Store`: one send per dispatch, only changes, `$state` as an emitter.
@MainActor
@Suite struct StoreTests {
    let log = StoreLog()

    func counterApp() -> (TestApp, CounterComponent) {
        let app = TestApp(root: CounterComponent(log: log))
        return (app, app.root(as: CounterComponent.self)!)
    }

    @Test func observersWriteTheStore() {
        let (app, counter) = counterApp()
        app.run { counter.increment.send() }
        app.run { counter.increment.send() }
        #expect(counter.state.count == 2)
        #expect(log.sent == [Counter(count: 1), Counter(count: 2)])
    }

    @Test func writesInOneObserverMakeOneSend() {
        let (app, counter) = counterApp()
        app.run { counter.renameAndCountTwice.send("three writes") }
        #expect(log.sent == [Counter(count: 2, name: "three writes")])
        // Nothing was sent while the observer ran.
        #expect(log.notes == ["sent during the dispatch: 0"])
        #expect(log.changes == ["0→2"])
    }

    @Test func aWriteThatLeavesTheStateEqualSendsNothing() {
        let (app, counter) = counterApp()
        app.run { counter.rewrite.send() }
        app.run { counter.state.name = "" }
        #expect(log.sent.isEmpty)
        #expect(log.changes.isEmpty)
    }

    @Test func aWriteOutsideAnyDispatchSendsAtOnce() {
        let (app, counter) = counterApp()
        counter.state.count = 5
        #expect(log.sent == [Counter(count: 5)])
        counter.state.name = "five"
        #expect(log.sent == [Counter(count: 5), Counter(count: 5, name: "five")])
        // A whole new value: one send for both fields.
        counter.state = Counter(count: 6, name: "six")
        #expect(log.sent.count == 3)
        #expect(log.changes == ["0→5", "5→5", "5→6"])
        #expect(app.diagnostics.isEmpty)
    }

    @Test func nestedDispatchesSendOnceWhenTheOutermostEnds() {
        let (app, counter) = counterApp()
        app.run { counter.outer.send() }
        // The inner dispatch ended before the outer observer went on, and
        // sent nothing; the outermost end sent every write at once.
        #expect(log.notes == ["after inner: 0 sent"])
        #expect(log.sent == [Counter(count: 11, name: "outer")])
    }

    @Test func writesWhileBindingSendOnceObserversHaveRun() {
        let app = TestApp(root: Preset(log: log))
        #expect(log.notes == ["sent while binding: 0"])
        #expect(log.sent == [Counter(count: 7, name: "preset")])
        #expect(app.root(as: Preset.self)?.state.count == 7)
    }

    @Test func observeChangeGetsTheNewAndTheOldState() {
        let (app, counter) = counterApp()
        app.run { counter.increment.send() }
        app.run { counter.renameAndCountTwice.send("x") }
        #expect(log.changes == ["0→1", "1→3"])
        // `++=` replays the state last sent.
        var replayed: [Counter] = []
        counter.$state ++= { replayed.append($0) }
        #expect(replayed == [Counter(count: 3, name: "x")])
    }

    @Test func mapAndUndupFollowOneField() {
        let (app, counter) = counterApp()
        app.run { counter.increment.send() }
        counter.state.name = "renamed"          // the count did not change
        app.run { counter.increment.send() }
        #expect(log.sent.count == 3)
        #expect(log.counts == [1, 2])
    }

    @Test func eventsNameTheStoreByItsProperty() {
        let (app, counter) = counterApp()
        app.run { counter.increment.send() }
        app.events.expect(
            .sent("counter.increment"),
            .sent("counter.state", Counter(count: 1))
        )
        app.run { counter.rewrite.send() }
        app.events.expect(.sent("counter.rewrite"))
        app.events.expectNoMoreEvents()
    }

    @Test func destroyingTheComponentEndsTheObserversOfItsStore() {
        let (app, counter) = counterApp()
        app.tree.destroy()
        counter.state.count = 1
        #expect(log.sent.isEmpty)
        #expect(counter.$state.observerCount == 0)
    }

    @Test func anUnboundStoreWorksOnItsOwn() {
        let store = Store(wrappedValue: Counter())
        var sent: [Counter] = []
        store.projectedValue += { sent.append($0) }
        store.wrappedValue.count = 1
        store.wrappedValue.count = 1
        #expect(sent == [Counter(count: 1)])
    }
}
