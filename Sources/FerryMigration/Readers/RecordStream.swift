/// A record reader of any kind behind one reference type, so a job can hold readers of different
/// formats in turn.
public protocol RecordStream: AnyObject {
    var sourceName: String { get }
    var unknownKeys: [String] { get }
    var matchesAnyKey: Bool { get }
    /// See ``RecordReader/skippedLines``.
    var skippedLines: Int { get }
    /// See ``RecordReader/absentDefaults``.
    var absentDefaults: [AbsentDefault] { get }
    func next() throws(RecordSourceError) -> RecordReadResult?
    /// See ``RecordReader/withNext(_:)``.
    func withNext(_ body: (borrowing RecordReadResult) -> Void) throws(RecordSourceError) -> Bool
}

/// Holds a (non-copyable) record reader as a `RecordStream`.
public final class RecordReaderBox<Reader: RecordReader & ~Copyable>: RecordStream {
    /// Read by one thread at a time, once per record: no run-time exclusivity check.
    @exclusivity(unchecked) private var reader: Reader

    public init(_ reader: consuming Reader) {
        self.reader = reader
    }

    public var sourceName: String { reader.sourceName }
    public var unknownKeys: [String] { reader.unknownKeys }
    public var matchesAnyKey: Bool { reader.matchesAnyKey }
    public var skippedLines: Int { reader.skippedLines }
    public var absentDefaults: [AbsentDefault] { reader.absentDefaults }

    public func next() throws(RecordSourceError) -> RecordReadResult? {
        try reader.next()
    }

    public func withNext(_ body: (borrowing RecordReadResult) -> Void) throws(RecordSourceError) -> Bool {
        try reader.withNext(body)
    }
}
