/// The text of a derived attribute's derivation expression in the form Core Data keeps it
/// (coredata-format.md §8 item 5).
///
/// Setting a derivation makes Core Data rewrite a key path that ends in an aggregate into a
/// function: `pages.@count` becomes `count:(pages)`, `pages.@sum` and `pages.@total` become
/// `sum:(pages)`. A model archive (`Z_MODELCACHE`, CoreDataPlus `Book.pagesCount`) already holds
/// the rewritten text, and the version hash is taken over it; an Xcode model or a model built by
/// hand may spell the key path.
public enum DerivationExpression {
    /// The function each trailing key-path aggregate becomes.
    private static let functions: [Substring: String] = ["@count": "count", "@sum": "sum", "@total": "sum"]

    /// `text` as Core Data keeps it: a key path ending in `.@count` as `count:(keypath)`, one ending
    /// in `.@sum` or `.@total` as `sum:(keypath)`. Any other text, the rewritten forms included, is
    /// returned as it is.
    public static func normalized(_ text: String) -> String {
        let components = text.split(separator: ".", omittingEmptySubsequences: false)
        guard components.count > 1, let last = components.last, let function = functions[last],
              components.dropLast().allSatisfy(isKey) else { return text }
        return function + ":(" + components.dropLast().joined(separator: ".") + ")"
    }

    /// The key-path spelling of Xcode's model editor for normalised text: `count:(pages)` as
    /// `pages.@count`, `sum:(pages)` as `pages.@sum`, so that `normalized` gives `text` back. Any
    /// other text is returned as it is.
    public static func keyPathSpelling(_ text: String) -> String {
        for (function, aggregate) in [("count", "@count"), ("sum", "@sum")] {
            let opening = function + ":("
            guard text.hasPrefix(opening), text.hasSuffix(")") else { continue }
            let keyPath = text.dropFirst(opening.count).dropLast()
            let keys = keyPath.split(separator: ".", omittingEmptySubsequences: false)
            guard keys.allSatisfy(isKey) else { return text }
            return keyPath + "." + aggregate
        }
        return text
    }

    /// The key paths of a derivation: runs of letters, digits, `_` and `.` that are not a
    /// function's name (followed by `:` or `(`) nor a number or a quoted string.
    public static func keyPaths(in derivation: String) -> [[Substring]] {
        var paths: [[Substring]] = []
        var quote: Character?
        var index = derivation.startIndex
        while index < derivation.endIndex {
            let character = derivation[index]
            if let open = quote {
                if character == open { quote = nil }
                index = derivation.index(after: index)
                continue
            }
            if character == "\"" || character == "'" {
                quote = character
                index = derivation.index(after: index)
                continue
            }
            guard isKeyCharacter(character) else {
                index = derivation.index(after: index)
                continue
            }
            let end = derivation[index...].firstIndex { !isKeyCharacter($0) && $0 != "." } ?? derivation.endIndex
            let run = derivation[index..<end]
            let next = derivation[end...].first { $0 != " " }
            if next != ":" && next != "(", let first = run.first, !first.isNumber {
                paths.append(run.split(separator: ".", omittingEmptySubsequences: false))
            }
            index = end
        }
        return paths
    }

    private static func isKeyCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }

    /// A key of a key path: letters, digits and underscores, not starting with a digit.
    private static func isKey(_ component: Substring) -> Bool {
        guard let first = component.unicodeScalars.first, first.properties.numericType == nil else { return false }
        return component.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || $0.properties.numericType != nil || $0 == "_" }
    }
}
