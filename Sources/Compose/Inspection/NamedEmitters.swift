/// An object that makes emitters on demand and can name them: emitters
/// that no stored property holds, so that the `Mirror` walk which names
/// the others (`connection.didClose`) cannot find them. The tree report
/// and event paths then show `connection.lines` or
/// `sessions.forward(\.connection.didClose)` instead of `<emitter>`.
///
/// A resource or a container box adopts it; each emitter it made so far is
/// listed with its name as its users spell the member (`lines`).
@MainActor
package protocol NamedEmitters: AnyObject {
    /// The emitters made on demand so far, with their names.
    var namedEmitters: [(name: String, emitter: any EmitterProtocol)] { get }
}

extension NamedEmitters {
    /// The name of a `forward(keyPath)` emitter: `forward(\.member.emitter)`,
    /// from the key path's description (`\Content.member.emitter`), or
    /// `forward` when the description does not spell the path.
    package static func forwardName(_ keyPath: AnyKeyPath) -> String {
        let description = String(describing: keyPath)
        guard description.hasPrefix("\\"), let dot = description.firstIndex(of: ".") else { return "forward" }
        return "forward(\\" + description[dot...] + ")"
    }
}
