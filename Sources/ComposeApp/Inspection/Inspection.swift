import Compose
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// The inspection state of one app (``AppContext/inspection``): its
/// server, its loop-health reporter, and what its clients turned on.
///
/// Answering a request is the same for a socket client
/// (``InspectionServer``) and a test (`TestApp.inspect(_:)`): both go
/// through an ``InspectionSession``.
@MainActor
final class Inspection {
    /// The app; it owns this state.
    private(set) weak var context: AppContext?
    /// What measures the loop's health (see ``LoopHealthReporting``).
    var healthReporter: (any LoopHealthReporting)?
    /// The socket server, while the app listens for inspectors.
    var server: InspectionServer?
    /// The process's pid (a test app reports the test process's).
    let pid = getpid()
    /// The app's name in replies: its executable's in a live app (as in
    /// its socket's name), else the context's.
    var appName: String
    /// Sessions following events now.
    private var followers = 0
    /// Whether commands that change the app (`open`) are answered when the
    /// configuration key ``allowsChangesKey`` does not say:
    /// ``StartupConfiguration/inspectionAllowsChanges``.
    var allowsChangesByDefault = false

    /// The configuration key that allows commands that change the app
    /// (`--inspection-allows-changes true`,
    /// `<PREFIX>_INSPECTION_ALLOWS_CHANGES=true`).
    static let allowsChangesKey = "inspectionAllowsChanges"

    init(context: AppContext) {
        self.context = context
        appName = context.name
    }

    /// Socket clients connected now.
    var clientCount: Int { server?.clientCount ?? 0 }

    /// Whether commands that change the app (`open`) are answered: off
    /// unless the app opted in (``StartupConfiguration/inspectionAllowsChanges``)
    /// or its configuration says so (key ``allowsChangesKey``), read at
    /// each such request.
    var allowsChanges: Bool {
        guard let context else { return false }
        return context.configuration.bool(forKey: Self.allowsChangesKey, default: allowsChangesByDefault)
    }

    /// The refusal of a command that changes the app, saying how to allow
    /// it.
    func refusal(of command: InspectionRequest.Command) -> InspectionFailure {
        let configuration = context?.configuration
        let flag = ConfigKeyNames.flag(Self.allowsChangesKey)
        let variable = ConfigKeyNames.environment(Self.allowsChangesKey, prefix: configuration?.environmentPrefix)
        return InspectionFailure(.notAllowed, "\(command.rawValue) changes the app, which inspection may not do unless the app allows it. To allow it, build the app with StartupConfiguration(inspectionAllowsChanges: true), or start it with \(flag) true (or \(variable)=true in its environment).")
    }

    // MARK: Replies

    /// `{"v":1,"ok":true,"command":...}` and `payload`.
    static func reply(_ command: InspectionRequest.Command, _ payload: [InspectionJSON.Member]) -> InspectionJSON {
        .object([
            .init(key: "v", value: .int(InspectionRequest.version)),
            .init(key: "ok", value: .bool(true)),
            .init(key: "command", value: .string(command.rawValue)),
        ] + payload)
    }

    /// The reply to `request` for a command other than `follow`.
    func answer(_ request: InspectionRequest) throws(InspectionFailure) -> InspectionJSON {
        guard let context else { throw InspectionFailure(.noTree, "The app is gone.") }
        if request.command.changesTheApp, !allowsChanges {
            context.logger.notice("Inspection asked to \(request.command.rawValue) and was refused: the app does not allow changes.")
            throw refusal(of: request.command)
        }
        switch request.command {
        case .info:
            let uptime = context.scheduler?.now ?? .zero
            if request.wantsText {
                return Self.reply(.info, [.init(key: "text", value: .string("\(appName)  pid \(pid)  up \(InspectionText.duration(uptime))"))])
            }
            var payload: [InspectionJSON.Member] = [
                .init(key: "app", value: .string(appName)),
                .init(key: "pid", value: .int(Int(pid))),
                .init(key: "uptime", value: .seconds(uptime)),
                .init(key: "protocol", value: .int(InspectionRequest.version)),
            ]
            if let path = server?.path { payload.append(.init(key: "socket", value: .string(path))) }
            return Self.reply(.info, payload)
        case .tree:
            context.countsSends = true
            let report = context.treeReport()
            return Self.reply(.tree, [request.wantsText
                ? .init(key: "text", value: .string(InspectionText.tree(report, app: appName, pid: pid, width: request.width).joined(separator: "\n")))
                : .init(key: "tree", value: report.json)])
        case .loop:
            let report = LoopReport.make(for: context, pid: pid, inspectionSocket: server?.path)
            return Self.reply(.loop, [request.wantsText
                ? .init(key: "text", value: .string(InspectionText.loop(report, width: request.width).joined(separator: "\n")))
                : .init(key: "loop", value: report.json)])
        case .open:
            guard let tree = context.tree, !tree.root.isDestroyed else {
                throw InspectionFailure(.noTree, "The app has no component tree now (it is starting or shutting down).")
            }
            // The public API the app's own code routes with: each router
            // along the way pushes, pops or replaces as `router.push` and
            // `pop` do, so the app's observers of its routers (and the
            // screens' lifecycle) run as for any route change.
            do {
                try context.run { try Application.open(request.route) }
            } catch let error as RouteError {
                throw InspectionFailure(.routeFailed, error.message)
            } catch {
                throw InspectionFailure(.routeFailed, "\(error)")
            }
            context.logger.notice("Inspection opened the route \(request.route).")
            let current = tree.currentRoute
            return Self.reply(.open, [
                .init(key: "route", value: .string(request.route)),
                .init(key: "current", value: .string(current)),
            ] + (request.wantsText ? [.init(key: "text", value: .string("opened \(request.route)" + (current.isEmpty ? "" : "; current route \(current)")))] : []))
        case .counting:
            context.countsSends = request.on
            return Self.reply(.counting, [
                .init(key: "on", value: .bool(request.on)),
            ] + (request.wantsText ? [.init(key: "text", value: .string("send counting \(request.on ? "on" : "off")"))] : []))
        case .follow:
            // Sessions start following themselves (see InspectionSession).
            throw InspectionFailure(.badRequest, "follow streams; it is answered by a session.")
        }
    }

    /// The `tree` and `loop` reports as text, for the `SIGUSR1` log line
    /// (never cut: a log is not a terminal).
    func logReport() -> String {
        guard let context else { return "" }
        let tree = InspectionText.tree(context.treeReport(), app: appName, pid: pid, width: 0)
        let loop = InspectionText.loop(LoopReport.make(for: context, pid: pid, inspectionSocket: server?.path), width: 0)
        return (tree + [""] + loop).joined(separator: "\n")
    }

    // MARK: Following

    /// The wall-clock time now, since the Unix epoch (`CLOCK_REALTIME`):
    /// where a follower's UTC times start.
    static func wallClock() -> Duration {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
    }

    /// A session starts following: event tracing goes on while any does
    /// (a hold, so that it never turns off what the app or a trace
    /// recorder turned on).
    func beginFollowing() {
        guard let context else { return }
        followers += 1
        context.countsSends = true
        context.holdTracing()
    }

    /// A session stops following: its hold on tracing ends.
    func endFollowing() {
        guard followers > 0, let context else { return }
        followers -= 1
        context.releaseTracing()
    }
}

extension AppContext {
    /// The app's inspection state, made on first use.
    var inspection: Inspection {
        if let inspection = inspectionStore as? Inspection { return inspection }
        let inspection = Inspection(context: self)
        inspectionStore = inspection
        return inspection
    }
}

extension AppContext {
    /// Whether inspection commands that change the app (`open`) are
    /// answered when the configuration does not say: a `TestApp` takes it
    /// from its ``StartupConfiguration/inspectionAllowsChanges``, as the
    /// runtime does.
    package var inspectionAllowsChangesByDefault: Bool {
        get { (inspectionStore as? Inspection)?.allowsChangesByDefault ?? false }
        set {
            guard newValue || inspectionStore != nil else { return }
            inspection.allowsChangesByDefault = newValue
        }
    }
}
