#!/usr/bin/env python3
"""Renders a terminal capture (text with ANSI colour codes) as an SVG image.

A real terminal's picture without a screenshot tool: capture a tmux pane
with its colours, then draw each character cell as SVG text.

    tmux new-session -d -s shot -x 80 -y 30
    tmux send-keys -t shot 'compose inspect ComposeChat tree' Enter
    tmux capture-pane -t shot -p -e > shot.ansi
    scripts/terminal-svg.py shot.ansi docs/images/shot.svg --title 'compose inspect'

Understands the SGR codes tmux writes (bold, dim, italic, underline,
inverse, the 8/16 colours, 256 colours and 24-bit colours); other escape
sequences are dropped. Trailing blank lines are trimmed.
"""
import argparse
import html
import re
import sys

FONT_SIZE = 14
CELL_W = 8.4          # width of one cell at FONT_SIZE in a monospace font
CELL_H = 18           # line height
PAD = 14              # around the text
TITLE_H = 28          # the window's title bar

FOREGROUND = "#d8dee9"
BACKGROUND = "#1e2430"
# The 16 colours (normal, then bright): a dark theme.
PALETTE = [
    "#3b4252", "#e06c75", "#98c379", "#e5c07b", "#61afef", "#c678dd", "#56b6c2", "#d8dee9",
    "#5c6370", "#ef7b85", "#a9d18e", "#f0d08a", "#7cc0ff", "#d69cee", "#6fcfdb", "#ffffff",
]

SGR = re.compile(r"\x1b\[([0-9;:]*)m")
OTHER_ESCAPE = re.compile(r"\x1b(\[[0-9;?]*[A-Za-ln-z]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][A-Z0-9]|[=>])")


def colour_256(n):
    if n < 16:
        return PALETTE[n]
    if n < 232:
        n -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return "#%02x%02x%02x" % (steps[n // 36], steps[(n // 6) % 6], steps[n % 6])
    grey = 8 + (n - 232) * 10
    return "#%02x%02x%02x" % (grey, grey, grey)


class Style:
    def __init__(self):
        self.reset()

    def reset(self):
        self.fg = None
        self.bg = None
        self.bold = self.dim = self.italic = self.underline = self.inverse = False

    def key(self):
        return (self.fg, self.bg, self.bold, self.dim, self.italic, self.underline, self.inverse)

    def apply(self, params):
        codes = [int(p) if p else 0 for p in re.split(r"[;:]", params)] if params else [0]
        i = 0
        while i < len(codes):
            c = codes[i]
            if c == 0:
                self.reset()
            elif c == 1:
                self.bold = True
            elif c == 2:
                self.dim = True
            elif c == 3:
                self.italic = True
            elif c == 4:
                self.underline = True
            elif c == 7:
                self.inverse = True
            elif c == 22:
                self.bold = self.dim = False
            elif c == 23:
                self.italic = False
            elif c == 24:
                self.underline = False
            elif c == 27:
                self.inverse = False
            elif 30 <= c <= 37:
                self.fg = PALETTE[c - 30]
            elif c == 39:
                self.fg = None
            elif 40 <= c <= 47:
                self.bg = PALETTE[c - 40]
            elif c == 49:
                self.bg = None
            elif 90 <= c <= 97:
                self.fg = PALETTE[c - 90 + 8]
            elif 100 <= c <= 107:
                self.bg = PALETTE[c - 100 + 8]
            elif c in (38, 48) and i + 1 < len(codes):
                if codes[i + 1] == 5 and i + 2 < len(codes):
                    value = colour_256(codes[i + 2])
                    i += 2
                elif codes[i + 1] == 2 and i + 4 < len(codes):
                    value = "#%02x%02x%02x" % tuple(codes[i + 2:i + 5])
                    i += 4
                else:
                    value = None
                if c == 38:
                    self.fg = value
                else:
                    self.bg = value
            i += 1


def parse(text):
    """Lines of runs: (column, text, style key)."""
    style = Style()
    lines = []
    for raw in text.split("\n"):
        raw = OTHER_ESCAPE.sub("", raw.rstrip("\r"))
        runs, column, pos = [], 0, 0
        for match in list(SGR.finditer(raw)) + [None]:
            end = match.start() if match else len(raw)
            chunk = raw[pos:end]
            if chunk:
                runs.append((column, chunk, style.key()))
                column += len(chunk)
            if match:
                style.apply(match.group(1))
                pos = match.end()
        lines.append(runs)
    while lines and all(not run[1].strip() for run in lines[-1]):
        lines.pop()
    return lines


def render(lines, columns, title):
    width = PAD * 2 + columns * CELL_W
    top = TITLE_H if title else 0
    height = top + PAD * 2 + max(1, len(lines)) * CELL_H
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" role="img" aria-label="{html.escape(title or "terminal")}">',
        f'<rect width="100%" height="100%" rx="8" fill="{BACKGROUND}"/>',
    ]
    if title:
        out.append(f'<rect width="100%" height="{TITLE_H}" rx="8" fill="#2e3440"/>')
        out.append(f'<rect y="{TITLE_H - 8}" width="100%" height="8" fill="#2e3440"/>')
        for i, colour in enumerate(("#ff5f57", "#febc2e", "#28c840")):
            out.append(f'<circle cx="{18 + i * 20}" cy="{TITLE_H / 2}" r="6" fill="{colour}"/>')
        out.append(f'<text x="{width / 2:.0f}" y="{TITLE_H / 2 + 5}" fill="#aab2c0" font-family="sans-serif" '
                   f'font-size="13" text-anchor="middle">{html.escape(title)}</text>')
    out.append(f'<g font-family="\'DejaVu Sans Mono\', \'Menlo\', \'Consolas\', monospace" font-size="{FONT_SIZE}" '
               f'fill="{FOREGROUND}" xml:space="preserve">')
    for row, runs in enumerate(lines):
        y = top + PAD + row * CELL_H
        for column, chunk, (fg, bg, bold, dim, italic, underline, inverse) in runs:
            if inverse:
                fg, bg = bg or BACKGROUND, fg or FOREGROUND
            x = PAD + column * CELL_W
            if bg:
                out.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{len(chunk) * CELL_W:.1f}" height="{CELL_H}" fill="{bg}"/>')
            if not chunk.strip():
                continue
            attributes = [f'x="{x:.1f}"', f'y="{y + CELL_H - 5:.1f}"', f'textLength="{len(chunk) * CELL_W:.1f}"',
                          'lengthAdjust="spacingAndGlyphs"']
            if fg:
                attributes.append(f'fill="{fg}"')
            if bold:
                attributes.append('font-weight="bold"')
            if dim:
                attributes.append('opacity="0.6"')
            if italic:
                attributes.append('font-style="italic"')
            if underline:
                attributes.append('text-decoration="underline"')
            out.append(f'<text {" ".join(attributes)}>{html.escape(chunk, quote=False)}</text>')
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("input", help="the capture (tmux capture-pane -p -e), - for standard input")
    parser.add_argument("output", help="the SVG file to write")
    parser.add_argument("--columns", type=int, default=80, help="the terminal's width (default 80)")
    parser.add_argument("--title", default="", help="a title bar's text (none by default)")
    parser.add_argument("--text", help="also write the capture without colours to this file")
    args = parser.parse_args()
    text = sys.stdin.read() if args.input == "-" else open(args.input, encoding="utf-8").read()
    lines = parse(text)
    columns = max([args.columns] + [run[0] + len(run[1]) for runs in lines for run in runs])
    with open(args.output, "w", encoding="utf-8") as svg:
        svg.write(render(lines, columns, args.title))
    if args.text:
        with open(args.text, "w", encoding="utf-8") as plain:
            plain.write("\n".join("".join(run[1] for run in runs).rstrip() for runs in lines) + "\n")


if __name__ == "__main__":
    main()
