extension ComponentNode {
    /// The name of an emitter this node owns, for event paths: the
    /// property that holds it (`increment`), or the resource or box that
    /// offers it and its property there (`server.connections`; a resource's
    /// main `emitter` is named by the resource alone: `timer`). `nil` when
    /// it is not found (an emitter adopted from elsewhere).
    func emitterLabel(of storage: BoundObject) -> String? {
        let layout = ComponentLayout.of(componentType)
        let raw = UnsafeRawBufferPointer(start: address, count: Self.size(of: componentType))
        for (index, offset) in layout.boxOffsets.enumerated() {
            guard let box = ComponentLayout.box(at: offset, in: raw) else { continue }
            if box === storage { return layout.boxLabels[index] }
            // A store's changes: named by the store's property.
            if let holder = box as? any ChangeEmitterBox, holder.changeStorage === storage {
                return Self.propertyName(layout.boxLabels[index])
            }
            if let inner = Self.label(of: storage, inside: box) {
                // A container's box is its own business: its emitters are
                // the container's (`sessions.didCreate`).
                return box is any InspectableContainer ? inner : layout.boxLabels[index] + "." + inner
            }
        }
        for (index, offset) in layout.attachmentOffsets.enumerated() {
            guard let attachment = ComponentLayout.attachment(at: offset, in: raw),
                  let inner = Self.label(of: storage, inside: attachment) else { continue }
            return inner == "emitter" ? layout.attachmentLabels[index] : layout.attachmentLabels[index] + "." + inner
        }
        return nil
    }

    /// The property that holds `box` in this node's value, as its users
    /// spell it (`state` for `@Store var state`), or `nil`.
    func boxLabel(of box: BoundObject) -> String? {
        let layout = ComponentLayout.of(componentType)
        let raw = UnsafeRawBufferPointer(start: address, count: Self.size(of: componentType))
        for (index, offset) in layout.boxOffsets.enumerated() where ComponentLayout.box(at: offset, in: raw) === box {
            return Self.propertyName(layout.boxLabels[index])
        }
        return nil
    }

    /// A property wrapper's storage (`_state`) by its wrapped property's
    /// name (`state`).
    private static func propertyName(_ label: String) -> String {
        label.hasPrefix("_") ? String(label.dropFirst()) : label
    }

    /// The property of `object` (a resource, a router) that holds the
    /// emitter whose storage is `storage`, or the name `object` gives it
    /// (``NamedEmitters``).
    private static func label(of storage: BoundObject, inside object: AnyObject) -> String? {
        // The class's own properties, then its superclasses' (a
        // container's `didCreate` is its base class's).
        var mirror: Mirror? = Mirror(reflecting: object)
        while let current = mirror {
            for child in current.children {
                guard let label = child.label, let emitter = child.value as? any EmitterProtocol else { continue }
                if storageOf(emitter) === storage { return label }
            }
            mirror = current.superclassMirror
        }
        // Emitters made on demand (`connection.lines`, a container's
        // `forward(\.member)`), which no stored property holds.
        if let named = object as? any NamedEmitters {
            for (name, emitter) in named.namedEmitters where storageOf(emitter) === storage { return name }
        }
        return nil
    }

    private static func storageOf<E: EmitterProtocol>(_ emitter: E) -> BoundObject {
        emitter.emitter.storage
    }

    private static func size<C: Component>(of type: C.Type) -> Int {
        MemoryLayout<C>.size
    }
}
