/// A stream of bytes read in chunks into a buffer the caller owns.
///
/// Sources stack: a file or memory source at the bottom, decoding layers on top
/// (``UTF8TranscodingByteSource`` today; a decompressing source fits the same shape).
public protocol ByteSource {
    /// A human-readable name for error messages: a path, `<stdin>`, `<memory>`.
    var name: String { get }

    /// Reads up to `buffer.count` bytes into `buffer` and returns how many were read.
    /// Returns 0 only at the end of the stream; `buffer` must not be empty.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int

    /// Whether the whole input, from its first byte, holds `byte`, found without reading the
    /// source on (a regular file read a second time); nil when that cannot be known (a pipe,
    /// decompressed or transcoded bytes).
    func wholeInputContains(_ byte: UInt8) -> Bool?
}

extension ByteSource {
    public func wholeInputContains(_ byte: UInt8) -> Bool? { nil }
}
