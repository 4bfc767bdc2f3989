/// Counts of what a tree holds, for introspection and for tests that check
/// nothing is left behind.
public struct TreeStatistics: Hashable, Sendable, CustomStringConvertible {
    /// Bound nodes that are not destroyed.
    public let nodes: Int
    /// Nodes that are active.
    public let activeNodes: Int
    /// Observers registered in the scopes of live nodes.
    public let scopeObservers: Int
    /// Emitters declared by live nodes (stored, lifecycle, router and
    /// container emitters).
    public let emitters: Int
    /// Observers registered on those emitters, from any scope.
    public let emitterObservers: Int

    public var description: String {
        "\(nodes) nodes (\(activeNodes) active), \(emitters) emitters with \(emitterObservers) observers, \(scopeObservers) observers in scopes"
    }
}

extension ComponentTree {
    /// Counts of what the tree holds now. Walks the whole tree.
    public var statistics: TreeStatistics {
        var nodes = 0
        var active = 0
        var scopeObservers = 0
        var emitters = 0
        var emitterObservers = 0
        for node in allNodes {
            nodes += 1
            if node.isActive { active += 1 }
            scopeObservers += node.scopeObserverCount
            node.ownedBoxes.forEach { box in
                if box.owner === node, let storage = box as? any CountedEmitterStorage {
                    emitters += 1
                    emitterObservers += storage.observerCount
                }
            }
        }
        return TreeStatistics(nodes: nodes, activeNodes: active, scopeObservers: scopeObservers, emitters: emitters, emitterObservers: emitterObservers)
    }
}

/// Lets statistics count observers without knowing the value type.
@MainActor
protocol CountedEmitterStorage {
    var observerCount: Int { get }
}

extension EmitterStorage: CountedEmitterStorage {}
