import FerryFormats

/// A value of a structured legacy document (JSON or a property list), in one shape so that one
/// decoder turns both into records. Numbers keep their exact text.
public indirect enum DocumentValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A number as written (`12`, `-0.5`, `1e3`); plist integers and reals become their text (a
    /// real no `Double` holds, its text as written, so that its attribute rejects it as it rejects
    /// the same JSON number).
    case number(String)
    case string(String)
    case data([UInt8])
    /// Seconds since 2001-01-01 UTC (plist dates).
    case date(Double)
    /// A keyed archive's reference to another of its objects (binary plists): no attribute's value.
    case uid(UInt64)
    case array([DocumentValue])
    case object([(key: String, value: DocumentValue)])

    public static func == (lhs: DocumentValue, rhs: DocumentValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.number(a), .number(b)): a == b
        case let (.string(a), .string(b)): a == b
        case let (.data(a), .data(b)): a == b
        case let (.date(a), .date(b)): a == b
        case let (.uid(a), .uid(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)): a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    /// A short description of the kind of value, for messages.
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .data: "data"
        case .date: "a date"
        case .uid: "an archive's object reference (UID)"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

extension DocumentValue {
    /// A JSON value; object members keep their order (duplicates included).
    public init(_ json: JSONValue) {
        switch json {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .number(let number): self = .number(number.text)
        case .string(let text): self = .string(text)
        case .array(let elements): self = .array(elements.map(DocumentValue.init))
        case .object(let members): self = .object(members.map { ($0.key, DocumentValue($0.value)) })
        }
    }

    /// A JSON record read as fields; object members keep their order (duplicates included).
    public init(_ fields: JSONRecordFields) {
        if let value = fields.nonObject {
            self.init(value)
        } else {
            self = .object((0..<fields.count).map { (fields.key(at: $0), DocumentValue(fields.value(at: $0))) })
        }
    }

    /// A property-list value; dictionary keys in byte order, sets as arrays.
    public init(_ plist: PropertyListValue) {
        switch plist {
        case .string(let text): self = .string(text)
        case .integer(let number): self = .number(String(number))
        case .real(let number): self = .number(number.isNaN ? "nan" : number.isInfinite ? (number < 0 ? "-inf" : "inf") : "\(number)")
        case .unrepresentableReal(let text): self = .number(text)
        case .bool(let flag): self = .bool(flag)
        case .date(let seconds): self = .date(seconds)
        case .data(let bytes): self = .data(bytes)
        case .array(let elements), .set(let elements): self = .array(elements.map(DocumentValue.init))
        case .dictionary(let entries):
            self = .object(entries.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map { ($0.key, DocumentValue($0.value)) })
        case .uid(let number): self = .uid(number)
        }
    }
}
