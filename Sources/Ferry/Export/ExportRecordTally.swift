import FerryFormats

/// Counts the records of an export file with a byte scanner of its own, sharing no code with the
/// record parsers that restore reads them with: a manifest's count is checked against what the
/// file really holds, not against what a parser delivered.
///
/// - NDJSON: lines that are not blank (JSON escapes line breaks inside strings).
/// - CSV: record ends outside quoted fields, less the header row.
/// - JSON: values at depth one of the top-level array, strings skipped.
/// - Property lists have no such shape: nil (their count comes from decoding them).
enum ExportRecordTally {
    static func count(path: String, format: ExportFormat) throws -> Int? {
        var scanner: Scanner
        switch format {
        case .ndjson: scanner = Scanner(mode: .lines)
        case .csv: scanner = Scanner(mode: .csv)
        case .json: scanner = Scanner(mode: .jsonArray)
        case .plist, .bplist: return nil
        }
        let source = try GzipDetectingByteSource(FileByteSource(path: path))
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        while true {
            let read = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
            if read == 0 { break }
            for byte in buffer[..<read] { scanner.scan(byte) }
        }
        return scanner.finish()
    }

    private struct Scanner {
        enum Mode { case lines, csv, jsonArray }
        let mode: Mode
        private var count = 0
        /// Whether the current line or record has any byte yet (a record not yet ended).
        private var open = false
        private var inString = false
        private var escaped = false
        private var depth = 0

        init(mode: Mode) { self.mode = mode }

        mutating func scan(_ byte: UInt8) {
            switch mode {
            case .lines:
                if byte == 0x0A {
                    if open { count += 1 }
                    open = false
                } else if byte != 0x20 && byte != 0x09 && byte != 0x0D {
                    open = true
                }
            case .csv:
                if byte == 0x22 { inString.toggle() }
                if byte == 0x0A && !inString {
                    count += 1
                    open = false
                } else if byte != 0x0D {
                    open = true
                }
            case .jsonArray:
                if inString {
                    if escaped { escaped = false } else if byte == 0x5C { escaped = true } else if byte == 0x22 { inString = false }
                    return
                }
                switch byte {
                case 0x22:
                    inString = true
                    if depth == 1 && !open { count += 1; open = true }
                case 0x5B, 0x7B:
                    if depth == 1 && !open { count += 1; open = true }
                    depth += 1
                case 0x5D, 0x7D: depth -= 1
                case 0x2C where depth == 1: open = false
                case 0x20, 0x09, 0x0A, 0x0D: break
                default: if depth == 1 && !open { count += 1; open = true }
                }
            }
        }

        /// The records counted, a last one without a line end included.
        func finish() -> Int {
            switch mode {
            case .lines: count + (open ? 1 : 0)
            case .csv: max(0, count + (open ? 1 : 0) - 1)
            case .jsonArray: count
            }
        }
    }
}
