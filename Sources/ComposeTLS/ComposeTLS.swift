@_exported import ComposeApp
