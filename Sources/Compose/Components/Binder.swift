@_spi(Reflection) import Swift

/// Walks a component value and builds its nodes.
///
/// The walk reads stored properties through a per-type layout computed once
/// from the runtime's field metadata (`_forEachField`), so binding costs a
/// few loads per property rather than a `Mirror` per value.
@MainActor
enum Binder {
    /// Binds `value` and its subtree; returns its node. The value is stored
    /// once; every node of the subtree points into that copy.
    static func bind<C: Component>(
        _ value: consuming C,
        label: String,
        parent: ComponentNode?,
        tree: ComponentTree?
    ) -> ComponentNode {
        bind(stored: ValueStorage(value), label: label, parent: parent, tree: tree)
    }

    /// Binds the value `storage` holds and its subtree.
    static func bind<C: Component>(
        stored storage: ValueStorage<C>,
        label: String,
        parent: ComponentNode?,
        tree: ComponentTree?
    ) -> ComponentNode {
        bind(at: storage.pointer, storage: storage, label: label, parent: parent, tree: tree)
    }

    /// Binds the value at `pointer` (inside `storage`) and its subtree.
    private static func bind<C: Component>(
        at pointer: UnsafePointer<C>,
        storage: AnyObject,
        label: String,
        parent: ComponentNode?,
        tree: ComponentTree?
    ) -> ComponentNode {
        let raw = UnsafeRawBufferPointer(start: UnsafeRawPointer(pointer), count: MemoryLayout<C>.size)
        let node = ComponentNode(label: label, type: C.self, address: raw.baseAddress!, storage: storage, parent: parent, tree: tree)
        tree?.nodeBound(node)
        if C.self is AnyClass {
            Diagnostics.report(Diagnostic(
                .componentIsNotAStruct,
                "\(C.self) at \(node.path) is a class; components must be structs. Its stored properties were not bound.",
                path: node.path
            ), in: node)
        } else {
            let layout = ComponentLayout.of(C.self)
            // Claim boxes before binding children: an emitter handed down to
            // a child stays its ancestor's, so the child observing it is
            // caught by the ancestor-observation rule.
            for offset in layout.boxOffsets {
                ComponentLayout.box(at: offset, in: raw)?.claim(by: node)
            }
            for offset in layout.attachmentOffsets {
                if let attachment = ComponentLayout.attachment(at: offset, in: raw) {
                    node.attachments.append(attachment)
                }
            }
            for field in layout.children {
                node.ownChildren.append(bindChild(field.type, at: raw.baseAddress! + field.offset, storage: storage, label: field.label, parent: node, tree: tree))
            }
            node.ownedBoxes.forEach { box in
                if box.owner === node { box.didBindChildren(of: node) }
            }
        }
        ObservationContext.withScope(node) {
            readObservers(of: &UnsafeMutablePointer(mutating: pointer).pointee)
        }
        for attachment in node.attachments { attachment.componentDidBind(node) }
        return node
    }

    /// Reads `observers` of a bound value in place. `pointer.pointee.observers`,
    /// or passing `pointer.pointee` as a `borrowing` argument, copies the
    /// value first (retaining every emitter of its subtree, so binding cost
    /// grew with the tree's depth); an `inout` argument is passed by address.
    /// Nothing is written through it: `observers` is a getter.
    private static func readObservers<C: Component>(of value: inout C) {
        _ = value.observers
    }

    private static func bindChild<T: Component>(
        _ type: T.Type,
        at address: UnsafeRawPointer,
        storage: AnyObject,
        label: String,
        parent: ComponentNode,
        tree: ComponentTree?
    ) -> ComponentNode {
        bind(at: address.assumingMemoryBound(to: T.self), storage: storage, label: label, parent: parent, tree: tree)
    }
}

/// The one stored copy of a bound value; nodes point into it.
@MainActor
final class ValueStorage<Value> {
    let pointer: UnsafeMutablePointer<Value>

    /// Moves `value` in: no copy, so no retain of each emitter it holds.
    init(_ value: consuming Value) {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: value)
    }

    isolated deinit {
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }
}

/// Where a component type keeps its child components and reference boxes.
///
/// A class, computed once per type and shared: a lookup hands out one
/// reference rather than copying five arrays (five retains and releases
/// per bound component as a struct).
final class ComponentLayout {
    struct Child {
        let label: String
        let offset: Int
        let type: any Component.Type
    }

    /// The type this layout describes.
    let type: ObjectIdentifier
    /// Stored properties that are components.
    let children: [Child]
    /// Byte offsets of the framework boxes (``BoundObject`` references)
    /// stored in the value, outside child components.
    let boxOffsets: [Int]
    /// The label of the property holding each box, index for index with
    /// ``boxOffsets`` (event paths name emitters by it).
    let boxLabels: [String]
    /// Byte offsets of stored ``ComponentAttachment`` references.
    let attachmentOffsets: [Int]
    /// The label of each attachment property, index for index with
    /// ``attachmentOffsets``.
    let attachmentLabels: [String]

    private init(type: ObjectIdentifier, children: [Child], boxOffsets: [Int], boxLabels: [String], attachmentOffsets: [Int], attachmentLabels: [String]) {
        self.type = type
        self.children = children
        self.boxOffsets = boxOffsets
        self.boxLabels = boxLabels
        self.attachmentOffsets = attachmentOffsets
        self.attachmentLabels = attachmentLabels
    }

    // Unchecked (both): one lookup or one insertion per access (the layout
    // is computed between them), so accesses cannot overlap; checked,
    // every bound component paid a runtime call.
    #if DEBUG
    @MainActor private static var cache: [ObjectIdentifier: ComponentLayout] = [:]
    #else
    @MainActor @exclusivity(unchecked) private static var cache: [ObjectIdentifier: ComponentLayout] = [:]
    #endif
    /// The layout looked up last: siblings are mostly of one type (a
    /// tree's leaves), and comparing one identifier costs less than hashing it.
    #if DEBUG
    @MainActor private static var last: ComponentLayout?
    #else
    @MainActor @exclusivity(unchecked) private static var last: ComponentLayout?
    #endif

    @MainActor static func of(_ type: any Component.Type) -> ComponentLayout {
        let key = ObjectIdentifier(type)
        if let last, last.type == key { return last }
        if let cached = cache[key] {
            last = cached
            return cached
        }
        var children: [Child] = []
        var boxOffsets: [Int] = []
        var boxLabels: [String] = []
        var attachmentOffsets: [Int] = []
        var attachmentLabels: [String] = []
        _ = _forEachField(of: type, options: []) { name, offset, fieldType, _ in
            if let component = fieldType as? any Component.Type {
                children.append(Child(label: String(cString: name), offset: offset, type: component))
            } else if fieldType is any ComponentAttachment.Type {
                attachmentOffsets.append(offset)
                attachmentLabels.append(String(cString: name))
            } else {
                let offsets = Self.boxOffsets(in: fieldType, at: offset)
                boxOffsets += offsets
                boxLabels += Array(repeating: String(cString: name), count: offsets.count)
            }
            return true
        }
        let layout = ComponentLayout(
            type: key, children: children, boxOffsets: boxOffsets, boxLabels: boxLabels,
            attachmentOffsets: attachmentOffsets, attachmentLabels: attachmentLabels
        )
        cache[key] = layout
        last = layout
        return layout
    }

    /// Offsets of ``BoundObject`` references in a field: the field itself,
    /// or inside one of the framework's own value types (``Emitter``, ...).
    /// User types are never looked into: their layout is theirs.
    private static func boxOffsets(in type: Any.Type, at base: Int) -> [Int] {
        if type is BoundObject.Type { return [base] }
        guard type is any FrameworkValue.Type else { return [] }
        var offsets: [Int] = []
        _ = _forEachField(of: type, options: []) { _, offset, fieldType, _ in
            offsets += boxOffsets(in: fieldType, at: base + offset)
            return true
        }
        return offsets
    }

    /// The attachment stored at `offset` (a class reference field whose type
    /// conforms to ``ComponentAttachment``).
    @MainActor static func attachment(at offset: Int, in raw: UnsafeRawBufferPointer) -> (any ComponentAttachment)? {
        guard let pointer = raw.load(fromByteOffset: offset, as: UnsafeRawPointer?.self) else { return nil }
        return Unmanaged<AnyObject>.fromOpaque(pointer).takeUnretainedValue() as? any ComponentAttachment
    }

    /// The box stored at `offset`, read without retaining it.
    @MainActor static func box(at offset: Int, in raw: UnsafeRawBufferPointer) -> BoundObject? {
        guard let pointer = raw.load(fromByteOffset: offset, as: UnsafeRawPointer?.self) else { return nil }
        return Unmanaged<BoundObject>.fromOpaque(pointer).takeUnretainedValue()
    }
}

/// The framework's value types that hold ``BoundObject`` boxes (emitters,
/// stores, containers). Binding looks inside these, and only these.
protocol FrameworkValue {}

extension Emitter: FrameworkValue {}
