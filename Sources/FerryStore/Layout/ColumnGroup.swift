import FerryModel

/// The groups Core Data orders an entity table's columns by (coredata-format.md §3): integers and
/// foreign keys, then dates with doubles and floats, then decimals, then strings, then URIs, then
/// UUIDs, then other blobs.
///
/// Within a group, columns keep the order of declaration: entities in pre-order, and within each
/// entity its attributes by name, then its to-one relationships by name. Checked against every
/// corpus store with a model (`CorpusLayoutRuleTests`): dates and doubles share a group
/// (objc.io's Moody: `ZDATE, ZLATITUDE, ZLONGITUDE, ZMARKEDFORDELETIONDATE`; netusage, knowledgeC),
/// decimals follow them (CartKit: `ZCREATEDAT, ZUPDATEDAT, ZMINSUBTOTALAMOUNT`), URIs follow the
/// strings (knowledgeC's `…URL` columns, Apple Notes' `ZPAPERASSETSURL`), and UUID blobs come
/// before other blobs (CoreDataPlus `ZBOOK`: `ZUNIQUEID`, then the transformable `ZCOVER`), while
/// Binary and Transformable mix by name (XCServerCoreData `ZINTEGRATION`).
enum ColumnGroup: Int, Comparable {
    case integer, realNumber, decimal, text, uri, uuid, blob

    init?(_ type: AttributeType) {
        switch type {
        case .integer16, .integer32, .integer64, .boolean: self = .integer
        case .date, .double, .float: self = .realNumber
        case .decimal: self = .decimal
        case .string: self = .text
        case .uri: self = .uri
        case .uuid: self = .uuid
        case .binary, .transformable: self = .blob
        case .undefined, .objectID, .composite: return nil
        }
    }

    static func < (lhs: ColumnGroup, rhs: ColumnGroup) -> Bool { lhs.rawValue < rhs.rawValue }
}
