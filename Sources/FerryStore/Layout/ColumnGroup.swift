import FerryModel

/// The groups Core Data orders an entity table's columns by (coredata-format.md §3): integers and
/// foreign keys, then dates, then floating point and decimals, then strings, then blobs.
///
/// Within a group, columns keep the order of declaration: entities in pre-order, and within each
/// entity its attributes by name, then its to-one relationships by name. Checked against every
/// corpus store that has its XML model. UUID blobs come before other blobs: seen once (CoreDataPlus
/// `ZBOOK`: `ZUNIQUEID`, then the transformable `ZCOVER`), while Binary and Transformable mix by
/// name (XCServerCoreData `ZINTEGRATION`).
enum ColumnGroup: Int, Comparable {
    case integer, timestamp, floatingPoint, text, uuid, blob

    init?(_ type: AttributeType) {
        switch type {
        case .integer16, .integer32, .integer64, .boolean: self = .integer
        case .date: self = .timestamp
        case .decimal, .double, .float: self = .floatingPoint
        case .string, .uri: self = .text
        case .uuid: self = .uuid
        case .binary, .transformable: self = .blob
        case .undefined, .objectID, .composite: return nil
        }
    }

    static func < (lhs: ColumnGroup, rhs: ColumnGroup) -> Bool { lhs.rawValue < rhs.rawValue }
}
