import ArgumentParser

/// `compose`: scaffolds Compose apps and components.
@main
struct ComposeTool: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compose",
        abstract: "Scaffold Compose apps and components in the predictable file structure.",
        discussion: """
        Examples:
          compose new Notes                 an app: a router between two screens, driven by stdin
          compose new Echo --kind daemon    a TCP server with a component per connection
          cd Notes && compose component Profile --router
        """,
        subcommands: [NewCommand.self, ComponentCommand.self]
    )
}
