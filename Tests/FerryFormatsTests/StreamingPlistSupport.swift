@testable import FerryFormats

/// What a ``PlistRecordReader`` yields from start to end: the records, then the error, if any.
struct StreamingPlistOutcome {
    var records: [PlistRecord] = []
    var error: (any Error)?

    var values: [PropertyListValue] { records.map(\.value) }

    /// The error as a ``PlistRecordError``; nil when there was none or it was of another type.
    var plistError: PlistRecordError? { error as? PlistRecordError }

    /// Reads `source` to the end or to the first error.
    init(_ source: some ByteSource, maxDepth: Int = BinaryPropertyListReader.defaultMaxDepth, bufferSize: Int = 64 * 1024) {
        var reader = PlistRecordReader(source: source, maxDepth: maxDepth, bufferSize: bufferSize)
        do {
            while let record = try reader.nextRecord() { records.append(record) }
        } catch {
            self.error = error
        }
    }

    init(_ text: String, bufferSize: Int = 64 * 1024) {
        self.init(MemoryByteSource(Array(text.utf8)), bufferSize: bufferSize)
    }
}

/// A source that serves `bytes`, then fails.
struct FailingByteSource: ByteSource {
    struct Failure: Error, Equatable {}
    var name: String { "<failing>" }
    var base: MemoryByteSource

    init(_ bytes: [UInt8]) { base = MemoryByteSource(bytes) }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = try base.read(into: buffer)
        if count == 0 { throw Failure() }
        return count
    }
}
