/// The type of an attribute, with the numeric code Core Data uses (`NSAttributeType`) and the
/// spelling Xcode writes in a model's `contents` XML.
public enum AttributeType: Int, Sendable, CaseIterable, Codable {
    case undefined = 0
    case integer16 = 100
    case integer32 = 200
    case integer64 = 300
    case decimal = 400
    case double = 500
    case float = 600
    case string = 700
    case boolean = 800
    case date = 900
    case binary = 1000
    case uuid = 1100
    case uri = 1200
    case transformable = 1800
    case objectID = 2000
    case composite = 2100

    /// The `attributeType` spelling in Xcode's model XML.
    public var xcodeName: String {
        switch self {
        case .undefined: "Undefined"
        case .integer16: "Integer 16"
        case .integer32: "Integer 32"
        case .integer64: "Integer 64"
        case .decimal: "Decimal"
        case .double: "Double"
        case .float: "Float"
        case .string: "String"
        case .boolean: "Boolean"
        case .date: "Date"
        case .binary: "Binary"
        case .uuid: "UUID"
        case .uri: "URI"
        case .transformable: "Transformable"
        case .objectID: "ObjectID"
        case .composite: "Composite"
        }
    }

    /// `xcodeName` with its article, for messages: "an Integer 32", "a String", "a URI".
    public var withArticle: String {
        switch self {
        case .undefined, .integer16, .integer32, .integer64, .objectID: "an \(xcodeName)"
        default: "a \(xcodeName)"
        }
    }

    /// Why a stored attribute of this type cannot be read or written, or nil when it can. A
    /// composite (Xcode 15) keeps its elements in columns of their own, which the model's
    /// `<composite>` describes and Ferry does not read yet: a model with one was taken as an
    /// attribute without a column, and every value of it was lost with exit 0. Undefined (also
    /// what an attribute without `attributeType` is) and Object ID have no storage at all: Core
    /// Data's model compiler accepts them on transient attributes only, and a stored one was
    /// taken as an attribute without a column too, its values dropped as "keys matching no
    /// attribute".
    public var unsupportedReason: String? {
        switch self {
        case .composite: "is a composite attribute, which Ferry does not read yet (its values would be lost)"
        case .undefined, .objectID: "is \(withArticle) attribute that is not transient: Core Data stores no value of that type (only a transient attribute may have it)"
        default: nil
        }
    }

    /// Looks a type up by its Xcode XML spelling.
    public init?(xcodeName: String) {
        guard let match = AttributeType.allCases.first(where: { $0.xcodeName == xcodeName }) else { return nil }
        self = match
    }

    /// The declared column type Core Data gives this attribute in a SQLite store, or nil when the
    /// attribute has no column (undefined, object IDs, composites).
    public var sqlColumnType: String? {
        switch self {
        case .integer16, .integer32, .integer64, .boolean: "INTEGER"
        case .decimal: "DECIMAL"
        case .double, .float: "FLOAT"
        case .string, .uri: "VARCHAR"
        case .date: "TIMESTAMP"
        case .binary, .uuid, .transformable: "BLOB"
        case .undefined, .objectID, .composite: nil
        }
    }

    /// Whether values of this type are integers (including booleans).
    public var isInteger: Bool {
        switch self {
        case .integer16, .integer32, .integer64, .boolean: true
        default: false
        }
    }

    /// The inclusive range of an integer type, or nil for other types.
    public var integerRange: ClosedRange<Int64>? {
        switch self {
        case .integer16: Int64(Int16.min)...Int64(Int16.max)
        case .integer32: Int64(Int32.min)...Int64(Int32.max)
        case .integer64: Int64.min...Int64.max
        case .boolean: 0...1
        default: nil
        }
    }
}
