/// Where a `FixtureWriter` sends its output, one chunk at a time.
public protocol ByteSink {
    /// Takes the next chunk; the buffer is valid only during the call.
    mutating func write(_ chunk: UnsafeRawBufferPointer) throws
}

/// A sink that hands each chunk to a closure (to a file, a pipe, a hash, a counter).
public struct ClosureByteSink: ByteSink {
    private let body: (UnsafeRawBufferPointer) throws -> Void

    /// A sink calling `body` with every chunk.
    public init(_ body: @escaping (UnsafeRawBufferPointer) throws -> Void) {
        self.body = body
    }

    public mutating func write(_ chunk: UnsafeRawBufferPointer) throws {
        try body(chunk)
    }
}

/// A sink that keeps everything in memory; for small outputs and tests.
public struct ByteArraySink: ByteSink, Sendable {
    /// All bytes written so far.
    public private(set) var bytes: [UInt8] = []

    /// An empty sink.
    public init() {}

    public mutating func write(_ chunk: UnsafeRawBufferPointer) throws {
        bytes.append(contentsOf: chunk)
    }
}
