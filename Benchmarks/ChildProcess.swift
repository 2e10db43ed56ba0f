import Glibc

/// What one timed run of a side cost.
struct RunMeasurement {
    /// Wall time, from just before the spawn to the reap (CLOCK_MONOTONIC).
    let seconds: Double
    /// Peak resident set of the child and the descendants it reaped (`ru_maxrss`, KB on
    /// Linux); nil when the run was in-process.
    let peakKilobytes: Int?
    /// CPU time of the child and the descendants it reaped, user and system (`ru_utime` +
    /// `ru_stime`): a side on two threads can use more than its wall time; nil in-process.
    let cpuSeconds: Double?
}

/// A side that did not complete.
struct RunFailure: Error, CustomStringConvertible {
    let description: String
}

/// Starts children with a real `fork` + `execve` and reaps them with `wait4`, so time and peak
/// memory are measured the same way for Ferry and for the reference.
///
/// Not `posix_spawn`: glibc implements it with `clone(CLONE_VM | CLONE_VFORK)`, and on `execve`
/// Linux folds the high-water RSS of the memory the child leaves behind, which under vfork is the
/// driver's own, into the child's `ru_maxrss`. Every spawned child then reports at least the
/// driver's ~20 MB (`wc -l`, which needs 2 MB, showed 22.4 MB). After a real fork the child's
/// address space is a copy whose high-water mark is only the driver's anonymous pages that fork
/// copies; `Calibration` measures that floor with `/bin/true` and the report prints it.
enum ChildProcess {
    /// Runs `arguments` with standard input from /dev/null and standard output and error into
    /// `logPrefix.out` / `logPrefix.err`; throws when it cannot start or exits non-zero.
    static func run(_ arguments: [String], logPrefix: String) throws -> RunMeasurement {
        guard let name = arguments.first else { throw RunFailure(description: "empty command") }
        guard let program = resolve(name) else { throw RunFailure(description: "cannot find \(name) in PATH") }
        guard let fork = forkFunction else { throw RunFailure(description: "fork is not available") }

        // Everything the child needs is prepared here: between fork and execve it only calls
        // async-signal-safe functions on these pointers.
        let input = open("/dev/null", O_RDONLY | O_CLOEXEC)
        let output = open(logPrefix + ".out", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        let errors = open(logPrefix + ".err", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        defer { for descriptor in [input, output, errors] where descriptor >= 0 { close(descriptor) } }
        guard input >= 0, output >= 0, errors >= 0 else {
            throw RunFailure(description: "cannot open the logs \(logPrefix).out/.err: \(String(cString: strerror(errno)))")
        }
        guard let path = strdup(program) else { throw RunFailure(description: "out of memory") }
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer {
            free(path)
            for pointer in argv { free(pointer) }
        }

        let start = now()
        let pid = argv.withUnsafeBufferPointer { argvBuffer -> pid_t in
            guard let argvPointer = argvBuffer.baseAddress else { return -1 }
            let child = fork()
            if child == 0 {
                if dup2(input, 0) < 0 || dup2(output, 1) < 0 || dup2(errors, 2) < 0 { _exit(126) }
                execve(path, argvPointer, environ)
                _exit(127)
            }
            return child
        }
        guard pid > 0 else { throw RunFailure(description: "fork failed: \(String(cString: strerror(errno)))") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw RunFailure(description: "wait4 failed: \(String(cString: strerror(errno)))") }
        }
        let seconds = now() - start
        let signal = status & 0x7f
        let exitCode = (status >> 8) & 0xff
        guard signal == 0 else { throw RunFailure(description: "\(name) killed by signal \(signal); see \(logPrefix).err") }
        guard exitCode != 127 else { throw RunFailure(description: "cannot execute \(program)") }
        guard exitCode == 0 else { throw RunFailure(description: "\(name) exited with \(exitCode); see \(logPrefix).err") }
        let cpu = [usage.ru_utime, usage.ru_stime].reduce(0.0) { $0 + Double($1.tv_sec) + Double($1.tv_usec) / 1e6 }
        return RunMeasurement(seconds: seconds, peakKilobytes: usage.ru_maxrss, cpuSeconds: cpu)
    }

    /// `fork` from the C library: Swift marks it unavailable to discourage it in general code,
    /// but a fork followed at once by `execve` is exactly its safe use.
    private static let forkFunction: (@convention(c) () -> pid_t)? = dlsym(nil, "fork").map {
        unsafeBitCast($0, to: (@convention(c) () -> pid_t).self)
    }

    /// `name` itself when it holds a slash, else the first executable of that name in `PATH`.
    static func resolve(_ name: String) -> String? {
        if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
        let search = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        for folder in search.split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Times `body` inside the driver.
    static func runInProcess(_ body: () throws -> Void) throws -> RunMeasurement {
        let start = now()
        try body()
        return RunMeasurement(seconds: now() - start, peakKilobytes: nil, cpuSeconds: nil)
    }

    /// Seconds on the monotonic clock.
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
