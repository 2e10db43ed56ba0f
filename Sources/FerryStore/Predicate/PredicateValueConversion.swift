import FerryModel

/// The type rules of comparisons: which predicate values an attribute type accepts, and the store
/// value each becomes (Core Data's storage form: dates as reference-date seconds, booleans 0/1,
/// UUIDs as 16-byte blobs).
enum PredicateValueConversion {
    /// `value` as a parameter compared with a column of `type`; strings folded by `options`.
    ///
    /// - Strings and URIs take strings only.
    /// - Numbers take integers, reals, YES/NO (1/0) and strings that read as numbers (`"42"`).
    /// - Booleans take YES/NO/TRUE/FALSE and the integers 0 and 1.
    /// - Dates take `CAST(…, 'NSDate')` and plain numbers (seconds since 2001-01-01 UTC); date
    ///   strings must be written as a `CAST`.
    /// - UUIDs take their canonical text (`"A4832D9A-596A-48CD-A2AA-D1D3152E62A9"`).
    /// - Binary and transformable attributes compare with nil only (`IS NULL`, which holds for
    ///   nil alone): bytes are not comparable in the predicate language, and the column of an
    ///   attribute that allows external storage holds a tagged form (`ExternalBinaryData`),
    ///   possibly a file reference, that SQL could not compare with a value anyway.
    /// `nil` becomes NULL (meaningful inside `IN` lists; `== nil` is compiled to `IS NULL` before).
    /// A variable's text (`.text`) is first read as the type takes it (`typed`).
    static func storeValue(_ value: PredicateValue, for type: AttributeType, keyPath: String,
                           options: ComparisonOptions) throws(FetchPredicateError) -> StoreValue {
        if value == .null { return .null }
        func mismatch(_ expectation: String) -> FetchPredicateError {
            .typeMismatch(keyPath: keyPath, reason: "\(type.withArticle) attribute \(expectation), not \(value)")
        }
        if case .text(let text) = value {
            guard let typed = typed(text, for: type) else { throw mismatch(textExpectation(of: type)) }
            return try storeValue(typed, for: type, keyPath: keyPath, options: options)
        }
        switch type {
        case .string, .uri:
            guard case .string(let text) = value else { throw mismatch("is compared with strings") }
            return .text(options.isEmpty ? text : StringFolding.fold(text, options))
        case .boolean:
            switch value {
            case .bool(let flag): return .integer(flag ? 1 : 0)
            case .integer(let number) where number == 0 || number == 1: return .integer(number)
            default: throw mismatch("takes YES, NO, 1 or 0")
            }
        case .integer16, .integer32, .integer64, .decimal, .double, .float:
            switch value {
            case .integer(let number): return .integer(number)
            case .real(let number): return .real(number)
            case .bool(let flag): return .integer(flag ? 1 : 0)
            case .string(let text):
                if let number = Int64(text) { return .integer(number) }
                if let number = Double(text), number.isFinite { return .real(number) }
                throw mismatch("is compared with numbers")
            default: throw mismatch("is compared with numbers")
            }
        case .date:
            switch value {
            case .date(let seconds), .real(let seconds): return .real(seconds)
            case .integer(let seconds): return .real(Double(seconds))
            default: throw mismatch("is compared with CAST('…', 'NSDate') or seconds since 2001-01-01")
            }
        case .uuid:
            guard case .string(let text) = value, let uuid = UUIDBytes(string: text) else {
                throw mismatch("is compared with UUID text")
            }
            return .blob(uuid.bytes)
        case .binary, .transformable, .undefined, .objectID, .composite:
            throw mismatch("can only be compared with nil")
        }
    }

    /// A variable's text as a value of `type`: the text itself for strings and URIs (`Null` is
    /// the text `Null`); for numbers an integer or a decimal number; for booleans
    /// YES/NO/TRUE/FALSE (any case) or 1/0; for dates an ISO 8601 date or seconds since
    /// 2001-01-01 UTC; for UUIDs the text (`storeValue` reads it). Nil when the text is none of
    /// those, or the type is compared with nil only.
    static func typed(_ text: String, for type: AttributeType) -> PredicateValue? {
        switch type {
        case .string, .uri, .uuid: return .string(text)
        case .integer16, .integer32, .integer64, .decimal, .double, .float:
            if let number = Int64(text) { return .integer(number) }
            return Double(text).flatMap { $0.isFinite ? .real($0) : nil }
        case .boolean:
            switch text.uppercased() {
            case "YES", "TRUE", "1": return .bool(true)
            case "NO", "FALSE", "0": return .bool(false)
            default: return nil
            }
        case .date:
            if let seconds = Double(text), seconds.isFinite { return .date(seconds) }
            return ISO8601Date.parse(text).map(PredicateValue.date)
        case .binary, .transformable, .undefined, .objectID, .composite: return nil
        }
    }

    /// What `typed` reads for `type`, as a type mismatch says it.
    private static func textExpectation(of type: AttributeType) -> String {
        switch type {
        case .boolean: "takes YES, NO, TRUE, FALSE, 1 or 0"
        case .date: "takes an ISO 8601 date or seconds since 2001-01-01"
        case .integer16, .integer32, .integer64, .decimal, .double, .float: "is compared with numbers"
        default: "can only be compared with nil"
        }
    }

    /// The family of a type for key-to-key comparisons; nil for types that cannot be compared.
    static func family(of type: AttributeType) -> Int? {
        switch type {
        case .integer16, .integer32, .integer64, .decimal, .double, .float, .boolean: 0
        case .date: 1
        case .string, .uri: 2
        case .uuid: 3
        case .binary, .transformable, .undefined, .objectID, .composite: nil
        }
    }
}
