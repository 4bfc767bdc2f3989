/// How ``ComponentTree/open(_:mode:)`` routes each router along the way.
public enum RouteOpeningMode: Sendable {
    /// Each router along the way shows only the route (its stack is
    /// replaced), unless the route is already on its stack, which is then
    /// popped back to.
    case replace
    /// Each router along the way gets the route pushed, unless it is already
    /// on its stack, which is then popped back to.
    case push
}

extension ComponentTree {
    /// The route string of the focused chain: the labels of the top routes
    /// from the root down, separated by `/` (`"auth/signUp"`). Lazy and
    /// dynamic components are transparent; the chain stops at a component
    /// that is not a router, or at a router showing itself (`\Self.self`).
    public var currentRoute: String {
        var labels: [String] = []
        var node = root
        while true {
            if let container = node.behavior as? any SingleInstanceContainer {
                guard let instance = container.instanceNode else { break }
                node = instance
                continue
            }
            guard let router = node.behavior as? Router, let top = router.topNode, top !== node else { break }
            labels.append(top.label)
            node = top
        }
        return labels.joined(separator: "/")
    }

    /// Routes every router from the root down so that `route` (labels
    /// separated by `/`, as ``currentRoute`` gives them) is shown.
    ///
    /// ```swift
    /// try tree.open("auth/signUp")
    /// tree.currentRoute   // "auth/signUp"
    /// ```
    ///
    /// The whole route is checked before anything changes.
    ///
    /// - Throws: ``RouteError`` naming the first segment that leads nowhere
    ///   and the valid choices at that level, or a `DynamicComponent` on the
    ///   way that was not created.
    public func open(_ route: String, mode: RouteOpeningMode = .replace) throws(RouteError) {
        let segments = route.split(separator: "/").map(String.init)
        try validate(segments)
        var node = root
        for segment in segments {
            node = enterContainer(node)
            guard let child = node.child(labelled: segment) else {
                // Validation passed, so only a lazy component that could not
                // be created (inactive parent) ends up here.
                throw RouteError(code: .inactive, segment: segment, choices: [], message: "open(\"\(route)\"): \(node.path) is a lazy component whose parent is not active, so \"\(segment)\" cannot be reached yet. Activate the tree first.")
            }
            if let router = node.behavior as? Router, let entry = router.entry(for: child) {
                if !router.popTo(child) {
                    switch mode {
                    case .replace: router.replace(entry: entry)
                    case .push: router.push(entry: entry)
                    }
                }
            }
            node = child
        }
    }

    /// Checks every segment against nodes, and against component types past
    /// a lazy component that does not exist yet.
    private func validate(_ segments: [String]) throws(RouteError) {
        var node: ComponentNode? = root
        var type: any Component.Type = root.componentType
        for segment in segments {
            if let current = node {
                if let container = current.behavior as? any SingleInstanceContainer {
                    if let instance = container.instanceNode {
                        node = instance
                    } else if container.isLazy {
                        node = nil
                        type = container.contentType
                    } else {
                        throw RouteError(code: .notCreated, segment: segment, choices: [], message: "Cannot open \"\(segment)\": \(current.path) is a DynamicComponent<\(container.contentType)> that was not created. Call create { ... } on it first.")
                    }
                }
            }
            if let current = node {
                guard let child = current.child(labelled: segment) else {
                    throw unknown(segment, at: current.path, choices: current.children.map(\.label))
                }
                if let refusal = child.behavior?.routingRefusal(of: child) {
                    throw RouteError(code: .notCreated, segment: segment, choices: [], message: "Cannot open \"\(segment)\": \(refusal)")
                }
                node = child
                type = child.componentType
            } else {
                let layout = ComponentLayout.of(type)
                guard let field = layout.children.first(where: { $0.label == segment }) else {
                    throw unknown(segment, at: "\(type)", choices: layout.children.map(\.label))
                }
                type = field.type
                if let container = type as? any ContainerType.Type {
                    // Inside a lazy component that does not exist yet, a
                    // dynamic component cannot have been created either.
                    guard container.isLazy else {
                        throw RouteError(code: .notCreated, segment: segment, choices: [], message: "Cannot open \"\(segment)\": it is a DynamicComponent<\(container.contentType)> inside a lazy component that does not exist yet, so it was not created.")
                    }
                    type = container.contentType
                }
            }
        }
    }

    private func enterContainer(_ node: ComponentNode) -> ComponentNode {
        guard let container = node.behavior as? any SingleInstanceContainer else { return node }
        return container.instanceNode ?? node
    }

    private func unknown(_ segment: String, at place: String, choices: [String]) -> RouteError {
        let list = choices.isEmpty ? "none (it has no child components)" : choices.map { "\"\($0)\"" }.joined(separator: ", ")
        return RouteError(code: .unknownSegment, segment: segment, choices: choices, message: "Unknown route segment \"\(segment)\" at \(place). Valid choices: \(list).")
    }
}

/// What deep links need to know about lazy and dynamic components.
@MainActor
protocol SingleInstanceContainer: AnyObject {
    var instanceNode: ComponentNode? { get }
    var isLazy: Bool { get }
    var contentType: any Component.Type { get }
}

extension SingleInstanceBox: SingleInstanceContainer {
    var isLazy: Bool { factory != nil }
    var contentType: any Component.Type { Content.self }
}

/// Lets deep links look through container types to their content type.
protocol ContainerType {
    static var contentType: any Component.Type { get }
    static var isLazy: Bool { get }
}

extension LazyComponent: ContainerType {
    nonisolated static var contentType: any Component.Type { Content.self }
    nonisolated static var isLazy: Bool { true }
}

extension DynamicComponent: ContainerType {
    nonisolated static var contentType: any Component.Type { Content.self }
    nonisolated static var isLazy: Bool { false }
}

extension ComponentNode {
    /// The router of this component, if it is a router component.
    public var router: Router? {
        behavior as? Router
    }
}
