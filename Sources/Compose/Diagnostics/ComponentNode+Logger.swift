public import Logging

extension ComponentNode {
    /// The app's logger with this component's path as `component`
    /// metadata, so a log line says where it comes from:
    /// `warning compose: component=chat.server TCPServer 127.0.0.1:7070: ...`.
    public var logger: Logger {
        var logger = context?.logger ?? Diagnostics.logger
        logger[metadataKey: "component"] = "\(path)"
        return logger
    }
}

extension Emitter {
    /// The logger of the component that owns this emitter (see
    /// ``ComponentNode/logger``); for a resource, the component it is
    /// stored in. Outside a tree: the running app's logger, else
    /// ``Diagnostics/logger``.
    package var ownerLogger: Logger {
        storage.ruleOwner?.logger ?? AppContext.current?.logger ?? Diagnostics.logger
    }
}

extension EmitterProtocol {
    /// The logger of the component that owns this emitter (see
    /// ``Emitter/ownerLogger``).
    package var ownerLogger: Logger { emitter.ownerLogger }
}
