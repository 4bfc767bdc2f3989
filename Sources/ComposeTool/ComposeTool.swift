import ArgumentParser

/// `compose`: scaffolds Compose apps and components, and inspects running
/// apps. (``ComposeMain`` is the entry point.)
struct ComposeTool: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compose",
        abstract: "Scaffold Compose apps and components in the predictable file structure, and inspect running apps.",
        discussion: """
        Examples:
          compose new Notes                an app: a router between two
                                           screens, driven by stdin
          compose new Notes --kind terminal
                                           the same as a terminal app
          compose new Echo --kind daemon   a TCP server with a component
                                           per connection
          cd Notes && compose component Profile --router
          compose inspect                  the running apps; then
                                           compose inspect PID tree
          compose top PID                  the app live: tree,
                                           connections, loop lag
        """,
        version: ToolVersion.current,
        subcommands: [NewCommand.self, ComponentCommand.self, InspectCommand.self, TopCommand.self]
    )
}
