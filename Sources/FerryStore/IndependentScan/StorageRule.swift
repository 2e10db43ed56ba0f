import FerryModel

/// What a stored value of an attribute type (or of `Z_OPT`) must look like: the storage classes
/// Core Data writes for it (or that the column's affinity turns them into), each with an extra
/// condition (an integer range, a blob length), and whether NULL fits (it does for every
/// attribute). One description, read two ways: as an SQL predicate (to find sample rows) and
/// against a result column (to count rows in one pass).
/// A trivial value (no references), so reading it per row costs no reference counting.
public struct StorageRule: Sendable {
    /// A storage class that fits, and what its value must also satisfy.
    struct Allowed: Sendable {
        let storageClass: StorageClass
        /// The storage class as `typeof()` names it.
        let name: StaticString
        let extra: Extra
    }

    enum Extra: Sendable {
        case none
        case range(ClosedRange<Int64>)
        case length(Int)
        /// An integer that a double holds exactly (`1e18` is one, `9007199254740993` is not).
        case exactInDouble
    }

    /// One or two storage classes.
    let first: Allowed
    let second: Allowed?
    var allowed: [Allowed] { [first] + (second.map { [$0] } ?? []) }
    /// Whether NULL fits: an attribute may be nil, a row's `Z_OPT` may not.
    let allowsNull: Bool

    private init(_ first: Allowed, _ second: Allowed? = nil, allowsNull: Bool = true) {
        (self.first, self.second, self.allowsNull) = (first, second, allowsNull)
    }

    /// `Z_OPT`, Core Data's optimistic-lock version of a row: an integer, 1 after the object's
    /// first save and one more on each update. Every row of every real store holds one from 1
    /// up; NULL, 0, negative numbers, reals and text are no version Core Data writes.
    public static let optimisticLockVersion = StorageRule(Allowed(storageClass: .integer, name: "integer", extra: .range(1...Int64.max)),
                                                          allowsNull: false)

    /// The rule of a type; nil for types without a column.
    public init?(_ type: AttributeType) {
        let integer = { (extra: Extra) in Allowed(storageClass: .integer, name: "integer", extra: extra) }
        switch type {
        case .integer16, .integer32:
            guard let range = type.integerRange else { return nil }
            self.init(integer(.range(range)))
        case .integer64: self.init(integer(.none))
        case .boolean: self.init(integer(.range(0...1)))
        // TIMESTAMP and DECIMAL columns have numeric affinity: integral reals are kept as integers.
        // Core Data reads these attributes as doubles, so an integer no double holds (past 2^53,
        // not a multiple of the double's spacing there) would read back as another number (a
        // restore refuses it, as import does).
        case .date, .decimal, .double, .float:
            self.init(Allowed(storageClass: .real, name: "real", extra: .none), integer(.exactInDouble))
        case .string, .uri: self.init(Allowed(storageClass: .text, name: "text", extra: .none))
        case .binary, .transformable: self.init(Allowed(storageClass: .blob, name: "blob", extra: .none))
        case .uuid: self.init(Allowed(storageClass: .blob, name: "blob", extra: .length(16)))
        case .undefined, .objectID, .composite: return nil
        }
    }

    /// An SQL predicate, true when `value` breaks the rule: one `CASE typeof(…)` with the extra
    /// condition inside its branch, so each value is classified once.
    func violationSQL(_ value: String) -> String {
        let branches = allowed.map { allowed in
            let otherwise = switch allowed.extra {
            case .none: "0"
            case .range(let range): "\(value) NOT BETWEEN \(range.lowerBound) AND \(range.upperBound)"
            case .length(let length): "length(\(value)) <> \(length)"
            // SQLite compares an integer with a real exactly.
            case .exactInDouble: "CAST(\(value) AS REAL) <> \(value)"
            }
            return "WHEN '\(allowed.name)' THEN \(otherwise) "
        }
        return "CASE typeof(\(value)) \(branches.joined())WHEN 'null' THEN \(allowsNull ? 0 : 1) ELSE 1 END"
    }

    /// Whether the value in `column` of a scanned row breaks the rule.
    func isBroken<Row: ScannedRow>(by row: Row, at column: Int32) -> Bool {
        let storageClass = row.storageClass(at: column)
        guard storageClass != .null else { return !allowsNull }
        let fitting: Allowed
        if first.storageClass == storageClass {
            fitting = first
        } else if let second, second.storageClass == storageClass {
            fitting = second
        } else {
            return true
        }
        switch fitting.extra {
        case .none: return false
        case .range(let range): return !range.contains(row.int64(at: column))
        case .length(let length): return row.blobLength(at: column) != length
        case .exactInDouble:
            let integer = row.int64(at: column)
            return Int64(exactly: Double(integer)) != integer
        }
    }
}
