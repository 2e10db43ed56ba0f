extension CSVDialect {
    /// The delimiters ``sniff(sample:base:)`` chooses from, in order of preference on a tie.
    public static let sniffedDelimiters: [UInt8] = [",", ";", "\t", "|", ":"].map { UInt8(ascii: $0) }

    /// Guesses the delimiter from the first lines of a file.
    ///
    /// The first complete line of `sample` (comment lines aside) is taken as the header. A
    /// candidate *fits* when it splits the header into more than one field and most of the
    /// following lines into exactly as many (delimiters inside quotes do not count); its
    /// *agreement* is the share of those lines (1 when the header is the only line). A delimiter
    /// that splits the header differently from most rows is never chosen, so a one-column list
    /// of URLs, times (`10:30:00`) or text with `;` keeps its one column.
    ///
    /// `,` is kept when it fits, unless another candidate agrees with the header on clearly more
    /// lines (a fifth of them or more). Otherwise the best fitting candidate wins: the highest
    /// agreement, then the most fields, then the order of ``sniffedDelimiters``. When nothing
    /// fits, `base` is returned unchanged (one column, or the header's own commas).
    /// - Parameters:
    ///   - sample: the first bytes of the file (a few kilobytes are plenty).
    ///   - base: the dialect whose other settings (quote, header, comments) are kept.
    public static func sniff(sample: [UInt8], base: CSVDialect = .rfc4180) -> CSVDialect {
        let lines = sampleLines(sample, quote: base.quote, comment: base.comment)
        let comma = UInt8(ascii: ",")
        let fits = sniffedDelimiters.compactMap { fit(of: $0, lines: lines, quote: base.quote) }
        var dialect = base
        guard let best = fits.max(by: { ($0.agreement, $0.fields) < ($1.agreement, $1.fields) }) else { return dialect }
        if let commaFit = fits.first(where: { $0.delimiter == comma }), best.agreement - commaFit.agreement < clearMargin {
            dialect.delimiter = comma
        } else {
            dialect.delimiter = best.delimiter
        }
        return dialect
    }

    /// The delimiters that fit the sample as `sniff` judges them (each splits the header and most
    /// rows alike), in the order of ``sniffedDelimiters``: where the choice could have gone
    /// another way.
    public static func fittingDelimiters(sample: [UInt8], base: CSVDialect = .rfc4180) -> [UInt8] {
        let lines = sampleLines(sample, quote: base.quote, comment: base.comment)
        return sniffedDelimiters.compactMap { fit(of: $0, lines: lines, quote: base.quote)?.delimiter }
    }

    /// The header's names split by `delimiter` (quotes removed, spaces around a name trimmed):
    /// the first line of `sample` that is not a comment.
    public static func headerNames(sample: [UInt8], delimiter: UInt8, base: CSVDialect = .rfc4180) -> [String] {
        guard let header = sampleLines(sample, quote: base.quote, comment: base.comment).first else { return [] }
        var names: [String] = [], field: [UInt8] = [], inQuotes = false
        func name(_ bytes: [UInt8]) -> String {
            let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
            return String(decoding: bytes.drop(while: isSpace).reversed().drop(while: isSpace).reversed(), as: UTF8.self)
        }
        for byte in header {
            if byte == base.quote {
                inQuotes.toggle()
            } else if byte == delimiter && !inQuotes {
                names.append(name(field))
                field = []
            } else {
                field.append(byte)
            }
        }
        names.append(name(field))
        return names
    }

    /// How much more agreement another delimiter needs to replace a fitting `,`.
    private static let clearMargin = 0.2

    private struct Fit {
        let delimiter: UInt8
        /// The share of lines after the header that split into the header's field count.
        let agreement: Double
        /// The header's field count.
        let fields: Int
    }

    /// The fit of `delimiter`, or nil when it does not split the header or most rows differ.
    private static func fit(of delimiter: UInt8, lines: [ArraySlice<UInt8>], quote: UInt8) -> Fit? {
        guard let header = lines.first else { return nil }
        let fields = fieldCount(of: header, delimiter: delimiter, quote: quote)
        guard fields > 1 else { return nil }
        let rows = lines.dropFirst()
        let agreeing = rows.count { fieldCount(of: $0, delimiter: delimiter, quote: quote) == fields }
        let agreement = rows.isEmpty ? 1 : Double(agreeing) / Double(rows.count)
        guard agreement > 0.5 else { return nil }
        return Fit(delimiter: delimiter, agreement: agreement, fields: fields)
    }

    /// The lines of `sample` outside quotes, at most 50, without empty lines, comment lines and a
    /// trailing line cut off by the end of the sample (unless it is the only one).
    private static func sampleLines(_ sample: [UInt8], quote: UInt8, comment: UInt8?) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var start = 0
        var inQuotes = false
        for (index, byte) in sample.enumerated() where lines.count < 50 {
            if byte == quote {
                inQuotes.toggle()
            } else if !inQuotes && (byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")) {
                if index > start, sample[start] != comment { lines.append(sample[start..<index]) }
                start = index + 1
            }
        }
        if lines.isEmpty && start < sample.count && sample[start] != comment { lines.append(sample[start...]) }
        return lines
    }

    private static func fieldCount(of line: ArraySlice<UInt8>, delimiter: UInt8, quote: UInt8) -> Int {
        var count = 1
        var inQuotes = false
        for byte in line {
            if byte == quote {
                inQuotes.toggle()
            } else if byte == delimiter && !inQuotes {
                count += 1
            }
        }
        return count
    }
}
