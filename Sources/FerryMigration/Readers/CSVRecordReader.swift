import FerryFormats
import FerryModel

/// Reads records of one entity from CSV with a header row: columns are matched to attributes by
/// `CSVHeaderMatch`, fields become typed values by `TextCoercion`, and each row becomes a record
/// or a reject that names its line, attribute and reason. Lines the CSV reader skips (empty
/// lines, comments) are counted in `skippedLines`.
///
/// Rows are parsed and converted on a thread of their own, a few batches ahead of `next()`
/// (see `RecordReadAhead`), in file order. An error that stops the source is thrown again by
/// every later call.
public struct CSVRecordReader: RecordReader, ~Copyable {
    public let sourceName: String
    public let unknownKeys: [String]
    /// Always true: a header none of whose columns match is refused when the reader opens.
    public var matchesAnyKey: Bool { true }
    public var skippedLines: Int { records.skippedLines }
    public var absentDefaults: [AbsentDefault] { records.absentDefaults }
    private var records: RecordReadAhead

    /// Opens the reader and matches the header; fails when the input has no header, a required
    /// attribute without a default has no column, or no column matches.
    /// - Parameters:
    ///   - keyMap: column name → attribute name, for columns nothing else would match.
    ///   - columnMap: column position (1-based) → attribute name, for any column.
    ///   - model: the model `schema` is of, for columns that name a to-one relationship (nil reads
    ///     attributes only); `linkAttributes` maps a relationship to the destination attribute its
    ///     values match (`RelationshipKeys`).
    public init(csv: consuming CSVReader, schema: RecordSchema, keyMap: [String: String] = [:], columnMap: [Int: String] = [:],
                model: ManagedObjectModel? = nil, linkAttributes: [String: String] = [:],
                options: CoercionOptions = .init()) throws(RecordSourceError) {
        let relationshipKeys = model.map { RelationshipKeys(model: $0, entity: schema.entity.name, keyMap: keyMap, linkAttributes: linkAttributes) }
        let rows = try CSVRowRecords(csv: csv, schema: schema, keyMap: keyMap, columnMap: columnMap, relationshipKeys: relationshipKeys,
                                     options: options)
        sourceName = rows.sourceName
        unknownKeys = rows.unknownKeys
        records = RecordReadAhead(rows)
    }

    public mutating func next() throws(RecordSourceError) -> RecordReadResult? {
        try records.next()
    }

    public mutating func withNext(_ body: (borrowing RecordReadResult) -> Void) throws(RecordSourceError) -> Bool {
        try records.withNext(body)
    }
}

/// Turns the rows of a CSV reader into records or rejects, one row at a time.
struct CSVRowRecords: RecordReader, ~Copyable {
    let sourceName: String
    let unknownKeys: [String]
    var matchesAnyKey: Bool { true }
    var skippedLines: Int { csv.skippedLines }
    var absentDefaults: [AbsentDefault] { assembler.absentDefaults }
    private var csv: CSVReader
    private let schema: RecordSchema
    /// The entity's name, for rejects.
    private let entity: String
    private var assembler: RecordAssembler
    private let options: CoercionOptions
    /// For each CSV column, the attribute it feeds (nil: unknown column).
    private let columnAttributes: [Int?]
    /// For each attribute, whether some column feeds it.
    private let provided: [Bool]
    /// For each CSV column, the type of the attribute it feeds (`.undefined` for unknown columns):
    /// read per field, so kept apart from the attributes' other properties.
    private let columnTypes: [AttributeType]
    /// The columns that link to-one relationships (`CSVHeaderMatch`).
    private let columnLinks: [CSVColumnLink]
    /// Emptied values arrays of records the consumer is done with (see `reuse(_:)`), to fill
    /// again: reusing one saves allocating and freeing an array per row.
    private var spareValues: [[AttributeValue]] = []

    init(csv: consuming CSVReader, schema: RecordSchema, keyMap: [String: String], columnMap: [Int: String],
         relationshipKeys: RelationshipKeys?, options: CoercionOptions) throws(RecordSourceError) {
        let match = try CSVHeaderMatch(header: csv.header, line: csv.headerLine, source: csv.sourceName, schema: schema,
                                       keyMap: keyMap, columnMap: columnMap, relationshipKeys: relationshipKeys,
                                       absent: options.absentKey)
        columnLinks = match.columnLinks
        sourceName = csv.sourceName
        unknownKeys = match.unknownKeys
        columnAttributes = match.columnAttributes
        provided = match.provided
        columnTypes = match.columnAttributes.map { $0.map { schema.attributes[$0].type } ?? .undefined }
        assembler = match.assembler
        self.schema = schema
        entity = schema.entity.name
        self.options = options
        self.csv = csv
    }

    public mutating func next() throws(RecordSourceError) -> RecordReadResult? {
        let row: CSVRow
        do {
            guard let next = try csv.nextRow() else { return nil }
            row = next
        } catch let error as CSVError {
            throw RecordSourceError(error)
        } catch {
            throw RecordSourceError(source: sourceName, failure: error, at: sourceName)
        }
        let location = SourceLocation(file: sourceName, line: row.line)
        do { try row.check() } catch {
            let field = (error.field ?? 1) - 1
            let attribute = field < columnAttributes.count ? columnAttributes[field].map { schema.attributes[$0].name } : nil
            return .reject(Reject(location: location, entity: entity, attribute: attribute, reason: error.reasonWithRemedy))
        }
        guard row.count == columnAttributes.count else {
            return .reject(Reject(location: location, entity: entity,
                                  reason: "the row has \(row.count) fields, the header has \(columnAttributes.count)"))
        }
        // Appended rather than `Array(repeating:count:)`, whose unspecialized allocation looks up
        // the array's metadata on every call. A spare array still shared is copied on write, so
        // reusing one never changes a record given out.
        var values = spareValues.popLast() ?? []
        values.reserveCapacity(provided.count)
        for _ in 0..<provided.count { values.append(.null) }
        for column in 0..<row.count {
            guard let index = columnAttributes[column] else { continue }
            let type = columnTypes[column]
            // Empty fields are decided on their bytes; most others convert straight from them. The
            // text path below gives strings, the values of the other types, and every failure with
            // its message.
            if row.withField(column, { $0.isEmpty }), isNull(quoted: row.wasQuoted(column), type: type) { continue }
            if type != .string, let value = row.withField(column, { TextCoercion.value(utf8: $0, as: type) }) {
                values[index] = value
                continue
            }
            let text: String
            do { text = try row.string(column) } catch {
                return .reject(Reject(location: location, entity: entity, attribute: schema.attributes[index].name, reason: error.reason))
            }
            if type == .string {  // taken as it is (`TextCoercion` does the same), without a Result
                values[index] = .string(text)
                continue
            }
            switch TextCoercion.value(text, as: type, options: options) {
            case .success(let value):
                values[index] = value
            case .failure(let failure):
                return .reject(Reject(location: location, entity: entity, attribute: schema.attributes[index].name,
                                      value: TextCoercion.clipped(text), reason: failure.reason))
            }
        }
        var links: [RecordLink] = []
        for link in columnLinks {
            let text: String
            do { text = try row.string(link.column) } catch {
                return .reject(Reject(location: location, entity: entity, attribute: link.relationship, reason: error.reason))
            }
            switch text.isEmpty ? .success(.null) : TextCoercion.value(text, as: link.attribute.type, options: options) {
            case .success(.null):
                guard !link.isRequired else {
                    return .reject(Reject(location: location, entity: entity, attribute: link.relationship,
                                          reason: RelationshipKeys.emptyRequiredReason))
                }
            case .success(let value): links.append(RecordLink(relationship: link.relationship, targets: [.match(attribute: link.attribute.name, value: value)]))
            case .failure(let failure):
                return .reject(Reject(location: location, entity: entity, attribute: link.relationship, value: TextCoercion.clipped(text),
                                      reason: "\(link.destination).\(link.attribute.name): \(failure.reason)"))
            }
        }
        switch assembler.complete(values, provided: provided) {
        case let .record(values, defaulted):
            return .record(Record(values: values, location: consume location, links: links), defaulted: defaulted)
        case let .missingRequired(attribute):
            return .reject(Reject(location: location, entity: entity, attribute: attribute,
                                  reason: "required attribute is empty and has no default"))
        }
    }

    /// Keeps the values arrays of spent records, emptied (a spare holds no strings or blobs),
    /// at most a batch's worth.
    mutating func reuse(_ spent: inout [RecordReadResult]) {
        let limit = spent.count
        while spareValues.count < limit, let result = spent.popLast() {
            guard case .record(var record, _) = consume result else { continue }
            var values: [AttributeValue] = []
            swap(&values, &record.values)
            values.removeAll(keepingCapacity: true)
            spareValues.append(values)
        }
    }

    /// Whether an empty field is NULL under the empty-field policy. A type without an empty value
    /// (a number, date, Boolean, UUID, URI) takes NULL for any empty field, quoted or not (a
    /// quote-all CSV writes `""` for a missing number); String and Binary take the empty value
    /// (`""`, and the empty data `export` writes as `""`) when the policy says so.
    private func isNull(quoted: Bool, type: AttributeType) -> Bool {
        guard type == .string || type == .binary || type == .transformable else { return true }
        switch options.emptyField {
        case .nullUnlessQuoted: return !quoted
        case .null: return true
        case .empty: return type != .string && !quoted
        }
    }
}
