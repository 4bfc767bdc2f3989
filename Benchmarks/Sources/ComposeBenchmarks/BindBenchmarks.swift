import BenchmarkTrees
import Compose

// Binding trees of 1,111, 11,111 and 111,111 components against a bare
// recursive `Mirror` walk of the same values (the cheapest generic way to
// visit every stored property of a struct tree). `Leaf` and `Branch1` to
// `Branch3` are in the BenchmarkTrees module (it says why).

/// 11,111 components.
struct Branch4: Component {
    let c0 = Branch3(), c1 = Branch3(), c2 = Branch3(), c3 = Branch3(), c4 = Branch3()
    let c5 = Branch3(), c6 = Branch3(), c7 = Branch3(), c8 = Branch3(), c9 = Branch3()
    var observers: Void { None }
}

/// 111,111 components.
struct Branch5: Component {
    let c0 = Branch4(), c1 = Branch4(), c2 = Branch4(), c3 = Branch4(), c4 = Branch4()
    let c5 = Branch4(), c6 = Branch4(), c7 = Branch4(), c8 = Branch4(), c9 = Branch4()
    var observers: Void { None }
}

struct BindResult {
    let components: Int
    /// Nanoseconds per component.
    let bind: Double
    let mirrorWalk: Double
}

enum BindBenchmarks {
    /// Components per batch: the batch binds this many components' worth of
    /// whole trees (100 trees of 1,111, 10 of 11,111, 1 of 111,111).
    static let componentsPerBatch = 111_111

    /// Binds trees made by `make` and walks them with `Mirror`. The roots are
    /// existentials, i.e. boxed on the heap: a 100k-component value is
    /// 1.6 MB, and a few stack copies of it would overflow the main thread's
    /// stack.
    @MainActor
    static func run(_ make: @escaping @MainActor () -> any Component, sink: Sink) -> BindResult {
        // Count the components exactly, twice: by walking the value and by
        // asking a bound tree.
        let components = mirrorWalk(make(), sink: sink)
        let tree = ComponentTree(make())
        precondition(tree.liveNodeCount == components, "bound \(tree.liveNodeCount) nodes, walked \(components)")
        tree.destroy()

        let trees = Swift.max(1, componentsPerBatch / components)
        let perTree = Harness.measure([
            Variant("Mirror walk", operations: trees) { count in
                let roots = (0..<count).map { _ in make() }
                var walked = 0
                let elapsed = timed {
                    for root in roots { walked &+= mirrorWalk(root, sink: sink) }
                }
                precondition(walked == components * count)
                return elapsed
            },
            Variant("bind", operations: trees) { count in
                let roots = (0..<count).map { _ in make() }
                var bound: [ComponentTree] = []
                bound.reserveCapacity(count)
                let elapsed = timed {
                    for root in roots { bound.append(ComponentTree(root)) }
                }
                // Destroying breaks the observer cycles (a leaf's observer
                // captures the leaf); untimed, like building the values.
                for tree in bound { tree.destroy() }
                return elapsed
            },
        ], rounds: 7)
        let count = Double(components)
        return BindResult(components: components, bind: perTree[1] / count, mirrorWalk: perTree[0] / count)
    }

    /// Visits every stored property of `value` with `Mirror`, recursing into
    /// the ones that are components; returns how many components it met.
    @MainActor
    static func mirrorWalk(_ value: Any, sink: Sink) -> Int {
        var components = 1
        for child in Mirror(reflecting: value).children {
            sink.sum &+= 1
            if child.value is any Component {
                components += mirrorWalk(child.value, sink: sink)
            }
        }
        return components
    }
}
