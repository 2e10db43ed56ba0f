import FerryFormats

/// A Foundation value decoded from a keyed archive. Instances of other classes stay opaque: their
/// class name and index, whose fields `KeyedArchive.object(at:keyPath:)` reads on demand.
public indirect enum ArchivedValue: Sendable, Equatable {
    case null
    case string(String)
    case integer(Int128)
    case real(Double)
    case bool(Bool)
    case data([UInt8])
    /// NSDate: seconds since 2001-01-01 00:00:00 UTC.
    case date(Double)
    /// NSUUID: 16 bytes.
    case uuid([UInt8])
    case array([ArchivedValue])
    case set([ArchivedValue])
    /// NSDictionary-family entries in archive order (hash order: do not rely on it).
    case dictionary([Entry])
    /// An instance of a class this reader does not interpret.
    case opaque(className: String, index: Int)

    /// One dictionary entry.
    public struct Entry: Sendable, Equatable {
        public var key: ArchivedValue
        public var value: ArchivedValue
        public init(key: ArchivedValue, value: ArchivedValue) {
            self.key = key
            self.value = value
        }
    }
}

extension KeyedArchive {
    /// Decodes the value at an index, following collections. An object met again while it is
    /// still being decoded is a cycle and fails; shared objects (the same UID in two places) are
    /// fine, each reference counting against `maxVisits`.
    public func value(at index: Int, keyPath: String) throws(KeyedArchiveError) -> ArchivedValue {
        var budget = ArchiveWalkBudget(limit: maxVisits)
        return try value(at: index, keyPath: keyPath, budget: &budget)
    }

    /// Decodes the value at an index as part of a longer walk, whose visits `budget` counts.
    func value(at index: Int, keyPath: String, budget: inout ArchiveWalkBudget) throws(KeyedArchiveError) -> ArchivedValue {
        var walk = Walk(budget: budget)
        defer { budget = walk.budget }
        return try value(at: index, keyPath: keyPath, walk: &walk)
    }

    /// The state of one `value(at:keyPath:)` walk: the objects being decoded and the visits so far.
    private struct Walk {
        var budget: ArchiveWalkBudget
        var inProgress = Set<Int>()
    }

    /// Decodes the value a field of an object references (`.null` when absent or `$null`).
    public func value(of object: ArchivedObject, key: String) throws(KeyedArchiveError) -> ArchivedValue {
        guard let target = try object.reference(key) else { return .null }
        return try value(at: target, keyPath: object.path(key))
    }

    private func value(at index: Int, keyPath: String, walk: inout Walk) throws(KeyedArchiveError) -> ArchivedValue {
        try walk.budget.visit(keyPath: keyPath)
        switch objects[index] {
        case .string(let text): return index == 0 ? .null : .string(text)
        case .integer(let value): return .integer(value)
        case .real(let value): return .real(value)
        case .bool(let value): return .bool(value)
        case .data(let bytes): return .data(bytes)
        case .date(let seconds): return .date(seconds)
        case .dictionary: break
        case let other: throw .unexpectedType(expected: "an archived value", found: other.kindName, keyPath: keyPath)
        }
        guard walk.inProgress.count < maxDepth else { throw .tooDeep(limit: maxDepth, keyPath: keyPath) }
        guard walk.inProgress.insert(index).inserted else { throw .cycle(object: index, keyPath: keyPath) }
        defer { walk.inProgress.remove(index) }
        let object = try object(at: index, keyPath: keyPath)
        switch object.className {
        case "NSString", "NSMutableString":
            return .string(try string(at: index, keyPath: keyPath))
        case "NSArray", "NSMutableArray", "NSOrderedSet", "NSMutableOrderedSet":
            return .array(try members(of: object, walk: &walk))
        case "NSSet", "NSMutableSet":
            return .set(try members(of: object, walk: &walk))
        case "NSDictionary", "NSMutableDictionary", "NSKnownKeysDictionary1":
            let (keys, values) = try object.ownKeysAndValues()
            var entries: [ArchivedValue.Entry] = []
            for (offset, keyIndex) in keys.enumerated() {
                let key = try value(at: keyIndex, keyPath: keyPath + ".key[\(offset)]", walk: &walk)
                let item = try value(at: values[offset], keyPath: keyPath + "[\(offset)]", walk: &walk)
                entries.append(ArchivedValue.Entry(key: key, value: item))
            }
            return .dictionary(entries)
        case "NSData", "NSMutableData":
            guard case .data(let bytes)? = object.fields["NS.data"] else {
                throw .unexpectedType(expected: "NS.data bytes", found: object.className, keyPath: keyPath)
            }
            return .data(bytes)
        case "NSDate":
            guard let seconds = try object.real("NS.time") else {
                throw .unexpectedType(expected: "NS.time", found: "nothing", keyPath: keyPath)
            }
            return .date(seconds)
        case "NSUUID":
            guard case .data(let bytes)? = object.fields["NS.uuidbytes"], bytes.count == 16 else {
                throw .unexpectedType(expected: "16 NS.uuidbytes", found: object.className, keyPath: keyPath)
            }
            return .uuid(bytes)
        default:
            return .opaque(className: object.className, index: index)
        }
    }

    private func members(of object: ArchivedObject, walk: inout Walk) throws(KeyedArchiveError) -> [ArchivedValue] {
        var result: [ArchivedValue] = []
        for (offset, member) in try object.ownElements().enumerated() {
            result.append(try value(at: member, keyPath: object.keyPath + "[\(offset)]", walk: &walk))
        }
        return result
    }
}
