import FerryFormats

/// Builds an `NSKeyedArchiver` archive object by object: `$objects[0]` is `$null`, class
/// descriptions and strings are shared, and objects that take part in cycles are reserved first
/// and filled in later. `encoded(root:)` writes the binary plist.
struct KeyedArchiveBuilder {
    private(set) var objects: [PropertyListValue] = [.string("$null")]
    private var classUIDs: [String: UInt64] = [:]
    private var stringUIDs: [String: UInt64] = [:]

    /// The nil reference.
    static let null = PropertyListValue.uid(0)

    /// Superclass chains (most-derived first) of the classes the model encoder writes; any other
    /// class is written as a direct subclass of NSObject.
    private static let superclasses: [String: [String]] = [
        "NSMutableDictionary": ["NSDictionary"], "NSMutableArray": ["NSArray"], "NSMutableSet": ["NSSet"],
        "NSAttributeDescription": ["NSPropertyDescription"],
        "NSDerivedAttributeDescription": ["NSAttributeDescription", "NSPropertyDescription"],
        "NSRelationshipDescription": ["NSPropertyDescription"], "NSFetchedPropertyDescription": ["NSPropertyDescription"],
        "NSKnownKeysDictionary1": ["NSDictionary"],
        "NSComparisonPredicate": ["NSPredicate"], "NSCompoundPredicate": ["NSPredicate"],
        "NSTruePredicate": ["NSPredicate"], "NSFalsePredicate": ["NSPredicate"],
        "NSConstantValueExpression": ["NSExpression"], "NSSelfExpression": ["NSExpression"],
        "NSVariableExpression": ["NSExpression"], "NSKeyPathExpression": ["NSFunctionExpression", "NSExpression"],
        "NSFunctionExpression": ["NSExpression"], "NSKeyPathSpecifierExpression": ["NSExpression"],
        "NSEqualityPredicateOperator": ["NSPredicateOperator"], "NSComparisonPredicateOperator": ["NSPredicateOperator"],
        "NSInPredicateOperator": ["NSPredicateOperator"],
    ]

    /// Reserves a slot for an object that others reference before it is filled.
    mutating func reserve() -> UInt64 {
        objects.append(.string("$null"))
        return UInt64(objects.count - 1)
    }

    /// Fills a reserved slot with an instance of `className`.
    mutating func fill(_ uid: UInt64, className: String, fields: [String: PropertyListValue]) {
        var instance = fields
        instance["$class"] = classReference(className)
        objects[Int(uid)] = .dictionary(instance)
    }

    /// Appends an instance and returns its reference.
    mutating func add(_ className: String, _ fields: [String: PropertyListValue]) -> PropertyListValue {
        let uid = reserve()
        fill(uid, className: className, fields: fields)
        return .uid(uid)
    }

    /// A bare string, shared by value; nil gives `$null`.
    mutating func string(_ text: String?) -> PropertyListValue {
        guard let text else { return Self.null }
        if let known = stringUIDs[text] { return .uid(known) }
        objects.append(.string(text))
        stringUIDs[text] = UInt64(objects.count - 1)
        return .uid(UInt64(objects.count - 1))
    }

    /// A bare scalar (NSNumber, NSData).
    mutating func scalar(_ value: PropertyListValue) -> PropertyListValue {
        objects.append(value)
        return .uid(UInt64(objects.count - 1))
    }

    /// An NSArray-family or NSSet-family instance.
    mutating func collection(_ members: [PropertyListValue], className: String = "NSArray") -> PropertyListValue {
        add(className, ["NS.objects": .array(members)])
    }

    /// An NSDictionary-family instance with pairwise keys and values.
    mutating func dictionary(_ entries: [(key: PropertyListValue, value: PropertyListValue)],
                             className: String = "NSDictionary") -> PropertyListValue {
        add(className, ["NS.keys": .array(entries.map(\.key)), "NS.objects": .array(entries.map(\.value))])
    }

    /// A string-to-string dictionary (userInfo), keys in byte order.
    mutating func stringDictionary(_ values: [String: String], className: String = "NSDictionary") -> PropertyListValue {
        let sorted = values.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        let entries = sorted.map { entry in (key: string(entry.key), value: string(entry.value)) }
        return dictionary(entries, className: className)
    }

    /// The binary plist of the archive with `root` as `$top.root`.
    func encoded(root: UInt64) throws(PropertyListError) -> [UInt8] {
        try BinaryPropertyListWriter().encode(.dictionary([
            "$archiver": .string("NSKeyedArchiver"), "$version": .integer(100_000),
            "$top": .dictionary(["root": .uid(root)]), "$objects": .array(objects),
        ]))
    }

    private mutating func classReference(_ className: String) -> PropertyListValue {
        if let known = classUIDs[className] { return .uid(known) }
        let chain = [className] + (Self.superclasses[className] ?? []) + ["NSObject"]
        objects.append(.dictionary(["$classname": .string(className), "$classes": .array(chain.map { .string($0) })]))
        classUIDs[className] = UInt64(objects.count - 1)
        return .uid(UInt64(objects.count - 1))
    }
}
