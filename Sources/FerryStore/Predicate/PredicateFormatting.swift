import FerryModel
extension FetchPredicate: CustomStringConvertible {
    /// The predicate in format syntax; `FetchPredicate(format: p.description) == p`.
    public var description: String {
        switch self {
        case .constant(let value): value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .not(let inner): "NOT " + inner.nested
        case .and(let parts): parts.isEmpty ? "TRUEPREDICATE" : parts.map(\.nested).joined(separator: " AND ")
        case .or(let parts): parts.isEmpty ? "FALSEPREDICATE" : parts.map(\.nested).joined(separator: " OR ")
        case .comparison(let comparison): comparison.description
        }
    }

    /// The text of a part of a compound: compounds in parentheses.
    private var nested: String {
        switch self {
        case .and(let parts) where parts.count > 1: "(\(description))"
        case .or(let parts) where parts.count > 1: "(\(description))"
        default: description
        }
    }
}

extension Comparison: CustomStringConvertible {
    public var description: String {
        var text = quantifier.map { $0.rawValue + " " } ?? ""
        text += "\(left) \(comparisonOperator.rawValue)"
        if !options.isEmpty {
            text += "[" + (options.contains(.caseInsensitive) ? "c" : "") + (options.contains(.diacriticInsensitive) ? "d" : "") + "]"
        }
        return text + " \(right)"
    }
}

extension PredicateOperand: CustomStringConvertible {
    public var description: String {
        switch self {
        case .keyPath(let components):
            components.map { PredicateKeywords.reserved.contains($0.uppercased()) ? "#" + $0 : $0 }.joined(separator: ".")
        case .value(let value): value.description
        case .variable(let name): "$" + name
        case .aggregate(let elements): "{" + elements.map(\.description).joined(separator: ", ") + "}"
        }
    }
}

extension PredicateValue: CustomStringConvertible {
    public var description: String {
        switch self {
        case .null: "nil"
        case .bool(let value): value ? "YES" : "NO"
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .string(let text), .text(let text): Self.quoted(text)
        case .date(let seconds):
            "CAST(\(ISO8601Date.format(seconds).map { "'\($0)'" } ?? String(seconds)), 'NSDate')"
        case .list(let values): "{" + values.map(\.description).joined(separator: ", ") + "}"
        case .opaque: "<bytes>"
        }
    }

    /// `text` in double quotes, with `\`, `"` and control characters escaped.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\0": result += "\\0"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
