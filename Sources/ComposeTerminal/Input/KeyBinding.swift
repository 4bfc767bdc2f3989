/// A key a component answers, and what it does: declared in
/// ``ViewComponent/keyBindings``, shown by ``HelpLine`` while the
/// component's view is on the screen.
///
/// ```swift
/// extension StepperComponent: ViewComponent {
///     var view: some View { Text("count: \(state.count)") }
///     var keyBindings: [KeyBinding] {
///         KeyBinding("+", "more") { input.send(.increment) }
///         KeyBinding([.up, "k"], "more", isHidden: true) { input.send(.increment) }
///         KeyBinding.input(whileFocused: "draft") { draft.apply($0) }
///     }
/// }
/// ```
///
/// Which binding gets a key: see ``ViewComponent/keyBindings``.
public struct KeyBinding {
    /// The keys it answers; empty for an ``input(whileFocused:_:)``
    /// binding, which sees every key and paste.
    public let keys: [KeyEvent]
    /// What ``HelpLine`` shows for it (`"quit"`).
    public let help: String
    /// Whether ``HelpLine`` leaves it out (a second key for the same thing).
    public let isHidden: Bool
    /// The name of the component's focusable view that must have the focus
    /// for it to answer (``View/focusName(_:)``), or `nil` for always.
    public let focusName: String?
    let handle: @MainActor (TerminalInput) -> Bool

    /// Answers `key` with `action`.
    ///
    /// - Parameters:
    ///   - key: The key (`"q"`, `.ctrl("n")`, `.up`, `.function(5)`).
    ///   - help: What ``HelpLine`` shows for it.
    ///   - isHidden: Leave it out of the help line.
    ///   - whileFocused: Answer only while the component's focusable view
    ///     of that name has the focus.
    ///   - action: What it does; runs on the main actor, as an observer.
    public init(_ key: KeyEvent, _ help: String, isHidden: Bool = false, whileFocused: String? = nil, action: @escaping @MainActor () -> Void) {
        self.init([key], help, isHidden: isHidden, whileFocused: whileFocused, action: action)
    }

    /// Answers any of `keys` with `action` (shown once, under the first).
    public init(_ keys: [KeyEvent], _ help: String, isHidden: Bool = false, whileFocused: String? = nil, action: @escaping @MainActor () -> Void) {
        self.keys = keys
        self.help = help
        self.isHidden = isHidden
        self.focusName = whileFocused
        handle = { input in
            guard case .key(let event) = input, keys.contains(event) else { return false }
            action()
            return true
        }
    }

    private init(focusName: String, handle: @escaping @MainActor (TerminalInput) -> Bool) {
        keys = []
        help = ""
        isHidden = true
        self.focusName = focusName
        self.handle = handle
    }

    /// Hands every key and paste to `handle` while the component's
    /// focusable view named `name` has the focus, before any other
    /// binding: a text field's editing. `handle` returns whether it took
    /// the input; what it leaves goes on to the other bindings (Tab, Enter,
    /// Ctrl+C).
    ///
    /// ```swift
    /// KeyBinding.input(whileFocused: "draft") { draft.apply($0) }
    /// ```
    public static func input(whileFocused name: String, _ handle: @escaping @MainActor (TerminalInput) -> Bool) -> KeyBinding {
        KeyBinding(focusName: name, handle: handle)
    }

    /// Whether it answers `input` (and then it has run).
    @MainActor
    func answer(_ input: TerminalInput) -> Bool {
        handle(input)
    }
}

/// Builds ``ViewComponent/keyBindings`` from bindings listed one a line,
/// with `if`, `if let`, `switch` and `for`.
@resultBuilder
public enum KeyBindingBuilder {
    public static func buildExpression(_ binding: KeyBinding) -> [KeyBinding] { [binding] }
    public static func buildExpression(_ bindings: [KeyBinding]) -> [KeyBinding] { bindings }
    public static func buildBlock(_ parts: [KeyBinding]...) -> [KeyBinding] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [KeyBinding]?) -> [KeyBinding] { part ?? [] }
    public static func buildEither(first part: [KeyBinding]) -> [KeyBinding] { part }
    public static func buildEither(second part: [KeyBinding]) -> [KeyBinding] { part }
    public static func buildArray(_ parts: [[KeyBinding]]) -> [KeyBinding] { parts.flatMap { $0 } }
    public static func buildLimitedAvailability(_ part: [KeyBinding]) -> [KeyBinding] { part }
}
