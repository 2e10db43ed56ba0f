/// Counts the rows of a CSV file by its line breaks and quotes alone, for `CensusTap`.
///
/// A line break ends a row unless a quoted field holds it; a quote opens a quoted field only at
/// the start of a field; inside one, a doubled quote or the escape byte keeps it open. Lines with
/// nothing on them, and comment lines, hold no row: they are counted apart. The header, when the
/// dialect has one, is the first row and is not a record. CRLF, LF and CR alone end lines.
public struct CSVRecordCensus: RecordCensus {
    private let delimiter: UInt16
    private let quote: UInt16
    private let comment: UInt16?
    private let hasHeader: Bool
    /// Units that stop the scan of a row outside quotes: line breaks and the quote.
    private let lineStops: [Bool]
    /// The same, each repeated in a vector of bytes, to pass over UTF-8 sixteen bytes at a time.
    private let vectors: (SIMD16<UInt8>, SIMD16<UInt8>, SIMD16<UInt8>)
    /// Units that matter inside a quoted field: the quote and the escape.
    private let quotedStops: [Bool]

    private var state = State.lineStart
    /// The last unit of the previous read, for a quote at the start of this one.
    private var lastUnit: UInt16 = 0
    /// The last line ended in CR: an LF right after it is part of that line break.
    private var afterCR = false
    private var rows = 0
    private var emptyOrComment = 0

    private enum State { case lineStart, fieldStart, unquoted, quoted, quoteInQuoted, escapeInQuoted, comment }

    public init(dialect: CSVDialect) {
        delimiter = UInt16(dialect.delimiter)
        quote = UInt16(dialect.quote)
        comment = dialect.comment.map(UInt16.init)
        hasHeader = dialect.hasHeader
        var stops = [Bool](repeating: false, count: 256)
        for unit in [UInt8(ascii: "\n"), UInt8(ascii: "\r"), dialect.quote] { stops[Int(unit)] = true }
        lineStops = stops
        vectors = (SIMD16(repeating: UInt8(ascii: "\n")), SIMD16(repeating: UInt8(ascii: "\r")), SIMD16(repeating: dialect.quote))
        var quoted = [Bool](repeating: false, count: 256)
        quoted[Int(dialect.quote)] = true
        if let escape = dialect.escape { quoted[Int(escape)] = true }
        quotedStops = quoted
    }

    public mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) {
        scanUnits(bytes)
    }

    public mutating func scan(_ units: UnsafeBufferPointer<UInt16>) {
        scanUnits(units)
    }

    /// One loop for both widths, specialized for each.
    private mutating func scanUnits<Unit: FixedWidthInteger & UnsignedInteger>(_ units: UnsafeBufferPointer<Unit>) {
        let lf: UInt16 = 0x0A, cr: UInt16 = 0x0D
        let count = units.count
        guard count > 0 else { return }
        defer { lastUnit = UInt16(units[count - 1]) }
        var index = 0
        lineStops.withUnsafeBufferPointer { lineStops in
            quotedStops.withUnsafeBufferPointer { quotedStops in
                while index < count {
                    switch state {
                    case .unquoted:
                        // Only line breaks and quotes stop the scan: a quote right after a
                        // delimiter opens a quoted field, any other is part of its field.
                        while true {
                            index = Self.nextStop(in: units, from: index, table: lineStops, vectors: vectors)
                            guard index < count else { return }
                            let unit = UInt16(units[index])
                            let previous = index > 0 ? UInt16(units[index - 1]) : lastUnit
                            index += 1
                            if unit == quote {
                                guard previous == delimiter else { continue }
                                state = .quoted
                            } else {
                                state = .lineStart
                                afterCR = unit == cr
                            }
                            break
                        }
                    case .quoted:
                        while index < count, !Self.isIn(quotedStops, units[index]) { index += 1 }
                        guard index < count else { return }
                        state = UInt16(units[index]) == quote ? .quoteInQuoted : .escapeInQuoted
                        index += 1
                    case .lineStart:
                        let unit = UInt16(units[index])
                        index += 1
                        if afterCR, unit == lf {
                            afterCR = false
                            continue
                        }
                        afterCR = false
                        if unit == lf || unit == cr {
                            emptyOrComment += 1
                            afterCR = unit == cr
                        } else if unit == comment {
                            state = .comment
                        } else {
                            rows += 1
                            state = .fieldStart
                            index -= 1
                        }
                    case .fieldStart:
                        if UInt16(units[index]) == quote {
                            state = .quoted
                            index += 1
                        } else {
                            state = .unquoted
                        }
                    case .escapeInQuoted:
                        // Whatever it escapes, a line break included, belongs to the field.
                        index += 1
                        state = .quoted
                    case .quoteInQuoted:
                        let unit = UInt16(units[index])
                        if unit == quote {
                            index += 1
                            state = .quoted
                        } else {
                            // The field closed: what follows is read as an unquoted field's rest.
                            state = .unquoted
                        }
                    case .comment:
                        while index < count, UInt16(units[index]) != lf, UInt16(units[index]) != cr { index += 1 }
                        guard index < count else { return }
                        afterCR = UInt16(units[index]) == cr
                        index += 1
                        emptyOrComment += 1
                        state = .lineStart
                    }
                }
            }
        }
    }

    public mutating func finish() -> CensusOutcome {
        switch state {
        case .quoted, .escapeInQuoted:
            return .malformed("a quoted field is still open at the end of the file")
        case .comment:
            emptyOrComment += 1
            state = .lineStart
        case .lineStart, .fieldStart, .unquoted, .quoteInQuoted:
            break
        }
        return .counted(records: hasHeader ? max(rows - 1, 0) : rows, skippedLines: emptyOrComment)
    }

    /// The index of the first unit from `start` on that is in `table`, or the end.
    @inline(__always)
    private static func nextStop<Unit: FixedWidthInteger>(in units: UnsafeBufferPointer<Unit>, from start: Int, table: UnsafeBufferPointer<Bool>,
                                                         vectors: (SIMD16<UInt8>, SIMD16<UInt8>, SIMD16<UInt8>)) -> Int {
        var index = start
        if Unit.self == UInt8.self, let base = units.baseAddress {
            let bytes = UnsafeRawPointer(base)
            while index + 16 <= units.count {
                let block = bytes.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self)
                let matches = (block .== vectors.0) .| (block .== vectors.1) .| (block .== vectors.2)
                if any(matches) {
                    // The first matching lane, from the lanes as two little-endian words.
                    let words = unsafeBitCast(SIMD16<UInt8>(repeating: 0).replacing(with: 0xFF, where: matches), to: (UInt64, UInt64).self)
                    let (low, high) = (UInt64(littleEndian: words.0), UInt64(littleEndian: words.1))
                    return index + (low != 0 ? low.trailingZeroBitCount / 8 : 8 + high.trailingZeroBitCount / 8)
                }
                index += 16
            }
        }
        while index < units.count, !isIn(table, units[index]) { index += 1 }
        return index
    }

    @inline(__always)
    private static func isIn<Unit: FixedWidthInteger>(_ set: UnsafeBufferPointer<Bool>, _ unit: Unit) -> Bool {
        unit < 256 && set[Int(unit)]
    }
}
