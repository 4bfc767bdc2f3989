// ComposeTerminal: terminal views for `@main` apps. A component describes
// what it shows as a value; the runtime draws the active route's views into
// a cell grid, diffs it against the last frame and writes only the changed
// cells. An app that shows nothing imports ComposeApp alone and pays
// nothing for this module.
@_exported public import ComposeApp
