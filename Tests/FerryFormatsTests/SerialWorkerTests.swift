import FerryFormats
import Foundation
import Synchronization
import Testing

/// Work Ferry runs beside the caller starts its threads itself (`WorkerThread`): libdispatch's
/// queues, used before, retried a thread the system could not make (`ulimit -v`) forever, and
/// export, import and PostgreSQL loads hung. With thread creation refused (as such a system
/// refuses it), each kind of worker does the same work on the caller instead, in the same order.
@Suite("serial worker", .timeLimit(.minutes(1)))
struct SerialWorkerTests {
    /// The pieces a worker ran, in order, and on which thread.
    private final class Log: Sendable {
        private let entries = Mutex<[(piece: Int, thread: pthread_t)]>([])
        func add(_ piece: Int) { entries.withLock { $0.append((piece, pthread_self())) } }
        var pieces: [Int] { entries.withLock { $0.map(\.piece) } }
        var threads: [pthread_t] { entries.withLock { $0.map(\.thread) } }
    }

    private struct Failed: Error, Equatable {
        let piece: Int
    }

    @Test("pieces run in the order handed over, on one thread that is not the caller's")
    func threaded() throws {
        let worker = SerialWorker<Never>(capacity: 2)
        let log = Log()
        for piece in 0..<100 { worker.submit { log.add(piece) } }
        worker.waitUntilIdle()
        #expect(log.pieces == Array(0..<100))
        #expect(Set(log.threads.map { UInt($0) }).count == 1)
        #expect(log.threads.allSatisfy { pthread_equal($0, pthread_self()) == 0 })
    }

    /// What a piece holds (a block of input), counted while it lives.
    private final class Held: Sendable {
        static let alive = Atomic<Int>(0)
        init() { Self.alive.add(1, ordering: .sequentiallyConsistent) }
        deinit { Self.alive.subtract(1, ordering: .sequentiallyConsistent) }
    }

    /// Found by the benchmark suite: a gzip export peaked at 203 MB where it had 59 MB. The
    /// worker's list kept each piece it had run (and the block it captured) until the list
    /// emptied, which a producer that keeps up never lets it do.
    @Test("a piece that has run lets go of what it captured, though more pieces keep waiting")
    func ranPiecesAreReleased() throws {
        let worker = SerialWorker<Never>(capacity: 2)
        let submitted = DispatchSemaphore(value: 0)
        let mostAlive = Atomic<Int>(0)
        for piece in 0..<200 {
            let held = Held()
            worker.submit {
                // Waits until the next piece is in the list, so that the list never empties.
                submitted.wait()
                _ = held
                let alive = Held.alive.load(ordering: .sequentiallyConsistent)
                if alive > mostAlive.load(ordering: .sequentiallyConsistent) { mostAlive.store(alive, ordering: .sequentiallyConsistent) }
            }
            if piece > 0 { submitted.signal() }
        }
        submitted.signal()
        worker.waitUntilIdle()
        #expect(mostAlive.load(ordering: .sequentiallyConsistent) <= 5)
    }

    @Test("when no thread can be made, each piece runs on the caller as it is handed over")
    func refused() throws {
        let log = Log()
        WorkerThread.refusingThreads {
            let worker = SerialWorker<Never>(capacity: 2)
            for piece in 0..<100 {
                worker.submit { log.add(piece) }
                #expect(log.pieces.count == piece + 1)
            }
            worker.waitUntilIdle()
        }
        #expect(log.pieces == Array(0..<100))
        #expect(log.threads.allSatisfy { pthread_equal($0, pthread_self()) != 0 })
    }

    @Test("the first failure is thrown by the next submit and by drain; the pieces after it are not run",
          arguments: [false, true])
    func failure(refusingThreads: Bool) throws {
        let log = Log()
        let thrown: (submit: Failed?, drain: Failed?) = {
            let run = { () -> (Failed?, Failed?) in
                let worker = SerialWorker<Failed>(capacity: 1)
                var submitError: Failed?
                for piece in 0..<20 where submitError == nil {
                    do throws(Failed) {
                        try worker.submit { () throws(Failed) in
                            log.add(piece)
                            if piece == 3 { throw Failed(piece: piece) }
                        }
                    } catch { submitError = error }
                }
                var drainError: Failed?
                do throws(Failed) { try worker.drain() } catch { drainError = error }
                return (submitError, drainError)
            }
            return refusingThreads ? WorkerThread.refusingThreads(run) : run()
        }()
        #expect(thrown.submit == Failed(piece: 3))
        #expect(thrown.drain == Failed(piece: 3))
        #expect(log.pieces == [0, 1, 2, 3])
    }

    @Test("background work runs on the caller, before the caller goes on, when no thread can be made")
    func backgroundWork() throws {
        let caller = pthread_self()
        let ranHere = WorkerThread.refusingThreads {
            let work = BackgroundWork<Bool, Never> { .success(pthread_equal(pthread_self(), caller) != 0) }
            #expect(work.outcomeIfDone != nil)
            return work.wait()
        }
        #expect(ranHere)
    }
}
