#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the command writes: results to standard output, diagnostics to standard error.
/// Writes go straight to the file descriptors, so output order is the order of the calls.
enum Terminal {
    static func out(_ text: String) {
        write(text, to: 1)
    }

    static func error(_ text: String) {
        write(text.hasSuffix("\n") ? text : text + "\n", to: 2)
    }

    /// Whether standard error is an interactive terminal (progress is shown only then).
    static var stderrIsTerminal: Bool { isatty(2) != 0 }

    /// Whether colour may be used: a terminal, and `NO_COLOR` unset.
    static var colorAllowed: Bool { stderrIsTerminal && getenv("NO_COLOR") == nil }

    /// Shows a one-line progress report in place on standard error, or clears it (nil).
    static func progress(_ line: String?) {
        write("\r\u{1B}[K" + (line ?? ""), to: 2)
    }

    private static func write(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let written = systemWrite(descriptor, base + offset, buffer.count - offset)
                if written < 0, errno == EINTR { continue }
                // An error, or nothing taken (no room): what is not written is lost, never retried forever.
                guard written > 0 else { return }
                offset += written
            }
        }
    }
}

/// The C library's `write`, named apart from `Terminal.write`.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(descriptor, buffer, count)
    #else
    Darwin.write(descriptor, buffer, count)
    #endif
}
