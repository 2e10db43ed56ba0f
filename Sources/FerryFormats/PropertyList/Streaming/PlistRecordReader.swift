/// Streams the records of a property list from a ``ByteSource``: the elements of a root
/// `<array>`, one at a time, each with its line and index. One reader for XML and binary plists,
/// chosen by the leading bytes (compressed input: wrap the source in a
/// ``GzipDetectingByteSource``).
///
/// **XML** is read through libxml2's pull reader, so memory follows the largest element, never
/// the file: each element of the root array is parsed, decoded and freed before the next is read.
/// Elements are decoded by the rules of ``XMLPropertyListReader`` (integers, reals with their
/// `nan`/`inf` spellings, dates, base64, `CF$UID` dictionaries, last duplicate key wins and is
/// noted in the record's `repeatedKeys`), and the
/// document is refused as that reader refuses it: no network, no DTD loading, no entity
/// substitution, and a document whose DTD declares an entity is refused before anything is
/// expanded (``XMLPropertyListProblem/entityDeclaration`` with the line of the declaration).
/// Only UTF-8 and UTF-16 are accepted.
///
/// **Binary** plists keep their offset table at the end, so they cannot be streamed: a source
/// starting with `bplist0` is read whole and decoded by ``BinaryPropertyListReader``; memory is
/// then the file plus its decoded value, and records have no line (only their index).
///
/// What counts as a record:
/// - The root is the value inside `<plist>`, or a bare value as the root element (as for the
///   tree reader). When it is an array, each element is a record, with its 0-based index.
/// - Any other root value (typically one `<dict>`) is the one record, without an index.
/// - Elements that are not dictionaries are yielded like the others; rejecting them, with their
///   location, is the caller's business.
///
/// Errors come when they are reached. A document that is malformed (or breaks a plist rule)
/// after some records has had those records yielded already; the error is thrown by the
/// ``nextRecord()`` call that reaches it, with the source name and the line. What follows the
/// root value (a second value inside `<plist>`, trailing garbage) is checked after the last
/// record, so a document is only known to be valid once ``nextRecord()`` has returned nil.
/// Where the tree reader would report a different problem first (it checks the whole document
/// before decoding any value), the verdict — refused — is the same.
public struct PlistRecordReader: ~Copyable {
    /// The name of the source, for messages.
    public let sourceName: String
    /// The deepest nesting of containers accepted, counting the root array.
    public let maxDepth: Int

    private let bufferSize: Int
    private var state: State

    private enum State {
        case start(any ByteSource)
        case xml(XMLPlistStream, next: Int)
        case values([PropertyListValue], line: Int?, indexed: Bool, next: Int, repeatedKeys: [Int?: RepeatedPropertyListKeys])
        case finished
        case failed(any Error)
    }

    /// - Parameters:
    ///   - maxDepth: the deepest container nesting accepted (the root array is level 1).
    ///   - bufferSize: bytes read from `source` at a time (at least 8).
    public init(source: some ByteSource, maxDepth: Int = BinaryPropertyListReader.defaultMaxDepth, bufferSize: Int = 64 * 1024) {
        sourceName = source.name
        self.maxDepth = maxDepth
        self.bufferSize = max(8, bufferSize)
        state = .start(source)
    }

    /// The next record, or `nil` after the last one (and once the rest of the document has been
    /// checked).
    /// - Throws: ``PlistRecordError`` for a malformed, hostile or unrecognized property list, and
    ///   the errors of the source. After an error, every call throws it again.
    public mutating func nextRecord() throws -> PlistRecord? {
        if case .failed(let error) = state { throw error }
        do {
            return try advance()
        } catch {
            state = .failed(error)
            throw error
        }
    }

    private mutating func advance() throws -> PlistRecord? {
        switch state {
        case .start(let source):
            state = .finished
            try open(source)
            return try advance()
        case let .xml(stream, next):
            guard let (value, line, repeated) = try stream.nextArrayElement() else {
                state = .finished
                try stream.finish()
                return nil
            }
            state = .xml(stream, next: next + 1)
            return record(value, line: line, index: next, repeatedKeys: repeated)
        case let .values(values, line, indexed, next, repeated):
            guard next < values.count else {
                state = .finished
                return nil
            }
            state = .values(values, line: line, indexed: indexed, next: next + 1, repeatedKeys: repeated)
            let index = indexed ? next : nil
            return record(values[next], line: line, index: index, repeatedKeys: repeated[index] ?? RepeatedPropertyListKeys())
        case .finished, .failed:
            return nil
        }
    }

    private func record(_ value: PropertyListValue, line: Int?, index: Int?, repeatedKeys: RepeatedPropertyListKeys) -> PlistRecord {
        PlistRecord(value: value, location: PlistRecordLocation(source: sourceName, line: line, index: index), repeatedKeys: repeatedKeys)
    }

    /// Sniffs the format and gets the records ready.
    private mutating func open(_ source: any ByteSource) throws {
        var source = source
        let prefix = try readPrefix(of: &source)
        if BinaryPropertyListReader.hasBinaryHeader(prefix) {
            try openBinary(source, prefix: prefix)
        } else if PropertyList.looksLikeXML(prefix) {
            let consumed = try XMLPrologGuard.read(&source, prefix: prefix, chunkSize: bufferSize)
            let stream = try XMLPlistStream(source: source, replaying: consumed, maxDepth: maxDepth)
            switch try stream.openRoot() {
            case .array:
                state = .xml(stream, next: 0)
            case let .single(value, line, repeated):
                try stream.finish()
                state = .values([value], line: line, indexed: false, next: 0, repeatedKeys: [nil: repeated])
            }
        } else {
            throw PlistRecordError(source: sourceName, problem: .unrecognizedFormat)
        }
    }

    /// At least the first 8 bytes (enough for the `bplist0?` magic) and the first byte that is
    /// not whitespace, unless the source ends first.
    private func readPrefix(of source: inout any ByteSource) throws -> [UInt8] {
        var prefix: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: bufferSize)
        while prefix.count < 8 || prefix.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) {
            let count = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
            if count == 0 { break }
            prefix += buffer[..<count]
        }
        return prefix
    }

    /// Reads the whole binary plist; its root array's elements are the records.
    private mutating func openBinary(_ source: any ByteSource, prefix: [UInt8]) throws {
        var source = source
        var bytes = prefix
        var buffer = [UInt8](repeating: 0, count: bufferSize)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
            if count == 0 { break }
            bytes += buffer[..<count]
        }
        let decoded: (value: PropertyListValue, repeatedKeys: [Int?: RepeatedPropertyListKeys])
        do {
            decoded = try BinaryPropertyListReader(maxDepth: maxDepth).decodeNotingRepeatedKeys(bytes)
        } catch {
            throw PlistRecordError(source: sourceName, problem: error)
        }
        if case .array(let elements) = decoded.value {
            state = .values(elements, line: nil, indexed: true, next: 0, repeatedKeys: decoded.repeatedKeys)
        } else {
            state = .values([decoded.value], line: nil, indexed: false, next: 0, repeatedKeys: decoded.repeatedKeys)
        }
    }
}
