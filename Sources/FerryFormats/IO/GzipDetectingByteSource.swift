/// Reads a source as gzip when it starts with the gzip magic bytes `1F 8B`, and as it is otherwise.
///
/// The decision is made from the content, never from a file extension, so a `.json` file that is
/// really compressed (or a `.gz` that is not) still reads correctly. Works on pipes: the probed
/// bytes are kept and served first.
public final class GzipDetectingByteSource: ByteSource {
    public var name: String { base.name }
    /// Whether the content was found to be gzip.
    public let isCompressed: Bool

    private var base: any ByteSource
    /// Probed bytes not yet handed out (plain content only).
    private var pending: [UInt8]
    private var pendingStart = 0

    /// Probes `source` and wraps it in a ``GzipByteSource`` when it holds gzip data.
    /// - Throws: errors of `source` and ``GzipError/zlibFailure(code:)``.
    public init(_ source: some ByteSource) throws {
        var source: any ByteSource = source
        var probe: [UInt8] = []
        var byte: UInt8 = 0
        while probe.count < 2 {
            let count = try withUnsafeMutableBytes(of: &byte) { try source.read(into: $0) }
            if count == 0 { break }
            probe.append(byte)
        }
        if probe == [0x1F, 0x8B] {
            base = try GzipByteSource(base: source, pending: probe)
            pending = []
            isCompressed = true
        } else {
            base = source
            pending = probe
            isCompressed = false
        }
    }

    /// Opens the file at `path` (`-` for standard input), decompressing it when it is gzip.
    /// - Throws: ``ByteSourceError/openFailed(path:code:)`` and probe read errors.
    public convenience init(path: String) throws {
        try self.init(FileByteSource(path: path))
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard !buffer.isEmpty else { return 0 }
        if pendingStart < pending.count {
            let count = min(buffer.count, pending.count - pendingStart)
            for offset in 0..<count { buffer[offset] = pending[pendingStart + offset] }
            pendingStart += count
            return count
        }
        return try base.read(into: buffer)
    }
}
