import Foundation

/// Writes a scaffold (or, with --dry-run, lists it) and says what happened.
/// A dry run refuses exactly when the real run would, with the same error,
/// so its exit status is the real run's.
enum Report {
    /// A change to an existing file: the parent component that holds the
    /// new one.
    struct ParentChange {
        /// The file, as the user named it.
        let shownPath: String
        let url: URL
        let plan: ParentEditor.Plan
    }

    static func finish(
        _ scaffold: Scaffold, dryRun: Bool, force: Bool, parent: ParentChange? = nil, nextSteps: [String], warnings: [String] = []
    ) throws {
        for warning in warnings { printError("warning: \(warning)") }
        if dryRun {
            print("Would write, in \(scaffold.root.path):")
            for file in scaffold.files { print("  \(file.path)") }
            if let refusal = scaffold.refusal(force: force) { throw refusal }
            let existing = scaffold.existingFiles()
            if !existing.isEmpty { print("Would overwrite \(existing.count) existing file(s).") }
            if let parent { describe(parent, done: false) }
            return
        }
        let written = try scaffold.write(force: force)
        print("Wrote, in \(scaffold.root.path):")
        for path in written { print("  \(path)") }
        if let parent {
            if case .edit(let text, _, _) = parent.plan {
                try Data(text.utf8).write(to: parent.url, options: .atomic)
            }
            describe(parent, done: true)
        }
        if !nextSteps.isEmpty {
            print("Next:")
            for step in nextSteps { print("  \(step)") }
        }
    }

    private static func describe(_ parent: ParentChange, done: Bool) {
        switch parent.plan {
        case .edit(_, let type, let line):
            print("\(done ? "Added" : "Would add") to \(type) in \(parent.shownPath):")
            print("  \(line.trimmingCharacters(in: .whitespaces))")
        case .manual(let reason, let type, let line):
            print("Did not edit \(parent.shownPath): \(reason).")
            print("Add this line to the stored properties of \(type ?? "the parent component"):")
            print("  \(line)")
        }
    }

    private static func printError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
