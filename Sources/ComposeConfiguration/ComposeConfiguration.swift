// What an app that reads a configuration file imports: ComposeApp's
// configuration with a JSON file format (`ConfigFileFormat.json`), and
// swift-configuration's `ConfigReader` over the same layers
// (`AppConfiguration.reader`). Both need Foundation, which ComposeApp
// alone does not load.
@_exported public import ComposeApp
@_exported public import Configuration
