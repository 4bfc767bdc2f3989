private import CLibSSL
import ComposeApp

extension TLSErrors {
    /// The reasons on the queue, oldest first, as OpenSSL's reason codes
    /// (`SSL_R_...`) and texts, and empties it: for the failures whose
    /// cause a message should name (a missing client certificate).
    static func drainWithCodes() -> [(code: Int32, text: String)] {
        var reasons: [(code: Int32, text: String)] = []
        while true {
            let code = ERR_peek_error()
            guard code != 0 else { break }
            let reason = ERR_GET_REASON(code)
            guard let text = drainOne() else { break }
            reasons.append((reason, text))
        }
        return reasons
    }

    /// The oldest reason's text, taken off the queue.
    private static func drainOne() -> String? {
        let code = ERR_get_error()
        guard code != 0 else { return nil }
        if let reason = ERR_reason_error_string(code) { return String(cString: reason) }
        var text = [CChar](repeating: 0, count: 256)
        text.withUnsafeMutableBufferPointer { ERR_error_string_n(code, $0.baseAddress, $0.count) }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
