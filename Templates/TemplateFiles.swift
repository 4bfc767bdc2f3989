// The template files of the `compose` tool live in the folders beside this
// file and ship as this target's resources. This file only finds them.
public import Foundation

/// Where the template folders are.
public enum TemplateFiles {
    /// The places looked at, in order: the resource bundle next to the
    /// running executable (an installed or built `compose`; `make install`
    /// puts both in PREFIX/lib/compose), then this source folder (a
    /// checkout).
    public static var searched: [String] {
        var places: [String] = []
        // The executable's real folder: /proc/self/exe, since a `compose`
        // found on the PATH (a symbolic link `make install` made) has no
        // folder in its argv[0]; then argv[0] where /proc is missing.
        var executables: [URL] = []
        if let real = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            executables.append(URL(fileURLWithPath: real).deletingLastPathComponent())
        }
        executables.append(URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent())
        for executable in executables {
            for bundle in ["Compose_ComposeTemplates.resources", "compose_ComposeTemplates.resources"] {
                places.append(executable.appendingPathComponent(bundle).path)
            }
        }
        places.append(URL(fileURLWithPath: #filePath).deletingLastPathComponent().path)
        return places
    }

    /// The first place that holds the templates, or `nil`.
    public static var directory: URL? {
        searched.map(URL.init(fileURLWithPath:)).first { place in
            FileManager.default.fileExists(atPath: place.appendingPathComponent("shared/Package.swift.mustache").path)
        }
    }
}
