import ComposeApp
// TLS (`--tls-cert`, `--tls-key`).
import ComposeTLS
// JSON configuration files (`--config chat.json`).
import ComposeConfiguration
import Foundation

/// Where the daemon listens and how it behaves. Each setting comes from the
/// first of: its flag, its environment variable, a JSON file, its default
/// (the app's configuration, `Application.config`):
///
///     ComposeChat --port 7070 --motd motd.txt --idle-seconds 300 --room-capacity 32 --max-line 4096 --send-queue 262144
///     CHAT_PORT=7070 CHAT_MOTD=motd.txt CHAT_IDLE_SECONDS=300 CHAT_ROOM_CAPACITY=32 CHAT_MAX_LINE=4096 CHAT_SEND_QUEUE=262144 ComposeChat
///     ComposeChat --config chat.json     # {"port": 7070, "roomCapacity": 8}, or CHAT_CONFIG=chat.json
///     ComposeChat --tls-cert cert.pem --tls-key key.pem   # TLS (CHAT_TLS_CERT, CHAT_TLS_KEY)
///
/// `ComposeChat --help` lists them. A value that does not parse (or a port
/// out of range, a room capacity, line length or send queue below 1) is
/// ignored.
struct ChatSettings {
    var host = "127.0.0.1"
    var port: UInt16 = 7070
    /// A file whose text greets every client; re-read on SIGHUP.
    var motdPath: String?
    /// A client silent this long is disconnected.
    var idleTimeout: Duration = .seconds(300)
    /// The most members a room holds; `/join` to a full room is refused.
    var roomCapacity = 32
    /// The longest line a client may send, in bytes; a longer one
    /// disconnects the client with a reason (so one client cannot make the
    /// daemon buffer without bound).
    var maxLineLength = 4096
    /// The most bytes that may wait for a client that does not read what
    /// the room says; past it the client is disconnected and the room told
    /// why (so one client cannot make the daemon buffer without bound). A
    /// client that stops reading with a quarter of it waiting is
    /// disconnected after 30 s (the connection's soft limit).
    var sendQueueLimit = 256 * 1024
    /// The port `GET /metrics` answers on (Prometheus text); `nil`, the
    /// default, serves no metrics.
    var metricsPort: UInt16?
    /// The certificate chain (PEM: the certificate, then its
    /// intermediates) and private key (PEM) of a chat served over TLS;
    /// both `nil`, the default, serve plaintext. One without the other is
    /// a configuration error (``tlsProblem``).
    var tlsCertificate: String?
    var tlsKey: String?
}

extension ChatSettings {
    /// How the chat's configuration is read: variables start with `CHAT_`,
    /// and `--help` says what each setting does.
    static let options = ConfigOptions(
        environmentPrefix: "CHAT",
        fileFormat: .json,
        descriptions: [
            "port": "The TCP port to listen on (on 127.0.0.1); 0 picks a free one.",
            "motd": "A file whose text greets every client; read again on SIGHUP (kill -HUP).",
            "idleSeconds": "A client silent this long is disconnected.",
            "roomCapacity": "The most members a room holds; /join to a full room is refused.",
            "maxLine": "The longest line a client may send, in bytes; a longer one disconnects that client.",
            "sendQueue": "The most bytes that may wait for a client that does not read; past it, that client is disconnected (and after 30 s above a quarter of it).",
            "metricsPort": "Serve GET /metrics (Prometheus text) on this port of 127.0.0.1; 0 picks a free one. Off unless set.",
            "tlsCert": "Serve TLS with this certificate chain (PEM file: the certificate, then its intermediates); needs --tls-key. Plaintext unless set.",
            "tlsKey": "The private key (PEM file) of the --tls-cert certificate.",
        ]
    )

    /// The settings `config` holds; each one it lacks, or that is out of
    /// range, is `defaults`'s.
    init(config: AppConfiguration, defaults: ChatSettings = ChatSettings()) {
        self = defaults
        if let port = UInt16(exactly: config.int(forKey: "port", default: Int(defaults.port))) { self.port = port }
        motdPath = config.string(forKey: "motd") ?? defaults.motdPath
        let idle = config.double(forKey: "idleSeconds", default: Double(defaults.idleTimeout.components.seconds))
        if idle >= 0, idle < 1e9 { idleTimeout = .milliseconds(Int(idle * 1000)) }
        roomCapacity = Self.positive(config.int(forKey: "roomCapacity", default: defaults.roomCapacity)) ?? defaults.roomCapacity
        maxLineLength = Self.positive(config.int(forKey: "maxLine", default: defaults.maxLineLength)) ?? defaults.maxLineLength
        sendQueueLimit = Self.positive(config.int(forKey: "sendQueue", default: defaults.sendQueueLimit)) ?? defaults.sendQueueLimit
        metricsPort = config.int(forKey: "metricsPort").flatMap { UInt16(exactly: $0) } ?? defaults.metricsPort
        tlsCertificate = config.string(forKey: "tlsCert") ?? defaults.tlsCertificate
        tlsKey = config.string(forKey: "tlsKey") ?? defaults.tlsKey
    }

    /// The TLS configuration when both the certificate and the key are
    /// set; `nil` for plaintext.
    var tls: TLSConfiguration? {
        guard let tlsCertificate, let tlsKey else { return nil }
        return .server(certificateChain: tlsCertificate, privateKey: tlsKey)
    }

    /// What is wrong with the TLS settings, if anything: a certificate
    /// without its key or a key without its certificate (the daemon then
    /// refuses to start rather than serve plaintext by mistake).
    var tlsProblem: String? {
        switch (tlsCertificate, tlsKey) {
        case (.some, nil): "--tls-cert needs --tls-key (CHAT_TLS_KEY) too"
        case (nil, .some): "--tls-key needs --tls-cert (CHAT_TLS_CERT) too"
        default: nil
        }
    }

    private static func positive(_ value: Int) -> Int? {
        value >= 1 ? value : nil
    }

    /// The message of the day: the file's text, or a default.
    func readMessageOfTheDay() -> String {
        guard let motdPath, let text = try? String(contentsOfFile: motdPath, encoding: .utf8) else {
            return "Welcome to Compose chat!"
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
