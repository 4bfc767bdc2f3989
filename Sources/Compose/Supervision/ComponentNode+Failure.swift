internal import Logging

extension ComponentNode {
    /// Reports that this component failed: its nearest ``Supervised``
    /// ancestor's ``Supervisor`` restarts that child (see ``Supervisor``);
    /// with none, the app shuts down with ``Supervisor/failureExitStatus``.
    /// Ignored once the component is destroyed.
    ///
    /// Components call ``Component/fail(_:)``; loop resources made
    /// `fatal: true` call this on the component they are stored in.
    ///
    /// - Parameter error: What went wrong (carried by the
    ///   ``ComponentFailure``).
    public func fail(_ error: any Error) {
        guard !isDestroyed else { return }
        let failure = ComponentFailure(path: path, error: error)
        var current: ComponentNode? = self
        while let node = current {
            if let supervised = node.behavior as? any SupervisedChild {
                supervised.childFailed(failure)
                return
            }
            current = node.parent
        }
        Supervision.failUnsupervised(failure, in: context)
    }
}

/// What happens to failures no supervisor handles.
@MainActor
enum Supervision {
    /// `failure` reached the top: reports it and shuts the app down with
    /// ``Supervisor/failureExitStatus`` (OTP's answer when the top
    /// supervisor gives up: the node stops, and whatever runs it restarts
    /// it).
    static func failUnsupervised(_ failure: ComponentFailure, in context: AppContext?) {
        guard let context else {
            Diagnostics.report(Diagnostic(.unsupervisedFailure, "\(failure). It belongs to no running app; nothing was restarted or stopped.", path: failure.path))
            return
        }
        guard !context.shutdown.isRequested else {
            context.logger.debug("\(failure) during the shutdown.")
            return
        }
        let status = Supervisor.failureExitStatus
        let diagnostic = Diagnostic(
            .unsupervisedFailure,
            "\(failure). No supervisor above it: the app shuts down with status \(status). Store the component (or one of its ancestors) as a Supervised child to restart it instead.",
            path: failure.path
        )
        context.logger.error("\(diagnostic.description)", metadata: ["component": "\(failure.path)"])
        context.diagnostics.send(diagnostic)
        context.shutdown.request(status: status, reason: "\(failure)")
    }
}
