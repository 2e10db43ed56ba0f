extension JSONValue {
    /// Parses a whole JSON text: exactly one value, with only whitespace around it.
    /// - Throws: ``JSONError`` (see ``JSONReader`` for the rules), and source errors.
    public init(parsing source: some ByteSource, maxDepth: Int = 512, bufferSize: Int = 64 * 1024) throws {
        var reader = JSONReader(source: source, layout: .single, maxDepth: maxDepth, bufferSize: bufferSize)
        guard let record = try reader.nextRecord() else {
            // `.single` throws on empty input rather than ending; this is never reached.
            throw JSONError.syntax(.unexpectedEnd(expected: "a value"), at: JSONPosition(source: reader.sourceName, line: 1, column: 1, byteOffset: 0))
        }
        self = record.value
    }

    /// Parses a whole JSON text held in memory.
    public init(parsing bytes: [UInt8], maxDepth: Int = 512) throws {
        try self.init(parsing: MemoryByteSource(bytes), maxDepth: maxDepth, bufferSize: max(bytes.count, 1))
    }
}
