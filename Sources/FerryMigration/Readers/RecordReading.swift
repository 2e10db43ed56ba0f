import FerryFormats

/// What a record reader hands out for each source record: a complete record, or a reject.
public enum RecordReadResult: Sendable, Equatable {
    case record(Record, defaulted: Int)
    case reject(Reject)
}

/// A source of records of one entity. Readers stream: memory does not grow with the input.
public protocol RecordReader: ~Copyable {
    /// The source's name for messages (a path, or `-` for standard input).
    var sourceName: String { get }
    /// Keys of the source that match no attribute, each reported once.
    var unknownKeys: [String] { get }
    /// Whether any key of the source matched an attribute or relationship so far. A source none
    /// of whose keys match would give records of nothing but nils and defaults.
    var matchesAnyKey: Bool { get }
    /// Lines of the source that hold no record and were passed over (empty lines, comments), so
    /// far: complete once `next()` returned nil. They are counted as read, and as skipped.
    var skippedLines: Int { get }
    /// The attributes whose model default records took for want of their key, with how many
    /// did, so far: complete once `next()` returned nil.
    var absentDefaults: [AbsentDefault] { get }
    /// The next record or reject; nil at the end of the source.
    mutating func next() throws(RecordSourceError) -> RecordReadResult?
    /// Hands the next record or reject to `body`, borrowed where the reader holds it: a reader
    /// that keeps its results (`RecordReadAhead`) hands them over without copying them. False at
    /// the end of the source (`body` is not called).
    mutating func withNext(_ body: (borrowing RecordReadResult) -> Void) throws(RecordSourceError) -> Bool
    /// Takes back results their consumer is done with (`RecordReadAhead` hands back each batch),
    /// so that the reader can reuse their memory for the next records; what it leaves in `spent`
    /// is freed by the caller.
    mutating func reuse(_ spent: inout [RecordReadResult])
}

extension RecordReader where Self: ~Copyable {
    /// Readers of documents skip nothing: every element is a record or a reject.
    public var skippedLines: Int { 0 }
    /// Readers that make each result as it is asked for hand it over from `next()`.
    public mutating func withNext(_ body: (borrowing RecordReadResult) -> Void) throws(RecordSourceError) -> Bool {
        guard let result = try next() else { return false }
        body(result)
        return true
    }
    /// Readers reuse nothing unless they say otherwise.
    public mutating func reuse(_ spent: inout [RecordReadResult]) {}
}

extension RecordSourceError {
    /// A source that has records but none of whose keys matches an attribute or relationship
    /// of `entity`: every record would be nils and defaults.
    public static func noMatchingKey(source: String, keys: [String], entity: String) -> RecordSourceError {
        guard !keys.isEmpty else {
            return RecordSourceError(source: source, reason: "it holds no key at all: its records are not objects of keys and values "
                + "(a record of \(entity) is read from an object, {\"key\": value}, or a CSV row under a header)")
        }
        let listed = NameListText.summary(keys.map { "'\($0)'" })
        return RecordSourceError(source: source, reason: "none of its keys (\(listed)) matches an attribute or relationship of "
            + "\(entity): check the entity, or name keys with --map KEY=ATTRIBUTE")
    }
}

/// A source that cannot be read on at all (as opposed to one bad record, which is a reject).
public struct RecordSourceError: Error, Sendable, Equatable, CustomStringConvertible, WriteFailureCarrying {
    public let source: String
    public let line: Int?
    public let reason: String
    /// What the environment lacked when that kept the source from being read (no descriptor left
    /// to open it, no room for a scratch file): no fault of the source.
    public let writeFailure: WriteFailure?

    public init(source: String, line: Int? = nil, reason: String, writeFailure: WriteFailure? = nil) {
        self.source = source
        self.line = line
        self.reason = reason
        self.writeFailure = writeFailure
    }

    /// The error of a source that `error`, met reading the file at `path`, kept from being read:
    /// its reason without the path, and what the environment lacked when that was the cause.
    public init(source: String, line: Int? = nil, failure error: any Error, at path: String) {
        self.init(source: source, line: line, reason: ErrorText.reason(of: error, at: path), writeFailure: WriteFailure.of(error))
    }

    public var description: String {
        writeFailure?.description ?? "\(source)\(line.map { ":\($0)" } ?? ""): \(reason)"
    }
}
