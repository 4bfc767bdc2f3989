import ComposeTerminal
#if canImport(Glibc)
import Glibc
#endif

// The FrameRenderer on a full 200x60 screen (issue #34, Deliver 7), one
// case run N times: `TerminalRender CASE N`. scripts/terminal_bench.py runs
// each case under callgrind with two values of N and divides the
// difference in instructions by the difference in N, so process start and
// set-up cancel out; it also runs `time` for wall-clock nanoseconds.
//
//   line        two frames that differ in one line, rendered in turn: each
//               render diffs 12,000 cells and writes one line
//   full        the same frames, each drawn whole (invalidate() first)
//   floor-line  the floor: a one-line frame's bytes (made once) copied into
//               the reused buffer
//   floor-full  the same for a whole frame's bytes
//   view-line   the screen as views (BenchScreenView): each frame builds the
//               view tree, lays it out, draws it and diffs it; one line changes
//   view-full   the same, each frame written whole
//   bytes       prints the bytes of a one-line frame and of a whole frame
//   time        prints nanoseconds per frame (median of 15 rounds of N
//               frames) for line, full and the floors

let size = Size(width: 200, height: 60)
/// The line that changes, as a status line would.
let changingRow = 30

/// A busy screen: a reversed title bar, rows of text in a few colours
/// (a run of CJK in every fourth row), a bold status line.
func screen(frame: Int) -> CellGrid {
    var grid = CellGrid(size: size)
    grid.put(String(repeating: " ", count: 200), at: .zero, style: Style(attributes: .reverse))
    grid.put(" compose top — 200x60 benchmark", at: .zero, style: Style(attributes: [.reverse, .bold]))
    let palette: [Style] = [
        .plain, Style(foreground: .cyan), Style(foreground: .rgb(250, 179, 135)), Style(foreground: .gray, attributes: .dim),
    ]
    for y in 1..<size.height {
        var x = 0
        var column = 0
        while x < size.width {
            let word = y % 4 == 0 && column % 5 == 2 ? "日本語の文字" : "word\(y * 31 + column)"
            x += grid.put(word + " ", at: Point(x: x, y: y), style: palette[(y + column) % palette.count])
            column += 1
        }
    }
    // Every column of the status line differs from one frame to the next
    // (its text shifts by one column).
    let pattern = Array("frame \(frame % 10): connections 12, events/s 1034, lag 0.3 ms; ")
    let status = String((0..<200).map { pattern[($0 + frame) % pattern.count] })
    grid.put(String(repeating: " ", count: 200), at: Point(x: 0, y: changingRow))
    grid.put(status, at: Point(x: 0, y: changingRow), style: Style(foreground: .brightGreen, attributes: .bold))
    return grid
}

/// Where the frames' work goes, so nothing is optimised away.
nonisolated(unsafe) var checksum = 0

@inline(never)
func renderLines(_ n: Int) {
    let frames = [screen(frame: 1), screen(frame: 2)]
    var renderer = FrameRenderer(colorDepth: .trueColor)
    var bytes: [UInt8] = []
    renderer.render(frames[0], into: &bytes)
    for index in 0..<n {
        bytes.removeAll(keepingCapacity: true)
        renderer.render(frames[(index + 1) & 1], into: &bytes)
        checksum &+= bytes.count
    }
}

@inline(never)
func renderWhole(_ n: Int) {
    let frames = [screen(frame: 1), screen(frame: 2)]
    var renderer = FrameRenderer(colorDepth: .trueColor)
    var bytes: [UInt8] = []
    for index in 0..<n {
        bytes.removeAll(keepingCapacity: true)
        renderer.invalidate()
        renderer.render(frames[index & 1], into: &bytes)
        checksum &+= bytes.count
    }
}

/// The bytes of a one-line frame and of a whole frame.
func frameBytes() -> (line: [UInt8], full: [UInt8]) {
    var renderer = FrameRenderer(colorDepth: .trueColor)
    var full: [UInt8] = [], line: [UInt8] = []
    renderer.render(screen(frame: 1), into: &full)
    renderer.render(screen(frame: 2), into: &line)
    return (line, full)
}

@inline(never)
func copyBytes(_ frame: [UInt8], _ n: Int) {
    var bytes: [UInt8] = []
    for _ in 0..<n {
        bytes.removeAll(keepingCapacity: true)
        bytes.append(contentsOf: frame)
        checksum &+= bytes.count
    }
}

func nanoseconds(_ body: () -> Void) -> Double {
    var start = timespec(), end = timespec()
    clock_gettime(CLOCK_MONOTONIC, &start)
    body()
    clock_gettime(CLOCK_MONOTONIC, &end)
    return Double(end.tv_sec - start.tv_sec) * 1e9 + Double(end.tv_nsec - start.tv_nsec)
}

func median(_ n: Int, _ body: (Int) -> Void) -> Double {
    var rounds: [Double] = []
    for _ in 0..<15 { rounds.append(nanoseconds { body(n) } / Double(n)) }
    rounds.sort()
    return rounds[rounds.count / 2]
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let n = Int(arguments[2]), n >= 0 else {
    print("usage: TerminalRender line|full|view-line|view-full|floor-line|floor-full|bytes|time N")
    exit(2)
}
switch arguments[1] {
case "line": renderLines(n)
case "full": renderWhole(n)
case "view-line": renderViews(n, whole: false)
case "view-full": renderViews(n, whole: true)
case "floor-line": copyBytes(frameBytes().line, n)
case "floor-full": copyBytes(frameBytes().full, n)
case "bytes":
    let (line, full) = frameBytes()
    print("line \(line.count)")
    print("full \(full.count)")
    print("view-line \(viewFrameBytes())")
case "time":
    let (line, full) = frameBytes()
    print("line \(median(n, renderLines))")
    print("full \(median(max(1, n / 10), renderWhole))")
    print("floor-line \(median(n, { copyBytes(line, $0) }))")
    print("floor-full \(median(n, { copyBytes(full, $0) }))")
    print("view-line \(median(max(1, n / 10), { renderViews($0, whole: false) }))")
    print("view-full \(median(max(1, n / 20), { renderViews($0, whole: true) }))")
default:
    print("unknown case \(arguments[1])")
    exit(2)
}
if checksum == 42 { print("") }
