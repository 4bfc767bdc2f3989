import BenchmarkTrees
import Compose

// Instructions per bound component at two tree sizes (issue #17's bind
// scaling target: binding a 111,111-component tree should cost about ten
// times an 11,111-component one). The same trees as the wall-time `bind`
// section (ComposeBenchmarks/BindBenchmarks.swift), redeclared here above
// BenchmarkTrees' resilient levels. Only `bindTrees` is meant to be
// counted, so that building the values and destroying the trees stay out
// of the count. From Benchmarks/, after a release build:
//
//     objcopy --strip-debug .build/release/InstructionCounts /tmp/ic
//     valgrind --tool=callgrind --toggle-collect='*bindTrees*' /tmp/ic bind-11111 10
//     valgrind --tool=callgrind --toggle-collect='*bindTrees*' /tmp/ic bind-111111 1
//
// and divide each "Collected" by the components bound (111,110; 111,111).

/// 11,111 components.
struct BindTree4: Component {
    let c0 = Branch3(), c1 = Branch3(), c2 = Branch3(), c3 = Branch3(), c4 = Branch3()
    let c5 = Branch3(), c6 = Branch3(), c7 = Branch3(), c8 = Branch3(), c9 = Branch3()
    var observers: Void { None }
}

/// 111,111 components.
struct BindTree5: Component {
    let c0 = BindTree4(), c1 = BindTree4(), c2 = BindTree4(), c3 = BindTree4(), c4 = BindTree4()
    let c5 = BindTree4(), c6 = BindTree4(), c7 = BindTree4(), c8 = BindTree4(), c9 = BindTree4()
    var observers: Void { None }
}

enum BindCost {
    /// Binds `trees` trees of `components` components (11,111 or 111,111),
    /// as the wall-time benchmark's batch does, then destroys them.
    @MainActor
    static func run(components: Int, trees: Int) -> Bool {
        let make: @MainActor () -> any Component
        switch components {
        case 11_111: make = { BindTree4() }
        case 111_111: make = { BindTree5() }
        default: return false
        }
        // Boxed roots, as in the benchmark (a 111,111-component value is
        // 1.6 MB: stack copies of it would overflow the main thread's stack).
        let roots = (0..<trees).map { _ in make() }
        let bound = bindTrees(roots)
        for tree in bound {
            precondition(tree.liveNodeCount == components)
            tree.destroy()
        }
        return true
    }

    @MainActor @inline(never)
    static func bindTrees(_ roots: [any Component]) -> [ComponentTree] {
        var bound: [ComponentTree] = []
        bound.reserveCapacity(roots.count)
        for root in roots { bound.append(ComponentTree(root)) }
        return bound
    }
}
