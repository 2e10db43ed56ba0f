import FerryFormats

/// One instance in a keyed archive (`{$class: UID, field: value, …}`), with typed field access.
///
/// Fields are either inline scalars (`encodeInt`/`encodeBool`/`encodeDouble`) or UIDs of other
/// objects. Accessors check the kind and report the key path on a mismatch. Object references are
/// returned as indexes, never followed recursively, so back- and cross-references cannot loop.
public struct ArchivedObject: Sendable {
    public let archive: KeyedArchive
    /// The object's index in `$objects`.
    public let index: Int
    /// `$classname` of its class description.
    public let className: String
    /// The raw fields, `$class` included.
    public let fields: [String: PropertyListValue]
    /// How the decoder reached this object, for error messages.
    public let keyPath: String

    /// The key path of one of this object's fields.
    public func path(_ key: String) -> String { keyPath + "." + key }

    /// The index of the object a field references; nil when the field is absent or `$null`.
    public func reference(_ key: String) throws(KeyedArchiveError) -> Int? {
        guard let value = fields[key] else { return nil }
        guard case .uid(let uid) = value else {
            throw .unexpectedType(expected: "a UID", found: value.kindName, keyPath: path(key))
        }
        return try archive.index(of: uid, keyPath: path(key))
    }

    /// The instance a field references; nil when absent or `$null`.
    public func object(_ key: String) throws(KeyedArchiveError) -> ArchivedObject? {
        guard let target = try reference(key) else { return nil }
        return try archive.object(at: target, keyPath: path(key))
    }

    /// The string a field references; nil when absent or `$null`.
    public func string(_ key: String) throws(KeyedArchiveError) -> String? {
        guard let target = try reference(key) else { return nil }
        return try archive.string(at: target, keyPath: path(key))
    }

    /// An inline boolean flag; absent means NO. Integers 0/1 are accepted too.
    public func flag(_ key: String) throws(KeyedArchiveError) -> Bool {
        switch fields[key] {
        case nil: return false
        case .bool(let value)?: return value
        case .integer(let value)?: return value != 0
        case let other?: throw .unexpectedType(expected: "an inline boolean", found: other.kindName, keyPath: path(key))
        }
    }

    /// An inline integer; nil when absent. Fails when it does not fit `Int`.
    public func integer(_ key: String) throws(KeyedArchiveError) -> Int? {
        switch fields[key] {
        case nil: return nil
        case .integer(let value)?:
            guard let fitting = Int(exactly: value) else {
                throw .unexpectedType(expected: "an integer that fits 64 bits", found: "\(value)", keyPath: path(key))
            }
            return fitting
        case .bool(let value)?: return value ? 1 : 0
        case let other?: throw .unexpectedType(expected: "an inline integer", found: other.kindName, keyPath: path(key))
        }
    }

    /// An inline real (integers accepted); nil when absent.
    public func real(_ key: String) throws(KeyedArchiveError) -> Double? {
        switch fields[key] {
        case nil: return nil
        case .real(let value)?: return value
        case .integer(let value)?: return Double(value)
        case let other?: throw .unexpectedType(expected: "an inline real", found: other.kindName, keyPath: path(key))
        }
    }

    /// The element indexes of the NSArray/NSSet (mutable or not, or NSOrderedSet) a field
    /// references; empty when the field is absent or `$null`.
    public func elements(_ key: String) throws(KeyedArchiveError) -> [Int] {
        guard let collection = try object(key) else { return [] }
        return try collection.ownElements()
    }

    /// The element indexes of this collection object (`NS.objects`).
    public func ownElements() throws(KeyedArchiveError) -> [Int] {
        guard case .array(let items)? = fields["NS.objects"] else {
            throw .unexpectedType(expected: "a collection with NS.objects", found: className, keyPath: keyPath)
        }
        return try indexes(items, keyPath: path("NS.objects"))
    }

    /// The string-keyed entries of the dictionary a field references (NSDictionary,
    /// NSMutableDictionary or NSKnownKeysDictionary1), in archive order; empty when absent or `$null`.
    public func entries(_ key: String) throws(KeyedArchiveError) -> [(key: String, value: Int)] {
        guard let dictionary = try object(key) else { return [] }
        return try dictionary.ownEntries()
    }

    /// The string-keyed entries of this dictionary object.
    public func ownEntries() throws(KeyedArchiveError) -> [(key: String, value: Int)] {
        let (keys, values) = try ownKeysAndValues()
        var entries: [(key: String, value: Int)] = []
        entries.reserveCapacity(keys.count)
        for (offset, keyIndex) in keys.enumerated() {
            entries.append((try archive.string(at: keyIndex, keyPath: keyPath + ".key[\(offset)]"), values[offset]))
        }
        return entries
    }

    /// Key and value indexes of this dictionary object, pairwise, in archive order.
    public func ownKeysAndValues() throws(KeyedArchiveError) -> (keys: [Int], values: [Int]) {
        let keys: [Int], values: [Int]
        if className == "NSKnownKeysDictionary1" {
            guard let mapping = try object("searchMapping") else {
                throw .unexpectedType(expected: "a searchMapping", found: "$null", keyPath: path("searchMapping"))
            }
            keys = try mapping.elements("keys")
            values = try elements("values")
            if let length = try mapping.integer("length"), length != keys.count {
                throw .countMismatch(keys: keys.count, values: length, keyPath: mapping.path("length"))
            }
        } else {
            guard case .array(let keyItems)? = fields["NS.keys"], case .array(let valueItems)? = fields["NS.objects"] else {
                throw .unexpectedType(expected: "a dictionary with NS.keys and NS.objects", found: className, keyPath: keyPath)
            }
            keys = try indexes(keyItems, keyPath: path("NS.keys"))
            values = try indexes(valueItems, keyPath: path("NS.objects"))
        }
        guard keys.count == values.count else { throw .countMismatch(keys: keys.count, values: values.count, keyPath: keyPath) }
        return (keys, values)
    }

    /// Bounds-checked indexes of an array of UIDs; `$null` members are rejected.
    private func indexes(_ items: [PropertyListValue], keyPath: String) throws(KeyedArchiveError) -> [Int] {
        var result: [Int] = []
        result.reserveCapacity(items.count)
        for (offset, item) in items.enumerated() {
            guard case .uid(let uid) = item, let target = try archive.index(of: uid, keyPath: keyPath + "[\(offset)]") else {
                throw .unexpectedType(expected: "a non-null UID", found: item.kindName, keyPath: keyPath + "[\(offset)]")
            }
            result.append(target)
        }
        return result
    }
}
