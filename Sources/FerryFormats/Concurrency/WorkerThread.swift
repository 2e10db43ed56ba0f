#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A thread of its own for one piece of work, started with `pthread_create` so that a system
/// that cannot make one more (the address space `ulimit -v` allows is used up, `ulimit -u`) says
/// so: libdispatch retries such a thread forever, and a run hung where it should have gone on
/// without the thread or failed.
package enum WorkerThread {
    private final class Work {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// Starts `body` on a new detached thread; false, with `body` not run, when the system
    /// cannot make one.
    package static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
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
