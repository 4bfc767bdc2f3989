// ComposeTerminalTesting: a TestApp's terminal as a test sees it: the
// screen the app drew (`app.screen`), keys, text, pastes and clicks typed
// as a terminal sends them (`app.press(.down)`), resizes, and whether the
// terminal was given back. A module of its own so that the tests of apps
// that show nothing do not bring ComposeTerminal along.
@_exported public import ComposeTerminal
@_exported public import ComposeTesting
