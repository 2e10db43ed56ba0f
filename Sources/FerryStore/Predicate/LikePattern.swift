/// A `LIKE` pattern as `NSPredicate` reads it: `*` matches any run of characters, `?` exactly one,
/// and a backslash makes the character after it literal (`\*` a star, `\?` a question mark, `\\`
/// a backslash, `\a` an `a`); every other character, `%`, `_` and `[` among them, is itself.
/// A character is a Unicode scalar, as SQLite's `GLOB` counts them. A pattern that ends in a
/// backslash escapes nothing and is refused.
///
/// The one reading of a pattern: the SQL compiler writes it as a `GLOB` pattern
/// (`globPattern`), the in-memory evaluator matches it (`matches`), so the two select the same
/// text. `[c]` and `[d]` fold the literal characters (`StringFolding`) once the pattern is read,
/// never the wildcards or the escapes, as the text is folded.
struct LikePattern: Sendable {
    enum Element: Sendable, Equatable {
        /// `*`: any run of characters, the empty one too.
        case anyRun
        /// `?`: one character.
        case one
        /// A character that matches itself only.
        case literal(Unicode.Scalar)
    }

    let elements: [Element]

    /// Reads `pattern`, folding its literal characters as `options` ask.
    /// - Throws: `FetchPredicateError.invalidLikePattern` when the pattern ends in a lone backslash.
    init(_ pattern: String, options: ComparisonOptions) throws(FetchPredicateError) {
        var elements: [Element] = []
        var literals = String.UnicodeScalarView()
        func flush() {
            guard !literals.isEmpty else { return }
            let folded = options.isEmpty ? String(literals) : StringFolding.fold(String(literals), options)
            elements += folded.unicodeScalars.map(Element.literal)
            literals.removeAll()
        }
        var scalars = pattern.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            switch scalar {
            case "*", "?":
                flush()
                elements.append(scalar == "*" ? .anyRun : .one)
            case "\\":
                guard let escaped = scalars.next() else {
                    throw .invalidLikePattern(pattern: pattern,
                                              reason: "it ends in a backslash, which escapes nothing (a pattern matches a backslash with two, "
                                                  + "written \"\\\\\\\\\" in a quoted predicate string)")
                }
                literals.append(escaped)
            default:
                literals.append(scalar)
            }
        }
        flush()
        self.elements = elements
    }

    /// The pattern in SQLite's `GLOB` syntax, which knows `*`, `?` and `[…]`: a literal `*`, `?`
    /// or `[` becomes a class of itself (`[*]`, `[?]`, `[[]`); `%`, `_`, `]` and `\` mean nothing
    /// to `GLOB`.
    var globPattern: String {
        var result = String.UnicodeScalarView()
        for element in elements {
            switch element {
            case .anyRun: result.append("*")
            case .one: result.append("?")
            case .literal(let scalar) where scalar == "*" || scalar == "?" || scalar == "[":
                result.append(contentsOf: ["[", scalar, "]"])
            case .literal(let scalar): result.append(scalar)
            }
        }
        return String(result)
    }

    /// Whether `text` (folded as the pattern was) matches the whole pattern; iterative, with
    /// backtracking to the last `*`.
    func matches(_ text: String) -> Bool {
        let text = Array(text.unicodeScalars)
        var t = 0, p = 0
        var star: Int?, resume = 0
        while t < text.count {
            if p < elements.count, elements[p] != .anyRun, elements[p] == .one || elements[p] == .literal(text[t]) {
                t += 1
                p += 1
            } else if p < elements.count, elements[p] == .anyRun {
                star = p
                p += 1
                resume = t
            } else if let starAt = star {
                p = starAt + 1
                resume += 1
                t = resume
            } else {
                return false
            }
        }
        while p < elements.count, elements[p] == .anyRun { p += 1 }
        return p == elements.count
    }
}
