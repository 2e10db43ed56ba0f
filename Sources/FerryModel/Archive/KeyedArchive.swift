import FerryFormats

/// An `NSKeyedArchiver` archive, read generically: its `$objects` table and root object, with
/// lookups by UID. Nothing is decoded eagerly: callers walk the graph object by object
/// (`ArchivedObject`), or decode Foundation values (`value(at:keyPath:)`) with cycle detection.
///
/// UID 0 is `$null` (nil) everywhere.
public struct KeyedArchive: Sendable {
    /// The `$objects` table; a UID is an index into it.
    public let objects: [PropertyListValue]
    /// The index of `$top.root`.
    public let rootIndex: Int
    /// How deep `value(at:keyPath:)` nests before it gives up.
    public var maxDepth = 256
    /// The most objects one walk of the graph (`value(at:keyPath:)`, a predicate's text) visits,
    /// counting a shared object once per reference to it. The default is the number of objects
    /// plus the number of UIDs in the archive, and at least 1,024: a walk that meets no shared
    /// collection follows each UID at most once, so only graphs that share collections within one
    /// value go past it.
    public var maxVisits: Int

    /// Reads an archive from binary or XML property-list bytes.
    public init(bytes: [UInt8]) throws(KeyedArchiveError) {
        let plist: PropertyListValue
        do { plist = try PropertyList.decode(bytes) } catch { throw .propertyList(error) }
        try self.init(propertyList: plist)
    }

    /// Reads an archive from a decoded property list; checks the container rules.
    public init(propertyList: PropertyListValue) throws(KeyedArchiveError) {
        guard case .dictionary(let top) = propertyList else { throw .notAKeyedArchive(reason: "the root is not a dictionary") }
        guard case .string("NSKeyedArchiver")? = top["$archiver"] else {
            throw .notAKeyedArchive(reason: "$archiver is not \"NSKeyedArchiver\"")
        }
        guard case .integer(100_000)? = top["$version"] else { throw .notAKeyedArchive(reason: "$version is not 100000") }
        guard case .array(let objects)? = top["$objects"], !objects.isEmpty else {
            throw .notAKeyedArchive(reason: "$objects is missing or empty")
        }
        guard case .string("$null") = objects[0] else { throw .notAKeyedArchive(reason: "$objects[0] is not \"$null\"") }
        guard case .dictionary(let roots)? = top["$top"], case .uid(let root)? = roots["root"] else {
            throw .notAKeyedArchive(reason: "$top has no root UID")
        }
        guard root > 0, root < UInt64(objects.count) else {
            throw .uidOutOfRange(uid: root, count: objects.count, keyPath: "$top.root")
        }
        self.objects = objects
        self.rootIndex = Int(root)
        maxVisits = max(1024, objects.count + objects.reduce(0) { $0 + Self.uidCount(in: $1) })
    }

    /// The UIDs an entry of `$objects` holds: in its fields and in arrays among them.
    private static func uidCount(in object: PropertyListValue) -> Int {
        guard case .dictionary(let fields) = object else { return 0 }
        return fields.values.reduce(0) { count, field in
            switch field {
            case .uid: count + 1
            case .array(let items): count + items.count(where: { if case .uid = $0 { true } else { false } })
            default: count
            }
        }
    }

    /// The root object.
    public func root() throws(KeyedArchiveError) -> ArchivedObject {
        try object(at: rootIndex, keyPath: "$top.root")
    }

    /// The index a UID names, after a bounds check; nil for UID 0 (`$null`).
    public func index(of uid: UInt64, keyPath: String) throws(KeyedArchiveError) -> Int? {
        guard uid < UInt64(objects.count) else { throw .uidOutOfRange(uid: uid, count: objects.count, keyPath: keyPath) }
        return uid == 0 ? nil : Int(uid)
    }

    /// The class name of an instance, or nil when the entry is a bare plist scalar (NSString,
    /// NSNumber, NSData written directly).
    public func className(at index: Int, keyPath: String) throws(KeyedArchiveError) -> String? {
        guard case .dictionary(let fields) = objects[index], let reference = fields["$class"] else { return nil }
        guard case .uid(let uid) = reference, let classIndex = try self.index(of: uid, keyPath: keyPath + ".$class"),
              case .dictionary(let description) = objects[classIndex], case .string(let name)? = description["$classname"] else {
            throw .badClassDescription(object: index, keyPath: keyPath + ".$class")
        }
        return name
    }

    /// The instance at an index. Fails when the entry is a bare scalar or a class description.
    public func object(at index: Int, keyPath: String) throws(KeyedArchiveError) -> ArchivedObject {
        guard let className = try className(at: index, keyPath: keyPath), case .dictionary(let fields) = objects[index] else {
            throw .unexpectedType(expected: "an archived object", found: objects[index].kindName, keyPath: keyPath)
        }
        return ArchivedObject(archive: self, index: index, className: className, fields: fields, keyPath: keyPath)
    }

    /// The string at an index: a bare plist string, or an NSString/NSMutableString instance
    /// (`NS.string`, or UTF-8 `NS.bytes`).
    public func string(at index: Int, keyPath: String) throws(KeyedArchiveError) -> String {
        if case .string(let text) = objects[index] { return text }
        let object = try object(at: index, keyPath: keyPath)
        switch object.fields["NS.string"] ?? object.fields["NS.bytes"] {
        case .string(let text)?: return text
        case .data(let bytes)?:
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw .unexpectedType(expected: "UTF-8 text", found: "invalid UTF-8", keyPath: keyPath + ".NS.bytes")
            }
            return text
        default:
            throw .unexpectedType(expected: "a string", found: object.className, keyPath: keyPath)
        }
    }
}
