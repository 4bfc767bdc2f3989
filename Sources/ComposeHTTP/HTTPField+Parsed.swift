import HTTPTypes

extension HTTPField {
    /// A field from the bytes the parser found, kept as HTTPTypes'
    /// `init(name:lenientValue:)` keeps them.
    ///
    /// Most values are visible ASCII with inner spaces or tabs (`Host`,
    /// `Accept`, `Content-Length`): valid as they are, so both ways store
    /// the same string. For those the string is made here, on the fast
    /// contiguous decoder, and handed to `init(name:value:)`: the lenient
    /// initialiser validates through the standard library's generic
    /// `String(validating:as:)`, about 1,000 instructions a field in
    /// `Benchmarks/scripts/profile_http.sh` (two generic metadata lookups
    /// each time). Anything else (an empty value, bytes past ASCII, a
    /// control character, whitespace at either end) takes the lenient way.
    init(name: HTTPField.Name, parsedValue value: ArraySlice<UInt8>) {
        if Self.isPlainValue(value) {
            self.init(name: name, value: String(decoding: value, as: UTF8.self))
        } else {
            self.init(name: name, lenientValue: value)
        }
    }

    /// Whether `value` is one or more visible ASCII characters, with spaces
    /// and tabs only between them: a field value RFC 9110 accepts as is.
    static func isPlainValue(_ value: ArraySlice<UInt8>) -> Bool {
        guard let first = value.first, let last = value.last,
              first > 0x20, first < 0x7F, last > 0x20, last < 0x7F else { return false }
        // Read through the slice's buffer (only by its own iterator, never
        // by index): the slice's iterator costs about 15 instructions a
        // byte here (profile_http.sh), the buffer's about 4.
        return value.withUnsafeBufferPointer { bytes in
            var outside = false
            for byte in bytes { outside = outside || (byte < 0x20 && byte != 0x09) || byte >= 0x7F }
            return !outside
        }
    }
}
