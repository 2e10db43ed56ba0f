import FerryFormats
import FerryMigration

/// Reads a legacy file's records into an `EntityProfile` for `ferry model infer`, through the
/// readers import uses (the same format detection, CSV dialect, JSON layout and gzip), streaming.
/// Records that no model could make a record of (a CSV row whose field count differs from the
/// header's, a line of NDJSON that is not JSON, an element that is not an object) are not seen by
/// the profile: they are counted and the first few kept, as import would reject them whatever the
/// model.
struct SourceProfileScan {
    /// How files are read (format, CSV options, value rules, JSON records key).
    let files: FileRecordSource

    /// Reads `path` into `profile`.
    func scan(_ path: String, into profile: EntityProfile, unreadable: inout UnreadableRecords) throws(RecordSourceError) -> ScannedSource {
        let decided = try files.decide(path)
        do {
            switch decided.format {
            case .csv: return try scanCSV(decided, into: profile, unreadable: &unreadable)
            case .json, .ndjson: return try scanJSON(decided, into: profile, unreadable: &unreadable)
            case .plist: return try scanPropertyList(decided, into: profile, unreadable: &unreadable)
            }
        } catch let error as RecordSourceError {
            throw error
        } catch let error as CSVError {
            throw RecordSourceError(error)
        } catch let error as PlistRecordError {
            throw RecordSourceError(source: path, line: error.line, reason: error.problem.description)
        } catch {
            throw RecordSourceError(source: path, failure: error, at: path)
        }
    }

    private func scanCSV(_ decided: FileRecordSource.DecidedSource, into profile: EntityProfile,
                         unreadable: inout UnreadableRecords) throws -> ScannedSource {
        let path = decided.path
        var csv = try files.csvReader(decided)
        guard let header = csv.header else {
            throw RecordSourceError(source: path, reason: "the file has no header row (it is empty, or holds only empty or comment "
                + "lines): a header row naming the columns is needed")
        }
        // Two columns of one name would be one key of both columns' values, which import
        // refuses to read ("two columns feed attribute …"): refused here too, naming them.
        var seen: [String: Int] = [:]
        for (column, name) in header.enumerated() where !name.isEmpty {
            if let first = seen[name] {
                throw RecordSourceError(source: path, reason: "columns \(first + 1) and \(column + 1) are both named '\(name)': "
                    + "import refuses a file whose columns repeat a name; rename one (or map it with --map '#N=ATTRIBUTE')")
            }
            seen[name] = column
        }
        var records = 0
        while let row = try csv.nextRow() {
            records += 1
            let location = "\(csv.sourceName):\(row.line)"
            do { try row.check() } catch {
                unreadable.note(location, error.reasonWithRemedy)
                continue
            }
            guard row.count == header.count else {
                unreadable.note(location, "the row has \(row.count) fields, the header has \(header.count)")
                continue
            }
            var fields: [(key: String, value: ObservedValue)] = []
            fields.reserveCapacity(header.count)
            for column in 0..<row.count {
                if row.withField(column, { $0.isEmpty }) {
                    fields.append((header[column], emptyField(quoted: row.wasQuoted(column))))
                } else {
                    guard let text = try? row.string(column) else { break }
                    fields.append((header[column], .value(.string(text))))
                }
            }
            guard fields.count == row.count else {
                unreadable.note(location, "a field is not UTF-8 (read it with --encoding latin1)")
                continue
            }
            profile.observe(fields)
        }
        return ScannedSource(path: path, records: records, skippedLines: csv.skippedLines, delimiter: decided.csv?.choice)
    }

    /// What an empty CSV field is under the empty-field rule.
    private func emptyField(quoted: Bool) -> ObservedValue {
        switch files.coercion.emptyField {
        case .nullUnlessQuoted: quoted ? .emptyField : .missing
        case .null: .missing
        case .empty: .emptyField
        }
    }

    private func scanJSON(_ decided: FileRecordSource.DecidedSource, into profile: EntityProfile,
                          unreadable: inout UnreadableRecords) throws -> ScannedSource {
        let path = decided.path
        var json = files.jsonReader(decided)
        var records = 0
        while true {
            let record: JSONRecord
            do {
                guard let next = try json.nextRecord() else { break }
                record = next
            } catch let error as JSONError {
                // A record with a value past the limit, or a malformed NDJSON line, is one bad
                // record; other malformed JSON breaks the document.
                guard try json.skipFailedRecord() else { throw error }
                records += 1
                unreadable.note("\(path):\(error.position.line)", error.recordProblem)
                continue
            }
            records += 1
            let value = DocumentValue(record.value)
            if let repeated = RepeatedKeys.first(in: value) {
                unreadable.note("\(path):\(record.location.line)", "key \"\(repeated)\" appears more than once in one object")
                continue
            }
            observe(value, at: "\(path):\(record.location.line)", container: "a JSON object", into: profile, unreadable: &unreadable)
        }
        return ScannedSource(path: path, records: records, skippedLines: 0, delimiter: nil)
    }

    private func scanPropertyList(_ decided: FileRecordSource.DecidedSource, into profile: EntityProfile,
                                  unreadable: inout UnreadableRecords) throws -> ScannedSource {
        let path = decided.path
        var plist = PlistRecordReader(source: decided.bytes)
        var records = 0
        while let record = try plist.nextRecord() {
            records += 1
            if let repeated = record.repeatedKeys.keys.first {
                unreadable.note(record.location.description, "key \"\(repeated)\" appears more than once in one dictionary")
                continue
            }
            observe(DocumentValue(record.value), at: record.location.description, container: "a dictionary", into: profile,
                    unreadable: &unreadable)
        }
        return ScannedSource(path: path, records: records, skippedLines: 0, delimiter: nil)
    }

    private func observe(_ value: DocumentValue, at location: String, container: String, into profile: EntityProfile,
                         unreadable: inout UnreadableRecords) {
        guard case .object(let members) = value else {
            return unreadable.note(location, "a record must be \(container), not \(value.kindName)")
        }
        profile.observe(members)
    }
}

/// One source file as `ferry model infer` read it.
public struct ScannedSource: Sendable, Equatable {
    public let path: String
    /// Records (rows, elements, lines) read, the unreadable ones included.
    public let records: Int
    /// Empty and comment lines of a CSV file.
    public let skippedLines: Int
    /// The delimiter of a CSV file and what chose it; nil for other formats.
    public let delimiter: CSVDelimiterChoice?
}

/// Records no model could read, counted, the first few kept with their location.
public struct UnreadableRecords: Sendable, Equatable {
    /// How many examples are kept.
    public static let examplesKept = 10
    public private(set) var count = 0
    /// `file:line: reason`, the first `examplesKept`.
    public private(set) var examples: [String] = []

    mutating func note(_ location: String, _ reason: String) {
        count += 1
        if examples.count < Self.examplesKept { examples.append("\(location): \(reason)") }
    }
}
