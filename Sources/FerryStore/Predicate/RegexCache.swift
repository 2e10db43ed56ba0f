/// Compiled `MATCHES` patterns of one connection, by pattern and case option.
final class RegexCache {
    private var compiled: [String: Regex<AnyRegexOutput>] = [:]

    /// Whether `pattern` matches the whole of `text` (after `[d]` folding of the text).
    func matches(_ text: String, pattern: String, options: ComparisonOptions) throws -> Bool {
        let subject = options.contains(.diacriticInsensitive) ? StringFolding.fold(text, .diacriticInsensitive) : text
        return try subject.wholeMatch(of: regex(pattern, caseInsensitive: options.contains(.caseInsensitive))) != nil
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
