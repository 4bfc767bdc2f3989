extension Style {
    /// `own` drawn over this inherited style: its colours where it sets
    /// one (not `.default`), the attributes of both.
    func applying(_ own: Style) -> Style {
        Style(
            foreground: own.foreground == .default ? foreground : own.foreground,
            background: own.background == .default ? background : own.background,
            attributes: attributes.union(own.attributes)
        )
    }
}
