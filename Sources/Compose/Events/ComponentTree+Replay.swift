/// What happened to one replayed send (see
/// ``ComponentTree/sendReplayed(toEmitterAt:decode:)``).
package enum ReplayedSend: Equatable, Sendable {
    /// The value was decoded and sent.
    case sent
    /// No emitter of the tree has that path.
    case noEmitter
    /// The emitter's value type is not `Decodable` (its name).
    case notDecodable(String)
    /// The recorded JSON did not decode as the emitter's value type.
    case decodingFailed(String)
}

extension ComponentTree {
    /// Sends a recorded value into the emitter at `path` (as event paths
    /// name it: `app.stepper.input`, `app.commands`): decodes it with
    /// `decode`, given the emitter's value type, and sends it as the
    /// emitter's owner would. A signal (`Void`) needs no value.
    package func sendReplayed(toEmitterAt path: String, decode: (any Decodable.Type) throws -> Any) -> ReplayedSend {
        guard let target = replayTarget(at: path) else { return .noEmitter }
        return target.sendReplayed(decode: decode)
    }

    /// The emitter storage that records its sends under `path`.
    private func replayTarget(at path: String) -> (any ReplayTarget)? {
        for node in allNodes where ValueCapture.path(path, isAtOrBelow: node.path) {
            var found: (any ReplayTarget)?
            node.ownedBoxes.forEach { box in
                guard found == nil, box.owner === node, let target = box as? any ReplayTarget,
                      let label = node.emitterLabel(of: box), node.path + "." + label == path else { return }
                found = target
            }
            if let found { return found }
        }
        return nil
    }
}

/// An emitter storage, seen by the replay of a recorded trace.
@MainActor
protocol ReplayTarget: AnyObject {
    func sendReplayed(decode: (any Decodable.Type) throws -> Any) -> ReplayedSend
}

extension EmitterStorage: ReplayTarget {
    func sendReplayed(decode: (any Decodable.Type) throws -> Any) -> ReplayedSend {
        if let signal = () as? Value {
            send(signal)
            return .sent
        }
        guard let type = Value.self as? any Decodable.Type else { return .notDecodable("\(Value.self)") }
        do {
            guard let value = try decode(type) as? Value else { return .decodingFailed("not a \(Value.self)") }
            send(value)
            return .sent
        } catch {
            return .decodingFailed("\(error)")
        }
    }
}
