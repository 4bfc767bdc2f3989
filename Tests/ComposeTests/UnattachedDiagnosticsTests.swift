import Compose
import ComposeTesting
import Testing

/// Diagnostics about values that belong to no tree: collected by the
/// calling task's scope, never by a process-wide emitter.
@MainActor
@Suite struct UnattachedDiagnosticsTests {
    @Test func aScopeCollectsWhatItsBodyReportsOutsideAnyApp() {
        let loose = AuthFlow()
        let reported = Diagnostics.collectUnattached { loose.router.pop() }
        #expect(reported.map(\.code) == [.routerNotBound])
    }

    @Test func theInnermostScopeCollects() {
        let loose = AuthFlow()
        var inner: [Diagnostic] = []
        let outer = Diagnostics.collectUnattached {
            loose.router.pop()
            inner = Diagnostics.collectUnattached { loose.router.replace(\AuthFlow.signUp) }
        }
        #expect(outer.count == 1)
        #expect(outer.first?.message.hasPrefix("pop") == true)
        #expect(inner.count == 1)
        #expect(inner.first?.message.hasPrefix("replace") == true)
    }

    @Test func aDiagnosticOfARunningAppGoesToThatAppNotToTheScope() {
        let host = TestHost(AppFlow())
        let loose = AuthFlow()
        let reported = Diagnostics.collectUnattached {
            host.tree.context.run { loose.router.pop() }
        }
        #expect(reported.isEmpty)
        #expect(host.diagnostics.map(\.code) == [.routerNotBound])
    }
}
