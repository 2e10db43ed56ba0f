import FerryFormats

/// Counts the records of an export file with the census of its format (`RecordCensus`), which
/// shares no code with the record parsers that restore reads them with: a manifest's count is
/// checked against what the file really holds, not against what a parser delivered.
enum ExportRecordTally {
    /// The records of the export file `file` reads, gzip or not.
    /// - Throws: read errors, and `Malformed` when the census cannot count the file.
    static func count(_ file: some ByteSource, format: ExportFormat) throws -> Int {
        let census: any RecordCensus = switch format {
        case .ndjson: JSONRecordCensus(layout: .lines)
        case .json: JSONRecordCensus(layout: .array)
        case .csv: CSVRecordCensus(dialect: .rfc4180)
        case .plist, .bplist: PlistRecordCensus()
        }
        switch try count(GzipDetectingByteSource(file), by: census) {
        case .counted(let records, _)?: return records
        case .malformed(let reason)?: throw Malformed(reason: reason)
        case nil: throw Malformed(reason: "not read to its end")
        }
    }

    struct Malformed: Error, CustomStringConvertible {
        let reason: String
        var description: String { reason }
    }

    /// Reads `source` to its end through a tap, and hands back what `census` counted.
    private static func count(_ source: some ByteSource, by census: some RecordCensus) throws -> CensusOutcome? {
        var tap = CensusTap(source, census: census)
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        while try buffer.withUnsafeMutableBytes({ try tap.read(into: $0) }) > 0 {}
        return tap.census.result
    }
}
