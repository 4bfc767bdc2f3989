private import CLibSSL
import ComposeApp

/// OpenSSL's error queue, read into `LoopError`s. The queue is the
/// thread's (the loop's): every call that may fail clears it first, and
/// reading it empties it, so one connection's errors never show in
/// another's. What is read is OpenSSL's reason text, never key material.
enum TLSErrors {
    /// Empties the thread's error queue.
    static func clear() {
        ERR_clear_error()
    }

    /// The reasons on the queue, oldest first ("wrong version number",
    /// "tlsv1 alert unknown ca"), and empties it.
    static func drain() -> [String] {
        var reasons: [String] = []
        while true {
            let code = ERR_get_error()
            guard code != 0 else { break }
            if let reason = ERR_reason_error_string(code) {
                reasons.append(String(cString: reason))
            } else {
                var text = [CChar](repeating: 0, count: 256)
                text.withUnsafeMutableBufferPointer { ERR_error_string_n(code, $0.baseAddress, $0.count) }
                reasons.append(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            }
        }
        return reasons
    }

    /// A configuration that cannot be used: `what` failed, with OpenSSL's
    /// reasons appended.
    static func invalid(_ operation: String, _ what: String, context: String?) -> LoopError {
        .tls(.tlsConfigurationInvalid, operation: operation, message: withReasons(what), context: context)
    }

    /// `message` and the queue's reasons (emptying it).
    static func withReasons(_ message: String) -> String {
        let reasons = drain()
        return reasons.isEmpty ? message : "\(message): \(reasons.joined(separator: "; "))"
    }
}
