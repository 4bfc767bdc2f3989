extension Color {
    /// This colour as a terminal of `depth` can show it: a 24-bit colour
    /// becomes the nearest entry of the xterm palette's 6x6x6 cube or gray
    /// ramp (``ColorDepth/palette256``) or the nearest of the 16 ANSI
    /// colours (``ColorDepth/ansi16``); a palette colour beyond the first
    /// 16 becomes the nearest ANSI colour under ``ColorDepth/ansi16``;
    /// every colour becomes ``Color/default`` under ``ColorDepth/none``. An
    /// `.ansi` value above 15 is read as the palette entry.
    public func degraded(to depth: ColorDepth) -> Color {
        switch (self, depth) {
        case (.default, _), (_, .trueColor):
            if case .ansi(let index) = self, index > 15 { return .palette(index) }
            return self
        case (_, .none):
            return .default
        case (.ansi(let index), _):
            return index > 15 ? Color.palette(index).degraded(to: depth) : self
        case (.palette(let index), .ansi16):
            if index < 16 { return .ansi(index) }
            let (r, g, b) = Self.paletteRGB(index)
            return .ansi(Self.nearestANSI(r, g, b))
        case (.palette, _):
            return self
        case (.rgb(let r, let g, let b), .ansi16):
            return .ansi(Self.nearestANSI(Int(r), Int(g), Int(b)))
        case (.rgb(let r, let g, let b), _):
            return .palette(Self.nearestPalette(Int(r), Int(g), Int(b)))
        }
    }

    /// The levels of each channel in the palette's colour cube (16–231).
    static let cubeLevels = [0, 95, 135, 175, 215, 255]

    /// xterm's default colours for the 16 ANSI entries.
    static let ansiRGB: [(Int, Int, Int)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ]

    /// The colour of palette entry `index` (16–255; the first 16 as xterm
    /// draws them by default).
    static func paletteRGB(_ index: UInt8) -> (Int, Int, Int) {
        let index = Int(index)
        if index < 16 { return ansiRGB[index] }
        if index >= 232 {
            let level = 8 + 10 * (index - 232)
            return (level, level, level)
        }
        let cube = index - 16
        return (cubeLevels[cube / 36], cubeLevels[cube / 6 % 6], cubeLevels[cube % 6])
    }

    /// The palette entry (16–255, never the theme-dependent first 16)
    /// nearest to a 24-bit colour: the nearest cube colour or the nearest
    /// gray, whichever is closer.
    static func nearestPalette(_ r: Int, _ g: Int, _ b: Int) -> UInt8 {
        func cubeIndex(_ value: Int) -> Int { value < 48 ? 0 : value < 115 ? 1 : (value - 35) / 40 }
        let (ri, gi, bi) = (cubeIndex(r), cubeIndex(g), cubeIndex(b))
        let cube = (cubeLevels[ri], cubeLevels[gi], cubeLevels[bi])
        let average = (r + g + b) / 3
        let grayIndex = min(23, max(0, (average - 8 + 5) / 10))
        let gray = 8 + 10 * grayIndex
        let cubeDistance = distance((r, g, b), cube)
        let grayDistance = distance((r, g, b), (gray, gray, gray))
        return grayDistance < cubeDistance ? UInt8(232 + grayIndex) : UInt8(16 + 36 * ri + 6 * gi + bi)
    }

    /// The ANSI colour (0–15) nearest to a 24-bit colour, by xterm's
    /// default colours.
    static func nearestANSI(_ r: Int, _ g: Int, _ b: Int) -> UInt8 {
        var best = 0, bestDistance = Int.max
        for (index, colour) in ansiRGB.enumerated() {
            let d = distance((r, g, b), colour)
            if d < bestDistance { (best, bestDistance) = (index, d) }
        }
        return UInt8(best)
    }

    static func distance(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Int {
        let (dr, dg, db) = (a.0 - b.0, a.1 - b.1, a.2 - b.2)
        return dr * dr + dg * dg + db * db
    }
}

extension Style {
    /// This style's colours degraded to `depth` (see
    /// ``Color/degraded(to:)``); the attributes are kept at every depth,
    /// ``ColorDepth/none`` included (`NO_COLOR` is about colour only).
    public func degraded(to depth: ColorDepth) -> Style {
        if depth == .trueColor, !foreground.isLargeANSI, !background.isLargeANSI { return self }
        return Style(foreground: foreground.degraded(to: depth), background: background.degraded(to: depth), attributes: attributes)
    }
}

extension Color {
    /// An `.ansi` value outside 0–15, which is read as a palette entry.
    var isLargeANSI: Bool {
        if case .ansi(let index) = self { return index > 15 }
        return false
    }
}
