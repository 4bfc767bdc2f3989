import ComposeTerminal
import Testing

@Suite struct ColorDepthTests {
    @Test func theEnvironmentDecidesAsNoColorOrgAndTerminfoSay() {
        #expect(ColorDepth(environment: [:]) == .ansi16)
        #expect(ColorDepth(environment: ["TERM": "xterm"]) == .ansi16)
        #expect(ColorDepth(environment: ["TERM": "xterm-256color"]) == .palette256)
        #expect(ColorDepth(environment: ["TERM": "tmux-256color", "COLORTERM": "truecolor"]) == .trueColor)
        #expect(ColorDepth(environment: ["TERM": "xterm", "COLORTERM": "24bit"]) == .trueColor)
        #expect(ColorDepth(environment: ["TERM": "xterm-256color", "COLORTERM": "yes"]) == .palette256)
        #expect(ColorDepth(environment: ["TERM": "dumb", "COLORTERM": "truecolor"]) == .none)
        // NO_COLOR: any non-empty value, whatever else is set; empty is unset.
        #expect(ColorDepth(environment: ["NO_COLOR": "1", "COLORTERM": "truecolor"]) == .none)
        #expect(ColorDepth(environment: ["NO_COLOR": "", "TERM": "xterm-256color"]) == .palette256)
    }

    @Test func rgbBecomesTheNearestCubeOrGrayEntry() {
        #expect(Color.rgb(255, 0, 0).degraded(to: .palette256) == .palette(196))
        #expect(Color.rgb(255, 135, 0).degraded(to: .palette256) == .palette(208))
        #expect(Color.rgb(0, 0, 0).degraded(to: .palette256) == .palette(16))
        #expect(Color.rgb(255, 255, 255).degraded(to: .palette256) == .palette(231))
        // Grays fall on the ramp when it is nearer than the cube.
        #expect(Color.rgb(128, 128, 128).degraded(to: .palette256) == .palette(244))
        #expect(Color.rgb(30, 30, 46).degraded(to: .palette256) == .palette(235))
        #expect(Color.rgb(95, 135, 175).degraded(to: .palette256) == .palette(67))
        // Unchanged at true colour; palette and ANSI colours kept at 256.
        #expect(Color.rgb(1, 2, 3).degraded(to: .trueColor) == .rgb(1, 2, 3))
        #expect(Color.palette(100).degraded(to: .palette256) == .palette(100))
        #expect(Color.red.degraded(to: .palette256) == .red)
    }

    @Test func paletteAndRGBBecomeTheNearestOfTheSixteen() {
        #expect(Color.palette(196).degraded(to: .ansi16) == .brightRed)
        #expect(Color.palette(4).degraded(to: .ansi16) == .blue)
        #expect(Color.palette(232).degraded(to: .ansi16) == .black)
        #expect(Color.palette(255).degraded(to: .ansi16) == .white)
        #expect(Color.rgb(0, 200, 0).degraded(to: .ansi16) == .green)
        #expect(Color.rgb(250, 250, 250).degraded(to: .ansi16) == .brightWhite)
        #expect(Color.cyan.degraded(to: .ansi16) == .cyan)
        // An .ansi value above 15 is the palette entry.
        #expect(Color.ansi(196).degraded(to: .ansi16) == .brightRed)
        #expect(Color.ansi(196).degraded(to: .trueColor) == .palette(196))
    }

    @Test func noColorDropsColoursButKeepsAttributes() {
        let style = Style(foreground: .rgb(255, 0, 0), background: .blue, attributes: [.bold, .reverse])
        #expect(style.degraded(to: .none) == Style(attributes: [.bold, .reverse]))
        #expect(style.degraded(to: .trueColor) == style)
        for depth in ColorDepth.allCases {
            #expect(Color.default.degraded(to: depth) == .default)
        }
    }
}
