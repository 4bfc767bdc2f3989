// `struct tm` may be attributed to CLibSSL (OpenSSL's headers include
// <time.h>), depending on which file the compiler reads first.
private import CLibSSL
import ComposeApp
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// A TLS server's operation: its certificate reloaded on the app's
/// configuration reload (`SIGHUP`) or `reloadTLS()` (`TCPServer`,
/// `UnixServer`), its
/// certificate's expiry in the app's metrics and in `compose inspect`,
/// its cap on handshakes in flight.
extension TLSServerContext: StreamFilterListening {
    var maximumHandshakesInFlight: Int? { configuration.maximumHandshakesInFlight }

    var certificates: [ListenerCertificate] {
        currentContext?.serverCertificate.map { [$0] } ?? []
    }

    func listenerDidStart(_ listener: any FilteredListener, context: AppContext?) {
        self.listener = listener
        appContext = context
        listenerName = listener.listenerAddress
        reloads?.cancel()
        reloads = context?.configuration.didReload.observe { [weak self] _ in
            guard let self else { return }
            _ = reload()
        }
        reportExpiry()
    }

    func listenerDidStop(_ listener: any FilteredListener) {
        reloads?.cancel()
        reloads = nil
        if let reported = reportedCertificate {
            appContext?.reportCertificateExpiry(listener: listenerName, certificate: reported.file, notAfter: nil)
        }
        reportedCertificate = nil
        self.listener = nil
    }

    /// Reloads the certificate (see `TCPServer.reloadTLS()`): logs what
    /// it reads, or reports why it cannot (`Diagnostic.Code.tlsReloadFailed`).
    func reload() -> Bool {
        let context = appContext ?? AppContext.current
        let path = listener?.ownerPath
        guard listener?.isListening == true else {
            report(Diagnostic(.tlsReloadFailed, "TLS server \(listenerName.isEmpty ? "(never listened)" : listenerName): cannot reload its certificate while it does not listen; it reads \(configuration.certificateChainFile ?? "its certificate") when it starts listening.", path: path), in: context)
            return false
        }
        if isSimulated {
            // A test context reads no certificate (SimulatedTLS.swift).
            context?.logger.info("TLS server \(listenerName) reloaded its certificate (simulated: no file read).")
            return true
        }
        let before = certificates.first
        do {
            try reloadContext()
        } catch {
            // The error names the file and OpenSSL's reasons, never the
            // key's contents.
            let kept = before.map { " It keeps \($0.subject), \(Self.expiry($0))." } ?? ""
            report(Diagnostic(.tlsReloadFailed, "TLS server \(listenerName) could not reload its certificate: \(error).\(kept)", path: path), in: context)
            return false
        }
        reportExpiry()
        if let now = certificates.first {
            context?.logger.info("TLS server \(listenerName) reloaded its certificate \(now.subject), \(Self.expiry(now)), from \(now.file).")
        }
        return true
    }

    private func report(_ diagnostic: Diagnostic, in context: AppContext?) {
        if let context {
            context.report(diagnostic)
        } else {
            Diagnostics.report(diagnostic)
        }
    }

    /// The current certificate's expiry, to the app's metrics.
    private func reportExpiry() {
        guard let context = appContext, let certificate = certificates.first else { return }
        if let reported = reportedCertificate, reported.file != certificate.file {
            context.reportCertificateExpiry(listener: listenerName, certificate: reported.file, notAfter: nil)
        }
        reportedCertificate = certificate
        context.reportCertificateExpiry(listener: listenerName, certificate: certificate.file, notAfter: certificate.notAfter)
    }

    /// `valid until 2026-12-01 00:00:00 UTC` (from `notAfter`).
    static func expiry(_ certificate: ListenerCertificate) -> String {
        var time = time_t(certificate.notAfter)
        var parts = tm()
        guard gmtime_r(&time, &parts) != nil else { return "valid until \(certificate.notAfter) (seconds since 1970)" }
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "valid until \(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) UTC"
    }
}
