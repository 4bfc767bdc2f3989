extension MouseEvent {
    /// The SGR report (`ESC [ < b ; x ; y M`, `m` for a release) a
    /// terminal sends for this event with mouse reporting on, which
    /// ``InputDecoder`` decodes back into this very event; `nil` for a
    /// position left of or above the screen (or past 999,999), or a button
    /// ``Button/other(_:)`` outside 8 to 11.
    ///
    /// ```swift
    /// MouseEvent(.press(.left), at: Point(x: 4, y: 2)).bytes   // ESC [ < 0 ; 5 ; 3 M
    /// ```
    public var bytes: [UInt8]? {
        guard (0..<999_999).contains(position.x), (0..<999_999).contains(position.y) else { return nil }
        var code: Int
        var final = UInt8(ascii: "M")
        switch action {
        case .press(let button):
            guard let number = Self.code(of: button) else { return nil }
            code = number
        case .release(let button):
            guard let number = Self.code(of: button) else { return nil }
            code = number
            final = UInt8(ascii: "m")
        case .drag(let button):
            guard let number = Self.code(of: button) else { return nil }
            code = number | 32
        case .move: code = 32 | 3
        case .wheelUp: code = 64
        case .wheelDown: code = 65
        case .wheelLeft: code = 66
        case .wheelRight: code = 67
        }
        if modifiers.contains(.shift) { code |= 4 }
        if modifiers.contains(.alt) { code |= 8 }
        if modifiers.contains(.control) { code |= 16 }
        return Array("\u{1B}[<\(code);\(position.x + 1);\(position.y + 1)".utf8) + [final]
    }

    private static func code(of button: Button) -> Int? {
        switch button {
        case .left: 0
        case .middle: 1
        case .right: 2
        case .other(let number): (8...11).contains(number) ? 128 + number - 8 : nil
        }
    }
}
