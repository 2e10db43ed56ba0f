#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if os(Linux)
import CSystemCalls
#endif
import Synchronization

/// The files and folders this process builds aside and must never leave behind, for the one
/// moment their owners cannot clean up: a SIGINT, SIGTERM, SIGHUP or SIGPIPE. `removeOnSignal()`
/// installs a handler that removes every registered file, then every registered folder (each
/// emptied by removing the files registered in it), and re-raises the signal with its default
/// action, so the process still ends as the signal says.
///
/// While an output is put in place over an earlier one (`deferringSignals`), a signal waits: the
/// handler only notes it, and the end of the last such window acts on it. Stopping a placement
/// midway would leave neither the earlier output nor the new one.
///
/// The handler must be async-signal-safe: it reads paths kept as C strings in fixed slots
/// allocated once, uses only atomics allocated before it is installed, and calls only `unlink`,
/// `rmdir`, `open`, `getdents64`, `unlinkat`, `close`, `signal`, `pthread_sigmask` and `raise`. Registration takes a lock; a slot's state is
/// an atomic, set to free before its bytes are reused, so the handler never reads a half-written
/// path.
public enum TemporaryFiles {
    /// What a registered path is.
    public enum Kind: UInt8, Sendable {
        case file = 1
        /// A folder emptied by removing the files registered in it.
        case folder = 2
        /// A folder of files the run makes without registering each (there may be thousands: a
        /// restore's external data files), which the handler removes by listing the folder
        /// (`emptyFolder`): its plain entries, never through a link.
        case folderOfFiles = 3
    }

    /// A registered path, to unregister once it is in place or removed.
    public struct Registration: Sendable, Hashable {
        fileprivate let slot: Int
    }

    static let capacity = 512
    /// Bytes of a path, its terminating zero included; a longer path is not registered (its
    /// owner still removes it on every error path).
    static let slotBytes = 4096

    private static let slots = Slots(count: capacity, bytes: slotBytes)
    /// Free slot indices and the registered paths, under one lock (never taken by the handler).
    private static let table = Mutex(Table())

    private struct Table: ~Copyable {
        var free: [Int] = Array((0..<TemporaryFiles.capacity).reversed())
        var registered: [String: Int] = [:]
    }

    /// Registers `path`; nil when it cannot be (no free slot, a path too long).
    @discardableResult
    public static func register(_ path: String, kind: Kind) -> Registration? {
        let bytes = Array(path.utf8)
        guard bytes.count < slotBytes, !bytes.contains(0) else { return nil }
        return table.withLock { table -> Registration? in
            guard table.registered[path] == nil, let slot = table.free.popLast() else { return nil }
            slots.store(bytes, kind: kind, at: slot)
            table.registered[path] = slot
            return Registration(slot: slot)
        }
    }

    /// Forgets a registration (the path is in place, or its owner removed it).
    public static func unregister(_ registration: Registration) {
        table.withLock { table in
            guard let path = table.registered.first(where: { $0.value == registration.slot })?.key else { return }
            slots.clear(registration.slot)
            table.registered[path] = nil
            table.free.append(registration.slot)
        }
    }

    /// Whether this process has `path` registered: a sweep of leftovers leaves such paths alone.
    public static func isRegistered(_ path: String) -> Bool {
        table.withLock { $0.registered[path] != nil }
    }

    /// The signals the handler ends the run on: an interruption (SIGINT), a request to end
    /// (SIGTERM), a closed terminal (SIGHUP), and a reader that went away (SIGPIPE: `ferry … | head`
    /// ends as quietly and fast as without a handler, its temporary files removed).
    public static let handledSignals = [SIGINT, SIGTERM, SIGHUP, SIGPIPE]

    /// Installs the handler for `handledSignals` (a signal the process ignores stays ignored).
    /// Called once, early, by the command-line tool.
    public static func removeOnSignal() {
        _ = slots  // allocated here, never first touched inside the handler
        _ = window
        _ = entriesBuffer
        for signal in handledSignals {
            var current = sigaction()
            guard sigaction(signal, nil, &current) == 0, !Self.isIgnored(current) else { continue }
            var action = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = handleSignal
            #else
            action.__sigaction_u.__sa_handler = handleSignal
            #endif
            // Each handled signal waits while the handler runs, so the handler never interrupts itself.
            sigemptyset(&action.sa_mask)
            for other in handledSignals { sigaddset(&action.sa_mask, other) }
            // A deferred signal returns from the handler: interrupted calls go on.
            action.sa_flags = Int32(truncatingIfNeeded: SA_RESTART)
            sigaction(signal, &action, nil)
        }
    }

    /// Runs `body`, the placement of an output over an earlier one, with the handler's clean-up
    /// and exit deferred: a signal that arrives meanwhile (on any thread) ends the run once the
    /// last such window of the process ends, as it would have before it began. Keep `body` short
    /// and free of waits on anything but the file system.
    public static func deferringSignals<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        window.open()
        defer { window.close() }
        return try body()
    }

    /// The state the handler shares with `deferringSignals`.
    private static let window = SignalWindow()

    private static func isIgnored(_ action: sigaction) -> Bool {
        #if canImport(Glibc)
        let handler = action.__sigaction_handler.sa_handler
        #else
        let handler = action.__sigaction_u.__sa_handler
        #endif
        return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    /// Removes every registered path: files first, then folders, in passes until one removes
    /// nothing (a folder inside another goes before it, whatever their slots). Async-signal-safe.
    fileprivate static func removeAllRegistered() {
        for slot in 0..<capacity where slots.kind(at: slot) == Kind.file.rawValue { unlink(slots.path(at: slot)) }
        for slot in 0..<capacity where slots.kind(at: slot) == Kind.folderOfFiles.rawValue { emptyFolder(slots.path(at: slot)) }
        var removedOne = true
        while removedOne {
            removedOne = false
            for slot in 0..<capacity {
                // Compared one by one: an array literal here would allocate in the handler.
                let kind = slots.kind(at: slot)
                guard kind == Kind.folder.rawValue || kind == Kind.folderOfFiles.rawValue else { continue }
                if rmdir(slots.path(at: slot)) == 0 { removedOne = true }
            }
        }
    }

    /// The buffer `emptyFolder` reads a folder's entries into, allocated once, before the handler
    /// is installed.
    private static let entriesBufferBytes = 8192
    nonisolated(unsafe) private static let entriesBuffer = UnsafeMutableRawPointer.allocate(byteCount: entriesBufferBytes, alignment: 8)

    /// Removes the entries of the folder at `path` that are not folders, by name inside the
    /// folder opened once (a folder that is a link is not opened, an entry that is a link is
    /// removed itself, never followed); a subfolder is left. Async-signal-safe: the entries are
    /// read with `getdents64` into `entriesBuffer`. Only on Linux; elsewhere the folder is left to
    /// the next run's sweep.
    static func emptyFolder(_ path: UnsafePointer<CChar>) {
        #if os(Linux)
        let folder = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard folder >= 0 else { return }
        defer { close(folder) }
        while true {
            let read = ferry_getdents64(folder, entriesBuffer, entriesBufferBytes)
            guard read > 0 else { return }
            // Each entry: inode (8 bytes), offset (8), its length (2), its type (1), its name (NUL-ended).
            var offset = 0
            while offset < read {
                let entry = entriesBuffer + offset
                let length = Int(entry.loadUnaligned(fromByteOffset: 16, as: UInt16.self))
                let name = UnsafePointer<CChar>((entry + 19).assumingMemoryBound(to: CChar.self))
                let isDot = name[0] == 0x2E && (name[1] == 0 || (name[1] == 0x2E && name[2] == 0))
                if !isDot { unlinkat(folder, name, 0) }
                offset += max(length, 1)
            }
        }
        #endif
    }
}

/// The handler: notes the signal, and ends the run on it unless a placement is in progress.
private let handleSignal: @convention(c) (Int32) -> Void = { signal in
    TemporaryFiles.noteSignal(signal)
}

extension TemporaryFiles {
    /// Notes `signal` (the first one noted is the one the run ends on) and ends the run unless
    /// a placement window is open: its end does then. Async-signal-safe.
    fileprivate static func noteSignal(_ signal: Int32) {
        _ = window.pending.compareExchange(expected: 0, desired: signal, ordering: .sequentiallyConsistent)
        window.endRunOnPendingSignal()
    }
}

/// Open placement windows and the signal noted meanwhile. `depth` counts the open windows, or
/// is -1 once the run is ending: the handler notes before it acts, a window's end lowers the
/// depth before it looks at the note, and only the one that moves the depth from 0 to -1 acts
/// (all sequentially consistent), so a signal is acted on once, and never while a window is
/// open: a window cannot open after the run began to end on another thread.
private final class SignalWindow: Sendable {
    let depth = Atomic<Int>(0)
    let pending = Atomic<Int32>(0)

    /// Opens a window; on a thread that finds the run ending (another thread's handler is
    /// removing the registered paths and will raise the signal), waits for that end instead.
    func open() {
        while true {
            let open = depth.load(ordering: .sequentiallyConsistent)
            if open < 0 {
                while true { pause() }
            }
            if depth.compareExchange(expected: open, desired: open + 1, ordering: .sequentiallyConsistent).exchanged { return }
        }
    }

    /// Closes a window; the last one to close acts on a signal noted while it was open.
    func close() {
        guard depth.subtract(1, ordering: .sequentiallyConsistent).newValue == 0 else { return }
        endRunOnPendingSignal()
    }

    /// Removes every registered path and ends the process by the noted signal, its action set
    /// back to the default and unblocked in this thread; nothing when none was noted, a window
    /// is open, or another thread is already ending the run. Async-signal-safe.
    func endRunOnPendingSignal() {
        let signal = pending.load(ordering: .sequentiallyConsistent)
        guard signal != 0, depth.compareExchange(expected: 0, desired: -1, ordering: .sequentiallyConsistent).exchanged else { return }
        TemporaryFiles.removeAllRegistered()
        #if canImport(Glibc)
        Glibc.signal(signal, SIG_DFL)
        #else
        Darwin.signal(signal, SIG_DFL)
        #endif
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        sigaddset(&unblocked, signal)
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        raise(signal)
    }
}

/// Fixed slots of path bytes with an atomic state each (0 free, otherwise the `Kind`), allocated
/// once and never freed.
private final class Slots: Sendable {
    nonisolated(unsafe) private let states: UnsafeMutablePointer<Atomic<UInt8>>
    nonisolated(unsafe) private let bytes: UnsafeMutablePointer<CChar>
    private let slotBytes: Int

    init(count: Int, bytes slotBytes: Int) {
        states = .allocate(capacity: count)
        for index in 0..<count { (states + index).initialize(to: Atomic(0)) }
        bytes = .allocate(capacity: count * slotBytes)
        self.slotBytes = slotBytes
    }

    /// Writes the path, then publishes it.
    func store(_ path: [UInt8], kind: TemporaryFiles.Kind, at slot: Int) {
        let start = bytes + slot * slotBytes
        path.withUnsafeBytes { raw in
            UnsafeMutableRawPointer(start).copyMemory(from: raw.baseAddress!, byteCount: raw.count)
        }
        start[path.count] = 0
        states[slot].store(kind.rawValue, ordering: .releasing)
    }

    func clear(_ slot: Int) {
        states[slot].store(0, ordering: .releasing)
    }

    func kind(at slot: Int) -> UInt8 {
        states[slot].load(ordering: .acquiring)
    }

    func path(at slot: Int) -> UnsafePointer<CChar> {
        UnsafePointer(bytes + slot * slotBytes)
    }
}
