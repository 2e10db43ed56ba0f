extension JSONValue {
    /// Parses a whole JSON text: exactly one value, with only whitespace around it.
    /// - Throws: ``JSONError`` (see ``JSONReader`` for the rules), and source errors.
    public init(parsing source: some ByteSource, maxDepth: Int = 512, bufferSize: Int = 64 * 1024) throws {
        var scanner = JSONScanner(source: source, maxDepth: maxDepth, maxTokenBytes: ValueSizeLimit.defaultMaxBytes, bufferSize: bufferSize)
        self = try scanner.parseValue(depth: 0)
        try scanner.expectEnd()
    }

    /// Parses a whole JSON text held in memory.
    public init(parsing bytes: [UInt8], maxDepth: Int = 512) throws {
        try self.init(parsing: MemoryByteSource(bytes), maxDepth: maxDepth, bufferSize: max(bytes.count, 1))
    }
}
