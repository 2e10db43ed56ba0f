import FerryModel

/// Turns a document value into a value of an attribute's type.
///
/// Strings follow `TextCoercion` (the same rules as CSV fields). Numbers are exact: an integer
/// attribute takes only integral numbers in range, a Decimal keeps the digits, a Date reads the
/// number on the configured epoch, a Boolean takes 0 or 1, a String takes the number's text.
/// Booleans go into Boolean attributes (and 0/1 integers); data into Binary, Transformable and
/// (16 bytes) UUID; plist dates into Date. Arrays and objects are not attribute values.
public enum DocumentCoercion {
    public static func value(_ value: DocumentValue, as type: AttributeType, options: CoercionOptions)
        -> Result<AttributeValue, CoercionFailure>
    {
        switch value {
        case .null:
            return .success(.null)
        case .string(let text):
            return TextCoercion.value(text, as: type, options: options)
        case .number(let text):
            switch type {
            case .string: return .success(.string(text))
            case .boolean:
                switch text {
                case "0": return .success(.bool(false))
                case "1": return .success(.bool(true))
                default: return .failure(CoercionFailure("\(text) is not a boolean (0 or 1)"))
                }
            case .binary, .transformable, .uuid, .uri:
                return .failure(CoercionFailure("a number cannot be \(type.xcodeName)"))
            default:
                return TextCoercion.value(text, as: type, options: options)
            }
        case .bool(let flag):
            switch type {
            case .boolean: return .success(.bool(flag))
            case .integer16, .integer32, .integer64: return .success(.integer(flag ? 1 : 0))
            case .string: return .success(.string(flag ? "true" : "false"))
            default: return .failure(CoercionFailure("a boolean cannot be \(type.xcodeName)"))
            }
        case .data(let bytes):
            switch type {
            case .binary, .transformable: return .success(.binary(bytes))
            case .uuid: return UUIDBytes(bytes).map { .success(.uuid($0)) } ?? .failure(CoercionFailure("UUID data must be 16 bytes, not \(bytes.count)"))
            default: return .failure(CoercionFailure("data cannot be \(type.xcodeName)"))
            }
        case .date(let seconds):
            return type == .date ? .success(.date(seconds)) : .failure(CoercionFailure("a date cannot be \(type.xcodeName)"))
        case .uid, .array, .object:
            return .failure(CoercionFailure("\(value.kindName) cannot be \(type.xcodeName)"))
        }
    }
}
