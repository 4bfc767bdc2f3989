import Compose
import ComposeTesting
import Testing

/// An app whose routes go through lazy and dynamic components.
struct LinkedApp: RouterComponent {
    let main = AppFlow()
    let profile: Profile
    let settings = Settings(log: EventLog())
    let router = Router(start: \Self.main)

    init() {
        profile = Profile(log: EventLog(), witness: Witness())
    }

    var observers: Void { None }
}

@MainActor
@Suite struct DeepLinkTests {
    @Test func theCurrentRouteFollowsTheTopRoutes() {
        let host = TestHost(AppFlow())
        #expect(host.tree.currentRoute == "auth/logIn")
        host.root.router.replace(\AppFlow.home)
        #expect(host.tree.currentRoute == "home")
        host.root.home.router.push(\HomeFlow.feed)
        #expect(host.tree.currentRoute == "home/feed")
    }

    @Test func openReplacesAlongTheWayByDefault() throws {
        let host = TestHost(AppFlow())
        try host.tree.open("home/settings")
        #expect(host.tree.currentRoute == "home/settings")
        #expect(host.root.router.paths.map(\.label) == ["home"])
        #expect(host.root.home.router.paths.map(\.label) == ["settings"])
        #expect(host.tree.focusedNode?.path == "appFlow.home.settings")
    }

    @Test func openCanPushAlongTheWay() throws {
        let host = TestHost(AppFlow())
        try host.tree.open("home/feed", mode: .push)
        #expect(host.root.router.paths.map(\.label) == ["auth", "home"])
        #expect(host.root.home.router.paths.map(\.label) == ["self", "feed"])
        #expect(host.tree.currentRoute == "home/feed")
    }

    @Test func openingARouteAlreadyOnAStackPopsBackToIt() throws {
        let host = TestHost(AppFlow())
        try host.tree.open("home/feed", mode: .push)
        try host.tree.open("auth/signUp", mode: .push)
        #expect(host.root.router.paths.map(\.label) == ["auth"])
        #expect(host.tree.currentRoute == "auth/signUp")
        #expect(host.diagnostics.isEmpty)
    }

    @Test func anUnknownSegmentNamesItselfAndTheChoicesAndChangesNothing() {
        let host = TestHost(AppFlow())
        let log = recordLifecycle(of: host.tree)
        #expect {
            try host.tree.open("home/profile")
        } throws: { error in
            guard let error = error as? RouteError else { return false }
            return error.code == .unknownSegment
                && error.segment == "profile"
                && error.choices == ["feed", "settings"]
                && error.message == "Unknown route segment \"profile\" at appFlow.home. Valid choices: \"feed\", \"settings\"."
        }
        #expect(log.events.isEmpty)
        #expect(host.tree.currentRoute == "auth/logIn")
    }

    @Test func openCreatesLazyComponentsOnTheWay() throws {
        let host = TestHost(LinkedApp())
        try host.tree.open("profile/editor")
        #expect(host.root.profile.editor.isCreated)
        #expect(host.tree.currentRoute == "profile/editor")
        #expect(host.tree.focusedNode?.path == "linkedApp.profile.editor.component")
    }

    @Test func openingADynamicComponentThatWasNotCreatedIsAnError() {
        let host = TestHost(LinkedApp())
        #expect {
            try host.tree.open("settings/edit/nothing")
        } throws: { error in
            (error as? RouteError)?.code == .notCreated
        }
        #expect {
            try host.tree.open("settings/edit")
        } throws: { error in
            (error as? RouteError)?.code == .notCreated
        }
        #expect(host.tree.currentRoute == "main/auth/logIn")
        #expect(host.diagnostics.isEmpty)
    }

    @Test func openReachesADynamicComponentOnceCreated() throws {
        let host = TestHost(LinkedApp())
        try host.tree.open("settings")
        host.root.settings.edit.create { Editor(witness: Witness()) }
        try host.tree.open("settings/edit")
        #expect(host.tree.currentRoute == "settings/edit")
        #expect(host.tree.focusedNode?.path == "linkedApp.settings.edit.component")
    }

    @Test func anEmptyRouteIsTheRoot() throws {
        let host = TestHost(AppFlow())
        try host.tree.open("")
        #expect(host.tree.currentRoute == "auth/logIn")
    }
}
