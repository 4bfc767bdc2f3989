import ComposeApp
import ComposeTesting
import Testing

/// `@MappedStore`: a read-only mirror of an ancestor's store.
@MainActor
@Suite struct MappedStoreTests {
    let log = StoreLog()

    func playerApp() -> (TestApp, PlayerComponent) {
        let app = TestApp(root: PlayerComponent(badge: VolumeBadge(log: log, deeper: DeepBadge())))
        return (app, app.root(as: PlayerComponent.self)!)
    }

    @Test func theMirrorReadsTheStoreAsItIsNow() {
        let (app, player) = playerApp()
        #expect(log.notes == ["bound with volume 5"])
        app.run { player.louder.send() }
        // Read in the same observer as the write, before the store sent.
        #expect(log.notes.last == "mirror reads 6 before the send")
        #expect(player.badge.settings.volume == 6)
        #expect(player.badge.deeper.settings.volume == 6)
    }

    @Test func theMirrorsEmitterSendsEveryChangeWithoutADiagnostic() {
        let (app, player) = playerApp()
        app.run { player.louder.send() }
        app.run { player.louder.send() }
        #expect(log.counts == [6, 7])
        #expect(player.badge.$settings.lastValue == Settings(volume: 7))
        var deep: [Int] = []
        player.badge.deeper.$settings ~+= { new, old in deep.append(new.volume - old.volume) }
        app.run { player.louder.send() }
        #expect(deep == [1])
        #expect(app.diagnostics.isEmpty)
        // The store's sends are traced, not the mirrors' repetitions.
        app.events.expect(
            .sent("player.louder"), .sent("player.settings", Settings(volume: 6)),
            .sent("player.louder"), .sent("player.settings", Settings(volume: 7)),
            .sent("player.louder"), .sent("player.settings", Settings(volume: 8))
        )
        app.events.expectNoMoreEvents()
    }

    @Test func aMirrorWithoutItsSourceIsADiagnostic() {
        let app = TestApp(root: Orphan())
        let orphan = app.root(as: Orphan.self)!
        #expect(orphan.settings == Settings(volume: -7))
        #expect(app.diagnostics.map(\.code) == [.mappedStoreSourceNotFound])
        #expect(app.diagnostics.first?.message.contains("PlayerComponent") == true)
    }

    @Test func destroyingTheMirrorEndsItsLinkToTheStore() {
        let (app, player) = playerApp()
        #expect(player.$settings.observerCount == 1)          // the badge's link
        #expect(player.badge.$settings.observerCount == 2)    // the deeper link, the map
        app.tree.destroy()
        #expect(player.$settings.observerCount == 0)
        #expect(player.badge.$settings.observerCount == 0)
    }
}
