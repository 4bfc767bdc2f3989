import ComposeApp
import ComposeTesting
import Testing

// Tutorial.md (once the README), "DynamicComponent". Adapted: both snippets name their file
// Profile.swift; the types are private to this file. Routing to a dynamic
// component that was not created is a diagnostic here, not a crash.
//
// DESIGN.md: destroying a dynamic component that is on a stack removes it
// from the stack first, so the README's `router.pop()` after `destroy()`
// finds only the root route left and reports an `emptyStack` diagnostic
// (no state change). The test asserts exactly that.

// ProfileObject.swift
private struct ProfileObject {
    let fullName : String
}

// Profile.swift
private struct EditProfileComponent : Component {

    let profile : ProfileObject

    let close = SignalEmitter()

}

extension EditProfileComponent {

    var observers : Void {
        None
    }

}

// Profile.swift
private struct ProfileComponent : RouterComponent {

    let editProfile = DynamicComponent<EditProfileComponent>()

    let router = Router(start: \Self.self)

    let openEditProfile = Emitter<ProfileObject>()

}

// Profile+Observers.swift
extension ProfileComponent {

    var observers : Void {
        openEditProfile += { profileToEdit in
            // Create an instance of an underlying component
            editProfile.create {
                EditProfileComponent(profile: profileToEdit)
            }

            // Observe emitters of the newly created instance
            editProfile.close += {
                editProfile.destroy()
                router.pop()
            }

            // Present the instance using routing
            router.push(\Self.editProfile)
        }
    }

}

@MainActor
@Suite struct DynamicSampleTests {
    @Test func createObservePushThenCloseDestroys() {
        let host = TestHost(ProfileComponent())
        host.root.openEditProfile.send(ProfileObject(fullName: "Ada Lovelace"))
        #expect(host.root.editProfile.isCreated)
        #expect(host.root.editProfile.profile?.fullName == "Ada Lovelace")
        #expect(host.root.router.paths.map(\.label) == ["self", "editProfile"])

        host.root.editProfile.close.send()
        #expect(!host.root.editProfile.isCreated)
        #expect(host.root.router.paths.map(\.label) == ["self"])
        #expect(host.diagnostics.map(\.code) == [.emptyStack])
    }

    @Test func routingBeforeCreateIsADiagnosticNotACrash() {
        let host = TestHost(ProfileComponent())
        host.root.router.push(\ProfileComponent.editProfile)
        #expect(host.diagnostics.map(\.code) == [.invalidRoute])
        #expect(host.root.router.paths.map(\.label) == ["self"])
    }

    @Test func didCreateAndDidDestroyFollowTheInstance() {
        let host = TestHost(ProfileComponent())
        var events: [String] = []
        host.root.editProfile.didCreate += { events.append("created") }
        host.root.editProfile.didDestroy += { events.append("destroyed") }
        host.root.openEditProfile.send(ProfileObject(fullName: "Grace Hopper"))
        host.root.editProfile.close.send()
        #expect(events == ["created", "destroyed"])
    }
}
