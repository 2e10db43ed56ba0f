/// One token of a predicate or sort string, with the byte offset where it starts.
struct PredicateToken: Equatable {
    enum Kind: Equatable {
        /// A name; `escaped` when written `#name` (never a keyword). `@count` is one too.
        case identifier(String, escaped: Bool)
        case integer(Int64)
        case real(Double)
        case string(String)
        /// `$NAME`, without the `$`.
        case variable(String)
        /// `(` `)` `{` `}` `[` `]` `,` `.`
        case punctuation(UInt8)
        /// A comparison or logical operator in its canonical spelling (`==`, `!=`, `<=`, `>=`,
        /// `<`, `>`, `&&`, `||`, `!`).
        case symbol(String)
        /// A character that starts no token.
        case invalid(String)
        case end
    }

    var kind: Kind
    var offset: Int

    /// How the token reads in an error message.
    var summary: String {
        switch kind {
        case .identifier(let name, let escaped): escaped ? "#\(name)" : name
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .string(let text): "\"\(text)\""
        case .variable(let name): "$\(name)"
        case .punctuation(let byte): "'\(Character(Unicode.Scalar(byte)))'"
        case .symbol(let text): "'\(text)'"
        case .invalid(let text): "'\(text)'"
        case .end: "end of input"
        }
    }

    /// The keyword this token spells (upper-cased), or nil for escaped names and other tokens.
    var keyword: String? {
        guard case .identifier(let name, false) = kind else { return nil }
        let upper = name.uppercased()
        return PredicateKeywords.reserved.contains(upper) ? upper : nil
    }
}

/// Words with a meaning of their own; a key named like one must be written `#name`.
enum PredicateKeywords {
    static let reserved: Set<String> = [
        "AND", "OR", "NOT", "ANY", "SOME", "ALL", "NONE", "IN", "BETWEEN", "BEGINSWITH", "ENDSWITH",
        "CONTAINS", "LIKE", "MATCHES", "NIL", "NULL", "YES", "NO", "TRUE", "FALSE", "TRUEPREDICATE",
        "FALSEPREDICATE", "CAST",
    ]
}
