import Compose
import ComposeTesting
import Testing

@MainActor
@Suite struct RouterTests {
    @Test func onlyRoutesOnTheStackAreActive() {
        let host = TestHost(AppFlow())
        let active = host.tree.allNodes.filter(\.isActive).map(\.path)
        #expect(active == ["appFlow", "appFlow.auth", "appFlow.auth.logIn"])
        #expect(host.tree.focusedNode?.path == "appFlow.auth.logIn")
    }

    @Test func activationOrderFollowsTheStartRoutes() {
        let host = TestHost(AppFlow(), activate: false)
        let log = recordLifecycle(of: host.tree)
        host.tree.activate()
        #expect(log.events == ["appear appFlow", "appear auth", "appear logIn", "focus logIn"])
    }

    @Test func replaceDeactivatesTheOldSubtreeThenActivatesTheNewOne() {
        let host = TestHost(AppFlow())
        let log = recordLifecycle(of: host.tree)
        host.root.router.replace(\AppFlow.home)
        #expect(log.events == [
            "unfocus logIn",
            "disappear logIn", "disappear auth",
            "appear home",
            "focus home",
        ])
        #expect(host.root.router.path == \AppFlow.home)
        #expect(host.root.router.paths.map(\.label) == ["home"])
    }

    @Test func pushKeepsLowerEntriesActiveAndMovesFocusToTheTop() {
        let host = TestHost(AppFlow())
        host.root.router.replace(\AppFlow.home)
        let log = recordLifecycle(of: host.tree)
        host.root.home.router.push(\HomeFlow.feed)
        #expect(log.events == ["unfocus home", "appear feed", "appear post", "focus feed"])
        #expect(host.node("home")?.isActive == true)
        #expect(host.root.home.router.paths.map(\.label) == ["self", "feed"])
        log.clear()
        host.root.home.router.push(\HomeFlow.settings)
        #expect(log.events == ["unfocus feed", "appear settings", "focus settings"])
        #expect(host.node("home.feed")?.isActive == true)
    }

    @Test func popDeactivatesTheTopChildrenFirst() {
        let host = TestHost(AppFlow())
        host.root.router.replace(\AppFlow.home)
        host.root.home.router.push(\HomeFlow.feed)
        let log = recordLifecycle(of: host.tree)
        host.root.home.router.pop()
        #expect(log.events == ["unfocus feed", "disappear post", "disappear feed", "focus home"])
        #expect(host.root.home.router.path == \HomeFlow.self)
    }

    @Test func aRouteEqualsTheKeyPathThatNamesItAndNoOther() {
        let host = TestHost(AppFlow())
        let route = host.root.router.path
        #expect(route == \AppFlow.auth)
        #expect(\AppFlow.auth == route)
        #expect(route != \AppFlow.home)
        #expect(route != \AppFlow.self)
        // Same type, not a stored child: a computed property.
        #expect(route != \AppFlow.sameAuth)
        // Same offset and type, another component's key path.
        #expect(route != \Mirrored.auth)
        let home = host.root.home.router.path
        #expect(home == \HomeFlow.self)
        #expect(home != \HomeFlow.feed)
        #expect(home != \HomeFlow.itself)
        host.root.home.router.push(\HomeFlow.feed)
        #expect(host.root.home.router.path == \HomeFlow.feed)
        #expect(host.root.home.router.path != \HomeFlow.self)
    }

    @Test func popToRootRemovesEveryRouteAboveTheStartTopFirst() {
        let host = TestHost(AppFlow())
        host.root.router.replace(\AppFlow.home)
        host.root.home.router.push(\HomeFlow.feed)
        host.root.home.router.push(\HomeFlow.settings)
        let log = recordLifecycle(of: host.tree)
        var popped: [String] = []
        host.root.home.router.didPop += { popped.append($0.label) }
        host.root.home.router.popToRoot()
        #expect(log.events == [
            "unfocus settings", "disappear settings", "disappear post", "disappear feed", "focus home",
        ])
        #expect(popped == ["settings", "feed"])
        #expect(host.diagnostics.isEmpty)
    }

    @Test func popToRootAfterReplaceGoesBackToTheStartRoute() {
        let host = TestHost(AppFlow())
        host.root.router.replace(\AppFlow.home)
        host.root.router.popToRoot()
        #expect(host.root.router.path == \AppFlow.auth)
        #expect(host.tree.focusedNode?.path == "appFlow.auth.logIn")
    }

    @Test func routingEmittersReportEveryChange() {
        let host = TestHost(AppFlow())
        let home = host.root.home.router
        host.root.router.replace(\AppFlow.home)
        var events: [String] = []
        home.didPush += { events.append("push \($0.label)") }
        home.didPop += { events.append("pop \($0.label)") }
        home.didReplace += { events.append("replace \($0.label)") }
        home.didChangePath += { events.append("path \($0.label)") }
        home.push(\HomeFlow.feed)
        home.pop()
        home.replace(\HomeFlow.settings)
        #expect(events == [
            "push feed", "path feed",
            "pop feed", "path self",
            "replace settings", "path settings",
        ])
    }

    @Test func routingAnInactiveRouterChangesItsStackWithoutActivating() {
        let host = TestHost(AppFlow())
        host.root.home.router.push(\HomeFlow.settings)
        #expect(host.node("home.settings")?.isActive == false)
        host.root.router.replace(\AppFlow.home)
        #expect(host.node("home.settings")?.isActive == true)
        #expect(host.tree.focusedNode?.path == "appFlow.home.settings")
    }

    // MARK: Bad input

    @Test func pushingARouteAlreadyOnTheStackIsADiagnosticWithNoChange() {
        let host = TestHost(AppFlow())
        let log = recordLifecycle(of: host.tree)
        host.root.auth.router.push(\AuthFlow.logIn)
        #expect(host.diagnostics.map(\.code) == [.routeAlreadyOnStack])
        #expect(host.diagnostics.first?.path == "appFlow.auth")
        #expect(host.root.auth.router.paths.map(\.label) == ["logIn"])
        #expect(log.events.isEmpty)
    }

    @Test func poppingTheLastRouteIsADiagnosticWithNoChange() {
        let host = TestHost(AppFlow())
        host.root.router.pop()
        #expect(host.diagnostics.map(\.code) == [.emptyStack])
        #expect(host.root.router.path == \AppFlow.auth)
        #expect(host.node("auth")?.isActive == true)
    }

    @Test func aKeyPathThatIsNotAStoredChildIsADiagnosticNamingTheRoutes() {
        struct Odd: RouterComponent {
            let one = Screen()
            let two = Screen()
            let name = "odd"
            var computed: Screen { one }
            let router = Router(start: \Self.one)
            var observers: Void { None }
        }
        let host = TestHost(Odd())
        host.root.router.push(\Odd.computed)
        host.root.router.push(\Odd.one.open)
        host.root.router.replace(\Odd.name)
        #expect(host.diagnostics.map(\.code) == [.invalidRoute, .invalidRoute, .invalidRoute])
        #expect(host.diagnostics.first?.message.contains("Routes: \\Self.self, \\Self.one, \\Self.two") == true)
        #expect(host.root.router.paths.map(\.label) == ["one"])
    }

    /// Zero-size: two of them in one component share an offset, so
    /// `\Self.home` and `\Self.settings` are the same key path.
    struct Blank: Component {
        var observers: Void { None }
    }

    @Test func zeroSizeSiblingsOfOneTypeAreReportedAtBindNamingBoth() throws {
        struct Twins: RouterComponent {
            let start = Screen()
            let home = Blank()
            let settings = Blank()
            let router = Router(start: \Self.start)
            var observers: Void { None }
        }
        #expect(MemoryLayout<Blank>.size == 0)
        let host = TestHost(Twins())
        #expect(host.diagnostics.map(\.code) == [.ambiguousRoute])
        let message = try #require(host.diagnostics.first?.message)
        #expect(message.contains("cannot tell \\Self.home and \\Self.settings apart"), "\(message)")
        #expect(host.root.router.paths.map(\.label) == ["start"])
    }

    @Test func pushingEitherZeroSizeSiblingIsRefusedNotRoutedToTheOther() throws {
        struct Twins: RouterComponent {
            let start = Screen()
            let home = Blank()
            let settings = Blank()
            let router = Router(start: \Self.start)
            var observers: Void { None }
        }
        let host = TestHost(Twins())
        let bound = host.diagnostics.count
        host.root.router.push(\Twins.settings)
        host.root.router.push(\Twins.home)
        let refusals = host.diagnostics.dropFirst(bound)
        #expect(refusals.map(\.code) == [.ambiguousRoute, .ambiguousRoute])
        #expect(refusals.allSatisfy { $0.message.contains("names \\Self.home and \\Self.settings alike") })
        // Nothing was routed to the wrong sibling (before: `home`).
        #expect(host.root.router.paths.map(\.label) == ["start"])
        #expect(host.node("twins.home")?.isActive == false)
        #expect(host.node("twins.settings")?.isActive == false)
        // By label, each is reachable and the right one.
        try host.tree.open("settings")
        #expect(host.root.router.paths.map(\.label) == ["settings"])
        #expect(host.node("twins.settings")?.isActive == true)
        #expect(host.node("twins.home")?.isActive == false)
    }

    @Test func zeroSizeChildrenOfDifferentTypesStayDistinct() {
        struct Other: Component { var observers: Void { None } }
        struct Mixed: RouterComponent {
            let start = Screen()
            let home = Blank()
            let settings = Other()
            let router = Router(start: \Self.start)
            var observers: Void { None }
        }
        let host = TestHost(Mixed())
        host.root.router.push(\Mixed.settings)
        #expect(host.diagnostics.isEmpty)
        #expect(host.root.router.paths.map(\.label) == ["start", "settings"])
    }

    @Test func aKeyPathRootedAtAnotherComponentIsADiagnostic() {
        let host = TestHost(AppFlow())
        host.root.router.push(\HomeFlow.feed)
        #expect(host.diagnostics.map(\.code) == [.invalidRoute])
        #expect(host.diagnostics.first?.message.contains("starts at HomeFlow, but this router belongs to AppFlow") == true)
    }

    @Test func aBadStartRouteIsReportedAtBind() {
        struct BadStart: RouterComponent {
            let one = Screen()
            var computed: Screen { one }
            let router = Router(start: \Self.computed)
            var observers: Void { None }
        }
        let host = TestHost(BadStart())
        #expect(host.diagnostics.map(\.code) == [.invalidRoute])
        #expect(host.node("one")?.isActive == false)
    }

    @Test func routingAnUnboundRouterIsADiagnostic() {
        let loose = AuthFlow()
        let reported = Diagnostics.collectUnattached {
            loose.router.replace(\AuthFlow.signUp)
            loose.router.pop()
        }
        #expect(reported.map(\.code) == [.routerNotBound, .routerNotBound])
        #expect(loose.router.path == \AuthFlow.logIn)
    }

    @Test func routingADestroyedTreeIsADiagnostic() {
        let host = TestHost(AppFlow())
        let router = host.root.router
        host.tree.destroy()
        router.replace(\AppFlow.home)
        #expect(host.diagnostics.map(\.code) == [.routerNotBound])
    }

    // MARK: Endurance

    @Test func tenThousandPushPopCyclesLeaveNothingBehind() {
        let host = TestHost(AppFlow())
        host.root.router.replace(\AppFlow.home)
        let home = host.root.home.router
        let before = host.tree.statistics
        let nodes = host.tree.liveNodeCount
        let feedObservers = host.root.home.feed.post.open.observerCount
        for _ in 0..<10_000 {
            home.push(\HomeFlow.feed)
            home.pop()
            host.root.router.replace(\AppFlow.auth)
            host.root.router.replace(\AppFlow.home)
        }
        #expect(host.tree.statistics == before)
        #expect(host.tree.liveNodeCount == nodes)
        #expect(host.root.home.feed.post.open.observerCount == feedObservers)
        #expect(home.didPush.observerCount == 0)
        #expect(host.diagnostics.isEmpty)
        #expect(host.tree.focusedNode?.path == "appFlow.home")
    }
}

private struct Mirrored: Component {
    let auth = AuthFlow()
    var observers: Void { None }
}

extension AppFlow {
    var sameAuth: AuthFlow { auth }
}

extension HomeFlow {
    var itself: HomeFlow { self }
}
