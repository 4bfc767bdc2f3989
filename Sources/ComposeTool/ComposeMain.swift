import ArgumentParser
import Dispatch
import Foundation

/// The tool's entry point. A command that is not async (`compose top`,
/// `compose inspect`) runs on the main thread, so that `compose top`'s app
/// can run its event loop there, as any Compose app does; the async ones
/// run in a task while the main queue is served.
@main
enum ComposeMain {
    static func main() {
        let command: any ParsableCommand
        do {
            command = try ComposeTool.parseAsRoot()
        } catch {
            ComposeTool.exit(withError: error)
        }
        guard command is any AsyncParsableCommand else {
            var command = command
            do {
                try command.run()
            } catch {
                ComposeTool.exit(withError: error)
            }
            return
        }
        // ArgumentParser's own entry point for the async commands (it
        // parses again: parsing has no side effects).
        Task.detached {
            await ComposeTool.main()
            exit(0)
        }
        dispatchMain()
    }
}
