import ComposeApp
import ComposeTLS

/// Accepts clients and keeps one SessionComponent per connection.
///
/// A session is removed (destroyed) when its socket closes, and destroying
/// a session closes its socket: the InstanceComponent ties the two.
struct ChatServerComponent: Component {
    let settings: ChatSettings
    let hub: ChatHub
    let listener: TCPServer
    let sessions = InstanceComponent<SessionComponent>()

    init(settings: ChatSettings, hub: ChatHub) {
        self.settings = settings
        self.hub = hub
        if let tls = settings.tls {
            listener = TCPServer(host: settings.host, port: settings.port, tls: tls)
        } else {
            // Plaintext, unless the TLS settings are half there: then
            // nothing listens, and the daemon exits 1 saying why.
            listener = TCPServer(host: settings.host, port: settings.port, startsWithComponent: settings.tlsProblem == nil)
        }
    }
}

extension ChatServerComponent {
    var observers: Void {
        listener += { connection in
            connection.maximumLineLength = .bytes(settings.maxLineLength)
            // Chat messages are small: a member who falls sendQueue
            // behind is cut off at once, and one who stops reading with a
            // quarter of it waiting, after 30 s.
            connection.sendQueueLimits = SendQueueLimits(soft: settings.sendQueueLimit / 4, hard: settings.sendQueueLimit)
            hub.connected(connection)
            sessions.add {
                SessionComponent(connection: connection, hub: hub, idleTimeout: settings.idleTimeout)
            }
        }

        sessions.forward(\.connection.didClose) += { id, reason in
            if let connection = sessions[id]?.connection {
                var note = ""
                if case .failed(let error) = reason, error.kind == .sendQueueExceeded {
                    note = " (too far behind: not reading)"
                }
                hub.disconnected(connection, note: note)
            }
            sessions.remove(id)
        }

        // Failing to listen is fatal; failing to accept one connection
        // (too many open files, ...) is not: the listener goes on.
        listener.errors += { error in
            guard !listener.isListening else {
                Application.print("cannot accept a connection: \(error)")
                return
            }
            Application.print("cannot listen: \(error)")
            Application.shutdown(status: 1)
        }

        // `kill -HUP` reloads the configuration (it never stops the
        // daemon): the message of the day is read again, from the file the
        // configuration names now. The other settings take effect at the
        // next start.
        Application.configurationDidReload += {
            hub.messageOfTheDay = ChatSettings(config: Application.config, defaults: settings).readMessageOfTheDay()
            Application.print("message of the day reloaded")
        }

        didAppear += {
            if let problem = settings.tlsProblem {
                Application.print("cannot listen: \(problem)")
                Application.shutdown(status: 1)
                return
            }
            if listener.isListening, let tls = settings.tls {
                Application.print("serving TLS with the certificate chain \(tls.certificateChainFile ?? "")")
            }
            if listener.isListening {
                Application.print("listening on \(settings.host):\(listener.port)")
            }
        }
    }
}
