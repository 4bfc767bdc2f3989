/// A key pressed, with the modifiers held.
///
/// ```swift
/// switch event {
/// case .up, .ctrl("p"): moveUp()
/// case "q": Application.shutdown()
/// default: break
/// }
/// ```
///
/// A string literal of one character is that character's key, unmodified.
public struct KeyEvent: Hashable, Sendable {
    /// The key.
    public var key: Key
    /// The modifiers held.
    public var modifiers: KeyModifiers

    /// `key` with `modifiers`.
    public init(_ key: Key, modifiers: KeyModifiers = []) {
        self.key = key
        self.modifiers = modifiers
    }

    /// Control and `character` (`.ctrl("c")`); a letter is taken in lower case.
    public static func ctrl(_ character: Character) -> KeyEvent {
        KeyEvent(.character(Character(character.lowercased())), modifiers: .control)
    }

    /// Alt and `character` (`.alt("x")`).
    public static func alt(_ character: Character) -> KeyEvent {
        KeyEvent(.character(character), modifiers: .alt)
    }

    /// This key with `modifiers` added (`KeyEvent.up.with(.control)`).
    public func with(_ modifiers: KeyModifiers) -> KeyEvent {
        KeyEvent(key, modifiers: self.modifiers.union(modifiers))
    }

    /// The character typed, if the key is a character with no modifier but
    /// Shift (what a text field inserts).
    public var text: Character? {
        guard case .character(let character) = key, modifiers.subtracting(.shift).isEmpty else { return nil }
        return character
    }

    /// Enter.
    public static let enter = KeyEvent(.enter)
    /// Tab.
    public static let tab = KeyEvent(.tab)
    /// Shift+Tab.
    public static let backTab = KeyEvent(.backTab)
    /// Backspace.
    public static let backspace = KeyEvent(.backspace)
    /// Escape.
    public static let escape = KeyEvent(.escape)
    /// The arrow up.
    public static let up = KeyEvent(.up)
    /// The arrow down.
    public static let down = KeyEvent(.down)
    /// The arrow left.
    public static let left = KeyEvent(.left)
    /// The arrow right.
    public static let right = KeyEvent(.right)
    /// Home.
    public static let home = KeyEvent(.home)
    /// End.
    public static let end = KeyEvent(.end)
    /// Page up.
    public static let pageUp = KeyEvent(.pageUp)
    /// Page down.
    public static let pageDown = KeyEvent(.pageDown)
    /// Insert.
    public static let insert = KeyEvent(.insert)
    /// Delete.
    public static let delete = KeyEvent(.delete)
    /// Space.
    public static let space = KeyEvent(.character(" "))

    /// Function key `number` (`.function(5)` is F5).
    public static func function(_ number: Int) -> KeyEvent {
        KeyEvent(.function(number))
    }
}

extension KeyEvent: ExpressibleByExtendedGraphemeClusterLiteral {
    /// The key of one character, unmodified: `"q"`.
    public init(extendedGraphemeClusterLiteral character: Character) {
        self.init(.character(character))
    }
}

extension KeyEvent: CustomStringConvertible {
    /// `Ctrl+Up`, `Ctrl+D`, `Alt+x`, `q`: as a help line shows it.
    ///
    /// Modifiers come first, each followed by `+`, in the order Ctrl, Alt,
    /// Shift. A letter with Control is shown in capitals (`.ctrl("d")` is
    /// `Ctrl+D`), as terminal apps and manuals write it (`^D`, `CTRL-D`):
    /// Control ignores case, so there is no other Ctrl+D to tell apart.
    /// Without Control a character is shown as typed, so that `Alt+x` and
    /// `Alt+X` (Alt+Shift+x) stay two keys.
    public var description: String {
        guard !modifiers.isEmpty else { return key.description }
        if modifiers.contains(.control), case .character(let character) = key, character.isLetter {
            return "\(modifiers)+\(character.uppercased())"
        }
        return "\(modifiers)+\(key)"
    }
}
