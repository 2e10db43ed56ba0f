import Dispatch
import Synchronization

/// Items handed from one thread (the producer) to another (the taker) in the order they were put,
/// at most `capacity` out at a time: put and not yet released by the taker, whether waiting or
/// still in its hands. It bounds the memory of a producer that runs ahead of its taker. The taker
/// may give an item's storage back as it releases it (`release(returning:)`), for the producer
/// to fill again, so that neither side allocates per item.
///
/// The taker can stop the producer (`stop`): the producer's next `waitForRoom` says so, at once
/// if it is waiting. The producer can close the hand-off (`close`): `take` returns nil once the
/// items put before are taken.
///
/// Semaphores start at zero and are signalled up to their counts (libdispatch refuses to free a
/// semaphore whose count is below its initial value).
package final class BoundedHandOff<Item: Sendable, Spare: Sendable>: Sendable {
    /// What `waitForRoom` found.
    package enum Room {
        /// Room for one more item, and storage the taker gave back to fill, if any.
        case free(spare: Spare?)
        /// The taker has stopped the hand-off: put nothing more.
        case stopped
    }

    private struct State {
        /// At most `capacity` (a few): taking the first moves the rest.
        var items: [Item] = []
        var spares: [Spare] = []
        var stopping = false
    }

    private let state = Mutex(State())
    /// Signalled once per item put and once for the close.
    private let ready = DispatchSemaphore(value: 0)
    /// Counts the items that may still be put.
    private let room = DispatchSemaphore(value: 0)

    /// A hand-off of at most `capacity` items out at a time (at least one).
    package init(capacity: Int) {
        for _ in 0..<max(1, capacity) { room.signal() }
    }

    // MARK: Producer

    /// Waits until fewer than `capacity` items are out, then takes one of the spares given back;
    /// `.stopped` once the taker has stopped the hand-off (and for every later call).
    package func waitForRoom() -> Room {
        room.wait()
        let found = state.withLock { state in state.stopping ? Room.stopped : .free(spare: state.spares.popLast()) }
        // Stopped: the signal may be the stop's, kept for the next call.
        if case .stopped = found { room.signal() }
        return found
    }

    /// Puts `item` after the others, in the room `waitForRoom` found.
    ///
    /// The item is moved, not copied, into the list: a copy left with the producer would make
    /// the producer's thread release what the item holds, or a copy of its storage when it is
    /// filled again.
    package func put(_ item: consuming Item) {
        var moved = Optional(consume item)
        state.withLock { $0.items.append(moved.take()!) }
        ready.signal()
    }

    /// Says that nothing more will be put: `take` returns nil once the items put are taken.
    package func close() {
        ready.signal()
    }

    // MARK: Taker

    /// The next item, waiting for one to be put; nil once the hand-off is closed and every item
    /// put is taken (and for every later call).
    ///
    /// The item is moved out of the list: what it holds (a block of input, a batch of records)
    /// is released by the taker as soon as it is done with it, not when the list next empties,
    /// which a producer that keeps up may never let happen.
    package func take() -> Item? {
        ready.wait()
        let item = state.withLock { state in state.items.isEmpty ? nil : state.items.removeFirst() }
        // Closed: the signal is the close's, kept for the next call.
        if item == nil { ready.signal() }
        return item
    }

    /// Makes room for one more item, as the taker is done with one it took, and gives `spare`
    /// (that item's storage, say) to the producer to fill again.
    package func release(returning spare: consuming Spare? = nil) {
        var moved = consume spare
        if moved != nil { state.withLock { $0.spares.append(moved.take()!) } }
        room.signal()
    }

    /// Tells the producer to put nothing more: its next `waitForRoom` returns `.stopped`, at once
    /// if it is waiting.
    package func stop() {
        state.withLock { $0.stopping = true }
        room.signal()
    }
}
