import ComposeTerminal

/// Draws `view` over a blank grid of `width` x `height` and returns the
/// canvas (its grid, focus regions and cursor).
@MainActor
func canvas(_ view: some View, width: Int, height: Int, focus: FocusID? = nil) -> Canvas {
    var canvas = Canvas(size: Size(width: width, height: height), focus: focus)
    canvas.draw(view)
    return canvas
}

/// The snapshot text of `view` drawn on a `width` x `height` screen, each
/// row with a `|` after its last column so trailing blanks are seen.
@MainActor
func render(_ view: some View, width: Int, height: Int) -> String {
    let grid = canvas(view, width: width, height: height).grid
    return (0..<grid.size.height).map { y in
        var line = ""
        for x in 0..<grid.size.width where !grid[x: x, y: y].isContinuation {
            line.append(grid[x: x, y: y].character)
        }
        return line + "|\n"
    }.joined()
}

/// Lines of a snapshot: `lines("ab", "c")` is `"ab|\nc|\n"`.
func lines(_ rows: String...) -> String {
    rows.map { $0 + "|\n" }.joined()
}
