import BenchmarkTrees
import Compose

// Routing in a small and a large tree: the same router, with the same two
// routes of 111 components each, next to 777 plain components (1,001 in
// all) or 99,999 (100,223 in all). Routing touches the routed subtrees
// only, so its cost should not follow the size of the rest of the tree.

/// The router under test: two routes of 111 components (`Branch2`).
struct Routes: RouterComponent {
    let a = Branch2()
    let b = Branch2()
    let router = Router(start: \Self.a)

    var observers: Void { None }
}

/// 1,001 components: the router (223) and seven plain siblings (777).
struct SmallRoutingTree: Component {
    let routes: Routes
    let c0 = Branch2(), c1 = Branch2(), c2 = Branch2(), c3 = Branch2(), c4 = Branch2()
    let c5 = Branch2(), c6 = Branch2()
    var observers: Void { None }
}

/// 100,223 components: the router (223) and nine plain siblings of 11,111.
struct LargeRoutingTree: Component {
    let routes: Routes
    let c0 = Branch4(), c1 = Branch4(), c2 = Branch4(), c3 = Branch4(), c4 = Branch4()
    let c5 = Branch4(), c6 = Branch4(), c7 = Branch4(), c8 = Branch4()
    var observers: Void { None }
}

struct RoutingResult {
    let smallComponents: Int
    let largeComponents: Int
    /// Nanoseconds per `replace` (alternately to `b` and back to `a`).
    let replaceSmall: Double
    let replaceLarge: Double
    /// Nanoseconds per `push(\.b)` + `pop()` pair.
    let pushPopSmall: Double
    let pushPopLarge: Double
}

enum RoutingBenchmarks {
    /// A bound, active tree and its router.
    @MainActor
    struct Subject {
        let tree: ComponentTree
        let router: Router
        let routesPath: String

        /// Binds the root `make` builds around a fresh `Routes`. The roots
        /// are existentials, boxed on the heap (a 100k-component value is
        /// megabytes: see BindBenchmarks).
        init(_ make: (Routes) -> any Component) {
            let routes = Routes()
            tree = ComponentTree(make(routes))
            tree.activate()
            router = routes.router
            routesPath = "routes"
            check()
        }

        /// Routing really happens: each route is active exactly when on the
        /// stack, and nothing is diagnosed.
        private func check() {
            let diagnosed = Sink()
            let token = tree.diagnostics += { _ in diagnosed.sum += 1 }
            defer { token.cancel() }
            func active(_ route: String) -> Bool {
                tree.node(at: "\(routesPath).\(route)")?.isActive == true
            }
            precondition(active("a") && !active("b"))
            router.replace(\Routes.b)
            precondition(!active("a") && active("b"))
            router.replace(\Routes.a)
            router.push(\Routes.b)
            precondition(active("a") && active("b"))
            router.pop()
            precondition(active("a") && !active("b") && diagnosed.sum == 0)
        }

        /// `operations` replaces, alternately to `b` and back to `a`; ends
        /// on `a` (an odd count takes one more, untimed).
        func replace(_ operations: Int) -> Duration {
            let router = router
            let elapsed = timed {
                for index in 0..<operations {
                    router.replace(index & 1 == 0 ? \Routes.b : \Routes.a)
                }
            }
            if operations & 1 == 1 { router.replace(\Routes.a) }
            return elapsed
        }

        /// `operations` pairs of `push(\.b)` and `pop()`.
        func pushPop(_ operations: Int) -> Duration {
            let router = router
            return timed {
                for _ in 0..<operations {
                    router.push(\Routes.b)
                    router.pop()
                }
            }
        }
    }

    @MainActor
    static func run() -> RoutingResult {
        let small = Subject { SmallRoutingTree(routes: $0) }
        let large = Subject { LargeRoutingTree(routes: $0) }
        defer {
            small.tree.destroy()
            large.tree.destroy()
        }
        let replace = Harness.measure([
            Variant("replace, small tree", run: small.replace),
            Variant("replace, large tree", run: large.replace),
        ])
        let pushPop = Harness.measure([
            Variant("push + pop, small tree", run: small.pushPop),
            Variant("push + pop, large tree", run: large.pushPop),
        ])
        return RoutingResult(
            smallComponents: small.tree.liveNodeCount,
            largeComponents: large.tree.liveNodeCount,
            replaceSmall: replace[0], replaceLarge: replace[1],
            pushPopSmall: pushPop[0], pushPopLarge: pushPop[1]
        )
    }
}
