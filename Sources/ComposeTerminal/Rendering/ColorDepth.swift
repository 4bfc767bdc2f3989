/// How many colours the terminal shows, read from the environment; the
/// renderer degrades every ``Color`` to it.
///
/// ```swift
/// let depth = ColorDepth(environment: ProcessInfo.processInfo.environment)
/// Color.rgb(255, 135, 0).degraded(to: .palette256)   // .palette(208)
/// ```
public enum ColorDepth: Hashable, Sendable, CaseIterable {
    /// No colour at all (`NO_COLOR`, `TERM=dumb`); attributes such as bold
    /// and reverse still apply.
    case none
    /// The 16 ANSI colours.
    case ansi16
    /// The 256 colours of the xterm palette.
    case palette256
    /// 24-bit colour.
    case trueColor

    /// The depth the environment asks for, first rule that applies:
    ///
    /// 1. `NO_COLOR` set to anything but the empty string (no-color.org):
    ///    ``ColorDepth/none``.
    /// 2. `TERM=dumb`: ``ColorDepth/none``.
    /// 3. `COLORTERM` is `truecolor` or `24bit`: ``ColorDepth/trueColor``.
    /// 4. `TERM` contains `256color` (`xterm-256color`,
    ///    `tmux-256color`): ``ColorDepth/palette256``.
    /// 5. Otherwise ``ColorDepth/ansi16``.
    public init(environment: [String: String]) {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty {
            self = .none
            return
        }
        let term = environment["TERM"] ?? ""
        if term == "dumb" {
            self = .none
            return
        }
        switch environment["COLORTERM"]?.lowercased() {
        case "truecolor", "24bit":
            self = .trueColor
            return
        default:
            break
        }
        self = term.contains("256color") ? .palette256 : .ansi16
    }
}
