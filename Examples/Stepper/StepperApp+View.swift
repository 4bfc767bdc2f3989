import ComposeApp
import ComposeTerminal

extension StepperApp: ViewComponent {
    /// The stepper's line at the top, the keys at the bottom.
    var view: some View {
        VStack {
            ComponentView(stepper)
            Spacer()
            HelpLine()
        }
    }

    var keyBindings: [KeyBinding] {
        KeyBinding("q", "quit") { Application.shutdown() }
    }
}
