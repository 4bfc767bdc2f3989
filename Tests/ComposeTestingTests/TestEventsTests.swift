import ComposeApp
import ComposeTesting
import Testing

/// Counts `increment`s and sends each new total on `count`.
struct Tally: Component {
    let increment = SignalEmitter()
    let count = Emitter<Int>()
    let total = Count()
    var observers: Void {
        increment += {
            total.value += 1
            count.send(total.value)
        }
    }
}

/// Not empty: two zero-size children of one type share an offset, and a
/// key path cannot tell them apart.
struct Page: Component {
    let open = SignalEmitter()
    var observers: Void { None }
}

/// Two pages behind a router, and a tally (not a route, so never active,
/// but its emitters work).
struct Pages: RouterComponent {
    let tally = Tally()
    let home = Page()
    let settings = Page()
    let router = Router(start: \Self.home)
    var observers: Void {
        tally.count += { total in
            if total == 2 { router.push(\Self.settings) }
        }
    }
}

/// A store whose emitter a test names as code does, `$linesSeen`.
struct Tail: Component {
    @Store var linesSeen = 0
    let line = Emitter<String>()
    var observers: Void {
        line += { _ in linesSeen += 1 }
    }
}

@MainActor
@Suite struct TestEventsTests {
    @Test func sendsAreRecordedWithTheirPathValueAndVirtualTime() throws {
        let app = TestApp(root: Tally())
        let tally = try #require(app.root(as: Tally.self))
        app.advance(by: .seconds(3))
        app.run { tally.increment.send() }
        #expect(app.events.unasserted.map(\.description) == ["3s tally.increment sent", "3s tally.count sent 1"])
        app.events.expect(.sent("tally.increment", at: .seconds(3)), .sent("count", 1))
        #expect(app.events.unasserted.isEmpty)
        // Recording is not an observer of the app's.
        #expect(tally.count.observerCount == 0)
        #expect(tally.increment.observerCount == 1)
    }

    @Test func anEmitterWhoseObserversWereAllRemovedIsStillRecorded() throws {
        let app = TestApp(root: Tally())
        let tally = try #require(app.root(as: Tally.self))
        app.run {
            tally.increment.removeAllObservers()
            tally.increment.send()
        }
        app.events.expect(.sent("tally.increment"))
        #expect(tally.total.value == 0)
    }

    @Test func whatTheAppDidWhileStartingNeedsNoAssertion() throws {
        let app = TestApp(root: Pages())
        #expect(app.events.map(\.description) == ["0s pages didAppear", "0s pages.home didAppear", "0s pages.home didEnterFocus"])
        #expect(app.events.unasserted.isEmpty)
        app.events.expectNoMoreEvents()
    }

    @Test func lifecycleAndRouteChangesAreEventsInTheOrderTheyHappened() throws {
        let app = TestApp(root: Pages())
        let pages = try #require(app.root(as: Pages.self))
        app.run { pages.tally.increment.send() }
        app.advance(by: .seconds(1))
        app.run { pages.tally.increment.send() }
        app.events.expect(
            .sent("tally.increment", at: .zero),
            .sent("tally.count", 1),
            .sent("tally.increment", at: .seconds(1)),
            .sent("tally.count", 2),
            .didLeaveFocus("home"),
            .didAppear("settings"),
            .didEnterFocus("settings"),
            .routed("pages", to: "settings")
        )
    }

    @Test func aResourcesEmitterIsNamedByTheResource() throws {
        let app = TestApp(root: Heartbeat())
        app.advance(by: .seconds(120))
        app.events.expect(.sent("heartbeat.minute", at: .seconds(60)), .sent("heartbeat.minute", at: .seconds(120)))
    }

    @Test func exhaustiveModeFailsOnAnUnassertedEventAndNamesIt() throws {
        let app = TestApp(root: Tally())
        let tally = try #require(app.root(as: Tally.self))
        app.run { tally.increment.send() }
        withKnownIssue {
            app.events.expect(.sent("tally.count", 1))
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("Unasserted event before \"tally.count sent 1\":\n  0s tally.increment sent") }
        }
        #expect(app.events.unasserted.isEmpty)
    }

    @Test func eventsLeftUnassertedFailTheTestWhenTheAppGoesAway() throws {
        var app: TestApp? = TestApp(root: Tally())
        let tally = try #require(app?.root(as: Tally.self))
        app?.run {
            tally.increment.send()
            tally.increment.send()
        }
        app?.events.expect(.sent("tally.increment"), .sent("tally.count", 1))
        withKnownIssue {
            app = nil
        } matching: { issue in
            issue.comments.contains { $0.rawValue == "2 unasserted events:\n  0s tally.increment sent\n  0s tally.count sent 2" }
        }
    }

    @Test func anExpectedEventThatDidNotHappenFailsListingWhatDid() throws {
        let app = TestApp(root: Tally())
        let tally = try #require(app.root(as: Tally.self))
        app.run { tally.increment.send() }
        withKnownIssue {
            app.events.expect(.sent("tally.count", 2))
        } matching: { issue in
            issue.comments.contains { $0.rawValue.hasPrefix("Expected \"tally.count sent 2\", which did not happen. Events since the last assertion:\n  0s tally.increment sent") }
        }
        app.events.skipAll()
    }

    @Test func nonExhaustiveModeSkipsWhatIsNotAsserted() throws {
        let app = TestApp(root: Pages())
        app.events.exhaustivity = .off
        let pages = try #require(app.root(as: Pages.self))
        app.run {
            pages.tally.increment.send()
            pages.tally.increment.send()
        }
        app.events.expect(.didAppear("settings"))
        #expect(app.events.unasserted.map(\.description) == ["0s pages.settings didEnterFocus", "0s pages routed to settings"])
        app.events.skipAll()
    }

    @Test func nonExhaustiveModeCanListWhatItSkipped() throws {
        let app = TestApp(root: Tally())
        app.events.exhaustivity = .off(showSkipped: true)
        let tally = try #require(app.root(as: Tally.self))
        app.run { tally.increment.send() }
        // The skipped event is shown as a known issue, which does not fail.
        app.events.expect(.sent("tally.count", 1))
        #expect(app.events.unasserted.isEmpty)
    }

    @Test func twoAppsRecordOnlyTheirOwnEvents() throws {
        let first = TestApp(root: Tally())
        let second = TestApp(root: Tally())
        let tally = try #require(first.root(as: Tally.self))
        first.run { tally.increment.send() }
        #expect(first.events.unasserted.count == 2)
        #expect(second.events.unasserted.isEmpty)
        first.events.skipAll()
    }

    @Test func aStoresEmitterCanBeNamedAsCodeWritesIt() throws {
        let app = TestApp(root: Tail())
        let tail = try #require(app.root(as: Tail.self))
        app.run { tail.line.send("a") }
        app.run { tail.line.send("b") }
        #expect(app.events.unasserted.map(\.description) == ["0s tail.line sent a", "0s tail.linesSeen sent 1", "0s tail.line sent b", "0s tail.linesSeen sent 2"])
        // `$linesSeen` (with or without the root's label) and `linesSeen`
        // name the same emitter.
        app.events.expect(.sent("line", "a"), .sent("tail.$linesSeen", 1), .sent("line", "b"), .sent("$linesSeen", 2))
    }

    @Test func aPathSpelledAsTheStoresStorageFailsNamingThePathToWrite() throws {
        let app = TestApp(root: Tail())
        let tail = try #require(app.root(as: Tail.self))
        app.run { tail.line.send("a") }
        app.events.expect(.sent("line", "a"))
        withKnownIssue {
            app.events.expect(.sent("tail._linesSeen", 1))
        } matching: { issue in
            issue.comments.contains { $0.rawValue.hasPrefix("Expected \"tail._linesSeen sent 1\", which did not happen. Events name it \"tail.linesSeen\"") }
        }
        app.events.skipAll()
    }
}
