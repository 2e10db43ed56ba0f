import FerryFormats
import FerryModel

/// One value of a record read back from an export file, before it has a type: a JSON value,
/// a CSV field (quoted or not) or a property-list value. Absent keys are `.null`.
enum ExportCell {
    case null
    case json(JSONValue)
    case field(String, quoted: Bool)
    case plist(PropertyListValue)

    /// The value as an attribute of `type`, the inverse of what the encoders write.
    func attribute(_ type: AttributeType) -> AttributeValue? {
        switch self {
        case .null: return .null
        case .field(let text, let quoted): return text.isEmpty && !quoted ? .null : Self.fromText(text, type)
        case .json(let value):
            switch value {
            case .null: return .null
            case .bool(let flag) where type == .boolean: return .bool(flag)
            case .number(let number): return Self.fromText(number.text, type)
            case .string(let text): return Self.fromText(text, type)
            default: return nil
            }
        case .plist(let value):
            switch value {
            case .integer(let number): return Self.fromText(String(number), type)
            case .real(let number) where type == .double || type == .float: return .double(number)
            case .bool(let flag) where type == .boolean: return .bool(flag)
            case .data(let bytes) where type == .binary || type == .transformable: return .binary(bytes)
            case .string(let text): return Self.fromText(text, type)
            default: return nil
            }
        }
    }

    /// A to-one's destination key: nil for none, `.failure` for something that is not a key.
    func key() -> Result<Int64?, KeyProblem> {
        switch self {
        case .null, .json(.null): return .success(nil)
        case .field(let text, _): return text.isEmpty ? .success(nil) : Int64(text).map { .success($0) } ?? .failure(KeyProblem())
        case .json(.number(let number)): return number.int64.map { .success($0) } ?? .failure(KeyProblem())
        case .plist(.integer(let number)): return Int64(exactly: number).map { .success($0) } ?? .failure(KeyProblem())
        default: return .failure(KeyProblem())
        }
    }

    /// A to-many's destination keys.
    func keys() -> [Int64]? {
        switch self {
        case .null, .json(.null): return []
        case .field(let text, _):
            let parts = text.split(separator: " ")
            let keys = parts.compactMap { Int64($0) }
            return keys.count == parts.count ? keys : nil
        case .json(.array(let items)):
            let keys = items.compactMap { item -> Int64? in if case .number(let number) = item { number.int64 } else { nil } }
            return keys.count == items.count ? keys : nil
        case .plist(.array(let items)):
            let keys = items.compactMap { item -> Int64? in if case .integer(let number) = item { Int64(exactly: number) } else { nil } }
            return keys.count == items.count ? keys : nil
        default: return nil
        }
    }

    struct KeyProblem: Error {}

    private static func fromText(_ text: String, _ type: AttributeType) -> AttributeValue? {
        switch type {
        case .integer16, .integer32, .integer64: return Int64(text).map { .integer($0) }
        case .boolean: return text == "true" ? .bool(true) : text == "false" ? .bool(false) : nil
        case .double, .float: return Double(text).map { .double($0) }
        case .decimal: return DecimalNotation.plain(text.utf8).map { .decimal($0) }
        case .string: return .string(text)
        case .uri: return .uri(text)
        case .date: return (ISO8601Date.parse(text) ?? Double(text)).map { .date($0) }
        case .binary, .transformable: return PropertyListBase64.decode(text.utf8, padding: .required).map { .binary($0) }
        case .uuid: return UUIDBytes(string: text).map { .uuid($0) }
        case .undefined, .objectID, .composite: return nil
        }
    }
}
