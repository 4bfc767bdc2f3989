public import Compose

/// Binds a component tree for a test, with no event loop: virtual time,
/// recorded diagnostics, and direct access to nodes. The tree's context is
/// a test context: loop resources in it (`LoopTimer`, `ProcessSignal`) run
/// on the virtual clock.
///
/// ```swift
/// @MainActor @Test func logInOpensHome() {
///     let host = TestHost(AppComponent())
///     host.root.auth.logIn.send()
///     #expect(host.diagnostics.isEmpty)
/// }
/// ```
@MainActor
public final class TestHost<Root: Component> {
    /// The bound tree.
    public let tree: ComponentTree
    /// The tree's clock; advance it to run timers, `debounce`, `delay`, ...
    public let scheduler: VirtualScheduler
    /// The root component value (it shares every emitter with the bound one).
    public let root: Root
    /// Every diagnostic the tree reported, binding included, in order.
    public var diagnostics: [Diagnostic] { collector.diagnostics }
    private let collector: DiagnosticCollector
    /// The tree's log, kept in memory: a test run prints no log line unless
    /// `COMPOSE_TEST_LOG` asks for it (see ``TestLog``).
    public var logs: [TestLog.Entry] { log.entries }
    /// Where ``logs`` are kept.
    public let log = TestLog()

    /// Binds `root`; activates it unless `activate` is `false`.
    public init(_ root: Root, activate: Bool = true) {
        let scheduler = VirtualScheduler()
        self.scheduler = scheduler
        self.root = root
        let reported = Emitter<Diagnostic>()
        let collector = DiagnosticCollector()
        reported += { collector.diagnostics.append($0) }
        self.collector = collector
        let context = AppContext(name: "test", isSimulated: true, scheduler: scheduler, logger: log.makeLogger(), diagnostics: reported)
        self.tree = ComponentTree(root, context: context)
        if activate { tree.activate() }
    }

    /// The node at a label path (`"app.auth.logIn"` or `"auth.logIn"`).
    public func node(_ path: String) -> ComponentNode? {
        tree.node(at: path)
    }

    /// Advances virtual time. Not reentrant: called from an action of the
    /// clock or an observer it calls, it stops the process (see
    /// `VirtualScheduler.advance(by:)`).
    public func advance(by duration: Duration) {
        if scheduler.isRunningActions { ReentryGuard.reentered("TestHost.advance(by:)", from: VirtualScheduler.actionCode) }
        scheduler.advance(by: duration)
    }
}

@MainActor
private final class DiagnosticCollector {
    var diagnostics: [Diagnostic] = []
}
