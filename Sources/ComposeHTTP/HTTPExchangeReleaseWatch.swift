/// Answers for an ``HTTPExchange`` released before its answer ended: 500
/// if it was never answered, a cut connection if its streamed answer was
/// left open (``HTTPResponseSlot/exchangeReleased()``); nothing if the
/// answer ended meanwhile.
///
/// The exchange holds it, so it goes when the exchange goes (its deinit
/// runs on the main actor, wherever the last reference was dropped). Made
/// only for an exchange whose handlers returned without ending the answer:
/// an exchange answered at once, the common case, is released with no
/// main-actor deinit, which cost more than the rest of its release and an
/// allocation besides (Benchmarks/scripts/profile_http.sh).
@MainActor
final class HTTPExchangeReleaseWatch {
    let slot: HTTPResponseSlot

    init(slot: HTTPResponseSlot) {
        self.slot = slot
    }

    isolated deinit {
        slot.exchangeReleased()
    }
}
