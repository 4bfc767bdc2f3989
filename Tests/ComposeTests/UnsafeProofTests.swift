@_spi(Testing) @testable import Compose
import ComposeTesting
import Testing

/// The proofs in docs/unsafe.md that no other test covered, and the layout
/// and alignment facts that unsafe code relies on (issue #28: "never assume
/// a struct's field layout or an object's alignment without asserting
/// it"). Each test names the entry it backs.
///
/// If a proof is wrong, the lifetime tests read freed memory:
/// `make test-asan` reports a heap-use-after-free, and a plain build may
/// crash or fail an expectation. The layout tests fail in any build.
@MainActor
@Suite struct UnsafeProofTests {
    struct Leaf: Component {
        let changed = Emitter<Int>()
        var observers: Void { None }
    }

    struct Middle: Component {
        let leaf = Leaf()
        let ping = SignalEmitter()
        var observers: Void { None }
    }

    struct Top: Component {
        let count = Emitter<Int>()
        let middle = Middle()
        let label = "top"
        let done = SignalEmitter()
        var observers: Void { None }
    }

    struct Counter: Equatable {
        var count = 0
    }

    // MARK: Layout and alignment

    /// `EmitterStorage.Slot`: the observer state rides in the two low bits
    /// of the scope node's address. Swift objects are at least 8-byte
    /// aligned (16 with glibc's malloc); `Slot.init` asserts it on every
    /// registration in debug builds, and this checks it for every node of
    /// a bound tree, with the round trip of a tagged word.
    @Test func everyNodeLeavesTheTwoLowBitsOfItsAddressFreeForTheObserverState() {
        let host = TestHost(Top())
        var nodes = [host.tree.root]
        var index = 0
        while index < nodes.count {
            nodes += nodes[index].children
            index += 1
        }
        #expect(nodes.count == 3)
        let mask = EmitterStorage<Int>.Slot.stateMask
        for node in nodes {
            let scope = Unmanaged.passUnretained(node)
            #expect(UInt(bitPattern: scope.toOpaque()) & mask == 0)
            for state in [EmitterStorage<Int>.SlotState.live, .once, .cancelled] {
                let slot = EmitterStorage<Int>.Slot(id: 7, state: state, scope: scope)
                #expect(slot.state == state)
                #expect(EmitterStorage<Int>.Slot.scope(ofWord: slot.word)?.toOpaque() == scope.toOpaque())
            }
        }
        let unscoped = EmitterStorage<Int>.Slot(id: 1, state: .once, scope: nil)
        #expect(EmitterStorage<Int>.Slot.scope(ofWord: unscoped.word) == nil)
        #expect(unscoped.state == .once)
    }

    /// `EmitterStorage.Slot` is 16 bytes, the stride of an observer's
    /// closure, as its comment (and the send benchmark's figures) assume.
    @Test func anObserverSlotHasTheStrideOfAnObserverClosure() {
        #expect(MemoryLayout<EmitterStorage<Int>.Slot>.stride == 16)
        #expect(MemoryLayout<EmitterStorage<Int>.Slot>.stride == MemoryLayout<ObserverBody<Int>>.stride)
        #expect(MemoryLayout<EmitterStorage<Void>.Slot>.stride == MemoryLayout<ObserverBody<Void>>.stride)
    }

    /// `EmitterStorage.scopeCell`: a pointer to `State.currentScope` found
    /// by its offset (not assumed to be the first field). A write through
    /// the cell is a write of that field, and back.
    @Test func theScopeCellIsTheStatesCurrentScopeField() {
        let host = TestHost(Top())
        let scope = Unmanaged.passUnretained(host.tree.root)
        let storage = EmitterStorage<Int>()
        #expect(MemoryLayout<EmitterStorage<Int>.State>.offset(of: \.currentScope) != nil)
        storage.scopeCell.pointee = scope
        #expect(storage.state.pointee.currentScope?.toOpaque() == scope.toOpaque())
        storage.state.pointee.currentScope = nil
        #expect(storage.scopeCell.pointee == nil)
    }

    /// `ComponentLayout.box(at:in:)` and `attachment(at:in:)` load a class
    /// reference as one `UnsafeRawPointer?` word at the offset the
    /// runtime's field metadata (`_forEachField`) gives: a reference is one
    /// pointer-aligned word, and those offsets are the compiler's.
    @Test func bindingFindsEveryBoxAndChildWhereTheCompilerStoredThem() {
        #expect(MemoryLayout<BoundObject>.size == MemoryLayout<UnsafeRawPointer?>.size)
        #expect(MemoryLayout<BoundObject>.alignment == MemoryLayout<UnsafeRawPointer?>.alignment)
        #expect(MemoryLayout<EmitterStorage<Int>>.size == MemoryLayout<UnsafeRawPointer?>.size)

        let host = TestHost(Top())
        let layout = ComponentLayout.of(Top.self)
        let raw = UnsafeRawBufferPointer(start: host.tree.root.address, count: MemoryLayout<Top>.size)
        let boxes = layout.boxOffsets.map { ComponentLayout.box(at: $0, in: raw) }
        let top = host.tree.root.value(as: Top.self)
        #expect(boxes.count == 2)
        #expect(boxes.first??.identity == top?.count.storage.identity)
        #expect(boxes.last??.identity == top?.done.storage.identity)
        #expect(layout.boxLabels == ["count", "done"])
        #expect(layout.children.map(\.label) == ["middle"])
        #expect(layout.children.map(\.offset) == [MemoryLayout<Top>.offset(of: \Top.middle)])
        #expect(layout.boxOffsets.first == MemoryLayout<Top>.offset(of: \Top.count))
    }

    // MARK: Lifetimes

    /// `ComponentNode.parentNode` is `unowned(unsafe)`: a parent clears it
    /// in every child as it goes (its deinit). A child kept after its
    /// tree is gone has no parent, and reading it touches nothing freed.
    @Test func aNodeKeptAfterItsTreeIsGoneHasNoParent() throws {
        var kept: ComponentNode?
        weak var weakParent: ComponentNode?
        weak var weakRoot: ComponentNode?
        do {
            let host = TestHost(Top())
            kept = host.node("top.middle.leaf")
            weakParent = host.node("top.middle")
            weakRoot = host.tree.root
            host.tree.destroy()
        }
        #expect(weakParent == nil)
        #expect(weakRoot == nil)
        let leaf = try #require(kept)
        #expect(leaf.parent == nil)
        #expect(leaf.path == "leaf")
        #expect(leaf.isDestroyed)
    }

    /// `BoundObject.owner` is `unowned(unsafe)`: the owner clears it when
    /// it is destroyed (`tearDown`). An emitter kept after its component
    /// is gone has no owner, and subscribing to it in another scope, which
    /// reads the owner for the ancestor rule, touches nothing freed.
    @Test func anEmitterKeptAfterItsComponentIsGoneHasNoOwnerAndStillWorks() throws {
        var kept: Emitter<Int>?
        weak var weakNode: ComponentNode?
        do {
            let host = TestHost(Top())
            kept = host.tree.root.value(as: Top.self)?.count
            weakNode = host.tree.root
            host.tree.destroy()
        }
        #expect(weakNode == nil)
        let emitter = try #require(kept)
        #expect(emitter.storage.owner == nil)
        #expect(emitter.storage.ruleOwner == nil)

        let other = TestHost(Top())
        var received: [Int] = []
        ObservationContext.withScope(other.tree.root) {
            emitter += { received.append($0) }
        }
        emitter.send(3)
        #expect(received == [3])
        other.tree.destroy()
        emitter.send(4)
        #expect(received == [3])
    }

    /// `DeferredStoreSends` holds each store written during a dispatch
    /// through a retained `Unmanaged` until the outermost dispatch ends: a
    /// store whose last owner lets go of it inside the dispatch still
    /// sends once, then goes.
    @Test func aStoreWrittenAndDroppedDuringADispatchSendsAtItsEndThenGoes() {
        let trigger = SignalEmitter()
        var sent: [Int] = []
        weak var weakBox: StoreBox<Counter>?
        trigger += {
            let store = Store(wrappedValue: Counter())
            weakBox = store.box
            store.projectedValue += { sent.append($0.count) }
            store.wrappedValue.count = 7
            store.wrappedValue.count += 1
            // The only reference left is the deferred-send list's.
        }
        trigger.send()
        #expect(sent == [8])
        #expect(weakBox == nil)
    }

    /// `Subscription`'s cancel action `unsafeDowncast`s the type-erased
    /// storage to the `EmitterStorage<Value>` that made it: a token
    /// cancelled after every other reference to its emitter is gone keeps
    /// the storage alive itself, and cancels the right observer.
    @Test func aTokenOutlivingEveryCopyOfItsEmitterCancelsItsOwnObserver() {
        var calls = 0
        weak var weakStorage: EmitterStorage<Int>?
        var token: Subscription?
        do {
            let emitter = Emitter<Int>()
            weakStorage = emitter.storage
            emitter += { _ in calls += 100 }
            token = emitter += { _ in calls += 1 }
            emitter.send(1)
        }
        #expect(calls == 101)
        #expect(weakStorage != nil)
        #expect(token?.isActive == true)
        token?.cancel()
        #expect(token?.isActive == false)
        token = nil
        #expect(weakStorage == nil)
    }
}

private extension BoundObject {
    var identity: ObjectIdentifier { ObjectIdentifier(self) }
}
