import ComposeTemplates
import Foundation
import Mustache

/// Renders the templates of Templates/ (shipped as the resources of the
/// ComposeTemplates target).
struct TemplateRenderer {
    let library: MustacheLibrary

    /// Loads every `.mustache` template.
    static func load() async throws -> TemplateRenderer {
        guard let directory = TemplateFiles.directory else {
            throw ScaffoldError("The template files were not found next to the compose executable (\(TemplateFiles.searched.joined(separator: ", "))). Reinstall compose with its resource bundle, or build it with `swift build` from the Compose checkout.")
        }
        return TemplateRenderer(library: try await MustacheLibrary(directory: directory.path))
    }

    /// Renders `name` (a path under Templates/ without `.mustache`).
    func render(_ name: String, _ values: [String: Any]) throws -> String {
        guard let text = library.render(values, withTemplate: name) else {
            throw ScaffoldError("The template \(name).mustache is missing from the template files.")
        }
        return text
    }
}
