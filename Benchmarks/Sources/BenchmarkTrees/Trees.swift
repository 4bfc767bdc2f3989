public import Compose

// The lower levels of the benchmark trees (up to 1,111 components). The
// upper levels (11,111 and 111,111) are in ComposeBenchmarks/BindBenchmarks.swift.
//
// This module is built with library evolution (see Package.swift): a struct
// tree of 100k components is a 1.6 MB value, and the compiler emits each
// concrete struct's value witnesses (copy, destroy, ...) fully unrolled, one
// retain per emitter. For the 11,111- and 111,111-component types that is
// millions of LLVM instructions (minutes and gigabytes of compile time).
// Behind this resilient boundary the upper levels call `Branch3`'s witnesses
// instead of unrolling them; `Branch3` and below are ordinary fixed-layout
// structs, as in an app.

/// What the leaves' observers add up (printed in the checksum).
@MainActor public var sentToLeaves = 0

/// The unit of the trees: two emitters and two observers.
public struct Leaf: Component {
    public let tap = SignalEmitter()
    public let value = Emitter<Int>()

    public init() {}

    public var observers: Void {
        tap += { value.send(1) }
        value += { number in sentToLeaves &+= number }
    }
}

// Branch levels of ten children each, as stored properties. No generics: a
// generic `Branch<Child>` would also measure generic metadata and witnesses.

/// 11 components: itself and 10 leaves.
public struct Branch1: Component {
    public let c0 = Leaf(), c1 = Leaf(), c2 = Leaf(), c3 = Leaf(), c4 = Leaf()
    public let c5 = Leaf(), c6 = Leaf(), c7 = Leaf(), c8 = Leaf(), c9 = Leaf()
    public init() {}
    public var observers: Void { None }
}

/// 111 components.
public struct Branch2: Component {
    public let c0 = Branch1(), c1 = Branch1(), c2 = Branch1(), c3 = Branch1(), c4 = Branch1()
    public let c5 = Branch1(), c6 = Branch1(), c7 = Branch1(), c8 = Branch1(), c9 = Branch1()
    public init() {}
    public var observers: Void { None }
}

/// 1,111 components.
public struct Branch3: Component {
    public let c0 = Branch2(), c1 = Branch2(), c2 = Branch2(), c3 = Branch2(), c4 = Branch2()
    public let c5 = Branch2(), c6 = Branch2(), c7 = Branch2(), c8 = Branch2(), c9 = Branch2()
    public init() {}
    public var observers: Void { None }
}
