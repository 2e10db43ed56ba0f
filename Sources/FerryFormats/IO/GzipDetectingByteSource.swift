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

    /// Probes `source` and wraps it in a ``GzipByteSource`` when it holds gzip data.
    /// - Throws: errors of `source` and ``GzipError/zlibFailure(code:)``.
    public init(_ source: some ByteSource) throws {
        let probed = try SampledByteSource(source, count: 2)
        isCompressed = probed.sample == [0x1F, 0x8B]
        base = isCompressed ? try GzipByteSource(probed) : probed
    }

    /// Opens the file at `path` (`-` for standard input), decompressing it when it is gzip.
    /// - Throws: ``ByteSourceError/openFailed(path:code:)`` and probe read errors.
    public convenience init(path: String) throws {
        try self.init(FileByteSource(path: path))
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        try base.read(into: buffer)
    }

    /// Unknown for decompressed bytes; the source's answer otherwise.
    public func wholeInputContains(_ byte: UInt8) -> Bool? {
        isCompressed ? nil : base.wholeInputContains(byte)
    }
}
