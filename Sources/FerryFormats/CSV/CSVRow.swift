/// One row of a CSV file: its fields as bytes, decoded to strings only on request.
///
/// Field indexes are 0-based and must be less than ``count``. The byte accessors are inlinable:
/// they run once per field on every caller's hot path.
public struct CSVRow: Sendable {
    /// The physical line (1-based) where the row starts.
    public let line: Int
    /// All field bytes of the row, back to back, unescaped.
    @usableFromInline let bytes: [UInt8]
    /// `fieldEnds[i]` is the end of field `i` in `bytes`; it starts where field `i - 1` ends.
    @usableFromInline let fieldEnds: [Int]
    @usableFromInline let quotedFlags: [Bool]
    let source: String
    let textPolicy: CSVTextPolicy
    /// The first field (0-based) that had more bytes than the reader's `maxFieldBytes`: its
    /// bytes were dropped, so it reads as empty, and the row must not become a record.
    public let oversizedField: Int?
    /// The reader's `maxFieldBytes`.
    let maxFieldBytes: Int
    /// The first field (0-based) with text after its closing quote, under the strict quote rule
    /// (``CSVQuoteRule``): the row must not become a record.
    public let textAfterQuote: Int?

    /// Throws for a row that must not become a record: ``CSVError/fieldTooLarge(source:line:field:limit:)``
    /// when a field was too large to keep, ``CSVError/textAfterQuote(source:line:field:)`` when
    /// one broke the strict quote rule.
    public func check() throws(CSVError) {
        if let field = oversizedField {
            throw .fieldTooLarge(source: source, line: line, field: field + 1, limit: maxFieldBytes)
        }
        if let field = textAfterQuote {
            throw .textAfterQuote(source: source, line: line, field: field + 1)
        }
    }

    /// The number of fields.
    @inlinable public var count: Int { fieldEnds.count }

    /// The bytes of field `index`, quotes removed and escapes resolved.
    @inlinable public func field(_ index: Int) -> ArraySlice<UInt8> {
        bytes[(index == 0 ? 0 : fieldEnds[index - 1])..<fieldEnds[index]]
    }

    /// Lends the bytes of field `index` as contiguous memory, valid only inside `body`: for
    /// converting a field without copying it or making a String.
    @inlinable public func withField<Result>(_ index: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        let start = index == 0 ? 0 : fieldEnds[index - 1]
        let end = fieldEnds[index]
        return bytes.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[start..<end])) }
    }

    /// Whether field `index` was enclosed in quotes: tells `""` (an empty string) from an
    /// empty unquoted field (often NULL).
    @inlinable public func wasQuoted(_ index: Int) -> Bool {
        quotedFlags[index]
    }

    /// Field `index` as a string.
    /// - Throws: ``CSVError/invalidUTF8(source:line:field:)`` when the field is not UTF-8 and
    ///   the reader's policy is ``CSVTextPolicy/strictUTF8``.
    public func string(_ index: Int) throws -> String {
        // ASCII needs no validation (and `String(validating:)` is generic, looked up per call).
        let ascii = withField(index) { field -> String? in
            var bits: UInt8 = 0
            for byte in field { bits |= byte }
            return bits < 0x80 ? String(decoding: field, as: UTF8.self) : nil
        }
        if let ascii { return ascii }
        let slice = field(index)
        if let text = String(validating: slice, as: UTF8.self) { return text }
        switch textPolicy {
        case .strictUTF8:
            throw CSVError.invalidUTF8(source: source, line: line, field: index + 1)
        case .latin1Fallback:
            return String(decoding: slice.lazy.map { UInt16($0) }, as: UTF16.self)
        }
    }

    /// All fields as strings.
    public func strings() throws -> [String] {
        try (0..<count).map { try string($0) }
    }
}
