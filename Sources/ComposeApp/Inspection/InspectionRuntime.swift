import Compose
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// What the runtime starts for inspection in a live app: the socket server
/// (``InspectionServer``) and the `SIGUSR1` report to the log, unless the
/// app's configuration turns inspection off
/// (``StartupConfiguration/inspection``, key `inspection`). Commands that
/// change the app are refused unless it allows them
/// (``StartupConfiguration/inspectionAllowsChanges``, key
/// `inspectionAllowsChanges`).
@MainActor
final class InspectionRuntime {
    private(set) var server: InspectionServer?
    private var reportSignal: SignalHandle?

    /// Starts inspection for `context` as `configuration` says; `nil` when
    /// it is turned off. A server that cannot listen is logged; the
    /// `SIGUSR1` report works without it.
    static func start(context: AppContext, configuration: StartupConfiguration, name: String) -> InspectionRuntime? {
        // Read now, whether inspection is on or not, so that the flag is a
        // setting the app knows (not an unknown option); read again at each
        // request that changes the app, so that a reload can change it.
        let allowsChanges = context.configuration.bool(forKey: Inspection.allowsChangesKey, default: configuration.inspectionAllowsChanges)
        guard context.configuration.bool(forKey: "inspection", default: configuration.inspection) else {
            context.logger.debug("Inspection is off (configuration).")
            return nil
        }
        let runtime = InspectionRuntime()
        context.inspection.appName = name
        context.inspection.allowsChangesByDefault = configuration.inspectionAllowsChanges
        if allowsChanges { context.logger.notice("Inspection may change the app (open routes): inspectionAllowsChanges is on.") }
        let directory = configuration.inspectionDirectory ?? InspectionDirectory.path(uid: geteuid())
        do {
            runtime.server = try InspectionServer(context: context, directory: directory, name: name)
            context.logger.debug("Inspection socket: \(runtime.server?.path ?? "")")
        } catch {
            context.logger.warning("The app runs without its inspection socket: \(error)")
        }
        runtime.reportOnUserSignal(context)
        return runtime
    }

    /// Writes the `tree` and `loop` reports to the log on `SIGUSR1`.
    private func reportOnUserSignal(_ context: AppContext) {
        guard let loop = context.eventLoop else { return }
        do {
            let handle = try SignalHandle(loop: loop)
            try handle.start(SIGUSR1) { [weak context] _ in
                guard let context else { return }
                context.logger.notice("SIGUSR1: inspection report\n\(context.inspection.logReport())")
            }
            handle.keepsLoopAlive = false
            reportSignal = handle
        } catch {
            context.logger.error("Cannot report on SIGUSR1: \(error)")
        }
    }

    /// Closes the server (unlinking its socket) and the signal handler.
    func close() {
        server?.close()
        server = nil
        reportSignal?.close()
        reportSignal = nil
    }
}
