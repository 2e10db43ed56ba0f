/// One row of a CSV file: its fields as bytes, decoded to strings only on request.
///
/// Field indexes are 0-based and must be less than ``count``. The byte accessors are inlinable:
/// they run once per field on every caller's hot path.
public struct CSVRow: Sendable {
    /// The physical line (1-based) where the row starts.
    public let line: Int
    /// The field bytes, ends and quote flags; never written again once a row holds them.
    @usableFromInline let storage: CSVRowStorage
    let source: String
    let textPolicy: CSVTextPolicy
    /// The first field (0-based) that had more bytes than the reader's `maxFieldBytes`: its
    /// bytes were dropped, so it reads as empty, and the row must not become a record.
    public let oversizedField: Int?
    /// The reader's `maxFieldBytes`.
    let maxFieldBytes: Int
    /// How the row's first field to break RFC 4180's quoting did, under the strict quote rule
    /// (``CSVQuoteRule``): ``CSVError/textAfterQuote(source:line:field:)`` or
    /// ``CSVError/quoteInUnquotedField(source:line:field:)``. The row must not become a record.
    public let quoteBreak: CSVError?

    /// Throws for a row that must not become a record: ``CSVError/fieldTooLarge(source:line:field:limit:)``
    /// when a field was too large to keep, else the ``quoteBreak``.
    public func check() throws(CSVError) {
        if let field = oversizedField {
            throw .fieldTooLarge(source: source, line: line, field: field + 1, limit: maxFieldBytes)
        }
        if let quoteBreak { throw quoteBreak }
    }

    /// The number of fields.
    @inlinable public var count: Int { storage.fieldCount }

    /// Lends the bytes of field `index` (quotes removed, escapes resolved) as contiguous memory,
    /// valid only inside `body`: for converting a field without copying it or making a String.
    @inlinable public func withField<Result, Failure: Error>(
        _ index: Int, _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        precondition(index >= 0 && index < storage.fieldCount, "CSV field index out of range")
        let start = index == 0 ? 0 : storage.fieldEnds[index - 1]
        let field = UnsafeRawBufferPointer(start: storage.bytes + start, count: storage.fieldEnds[index] - start)
        defer { withExtendedLifetime(storage) {} }
        return try body(field)
    }

    /// Whether field `index` was enclosed in quotes: tells `""` (an empty string) from an
    /// empty unquoted field (often NULL).
    @inlinable public func wasQuoted(_ index: Int) -> Bool {
        precondition(index >= 0 && index < storage.fieldCount, "CSV field index out of range")
        return storage.quotedFlags[index]
    }

    /// Field `index` as a string, decoded by the reader's text policy.
    /// - Throws: ``CSVError/invalidUTF8(source:line:field:)`` when the field is not UTF-8 and
    ///   the policy is ``CSVTextPolicy/strictUTF8``.
    public func string(_ index: Int) throws(CSVError) -> String {
        try withField(index) { field throws(CSVError) in
            switch textPolicy {
            case .strictUTF8:
                guard let text = UTF8Text.string(field) else { throw .invalidUTF8(source: source, line: line, field: index + 1) }
                return text
            case .windows1252:
                return Windows1252.string(field)
            }
        }
    }

    /// All fields as strings.
    public func strings() throws(CSVError) -> [String] {
        try (0..<count).map { index throws(CSVError) in try string(index) }
    }
}
