import Foundation

/// Writes a scaffold (or, with --dry-run, lists it) and says what happened.
enum Report {
    static func finish(_ scaffold: Scaffold, dryRun: Bool, force: Bool, nextSteps: [String]) throws {
        if dryRun {
            print("Would write, in \(scaffold.root.path):")
            for file in scaffold.files { print("  \(file.path)") }
            let existing = scaffold.existingFiles()
            if !existing.isEmpty {
                print(force ? "Would overwrite \(existing.count) existing file(s)." : "Would refuse: \(existing.count) file(s) exist (use --force).")
            }
            return
        }
        let written = try scaffold.write(force: force)
        print("Wrote, in \(scaffold.root.path):")
        for path in written { print("  \(path)") }
        if !nextSteps.isEmpty {
            print("Next:")
            for step in nextSteps { print("  \(step)") }
        }
    }
}
