extension CSVDialect {
    /// The delimiters ``sniff(sample:base:)`` chooses from, in order of preference on a tie.
    public static let sniffedDelimiters: [UInt8] = [",", ";", "\t", "|", ":"].map { UInt8(ascii: $0) }

    /// Guesses the delimiter from the first lines of a file.
    ///
    /// For each candidate, counts the fields of every complete line in `sample` (delimiters
    /// inside quotes do not count). The candidate that splits lines into more than one field most
    /// consistently wins — the largest share of lines with the most common field count, then the
    /// larger field count, then the order of ``sniffedDelimiters``. When no candidate splits
    /// any line, `base` is returned unchanged.
    /// - Parameters:
    ///   - sample: the first bytes of the file (a few kilobytes are plenty).
    ///   - base: the dialect whose other settings (quote, header, comments) are kept.
    public static func sniff(sample: [UInt8], base: CSVDialect = .rfc4180) -> CSVDialect {
        let lines = sampleLines(sample, quote: base.quote, comment: base.comment)
        var best: (delimiter: UInt8, consistency: Double, fields: Int)?
        for candidate in sniffedDelimiters {
            let counts = lines.map { fieldCount(of: $0, delimiter: candidate, quote: base.quote) }
            let frequencies = Dictionary(counts.map { ($0, 1) }, uniquingKeysWith: +)
            guard let (fields, lineCount) = frequencies.max(by: { ($0.value, $0.key) < ($1.value, $1.key) }),
                fields > 1
            else { continue }
            let consistency = Double(lineCount) / Double(lines.count)
            if let current = best, (current.consistency, current.fields) >= (consistency, fields) { continue }
            best = (candidate, consistency, fields)
        }
        var dialect = base
        if let best { dialect.delimiter = best.delimiter }
        return dialect
    }

    /// The lines of `sample` outside quotes, at most 50, without comment lines and without a
    /// trailing line cut off by the end of the sample (unless it is the only one).
    private static func sampleLines(_ sample: [UInt8], quote: UInt8, comment: UInt8?) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var start = 0
        var inQuotes = false
        for (index, byte) in sample.enumerated() where lines.count < 50 {
            if byte == quote {
                inQuotes.toggle()
            } else if !inQuotes && (byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")) {
                if index > start { lines.append(sample[start..<index]) }
                start = index + 1
            }
        }
        if lines.isEmpty && start < sample.count { lines.append(sample[start...]) }
        return lines.filter { $0.first != comment }
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
