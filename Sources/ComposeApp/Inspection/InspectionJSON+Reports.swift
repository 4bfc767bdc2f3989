import Compose

// The reports as the protocol's JSON (docs/inspection-protocol.md):
// durations in seconds, absent optional members left out.

extension TreeReport {
    var json: InspectionJSON {
        .object([
            "app": .string(app),
            "time": .seconds(time),
            "route": .string(route),
            "focused": focused.map { .string($0) },
            "sendsCountedSince": sendsCountedSince.map { .seconds($0) },
            "components": .array(components.map(\.json)),
            "servicesPhase": .string(String(describing: servicesPhase)),
            "services": .array(services.map(\.json)),
        ])
    }
}

extension ComponentReport {
    var json: InspectionJSON {
        .object([
            "path": .string(path),
            "label": .string(label),
            "depth": .int(depth),
            "type": .string(type),
            "active": .bool(isActive),
            "focused": .bool(isFocused),
            "routes": routes.map { .array($0.map { .string($0) }) },
            "container": container.map {
                .object([
                    "kind": .string($0.kind),
                    "contentType": .string($0.contentType),
                    "instances": .int($0.instances),
                    "restarts": $0.restarts.map { .int($0) },
                ])
            },
            "supervisor": supervisor.map { .string($0) },
            "emitters": .array(emitters.map(\.json)),
            "stores": .array(stores.map(\.json)),
        ])
    }
}

extension EmitterReport {
    var json: InspectionJSON {
        .object([
            "name": .string(name),
            "observers": .int(observers),
            "sends": sends.map { .int($0) },
            "last": lastValue.map { .string($0) },
        ])
    }
}

extension StoreReport {
    var json: InspectionJSON {
        .object([
            "name": .string(name),
            "state": .string(state),
            "persistedAs": persistedAs.map { .string($0) },
            "saved": isSaved.map { .bool($0) },
            "mirror": .bool(isMirror),
        ])
    }
}

extension ServiceReport {
    var json: InspectionJSON {
        .object([
            "type": .string(type),
            "creation": .string(creation == .atStart ? "atStart" : "onFirstUse"),
            "state": .string(state.rawValue),
        ])
    }
}

extension LoopReport {
    var json: InspectionJSON {
        .object([
            "app": .string(app),
            "pid": .int(Int(pid)),
            "time": .seconds(time),
            "simulated": .bool(isSimulated),
            "handleCount": .int(handleCount),
            "handles": .object(handles.map { InspectionJSON.Member(key: $0.type, value: .int($0.count)) }),
            "listeners": .array(listeners.map(\.json)),
            "connections": .array(connections.map { connection in
                .object([
                    "path": connection.path.map { .string($0) },
                    "peer": .string(connection.peer),
                    "queuedBytes": .int(connection.queuedBytes),
                    "closing": .bool(connection.isClosing),
                ])
            }),
            "processes": .array(processes.map { process in
                .object([
                    "path": process.path.map { .string($0) },
                    "executable": process.executable.map { .string($0) },
                    "pid": process.pid.map { .int(Int($0)) },
                    "state": .string(process.state),
                    "termination": process.termination.map { .string($0) },
                ])
            }),
            "inspectors": .int(inspectors),
            // Always present, `null` when nothing measures it.
            "health": health.map(\.json) ?? .null,
        ])
    }
}

extension LoopReport.Listener {
    var json: InspectionJSON {
        .object([
            "path": .string(path),
            "address": .string(address),
            "listening": .bool(isListening),
            "tls": isTLS ? .object([
                "handshakesInFlight": .int(handshakesInFlight),
                "maximumHandshakesInFlight": maximumHandshakesInFlight.map { .int($0) },
                "certificates": .array(certificates.map { certificate in
                    .object([
                        "file": .string(certificate.file),
                        "subject": .string(certificate.subject),
                        "notAfter": .string(InspectionText.utc(.seconds(certificate.notAfter))),
                        "expiresIn": .seconds(.seconds(certificate.notAfter) - wallClock),
                    ])
                }),
            ]) : nil,
        ])
    }
}

extension LoopHealth {
    var json: InspectionJSON {
        .object([
            "window": .seconds(window),
            "lagP50": .seconds(lagP50),
            "lagP99": .seconds(lagP99),
            "lagMax": .seconds(lagMax),
            "eventsPerSecond": .double(eventsPerSecond),
            "utilization": .double(utilization),
            "samples": .int(samples),
            "sampleInterval": .seconds(sampleInterval),
        ])
    }
}

extension AppEvent {
    /// The event as a `follow` line carries it; a value captured as JSON
    /// (``AppEvent/json``, for a trace recorder) comes along as `json`.
    var inspectionJSON: InspectionJSON {
        .object([
            "time": .seconds(time),
            "kind": .string(kind.rawValue),
            "path": .string(path),
            "value": value.map { .string($0) },
            "json": json.flatMap { try? InspectionJSON.parse($0) },
        ])
    }
}

extension Diagnostic {
    func json(time: Duration) -> InspectionJSON {
        .object([
            "time": .seconds(time),
            "kind": .string("diagnostic"),
            "path": path.map { .string($0) },
            "code": .string(code.rawValue),
            "message": .string(message),
        ])
    }
}
