/// Streams the rows of a CSV file from a ``ByteSource`` in bounded memory.
///
/// The reader is deliberately not generic over its source, so that its scanning loop is compiled
/// once, specialized, inside this module.
///
/// The input is read through a fixed-size buffer; only the current row is accumulated, so memory
/// follows the longest row, not the file. Parsing follows RFC 4180 with these decisions:
/// - Rows end with CRLF, LF or CR alone. Line numbers count physical lines, including line breaks
///   inside quoted fields.
/// - Empty lines are skipped and counted in ``skippedLines``, as are comment lines, whatever the
///   number of columns: an empty line holds no record (a one-column file's trailing blank line
///   is not a row of one empty field), while a line of `""` is a row of one empty quoted field.
/// - A row of more than `maxFields` fields is ``CSVError/tooManyFields(source:line:limit:)``:
///   memory stays bounded whatever the input.
/// - A field of more than `maxFieldBytes` bytes is not kept: the rest of the row is read as usual
///   and the row says which field it was (``CSVRow/oversizedField``), for its reader to reject.
/// - A UTF-8 byte order mark is skipped; UTF-16 with a byte order mark is transcoded to UTF-8
///   (see ``UTF8TranscodingByteSource``). Either makes the fields UTF-8, whatever the text policy
///   (a byte order mark outweighs a label, as in the WHATWG Encoding Standard).
/// - A quote inside an unquoted field is an ordinary byte (`5'10"` stays as written), and text
///   after a closing quote is appended to the field (`"ab"cd` reads as `abcd`). Both break
///   RFC 4180: under the dialect's ``CSVQuoteRule/strict`` rule the row also says which field
///   did so first (``CSVRow/quoteBreak``), and a header that does cannot be read.
/// - A quoted field still open at the end of the input is ``CSVError/unterminatedQuote(source:line:)``
///   with the line where the field began.
/// - Rows may have different field counts; checking them is the caller's business.
public struct CSVReader: ~Copyable {
    /// The default of `maxFields`: far more columns than any entity has attributes.
    public static let defaultMaxFields = 10_000

    /// The column names, when the dialect has a header and the input is not empty.
    public private(set) var header: [String]?
    /// The line of the header row, when there is one (empty and comment lines may precede it).
    public private(set) var headerLine: Int?
    public let dialect: CSVDialect
    /// How rows decode their fields, unless the input starts with a byte order mark (then UTF-8).
    public let textPolicy: CSVTextPolicy
    /// The most fields a row may have.
    public let maxFields: Int
    /// The most bytes a field may have (see ``ValueSizeLimit``).
    public let maxFieldBytes: Int
    /// Empty lines and comment lines passed over so far, those before the header included.
    public private(set) var skippedLines = 0

    private var source: UTF8TranscodingByteSource
    private let buffer: UnsafeMutableRawBufferPointer
    /// Where the copying of an unquoted field stops: LF, CR, the delimiter and, under the strict
    /// quote rule, the quote.
    private let unquotedEnd: ByteSetScan
    /// Where the copying of a quoted field stops: LF, CR, the quote or the escape byte.
    private let quotedStop: ByteSetScan
    private var position = 0
    private var filled = 0
    /// The current physical line.
    private var line = 1
    /// The previous row or skipped line ended with CR: an LF right after it belongs to it.
    private var pendingLF = false

    /// The row being assembled, reused for the next one when no row holds it.
    private var storage = CSVRowStorage()
    /// Where the field being read starts in the row's bytes.
    private var fieldStart = 0
    /// The first field of the row that passed `maxFieldBytes` (0-based).
    private var oversizedField: Int?
    /// The field being read passed `maxFieldBytes`: the rest of it is dropped as it comes.
    private var droppingField = false
    /// How the row's first field to break RFC 4180's quoting did (strict rule only).
    private var quoteBreak: CSVError?

    /// Opens a reader and, when `dialect.hasHeader`, reads the header row.
    /// - Parameters:
    ///   - maxFields: the most fields a row may have (at least 1).
    ///   - maxFieldBytes: the most bytes a field may have (at least 1).
    ///   - bufferSize: bytes read from `source` at a time (at least 1).
    /// - Throws: source errors, or ``CSVError`` for a malformed, undecodable, too wide or too large header.
    public init(
        source: some ByteSource,
        dialect: CSVDialect = .rfc4180,
        textPolicy: CSVTextPolicy = .strictUTF8,
        maxFields: Int = CSVReader.defaultMaxFields,
        maxFieldBytes: Int = ValueSizeLimit.defaultMaxBytes,
        bufferSize: Int = 256 * 1024
    ) throws {
        self.source = UTF8TranscodingByteSource(source)
        sourceName = source.name
        self.dialect = dialect
        self.textPolicy = textPolicy
        self.maxFields = max(maxFields, 1)
        self.maxFieldBytes = max(maxFieldBytes, 1)
        buffer = .allocate(byteCount: max(bufferSize, 1), alignment: 16)
        let lf = UInt8(ascii: "\n"), cr = UInt8(ascii: "\r")
        unquotedEnd = ByteSetScan(lf, cr, dialect.delimiter, dialect.quoteRule == .strict ? dialect.quote : dialect.delimiter)
        quotedStop = ByteSetScan(lf, cr, dialect.quote, dialect.escape ?? dialect.quote)
        if dialect.hasHeader, let row = try nextRow() {
            try row.check()
            header = try row.strings()
            headerLine = row.line
        }
    }

    deinit {
        buffer.deallocate()
    }

    /// The name of the source, for messages: asked of the source once, as every row carries it.
    public let sourceName: String

    private enum State {
        case rowStart, fieldStart, unquoted, quoted, quotedAfterCR, quoteInQuoted, escapeInQuoted, comment
    }

    /// The next row, or `nil` at the end of the input.
    /// - Throws: source errors, ``CSVError/unterminatedQuote(source:line:)`` and
    ///   ``CSVError/tooManyFields(source:line:limit:)``.
    public mutating func nextRow() throws -> CSVRow? {
        // A row that is still held keeps its storage; one that held a huge row gives it back.
        if isKnownUniquelyReferenced(&storage), storage.byteCapacity <= 1 << 20 {
            storage.removeAll()
        } else {
            storage = CSVRowStorage()
        }
        let row = storage
        fieldStart = 0
        oversizedField = nil
        droppingField = false
        quoteBreak = nil
        var state = State.rowStart
        var rowLine = line
        var fieldLine = line
        var fieldQuoted = false

        let lf = UInt8(ascii: "\n"), cr = UInt8(ascii: "\r")
        let delimiter = dialect.delimiter, quote = dialect.quote
        let comment = dialect.comment
        let maxFields = maxFields
        // Without an escape byte, the quote stands in: quotes are tested first, so it never matches.
        let escape = dialect.escape ?? quote
        let unquotedEnd = unquotedEnd, quotedStop = quotedStop
        guard let p = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }

        while true {
            if position == filled {
                position = 0
                filled = try source.read(into: buffer)
                if filled == 0 { break }
            }
            var i = position
            let n = filled
            scan: while i < n {
                switch state {
                case .rowStart:
                    let byte = p[i]
                    if pendingLF {
                        pendingLF = false
                        if byte == lf { i += 1; continue scan }
                    }
                    if byte == lf || byte == cr {  // an empty line
                        line += 1
                        pendingLF = byte == cr
                        i += 1
                        skippedLines += 1
                    } else if byte == comment {
                        state = .comment
                        i += 1
                    } else {
                        rowLine = line
                        state = .fieldStart
                    }

                case .fieldStart:
                    fieldLine = line
                    if p[i] == quote {
                        fieldQuoted = true
                        state = .quoted
                        i += 1
                    } else {
                        state = .unquoted
                    }

                case .unquoted:
                    let start = i
                    i = unquotedEnd.firstIndex(in: p, from: i, to: n)
                    row.append(p + start, count: i - start)
                    limitField()
                    if i == n { break scan }
                    let byte = p[i]
                    i += 1
                    if byte == delimiter {
                        endField(quoted: fieldQuoted)
                        fieldQuoted = false
                        guard row.fieldCount < maxFields else { throw tooManyFields(line: rowLine) }
                        state = .fieldStart
                    } else if byte == quote {  // only under the strict rule: the field goes on
                        row.append(quote)
                        limitField()
                        if quoteBreak == nil {
                            quoteBreak = .quoteInUnquotedField(source: sourceName, line: rowLine, field: row.fieldCount + 1)
                        }
                    } else {
                        endField(quoted: fieldQuoted)
                        fieldQuoted = false
                        line += 1
                        pendingLF = byte == cr
                        position = i
                        return makeRow(line: rowLine)
                    }

                case .quoted:
                    let start = i
                    i = quotedStop.firstIndex(in: p, from: i, to: n)
                    row.append(p + start, count: i - start)
                    limitField()
                    if i == n { break scan }
                    let byte = p[i]
                    i += 1
                    if byte == quote {
                        state = .quoteInQuoted
                    } else if byte == escape {
                        state = .escapeInQuoted
                    } else {
                        row.append(byte)
                        limitField()
                        line += 1
                        if byte == cr { state = .quotedAfterCR }
                    }

                case .quotedAfterCR:
                    if p[i] == lf {
                        row.append(lf)
                        limitField()
                        i += 1
                    }
                    state = .quoted

                case .escapeInQuoted:
                    // An escaped line break is left to `.quoted`, which counts lines.
                    let byte = p[i]
                    if byte != lf && byte != cr {
                        row.append(byte)
                        limitField()
                        i += 1
                    }
                    state = .quoted

                case .quoteInQuoted:
                    let byte = p[i]
                    if byte == quote {
                        row.append(quote)
                        limitField()
                        i += 1
                        state = .quoted
                    } else if byte == delimiter || byte == lf || byte == cr {
                        i += 1
                        endField(quoted: fieldQuoted)
                        fieldQuoted = false
                        if byte == delimiter {
                            guard row.fieldCount < maxFields else { throw tooManyFields(line: rowLine) }
                            state = .fieldStart
                        } else {
                            line += 1
                            pendingLF = byte == cr
                            position = i
                            return makeRow(line: rowLine)
                        }
                    } else {
                        if dialect.quoteRule == .strict, quoteBreak == nil {
                            quoteBreak = .textAfterQuote(source: sourceName, line: rowLine, field: row.fieldCount + 1)
                        }
                        state = .unquoted
                    }

                case .comment:
                    while i < n {
                        let byte = p[i]
                        if byte == lf || byte == cr { break }
                        i += 1
                    }
                    if i == n { break scan }
                    line += 1
                    skippedLines += 1
                    pendingLF = p[i] == cr
                    i += 1
                    state = .rowStart
                }
            }
            position = i
        }

        // End of input.
        switch state {
        case .rowStart:
            return nil
        case .comment:
            skippedLines += 1
            return nil
        case .quoted, .quotedAfterCR, .escapeInQuoted:
            throw CSVError.unterminatedQuote(source: sourceName, line: fieldLine)
        case .fieldStart, .unquoted, .quoteInQuoted:
            endField(quoted: fieldQuoted)
            return makeRow(line: rowLine)
        }
    }

    /// Ends the field being read.
    @inline(__always)
    private mutating func endField(quoted: Bool) {
        storage.endField(quoted: quoted)
        fieldStart = storage.byteCount
        droppingField = false
    }

    /// Drops the field being read once it passes `maxFieldBytes`, remembering which it was.
    @inline(__always)
    private mutating func limitField() {
        guard droppingField || storage.byteCount - fieldStart > maxFieldBytes else { return }
        storage.removeBytes(from: fieldStart)
        droppingField = true
        if oversizedField == nil { oversizedField = storage.fieldCount }
    }

    private func tooManyFields(line: Int) -> CSVError {
        .tooManyFields(source: sourceName, line: line, limit: maxFields)
    }

    private func makeRow(line: Int) -> CSVRow {
        CSVRow(
            line: line, storage: storage, source: sourceName,
            textPolicy: source.encoding == .unmarked ? textPolicy : .strictUTF8,
            oversizedField: oversizedField, maxFieldBytes: maxFieldBytes, quoteBreak: quoteBreak)
    }
}
