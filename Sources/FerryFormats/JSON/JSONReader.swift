/// Streams the records of a JSON or NDJSON input from a ``ByteSource`` in bounded memory.
///
/// Records come one at a time, so memory follows the largest record, never the whole file, even
/// when the records are elements of one huge top-level array. See ``JSONRecordLayout`` for the
/// arrangements understood.
///
/// Parsing is strict RFC 8259, with these decisions:
/// - Any value may be the top-level value (a bare string is a valid JSON text).
/// - Strings must be valid UTF-8 and escapes must be well formed; a `\u` escape of half a surrogate
///   pair without the other half is rejected (``JSONError/Reason/loneSurrogate(_:)``), because it
///   cannot become Unicode text without loss.
/// - Numbers must follow the grammar (no leading zeros, `+`, `.5`, `1.`, hex, `NaN`), but any
///   magnitude is accepted: ``JSONNumber`` keeps the exact text (`1e99999`, 30-digit integers).
/// - No comments, no trailing commas, no single quotes.
/// - A UTF-8 byte order mark is skipped and UTF-16 with a byte order mark is transcoded (see
///   ``UTF8TranscodingByteSource``); UTF-16 or UTF-32 without one is rejected.
/// - Containers may nest `maxDepth` levels deep (512 by default), counting the records array and
///   the objects around it.
/// - Duplicate keys are kept, in order (see ``JSONValue``).
public struct JSONReader: ~Copyable {
    /// The layout asked for.
    public let layout: JSONRecordLayout

    private var scanner: JSONScanner
    private var state = State.start
    /// Whether the input is one value, the only record (``JSONRecordLayout/single``, or an
    /// automatic layout that found one value and nothing after it); known once it is read.
    public private(set) var isSingleValue = false
    /// The index in the records array of the record the last `nextRecord()` read (or read past,
    /// when it threw for a value past the limit); nil outside an array.
    public private(set) var lastRecordIndex: Int?
    /// Where the first value past the limit in the record just read began.
    private var oversizedInRecord: JSONPosition?
    /// Whether the last `nextRecord()` threw for a record it read past whole.
    private var recordReadPast = false
    /// Whether the source failed (an error that is not the JSON's): nothing after it is read.
    private var sourceFailed = false
    /// The record the last ``nextFields()`` read.
    public private(set) var fields = JSONRecordFields()
    /// Whether the record being read goes into `fields` rather than `value`.
    private var readsFields = false
    /// The record the last `nextRecord()` read, until it returns it.
    private var value: JSONValue?

    private enum State {
        case start
        /// Inside the records array reached by `keyPath`; `next` is the index of the next element.
        case inArray(keyPath: [String], next: Int)
        case lines
        case finished
    }

    /// - Parameters:
    ///   - maxDepth: the deepest container nesting accepted.
    ///   - maxValueBytes: the longest string or number accepted, as written (quotes and escapes
    ///     included); a record holding a longer one is ``JSONError/valueTooLarge(limit:at:)``,
    ///     read past without keeping that value, and reading goes on with the next record.
    ///   - bufferSize: bytes read from `source` at a time (at least 1); a longer token enlarges it.
    public init(
        source: some ByteSource,
        layout: JSONRecordLayout = .automatic,
        maxDepth: Int = 512,
        maxValueBytes: Int = ValueSizeLimit.defaultMaxBytes,
        bufferSize: Int = 256 * 1024
    ) {
        self.layout = layout
        scanner = JSONScanner(source: source, maxDepth: maxDepth, maxTokenBytes: maxValueBytes, bufferSize: bufferSize)
        scanner.readsPastLongTokens = true
    }

    /// The name of the source, for messages.
    public var sourceName: String { scanner.sourceName }

    /// The next record, or `nil` after the last one.
    /// - Throws: ``JSONError`` for malformed input, and source errors. A record holding a value
    ///   (or key) longer than the limit is read past whole, the value not kept, and is
    ///   ``JSONError/valueTooLarge(limit:at:)`` at that value; the next call reads the next record
    ///   (``skipFailedRecord()`` says so).
    public mutating func nextRecord() throws -> JSONRecord? {
        guard let location = try advance(readingFields: false), let value = self.value.take() else { return nil }
        return JSONRecord(value: value, location: location)
    }

    /// Reads the next record into ``fields``, as ``nextRecord()`` reads it into a value, and says
    /// whether there was one. An object's plain members are not turned into values
    /// (``JSONRecordFields``), which makes reading records of plain values much cheaper.
    /// - Throws: as ``nextRecord()``.
    public mutating func nextFields() throws -> Bool {
        try advance(readingFields: true) != nil
    }

    /// Reads the next record, into `fields` or `value`, and returns where it starts.
    private mutating func advance(readingFields: Bool) throws -> JSONRecordLocation? {
        readsFields = readingFields
        recordReadPast = false
        oversizedInRecord = nil
        lastRecordIndex = nil
        let record: JSONRecordLocation?
        do {
            record = try recordInLayout()
        } catch let error as JSONError {
            throw error
        } catch {
            sourceFailed = true
            throw error
        }
        lastRecordIndex = record?.index
        if let at = oversizedInRecord {
            recordReadPast = true
            throw JSONError.valueTooLarge(limit: scanner.maxTokenBytes, at: at)
        }
        return record
    }

    /// After `nextRecord()` threw, makes ready for the record after the failed one where the
    /// layout allows it, and says whether it did: a record with a value past the limit was read
    /// past whole already (every layout), and the rest of a malformed NDJSON line is skipped.
    /// False (and nothing skipped) for any other error outside NDJSON, and after the source
    /// itself failed (a read, bytes that are not text in its encoding): that ends the document.
    public mutating func skipFailedRecord() throws -> Bool {
        if recordReadPast {
            recordReadPast = false
            return true
        }
        guard !sourceFailed, case .lines = state else { return false }
        scanner.lineBreaksAreWhitespace = true
        try scanner.skipRestOfLine()
        return true
    }

    private mutating func recordInLayout() throws -> JSONRecordLocation? {
        switch state {
        case .start:
            return try firstRecord()
        case let .inArray(keyPath, next):
            return try arrayElement(keyPath: keyPath, index: next)
        case .lines:
            return try nextLine()
        case .finished:
            return nil
        }
    }

    private mutating func firstRecord() throws -> JSONRecordLocation? {
        switch layout {
        case .automatic:
            guard let byte = try scanner.peekToken() else {
                state = .finished
                return nil
            }
            if byte == UInt8(ascii: "[") { return try openRecords(keyPath: []) }
            return try firstOfSingleOrLines()
        case .array:
            return try openRecords(keyPath: [])
        case let .nested(keyPath):
            return try openRecords(keyPath: keyPath)
        case .single:
            let record = try readRecord(depth: 0, index: nil)
            try scanner.expectEnd()
            state = .finished
            isSingleValue = true
            return record
        case .lines:
            state = .lines
            return try nextLine()
        }
    }

    /// Reads the first value; what follows it tells a single value from NDJSON (a value on one
    /// line, then a line feed: NDJSON's lines end in LF or CRLF, not in a lone CR).
    private mutating func firstOfSingleOrLines() throws -> JSONRecordLocation? {
        let record = try readRecord(depth: 0, index: nil)
        let endLine = scanner.line
        let lineFeeds = scanner.lineFeeds
        let afterRecord = scanner.position(at: scanner.position)
        if try scanner.peekToken() == nil {
            state = .finished
            isSingleValue = true
        } else if record.line == endLine && scanner.lineFeeds > lineFeeds {
            state = .lines
        } else if record.line == endLine, scanner.line == endLine + 1, scanner.lineFeeds == lineFeeds {
            // Objects one per line whose lines end with CR alone: say so, not "content after the value".
            throw JSONError.syntax(.loneCarriageReturn, at: afterRecord)
        } else {
            throw scanner.syntaxError(.trailingContent, at: scanner.position)
        }
        return record
    }

    private mutating func nextLine() throws -> JSONRecordLocation? {
        guard try scanner.peekToken() != nil else {
            state = .finished
            return nil
        }
        scanner.lineBreaksAreWhitespace = false
        defer { scanner.lineBreaksAreWhitespace = true }
        let record = try readRecord(depth: 0, index: nil)
        do {
            try scanner.finishLine()
        } catch JSONError.syntax(.loneCarriageReturn, let at) {
            // No later line can be told apart: the document ends here, not one record.
            sourceFailed = true
            throw JSONError.syntax(.loneCarriageReturn, at: at)
        }
        return record
    }

    /// Follows `keyPath` through nested objects, opens the array there and reads its first element.
    private mutating func openRecords(keyPath: [String]) throws -> JSONRecordLocation? {
        for (level, key) in keyPath.enumerated() {
            guard try scanner.peekToken() == UInt8(ascii: "{") else {
                throw JSONError.recordsNotFound(keyPath: keyPath, at: scanner.position(at: scanner.position))
            }
            scanner.position += 1
            if try scanner.peekToken() == UInt8(ascii: "}") {
                throw JSONError.recordsNotFound(keyPath: keyPath, at: scanner.position(at: scanner.position))
            }
            while try scanner.parseKey() != key {
                _ = try scanner.parseValue(depth: level + 1)
                guard try scanner.separator(closing: UInt8(ascii: "}"), expected: "',' or '}'") else {
                    // The object closed without the key: point at its closing brace.
                    throw JSONError.recordsNotFound(keyPath: keyPath, at: scanner.position(at: scanner.position - 1))
                }
            }
        }
        if keyPath.isEmpty {
            try scanner.expect(UInt8(ascii: "["), "'['")
        } else {
            guard try scanner.peekToken() == UInt8(ascii: "[") else {
                throw JSONError.recordsNotAnArray(keyPath: keyPath, at: scanner.position(at: scanner.position))
            }
            scanner.position += 1
        }
        if try scanner.peekToken() == UInt8(ascii: "]") {
            scanner.position += 1
            try closeRecords(keyPath: keyPath)
            return nil
        }
        return try arrayElement(keyPath: keyPath, index: 0)
    }

    /// Reads element `index` of the records array; after the first, a comma or the end comes first.
    private mutating func arrayElement(keyPath: [String], index: Int) throws -> JSONRecordLocation? {
        if index > 0, try !scanner.separator(closing: UInt8(ascii: "]"), expected: "',' or ']'") {
            try closeRecords(keyPath: keyPath)
            return nil
        }
        let record = try readRecord(depth: keyPath.count + 1, index: index)
        state = .inArray(keyPath: keyPath, next: index + 1)
        return record
    }

    /// After the records array: checks the rest of each enclosing object, then the end of input.
    private mutating func closeRecords(keyPath: [String]) throws {
        for level in keyPath.indices.reversed() {
            while try scanner.separator(closing: UInt8(ascii: "}"), expected: "',' or '}'") {
                _ = try scanner.peekToken()
                let keyPosition = scanner.position(at: scanner.position)
                if try scanner.parseKey() == keyPath[level] {
                    throw JSONError.duplicateRecordsKey(keyPath: keyPath, at: keyPosition)
                }
                _ = try scanner.parseValue(depth: level + 1)
            }
        }
        try scanner.expectEnd()
        state = .finished
    }

    /// Reads one record, into `fields` or `value`, and returns where it starts; where a value in
    /// it was too long, `oversizedInRecord` says so (values read past outside records, beside the
    /// records' key, are no one's concern).
    private mutating func readRecord(depth: Int, index: Int?) throws -> JSONRecordLocation {
        let first = try scanner.peekToken()
        let location = JSONRecordLocation(position: scanner.position(at: scanner.position), index: index)
        scanner.oversizedAt = nil
        if readsFields, first == UInt8(ascii: "{") {
            try scanner.parseObject(depth: depth, into: &fields)
        } else if readsFields {
            fields.removeAll()
            fields.nonObject = try scanner.parseValue(depth: depth)
        } else {
            value = try scanner.parseValue(depth: depth)
        }
        fields.location = location
        oversizedInRecord = scanner.oversizedAt
        return location
    }
}
