/// Compiled `MATCHES` patterns of one connection, by pattern and case option.
final class RegexCache {
    private var compiled: [String: Regex<AnyRegexOutput>] = [:]

    /// Whether `pattern` matches the whole of `text`; with `[d]` both are folded first, as `==`,
    /// `BEGINSWITH` and `LIKE` fold both sides (folding the text alone, `MATCHES[d] "café"`
    /// matched nothing, not even "café").
    func matches(_ text: String, pattern: String, options: ComparisonOptions) throws -> Bool {
        let folds = options.contains(.diacriticInsensitive)
        let subject = folds ? StringFolding.fold(text, .diacriticInsensitive) : text
        let expression = folds ? StringFolding.fold(pattern, .diacriticInsensitive) : pattern
        return try subject.wholeMatch(of: regex(expression, caseInsensitive: options.contains(.caseInsensitive))) != nil
    }

    /// The compiled pattern, made on first use. Matching is at Unicode-scalar level, as in ICU.
    func regex(_ pattern: String, caseInsensitive: Bool) throws -> Regex<AnyRegexOutput> {
        let key = (caseInsensitive ? "c:" : "-:") + pattern
        if let regex = compiled[key] { return regex }
        var regex = try Regex(pattern).matchingSemantics(.unicodeScalar)
        if caseInsensitive { regex = regex.ignoresCase() }
        compiled[key] = regex
        return regex
    }
}
