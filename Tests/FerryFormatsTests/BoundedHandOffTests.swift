import FerryFormats
import Foundation
import Synchronization
import Testing

/// The one hand-off between a producer thread and its taker (the import's read-ahead, a split
/// store read's workers, a serial worker's pieces): items in order, never more than its capacity
/// out, storage given back for reuse, and either side able to end it.
@Suite("bounded hand-off", .timeLimit(.minutes(1)))
struct BoundedHandOffTests {
    @Test("items come out in the order put; after the close, take says nil, and again")
    func order() {
        let handOff = BoundedHandOff<Int, Never>(capacity: 3)
        let producer = Thread {
            for item in 0..<500 {
                guard case .free = handOff.waitForRoom() else { return }
                handOff.put(item)
            }
            handOff.close()
        }
        producer.start()
        var taken: [Int] = []
        while let item = handOff.take() {
            taken.append(item)
            handOff.release()
        }
        #expect(taken == Array(0..<500))
        #expect(handOff.take() == nil)
    }

    @Test("a producer puts no more than the capacity until the taker releases one")
    func capacityBoundsTheItemsOut() {
        let handOff = BoundedHandOff<Int, Never>(capacity: 3)
        let put = Atomic<Int>(0)
        let producer = Thread {
            for item in 0..<10 {
                guard case .free = handOff.waitForRoom() else { return }
                handOff.put(item)
                put.add(1, ordering: .sequentiallyConsistent)
            }
            handOff.close()
        }
        producer.start()
        // Taken but not released: still out.
        #expect(handOff.take() == 0)
        Thread.sleep(forTimeInterval: 0.2)
        #expect(put.load(ordering: .sequentiallyConsistent) == 3)
        handOff.release()
        var rest: [Int] = []
        while let item = handOff.take() {
            rest.append(item)
            handOff.release()
        }
        #expect(rest == Array(1..<10))
    }

    @Test("storage given back reaches the producer to be filled again")
    func sparesGoBack() {
        let handOff = BoundedHandOff<[Int], [Int]>(capacity: 1)
        guard case .free(let first) = handOff.waitForRoom() else { Issue.record("no room"); return }
        #expect(first == nil)
        handOff.put([1, 2, 3])
        let taken = handOff.take()
        #expect(taken == [1, 2, 3])
        handOff.release(returning: taken)
        guard case .free(let spare) = handOff.waitForRoom() else { Issue.record("no room"); return }
        #expect(spare == [1, 2, 3])
    }

    @Test("stop wakes a producer waiting for room and tells it to put nothing more")
    func stopEndsTheProducer() {
        let handOff = BoundedHandOff<Int, Never>(capacity: 1)
        let stopped = DispatchSemaphore(value: 0)
        let producer = Thread {
            while case .free = handOff.waitForRoom() { handOff.put(0) }
            stopped.signal()
        }
        producer.start()
        #expect(handOff.take() == 0)
        handOff.stop()
        stopped.wait()
        // Stopped whether or not the taker ever releases what it holds.
        #expect({ if case .stopped = handOff.waitForRoom() { true } else { false } }())
    }
}
