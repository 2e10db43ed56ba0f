import FerryFormats
import FerryModel

/// How a CSV header's columns map onto a schema's attributes: a column named by position in
/// `columnMap` feeds that attribute (a position past the header, or an attribute the entity
/// lacks, is refused); any other is matched by `PropertyKeyMatcher` (a name that matches
/// several attributes alike is refused).
///
/// A column that names no attribute but a to-one relationship (`RelationshipKeys`) gives each
/// record a link to the destination whose attribute holds the field's value. A to-many's column
/// is not read: one field cannot say how it lists several values without a rule that could split
/// a value in two (and create fake destinations), so it is reported with the unknown columns.
///
/// Columns that feed nothing are listed once each in `unknownKeys` by name, or as
/// `column N (no name)` when their name is blank (a spreadsheet's index column), so that a
/// warning can say which column it means.
public struct CSVHeaderMatch {
    /// How the reason of a file whose header lacks a required attribute begins.
    public static let missingRequiredColumn = "no column for required attribute"

    var columnAttributes: [Int?] = []
    var provided: [Bool]
    var unknownKeys: [String] = []
    /// The columns that link to-one relationships.
    var columnLinks: [CSVColumnLink] = []
    var assembler: RecordAssembler

    /// - Parameters:
    ///   - line: the header's line (1 when it is unknown).
    ///   - relationshipKeys: the relationships columns may name; nil reads attributes only.
    ///   - absent: what an attribute without a column gets.
    init(header: [String]?, line: Int?, source: String, schema: RecordSchema, keyMap: [String: String],
         columnMap: [Int: String], relationshipKeys: RelationshipKeys?, absent: AbsentKeyRule) throws(RecordSourceError) {
        var relationshipKeys = relationshipKeys
        let line = line ?? 1
        guard let header else {
            throw RecordSourceError(source: source, line: line, reason: "the file has no header row (it is empty, or holds only "
                + "empty or comment lines): a header row naming the attributes is needed")
        }
        for (position, attribute) in columnMap.sorted(by: { $0.key < $1.key }) {
            guard (1...header.count).contains(position) else {
                throw RecordSourceError(source: source, line: line,
                                        reason: "--map #\(position): the header has \(header.count) column\(header.count == 1 ? "" : "s")")
            }
            guard schema.index(of: attribute) != nil else {
                throw RecordSourceError(source: source, line: line,
                                        reason: "--map #\(position)=\(attribute): \(schema.entity.name) has no attribute '\(attribute)'")
            }
        }
        let matcher = PropertyKeyMatcher(schema: schema, keyMap: keyMap)
        var matched: [Int?] = []
        for (offset, key) in header.enumerated() {
            if let attribute = columnMap[offset + 1] {
                matched.append(schema.index(of: attribute))
                continue
            }
            do { matched.append(try matcher.attributeIndex(forKey: key)) } catch {
                throw RecordSourceError(source: source, line: line, reason: error.reason)
            }
        }
        provided = [Bool](repeating: false, count: schema.attributes.count)
        var reported: Set<String> = []
        // A header with a `Z_PK` the user did not map is a store's rows (a Ferry export), also
        // when it reaches an attribute by its name or renaming identifier: its to-one columns
        // hold destination keys, not values.
        let carriesStoreKeys = header.enumerated().contains { offset, key in
            RelationshipKeys.isStoreRowKey(key) && columnMap[offset + 1] == nil && !matcher.isMapped(key)
        }
        for (offset, key) in header.enumerated() {
            let index = matched[offset]
            if let index {
                guard !provided[index] else {
                    throw RecordSourceError(source: source, line: line, reason: "two columns feed attribute "
                        + "'\(schema.attributes[index].name)' (the second is \(Self.label(key, position: offset + 1)))")
                }
                provided[index] = true
            } else if var keys = relationshipKeys, let relationship = keys.relationship(forKey: key) {
                if relationship.isToMany {
                    unknownKeys.append("'\(key)' (to-many relationship \(relationship.name): a CSV field holds one value; give its "
                        + "destinations in JSON or with a mapping file)")
                } else {
                    if carriesStoreKeys {
                        throw RecordSourceError(source: source, line: line, reason: RelationshipKeys.storeKeysReason(relationships: [relationship.name]))
                    }
                    guard !columnLinks.contains(where: { $0.relationship == relationship.name }) else {
                        throw RecordSourceError(source: source, line: line, reason: "two columns feed relationship "
                            + "'\(relationship.name)' (the second is \(Self.label(key, position: offset + 1)))")
                    }
                    let attribute = try keys.matchAttribute(for: relationship, source: source)
                    relationshipKeys = keys
                    columnLinks.append(CSVColumnLink(column: offset, relationship: relationship.name, destination: relationship.destinationEntity,
                                                     attribute: attribute, isRequired: !relationship.isOptional))
                }
            } else if Self.isBlank(key) {
                unknownKeys.append(Self.label(key, position: offset + 1))
            } else if reported.insert(key).inserted {
                unknownKeys.append(key)
            }
            columnAttributes.append(index)
        }
        guard provided.contains(true) else {
            let columns = NameListText.summary(header.enumerated().map { Self.label($1, position: $0 + 1) })
            throw RecordSourceError(source: source, line: line, reason: "none of the columns (\(columns)) matches an attribute of "
                + "\(schema.entity.name): check the entity, the delimiter, or name columns with --map COLUMN=ATTRIBUTE "
                + "or --map '#N=ATTRIBUTE'")
        }
        do { assembler = try RecordAssembler(schema: schema, absent: absent) } catch {
            throw RecordSourceError(source: source, failure: error, at: source)
        }
        if header.contains(where: RelationshipKeys.isStoreRowKey) { assembler.readsStoreRows() }
        for (index, attribute) in schema.attributes.enumerated()
        where !provided[index] && !attribute.isOptional && attribute.defaultValueString == nil && attribute.defaultDateTimeInterval == nil {
            throw RecordSourceError(source: source, line: line, reason: Self.missingRequiredColumn
                                    + " '\(attribute.name)' of \(schema.entity.name), and it has no default")
        }
    }

    private static func isBlank(_ name: String) -> Bool {
        name.allSatisfy(\.isWhitespace)
    }

    /// A column as a message names it: `'name'`, or `column 3 (no name)`.
    private static func label(_ name: String, position: Int) -> String {
        isBlank(name) ? "column \(position) (no name)" : "'\(name)'"
    }
}

/// A CSV column that links a to-one relationship: its field's value finds the destination by
/// `attribute`. An empty field of a required one rejects its row.
struct CSVColumnLink: Sendable {
    let column: Int
    let relationship: String
    let destination: String
    let attribute: Attribute
    let isRequired: Bool
}
