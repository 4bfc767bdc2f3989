import ComposeApp
import ComposeTerminal

extension StepperComponent: ViewComponent {
    /// ``render(_:)``'s line.
    var view: some View {
        Text(render(state))
    }

    /// Each key sends its action; the arrows are hidden synonyms.
    var keyBindings: [KeyBinding] {
        KeyBinding("+", "more") { input.send(.increment) }
        KeyBinding("-", "less") { input.send(.decrement) }
        KeyBinding("r", "reset") { input.send(.reset) }
        KeyBinding([.up, "k"], "more", isHidden: true) { input.send(.increment) }
        KeyBinding([.down, "j"], "less", isHidden: true) { input.send(.decrement) }
    }
}
