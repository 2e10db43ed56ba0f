import FerryModel

/// The functions whose arguments are all evaluated and none of them nil.
enum ExpressionFunctions {
    static func apply(_ function: ExpressionFunction, _ values: [AttributeValue]) throws(ExpressionFailure) -> AttributeValue {
        let value = values[0]
        switch function {
        case .integer: return try ExpressionConversions.integer(value)
        case .double: return try ExpressionConversions.double(value)
        case .decimal: return try ExpressionConversions.decimal(value)
        case .bool: return try ExpressionConversions.bool(value)
        case .text: return .string(try ExpressionConversions.text(value))
        case .round: return .integer(try ExpressionConversions.rounded(value, .toNearestOrAwayFromZero))
        case .floor: return .integer(try ExpressionConversions.rounded(value, .down))
        case .ceil: return .integer(try ExpressionConversions.rounded(value, .up))
        case .trim:
            let text = try string(value)
            guard let first = text.firstIndex(where: { !$0.isWhitespace }),
                  let last = text.lastIndex(where: { !$0.isWhitespace }) else { return .string("") }
            return .string(String(text[first...last]))
        case .lower: return .string(try string(value).lowercased())
        case .upper: return .string(try string(value).uppercased())
        case .length: return .integer(Int64(try string(value).count))
        case .replace:
            let (text, old, new) = (try string(value), try string(values[1]), try string(values[2]))
            guard !old.isEmpty else { throw ExpressionFailure("the text to replace is empty") }
            return .string(text.replacing(old, with: new))
        case .prefix: return .string(String(try string(value).prefix(try count(values[1], "prefix"))))
        case .suffix: return .string(String(try string(value).suffix(try count(values[1], "suffix"))))
        case .substring:
            let text = try string(value)
            let start = text.index(text.startIndex, offsetBy: try count(values[1], "substring start"), limitedBy: text.endIndex) ?? text.endIndex
            return .string(String(text[start...].prefix(try count(values[2], "substring length"))))
        case .date: return try ExpressionConversions.date(value)
        case .unixtime: return try ExpressionConversions.seconds(value, since: ReferenceDate.unixOffset)
        case .epoch2001: return try ExpressionConversions.seconds(value, since: 0)
        case .coalesce, .isnil, .uuid, .lookup:
            throw ExpressionFailure("\(function.rawValue)() is evaluated by the evaluator itself")
        }
    }

    /// A number of characters: an integer, 0 or more.
    private static func count(_ value: AttributeValue, _ role: String) throws(ExpressionFailure) -> Int {
        guard case let .integer(number) = value else { throw ExpressionFailure("\(role) needs an integer, got \(ExpressionValues.describe(value))") }
        guard number >= 0, let count = Int(exactly: number) else { throw ExpressionFailure("\(role) is \(number), not 0 or more") }
        return count
    }

    private static func string(_ value: AttributeValue) throws(ExpressionFailure) -> String {
        guard case let .string(text) = value else { throw ExpressionFailure("needs text, got \(ExpressionValues.describe(value))") }
        return text
    }
}
