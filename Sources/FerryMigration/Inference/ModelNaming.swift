/// Names of a model made from data: keys become attribute and relationship names Xcode accepts
/// (an ASCII identifier starting with a lower-case letter, not a name of `NSManagedObject`), and
/// relationship keys become entity names (`attachments` → `Attachment`).
public enum ModelNaming {
    /// Names `NSManagedObject` or `NSObject` already use, which Xcode refuses for a property.
    static let reserved: Set<String> = [
        "description", "entity", "objectID", "hash", "class", "superclass", "self", "isDeleted", "isInserted",
        "isUpdated", "isFault", "managedObjectContext", "changedValues", "faultingState", "hasChanges", "debugDescription",
    ]

    /// The property name for a key: its ASCII letters and digits in camel case (`File Name` →
    /// `fileName`, `URLPath` → `urlPath`, `2nd` → `field2nd`), `Value` appended to a reserved name.
    public static func propertyName(forKey key: String) -> String {
        let words = words(of: key)
        guard let first = words.first else { return "field" }
        var name = lowerFirstWord(first) + words.dropFirst().map(upperFirst).joined()
        if let initial = name.unicodeScalars.first, !("a"..."z").contains(initial) { name = "field" + upperFirst(name) }
        return reserved.contains(name) ? name + "Value" : name
    }

    /// Whether a key can be kept as a renaming identifier in Xcode's XML: no control characters
    /// (XML 1.0 cannot hold most, and reading normalizes line breaks and tabs in attributes to
    /// spaces) and no U+FFFE or U+FFFF.
    public static func isKeepable(_ key: String) -> Bool {
        !key.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0.value == 0xFFFE || $0.value == 0xFFFF }
    }

    /// The entity name for a relationship key: camel case, upper-case first letter, last word
    /// made singular (`tags` → `Tag`, `categories` → `Category`, `line_items` → `LineItem`).
    public static func entityName(forKey key: String) -> String {
        var words = words(of: key)
        guard let last = words.popLast() else { return "Item" }
        words.append(singular(last))
        let name = words.map(upperFirst).joined()
        return name.unicodeScalars.first.map { ("A"..."Z").contains($0) } == true ? name : "Item" + name
    }

    /// A simple English plural, for the inverse of a many-to-many relationship (`Task` → `tasks`).
    public static func plural(_ word: String) -> String {
        if word.hasSuffix("y"), let before = word.dropLast().last, !"aeiou".contains(before) { return word.dropLast() + "ies" }
        if ["s", "x", "ch", "sh"].contains(where: word.hasSuffix) { return word + "es" }
        return word + "s"
    }

    /// The name with a lower-case first letter (`Task` → `task`).
    public static func lowerFirst(_ name: String) -> String {
        guard let first = name.first else { return name }
        return first.lowercased() + name.dropFirst()
    }

    /// `name`, or `name2`, `name3`… if `taken` holds it (compared ignoring case, as keys are matched).
    public static func unused(_ name: String, in taken: Set<String>) -> String {
        let folded = Set(taken.map { $0.lowercased() })
        guard folded.contains(name.lowercased()) else { return name }
        var number = 2
        while folded.contains("\(name)\(number)".lowercased()) { number += 1 }
        return "\(name)\(number)"
    }

    /// The runs of ASCII letters and digits of a key, split at other characters and where a
    /// lower-case letter meets an upper-case one.
    static func words(of key: String) -> [String] {
        var words: [String] = []
        var current = ""
        var previous: Unicode.Scalar?
        for scalar in key.unicodeScalars {
            let isAlphanumeric = scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))
            guard isAlphanumeric else {
                if !current.isEmpty { words.append(current) }
                current = ""
                previous = nil
                continue
            }
            if let previous, ("a"..."z").contains(previous) || ("0"..."9").contains(previous), ("A"..."Z").contains(scalar), !current.isEmpty {
                words.append(current)
                current = ""
            }
            current.unicodeScalars.append(scalar)
            previous = scalar
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// The first word in lower case as far as its leading capitals go (`URLPath` → `urlPath`,
    /// `ID` → `id`, `File` → `file`).
    private static func lowerFirstWord(_ word: String) -> String {
        let scalars = Array(word.unicodeScalars)
        let capitals = scalars.prefix { ("A"..."Z").contains($0) }.count
        guard capitals > 0 else { return word }
        // In `URLPath` the capital before the first lower-case letter starts the next word.
        let lowered = capitals == scalars.count || capitals == 1 ? capitals : capitals - 1
        var result = String(String.UnicodeScalarView(scalars[..<lowered])).lowercased()
        result.unicodeScalars.append(contentsOf: scalars[lowered...])
        return result
    }

    private static func upperFirst(_ word: String) -> String {
        guard let first = word.first else { return word }
        return first.uppercased() + word.dropFirst()
    }

    private static func singular(_ word: String) -> String {
        let lower = word.lowercased()
        if lower.hasSuffix("ies"), word.count > 3 { return word.dropLast(3) + "y" }
        if ["sses", "xes", "ches", "shes"].contains(where: lower.hasSuffix) { return String(word.dropLast(2)) }
        if lower.hasSuffix("s"), !["ss", "us", "is"].contains(where: lower.hasSuffix), word.count > 1 { return String(word.dropLast()) }
        return word
    }
}
