extension AppContext {
    /// What the app holds now: every live component with its emitters,
    /// stores, router stack and container, and the services (see
    /// ``TreeReport``). Walks the whole tree; for inspection.
    ///
    /// Send counts are there while ``countsSends`` (or ``tracesEvents``)
    /// is on, from ``sendsCountedSince``.
    public func treeReport() -> TreeReport {
        var components: [ComponentReport] = []
        if let tree, !tree.root.isDestroyed {
            func visit(_ node: ComponentNode, depth: Int) {
                guard !node.isDestroyed else { return }
                components.append(node.report(depth: depth, counting: eventTrace.countingSince != nil))
                for child in node.children { visit(child, depth: depth + 1) }
            }
            visit(tree.root, depth: 0)
        }
        return TreeReport(
            app: name,
            time: scheduler?.now ?? .zero,
            route: tree.map { $0.root.isDestroyed ? "" : $0.currentRoute } ?? "",
            focused: tree?.focusedNode?.path,
            components: components,
            services: services.reports(),
            servicesPhase: services.phase,
            sendsCountedSince: eventTrace.countingSince
        )
    }
}

extension ComponentNode {
    /// This node's part of a ``TreeReport``.
    func report(depth: Int, counting: Bool) -> ComponentReport {
        var emitters: [EmitterReport] = []
        var stores: [StoreReport] = []
        var supervisor: String?
        ownedBoxes.forEach { box in
            guard box.owner === self else { return }
            if let box = box as? Supervisor { supervisor = "\(box.strategy)" }
            if let storage = box as? any InspectableEmitterStorage {
                emitters.append(EmitterReport(
                    name: inspectionName(of: box),
                    observers: storage.observerCount,
                    sends: counting ? storage.countedSends : nil,
                    lastValue: storage.lastValueDescription
                ))
            } else if let store = box as? any InspectableStore {
                stores.append(StoreReport(
                    name: boxLabel(of: box) ?? "store",
                    state: ComponentNode.shortDescription(of: store.stateForInspection) ?? "()",
                    persistedAs: store.persistenceKey,
                    isSaved: store.persistenceKey == nil ? nil : store.isSaved,
                    isMirror: store.isMirror
                ))
            }
        }
        var container: ContainerReport?
        if let box = behavior as? any InspectableContainer {
            container = ContainerReport(kind: box.containerKind, contentType: String(describing: box.contentTypeForInspection), instances: box.instanceCount, restarts: box.restartsForInspection)
        }
        return ComponentReport(
            path: path,
            label: label,
            depth: depth,
            type: String(describing: componentType),
            isActive: isActive,
            isFocused: isFocused,
            routes: router.map { $0.paths.map(\.label) },
            container: container,
            emitters: emitters,
            stores: stores,
            supervisor: supervisor
        )
    }

    /// An emitter's name in a report: as event paths name it, or the
    /// lifecycle emitter it is.
    private func inspectionName(of storage: BoundObject) -> String {
        if let label = emitterLabel(of: storage) { return label }
        let lifecycle: [(String, SignalEmitter?)] = [
            ("didAppear", self.lifecycle.didAppear), ("didDisappear", self.lifecycle.didDisappear),
            ("didEnterFocus", self.lifecycle.didEnterFocus), ("didLeaveFocus", self.lifecycle.didLeaveFocus),
        ]
        for (name, emitter) in lifecycle where emitter?.storage === storage { return name }
        return "<emitter>"
    }

    /// `value` described for a report: `nil` for `Void`, cut to
    /// ``EmitterReport/maximumValueLength`` characters, on one line.
    static func shortDescription(of value: Any) -> String? {
        if value is Void { return nil }
        var text = String(describing: value)
        if text.contains(where: \.isNewline) {
            text = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        }
        guard text.count > EmitterReport.maximumValueLength else { return text }
        return String(text.prefix(EmitterReport.maximumValueLength - 1)) + "…"
    }
}

/// What a report reads of an emitter's storage without knowing its value
/// type.
@MainActor
protocol InspectableEmitterStorage {
    var observerCount: Int { get }
    var countedSends: Int? { get }
    var lastValueDescription: String? { get }
}

extension EmitterStorage: InspectableEmitterStorage {
    var lastValueDescription: String? {
        lastValue.flatMap { ComponentNode.shortDescription(of: $0) }
    }
}

/// What a report reads of a store.
@MainActor
protocol InspectableStore {
    var stateForInspection: Any { get }
    var persistenceKey: String? { get }
    var isSaved: Bool { get }
    var isMirror: Bool { get }
}

extension StoreBox: InspectableStore {
    var stateForInspection: Any { currentState }
    var persistenceKey: String? { persistence?.key }
    var isSaved: Bool { persistence?.isAttached ?? false }
    var isMirror: Bool { false }
}

extension MappedStoreBox: InspectableStore {
    var stateForInspection: Any { currentState }
    var persistenceKey: String? { nil }
    var isSaved: Bool { false }
    var isMirror: Bool { true }
}

/// What a report reads of a container.
@MainActor
protocol InspectableContainer {
    var containerKind: String { get }
    var contentTypeForInspection: any Component.Type { get }
    var instanceCount: Int { get }
    /// Restarts by a supervisor (`Supervised`); `nil` for other kinds.
    var restartsForInspection: Int? { get }
}

extension InspectableContainer {
    var restartsForInspection: Int? { nil }
}

extension InstanceBox: InspectableContainer {
    var containerKind: String { "InstanceComponent" }
    var contentTypeForInspection: any Component.Type { Content.self }
    var instanceCount: Int { instances.count }
}

extension SingleInstanceBox: InspectableContainer {
    var containerKind: String { isLazy ? "LazyComponent" : "DynamicComponent" }
    var contentTypeForInspection: any Component.Type { Content.self }
    var instanceCount: Int { instanceNode == nil ? 0 : 1 }
}

extension SupervisedBox: InspectableContainer {
    var containerKind: String { "Supervised" }
    var contentTypeForInspection: any Component.Type { Content.self }
    var instanceCount: Int { instanceNode == nil ? 0 : 1 }
    var restartsForInspection: Int? { restartCount }
}

extension ServiceRegistry {
    /// Each registered service's part of a ``TreeReport``.
    func reports() -> [ServiceReport] {
        let startedIDs = Set(started.map(\.id))
        return order.compactMap { id in
            guard let registration = registrations[id] else { return nil }
            let state: ServiceReport.State
            if phase == .stopped || phase == .stopping, instances[id] != nil {
                state = .stopped
            } else if startedIDs.contains(id) {
                state = .started
            } else if startingOnFirstUse.contains(id) {
                state = .starting
            } else if instances[id] != nil {
                state = .created
            } else {
                state = .registered
            }
            return ServiceReport(type: Self.name(of: registration.type), creation: registration.creation, state: state)
        }
    }
}
