#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A thread of its own for one piece of work, started with `pthread_create` so that a system
/// that cannot make one more (the address space `ulimit -v` allows is used up, `ulimit -u`) says
/// so: libdispatch retries such a thread forever, and a run hung where it should have gone on
/// without the thread or failed. Every thread Ferry runs work on is started here, and each user
/// says what it does without one: `BackgroundWork` and `SerialWorker` run the work on the caller,
/// `RecordReadAhead` reads in line, `SplitRecordScan` reads with one statement.
package enum WorkerThread {
    /// Whether `start` refuses, as a system that cannot make a thread does: set only by tests
    /// (`refusingThreads`), for the work run in their task; the product never sets it.
    @TaskLocal private static var refuses = false

    /// Runs `body` with every `start` in this task refused, so that tests run the fallbacks a
    /// system out of threads takes.
    package static func refusingThreads<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        let outcome = $refuses.withValue(true) { Result { () throws(Failure) -> T in try body() } }
        return try outcome.get()
    }

    private final class Work {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// Starts `body` on a new detached thread; false, with `body` not run, when the system
    /// cannot make one.
    package static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        guard !refuses else { return false }
        let work = Unmanaged.passRetained(Work(body)).toOpaque()
        var attributes = pthread_attr_t()
        guard pthread_attr_init(&attributes) == 0 else {
            Unmanaged<Work>.fromOpaque(work).release()
            return false
        }
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        #if canImport(Glibc)
        var thread = pthread_t()
        let status = pthread_create(&thread, &attributes, { raw in
            guard let raw else { return nil }
            Unmanaged<Work>.fromOpaque(raw).takeRetainedValue().body()
            return nil
        }, work)
        #else
        var thread: pthread_t?
        let status = pthread_create(&thread, &attributes, { raw in
            Unmanaged<Work>.fromOpaque(raw).takeRetainedValue().body()
            return nil
        }, work)
        #endif
        guard status == 0 else {
            Unmanaged<Work>.fromOpaque(work).release()
            return false
        }
        return true
    }
}
