import ComposeApp
import Testing
