/// Streams records of one type to a `ByteSink` in one `FixtureFormat`.
///
/// Bytes are built in a reusable buffer and handed to the sink whenever it holds at least
/// `chunkSize` bytes, so memory stays bounded at any record count. The output depends only on
/// the records and the format: the same records give byte-identical output.
///
/// ```swift
/// var writer = FixtureWriter<UploadRecord, ClosureByteSink>(format: .csv, sink: ClosureByteSink { try file.write($0) })
/// for record in try UploadRecordGenerator(seed: 42, count: 1_000_000) { try writer.write(record) }
/// try writer.finish()
/// ```
public struct FixtureWriter<Record: FixtureRecord, Sink: ByteSink> {
    /// The format written.
    public let format: FixtureFormat
    /// The sink; after `finish()` it has received every byte.
    public private(set) var sink: Sink
    /// The number of records written so far.
    public private(set) var recordCount = 0

    private let chunkSize: Int
    private let keys: [[UInt8]]
    private var buffer: [UInt8] = []

    /// A writer that starts the output (CSV header, array or plist prologue) right away.
    public init(format: FixtureFormat, sink: Sink, chunkSize: Int = 1 << 16) {
        self.format = format
        self.sink = sink
        self.chunkSize = max(chunkSize, 1)
        buffer.reserveCapacity(self.chunkSize + 4096)
        switch format {
        case .csv:
            keys = []
            CSVEncoder.header(Record.fieldNames, into: &buffer)
        case .ndjson:
            keys = JSONObjectEncoder.keys(Record.fieldNames)
        case .jsonArray:
            keys = JSONObjectEncoder.keys(Record.fieldNames)
            buffer.append(UInt8(ascii: "["))
        case .xmlPlist:
            keys = PlistEncoder.keys(Record.fieldNames)
            buffer += PlistEncoder.prologue
        }
    }

    /// Appends one record, passing a chunk to the sink when the buffer is full.
    public mutating func write(_ record: Record) throws {
        switch format {
        case .csv:
            CSVEncoder.record(record, fieldCount: Record.fieldNames.count, into: &buffer)
        case .ndjson:
            JSONObjectEncoder.record(record, keys: keys, into: &buffer)
            buffer.append(10)
        case .jsonArray:
            buffer.append(contentsOf: recordCount == 0 ? [10] : [44, 10])
            JSONObjectEncoder.record(record, keys: keys, into: &buffer)
        case .xmlPlist:
            PlistEncoder.record(record, keys: keys, into: &buffer)
        }
        recordCount += 1
        if buffer.count >= chunkSize { try flush() }
    }

    /// Appends every record of `records`.
    public mutating func write<Records: Sequence>(contentsOf records: Records) throws where Records.Element == Record {
        for record in records { try write(record) }
    }

    /// Ends the output (closing the array or plist) and passes the rest to the sink. Call once.
    public mutating func finish() throws {
        switch format {
        case .csv, .ndjson: break
        case .jsonArray: buffer.append(contentsOf: recordCount == 0 ? [93, 10] : [10, 93, 10])
        case .xmlPlist: buffer += PlistEncoder.epilogue
        }
        try flush()
    }

    private mutating func flush() throws {
        guard !buffer.isEmpty else { return }
        try buffer.withUnsafeBytes { try sink.write($0) }
        buffer.removeAll(keepingCapacity: true)
    }
}
