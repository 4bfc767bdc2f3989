import ComposeApp
import ComposeTesting
import Testing

// Sources/Compose/Compose.docc/KeepingState.md: how a component reaches
// state and objects above it without the root relaying everything. The
// store, persistence and validation blocks are the README's
// (StateSampleTests); these are the rest.

struct PlayerSettings: Equatable { var volume = 5 }

struct PlayerComponent: Component {
    @Store var settings = PlayerSettings()
    let louder = SignalEmitter()
    let badge = VolumeBadge()
}

extension PlayerComponent {
    var observers: Void {
        louder += { settings.volume += 1 }
    }
}

struct VolumeBadge: Component {
    @MappedStore(\PlayerComponent.$settings) var settings = PlayerSettings()
    let shown = Emitter<String>()
}

extension VolumeBadge {
    var observers: Void {
        $settings.map(\.volume).undup() += { shown.send("volume \($0)") }
    }
}

struct Session: Equatable { var user: String? }

struct LogInForm: Component {
    @Ref("session") var session = Session()
    let logIn = Emitter<String>()
    var observers: Void {
        logIn += { name in session.user = name }
    }
}

struct WelcomeBanner: Component {
    @Ref("session") var session = Session()
    let text = Emitter<String>()
    var observers: Void {
        $session += { text.send("Hello, \($0.user ?? "guest")") }
    }
}

@MainActor
final class PriceList {
    var prices = ["tea": 3, "cake": 4]
}

struct Checkout: Component {
    @Service var priceList: PriceList?
    let add = Emitter<String>()
    let total = Emitter<Int>()
    var observers: Void {
        add += { item in
            total.send((total.lastValue ?? 0) + (priceList?.prices[item] ?? 0))
        }
    }
}

struct Storefront: Component {
    let logInForm = LogInForm()
    let banner = WelcomeBanner()
    let checkout = Checkout()
    var observers: Void { None }
}

extension Storefront: StartupComponent {
    static func registerServices(in services: ServiceRegistry) {
        services.register(PriceList.self) { PriceList() }
    }
}

@MainActor
@Suite struct KeepingStateArticleTests {
    @Test func aMirrorFollowsTheAncestorsStore() {
        let host = TestHost(PlayerComponent())
        var shown: [String] = []
        host.root.badge.shown += { shown.append($0) }
        host.root.louder.send()
        #expect(shown == ["volume 6"])
        #expect(host.root.badge.settings.volume == 6)
        #expect(host.diagnostics.isEmpty)
    }

    @Test func aSharedReferenceIsOneValueForTheWholeApp() throws {
        let app = TestApp(Storefront.self)
        let store = try #require(app.root(as: Storefront.self))
        app.run { store.logInForm.logIn.send("Ada") }
        #expect(store.banner.session.user == "Ada")
        #expect(store.banner.text.lastValue == "Hello, Ada")
    }

    @Test func aServiceIsReadFromTheAppsRegistry() throws {
        let app = TestApp(Storefront.self)
        let store = try #require(app.root(as: Storefront.self))
        app.run {
            store.checkout.add.send("tea")
            store.checkout.add.send("cake")
        }
        #expect(store.checkout.total.lastValue == 7)
        #expect(app.diagnostics.isEmpty)
    }

    @Test func aTestReplacesAService() throws {
        let app = TestApp(Storefront.self, services: { services in
            services.register(PriceList.self) {
                let sale = PriceList()
                sale.prices["tea"] = 1
                return sale
            }
        })
        let store = try #require(app.root(as: Storefront.self))
        app.run { store.checkout.add.send("tea") }
        #expect(store.checkout.total.lastValue == 1)
    }
}
