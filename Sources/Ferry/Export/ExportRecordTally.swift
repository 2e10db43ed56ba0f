import FerryFormats

/// Counts the records of an export file with the census of its format (`RecordCensus`), which
/// shares no code with the record parsers that restore reads them with: a manifest's count is
/// checked against what the file really holds, not against what a parser delivered.
enum ExportRecordTally {
    /// The records of the export file at `path`, gzip or not.
    /// - Throws: read errors, and `Malformed` when the census cannot count the file.
    static func count(path: String, format: ExportFormat) throws -> Int {
        let source = try GzipDetectingByteSource(FileByteSource(path: path))
        let census: FileCensus = switch format {
        case .ndjson: try readToEnd(CensusTap(source, census: JSONRecordCensus(layout: .lines)))
        case .json: try readToEnd(CensusTap(source, census: JSONRecordCensus(layout: .array)))
        case .csv: try readToEnd(CensusTap(source, census: CSVRecordCensus(dialect: .rfc4180)))
        case .plist, .bplist: try readToEnd(CensusTap(source, census: PlistRecordCensus()))
        }
        switch census.result {
        case .counted(let records, _)?: return records
        case .malformed(let reason)?: throw Malformed(reason: reason)
        case nil: throw Malformed(reason: "not read to its end")
        }
    }

    struct Malformed: Error, CustomStringConvertible {
        let reason: String
        var description: String { reason }
    }

    private static func readToEnd(_ tap: consuming CensusTap<some RecordCensus>) throws -> FileCensus {
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        while try buffer.withUnsafeMutableBytes({ try tap.read(into: $0) }) > 0 {}
        return tap.census
    }
}
