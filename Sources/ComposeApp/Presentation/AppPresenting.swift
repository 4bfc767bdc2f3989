import Compose

/// A root component that its app shows somewhere while it runs: the
/// runtime (`StartupComponent.main()`, and `TestApp`) asks it for an
/// ``AppPresentation`` once the tree is active, and stops that
/// presentation when the app shuts down, before the tree goes.
///
/// ComposeTerminal's `ViewComponent` refines it: an app whose root shows
/// views draws them on the terminal. Apps do not conform to it
/// themselves.
@MainActor
public protocol AppPresenting: Component {
    /// Starts showing the app of `context`, whose root (this component)
    /// is bound at `root` and active; `nil` when there is nothing to show.
    static func presentApp(in context: AppContext, root: ComponentNode) -> (any AppPresentation)?
}

/// What an ``AppPresenting`` root started: kept by the runtime until the
/// app shuts down.
@MainActor
public protocol AppPresentation: AnyObject {
    /// Stops showing the app (the terminal is given back). Called once,
    /// when the app's tree is about to close; also safe to call again.
    func stop()
}

extension AppContext {
    /// Starts the presentation of the app whose root is `tree`'s, if its
    /// root is ``AppPresenting``; kept on the context until
    /// ``stopPresentation()``.
    package func startPresentation(of tree: ComponentTree) {
        guard presentation == nil, let presenting = tree.root.componentType as? any AppPresenting.Type else { return }
        presentation = presenting.presentApp(in: self, root: tree.root)
    }

    /// Stops the app's presentation, if any (idempotent).
    package func stopPresentation() {
        let current = presentation
        presentation = nil
        current?.stop()
    }

    /// The app's presentation (see ``AppPresenting``), while it runs.
    package var presentation: (any AppPresentation)? {
        get { presentationStore as? any AppPresentation }
        set { presentationStore = newValue }
    }
}
