import Ferry
import FerryFormats

/// Targets of the raw formats: every record or byte is read to the end or to the first error.
/// Wherever a reader reads its input to the end, the census of the format (`RecordCensus`,
/// through `CensusTap`) must count what it handed out: the two share no code, so a difference is
/// a record dropped, split or invented by one of them.
enum FormatTargets {
    static func csv(_ bytes: [UInt8]) {
        let dialects = [CSVDialect.rfc4180, CSVDialect(comment: UInt8(ascii: "#"), quoteRule: .lenient),
                        CSVDialect(delimiter: UInt8(ascii: ";"), escape: UInt8(ascii: "\\"), hasHeader: false)]
        for dialect in dialects {
            for maxFields in [CSVReader.defaultMaxFields, 3] {
                let tap = CensusTap(MemoryByteSource(bytes), census: CSVRecordCensus(dialect: dialect))
                guard var reader = try? CSVReader(source: tap, dialect: dialect, maxFields: maxFields, bufferSize: 7) else { continue }
                var rows = 0
                do {
                    while let row = try reader.nextRow() {
                        _ = try? row.check()
                        rows += 1
                    }
                } catch {
                    continue
                }
                agree(tap.census, records: rows, skipped: reader.skippedLines, "CSV")
            }
        }
    }

    /// Every layout's records to the end or the first error, read as values and as fields
    /// (`nextFields`), which must agree record by record and error by error; then again with
    /// values limited to 16 bytes, going on after each record the reader says it read past or
    /// skipped: each such record consumed input, so there are never more of them than bytes.
    static func json(_ bytes: [UInt8]) {
        for layout in [JSONRecordLayout.automatic, .lines] {
            fieldsAgreeWithValues(bytes, layout: layout)
            let tap = CensusTap(MemoryByteSource(bytes), census: JSONRecordCensus(layout: layout))
            var limited = JSONReader(source: tap, layout: layout, maxDepth: 64, maxValueBytes: 16, bufferSize: 5)
            var records = 0
            var ended = false
            while true {
                guard records <= bytes.count + 2 else { fatalError("the JSON reader gave more records than bytes") }
                do {
                    guard try limited.nextRecord() != nil else {
                        ended = true
                        break
                    }
                } catch {
                    guard (try? limited.skipFailedRecord()) == true else { break }
                }
                records += 1
            }
            if ended { agree(tap.census, records: records, skipped: 0, "JSON \(layout)") }
        }
    }

    /// Reads `bytes` as values and as fields side by side (in windows of different sizes) and
    /// stops the fuzzer at the first record or error on which they differ.
    private static func fieldsAgreeWithValues(_ bytes: [UInt8], layout: JSONRecordLayout) {
        var byValues = JSONReader(source: MemoryByteSource(bytes), layout: layout, maxDepth: 64, bufferSize: 5)
        var byFields = JSONReader(source: MemoryByteSource(bytes), layout: layout, maxDepth: 64, bufferSize: 3)
        while true {
            let value: Result<JSONRecord?, any Error> = Result { try byValues.nextRecord() }
            let fields: Result<Bool, any Error> = Result { try byFields.nextFields() }
            switch (value, fields) {
            case (.success(let record?), .success(true)):
                guard record.value == byFields.fields.value, record.location == byFields.fields.location else {
                    fatalError("JSON \(layout): the fields of the record at \(record.location) differ from its value")
                }
            case (.success(nil), .success(false)):
                return
            case let (.failure(a), .failure(b)):
                guard (a as? JSONError) == (b as? JSONError) else { fatalError("JSON \(layout): the errors differ: \(a) and \(b)") }
                return
            default:
                fatalError("JSON \(layout): values and fields disagree: \(value) and \(fields)")
            }
        }
    }

    /// Stops the fuzzer when a census that read the whole input disagrees with its reader.
    private static func agree(_ census: FileCensus, records: Int, skipped: Int, _ format: String) {
        let problems = census.disagreements(read: records, skipped: skipped)
        guard problems.isEmpty else { fatalError("\(format): \(problems.joined(separator: "; "))") }
    }

    static func xmlPlist(_ bytes: [UInt8]) {
        _ = try? XMLPropertyListReader().decode(bytes)
        records(bytes)
    }

    static func binaryPlist(_ bytes: [UInt8]) {
        if let value = try? BinaryPropertyListReader().decode(bytes), let encoded = try? BinaryPropertyListWriter().encode(value) {
            // What Ferry writes it must read back.
            guard (try? BinaryPropertyListReader().decode(encoded)) != nil else { fatalError("a written binary plist does not read back") }
        }
        records(bytes)
    }

    /// Gzip detection and inflation, and the format sniffing of the first bytes that come out.
    static func gzip(_ bytes: [UInt8]) {
        guard let source = try? SampledByteSource(GzipDetectingByteSource(MemoryByteSource(bytes)), count: 4096) else { return }
        _ = SourceContent.sniff(source.sample, isComplete: source.sampleIsComplete)
        var buffer = [UInt8](repeating: 0, count: 4096)
        var total = 0
        while let count = try? buffer.withUnsafeMutableBytes({ try source.read(into: $0) }), count > 0 {
            total += count
            if total > 64 << 20 { return }
        }
    }

    /// The streaming record reader, which picks XML or binary by the first bytes.
    private static func records(_ bytes: [UInt8]) {
        let tap = CensusTap(MemoryByteSource(bytes), census: PlistRecordCensus())
        var reader = PlistRecordReader(source: tap, maxDepth: 64, bufferSize: 8)
        var records = 0
        do {
            while try reader.nextRecord() != nil { records += 1 }
        } catch {
            return
        }
        agree(tap.census, records: records, skipped: 0, "property list")
    }
}
