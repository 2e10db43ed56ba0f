/// Serves bytes held in memory, for tests and for data that is already loaded.
public struct MemoryByteSource: ByteSource, Sendable {
    public let name: String
    private let bytes: [UInt8]
    private var offset = 0

    /// A source over `bytes`; `name` appears in error messages.
    public init(_ bytes: [UInt8], name: String = "<memory>") {
        self.bytes = bytes
        self.name = name
    }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, bytes.count - offset)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { all in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: all[offset..<offset + count]))
        }
        offset += count
        return count
    }
}
