import ComposeApp
import ComposeTesting
import Testing

// Tutorial.md (once the README), "LazyComponent" and its "Lifecycle Emitters". Adapted: the README
// declares `extension ProfileComponent : View` on the observers file, which
// is SwiftUI; here it is a plain extension.

// EditProfile.swift
private struct EditProfileComponent : Component {

    let didSave = SignalEmitter()

}

extension EditProfileComponent {

    var observers : Void {
        None
    }

}

// Profile.swift
private struct ProfileComponent : RouterComponent {

    let editProfile = LazyComponent(EditProfileComponent())

    let router = Router(start: \Self.self)

    let openEditProfile = SignalEmitter()

}

// Profile+Observers.swift
extension ProfileComponent {

    var observers : Void {
        openEditProfile += {
            router.push(\Self.editProfile)
        }

        editProfile.didCreate += {
            print("Edit profile created!")

            editProfile.didSave += {
                print("Edit profile's didSave received!")
            }
        }
    }

}

@MainActor
@Suite(.serialized) struct LazySampleTests {
    @Test func theLazyComponentIsCreatedWhenPushedAndItsEmittersObserved() {
        _ = Printed.take()
        let host = TestHost(ProfileComponent())
        #expect(!host.root.editProfile.isCreated)

        host.root.openEditProfile.send()
        host.root.editProfile.didSave.send()
        #expect(Printed.take() == ["Edit profile created!", "Edit profile's didSave received!"])

        // Popping destroys it, and with it every observer on its emitters.
        let didSave = host.root.editProfile.didSave
        host.root.router.pop()
        didSave.send()
        #expect(!host.root.editProfile.isCreated)
        #expect(Printed.take().isEmpty)

        // Shown again: a new instance, new observers.
        host.root.openEditProfile.send()
        host.root.editProfile.didSave.send()
        #expect(Printed.take() == ["Edit profile created!", "Edit profile's didSave received!"])
        #expect(host.diagnostics.isEmpty)
    }
}
