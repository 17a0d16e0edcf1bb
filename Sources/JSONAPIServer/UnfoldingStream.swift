import JSONAPI

/// A stream whose elements `next` produces one at a time, on demand, from a state it changes:
/// nothing is read ahead of the consumer, so a stream over a large source holds one step's
/// worth of it. `next` answers nil at the end; an error ends the stream.
package func unfoldingStream<State: Sendable, Element: Sendable>(
    _ initial: State, _ next: @escaping @Sendable (inout State) async throws -> Element?
) -> AsyncThrowingStream<Element, any Error> {
    // The consumer asks for one element at a time, so the state is never used by two calls at
    // once; it is kept in a lock only to be handed between them.
    let slot = Locked<State?>(initial)
    return AsyncThrowingStream(unfolding: {
        guard var state = slot.withLock({ $0.take() }) else { return nil }
        let element = try await next(&state)
        slot.withLock { $0 = state }
        return element
    })
}
