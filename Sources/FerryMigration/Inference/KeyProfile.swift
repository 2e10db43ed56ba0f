/// Everything seen under one key of an entity's records: its scalar values, whether they are
/// unique, and the nested objects and arrays that make it a relationship.
public final class KeyProfile {
    /// The key as the source spells it.
    public let key: String
    /// Records that held the key with a value (empty fields included).
    public private(set) var present = 0
    /// Values held directly (not in an array).
    public private(set) var scalars: ValueEvidence
    /// Values inside arrays: each the one attribute of a destination record of its own.
    public private(set) var elements: ValueEvidence
    /// Whether the scalar values are unique and never blank.
    public private(set) var distinct: DistinctValues
    /// The nested objects, directly or in arrays, as records of one destination entity.
    public private(set) var objects: EntityProfile?
    /// Arrays seen (of values, objects or nothing).
    public private(set) var arrays = 0
    /// Arrays that held both objects and values, or arrays: no import reads them.
    public private(set) var unreadableArrays = 0
    /// A keyed archive's object references (binary plist UIDs), directly or in arrays: no
    /// attribute's value, so no import reads them.
    public private(set) var archiveReferences = 0

    init(key: String, options: CoercionOptions, budget: DistinctValueBudget, depth: Int) {
        self.key = key
        scalars = ValueEvidence(options: options)
        elements = ValueEvidence(options: options)
        distinct = DistinctValues(budget: budget)
        self.depth = depth
        self.options = options
        self.budget = budget
    }

    private let depth: Int
    private let options: CoercionOptions
    private let budget: DistinctValueBudget

    /// Notes the key's value in one record.
    func observe(_ value: ObservedValue) {
        guard value != .missing, value != .value(.null) else { return distinct.observe(.missing) }
        present += 1
        guard case .value(let document) = value else {
            scalars.observe(value)
            distinct.observe(value)
            return
        }
        switch document {
        case .uid:
            archiveReferences += 1
            distinct.observe(.missing)
        case .object(let members):
            nestedProfile().observe(members)
            distinct.observe(.missing)
        case .array(let items):
            arrays += 1
            distinct.observe(.missing)
            let objectCount = items.filter { if case .object = $0 { true } else { false } }.count
            let nestedArrays = items.contains { if case .array = $0 { true } else { false } }
            guard !nestedArrays, objectCount == 0 || objectCount == items.filter({ $0 != .null }).count else {
                unreadableArrays += 1
                return
            }
            for item in items {
                switch item {
                case .object(let members): nestedProfile().observe(members)
                case .uid: archiveReferences += 1
                default: elements.observe(.value(item))
                }
            }
        default:
            scalars.observe(value)
            distinct.observe(value)
        }
    }

    private func nestedProfile() -> EntityProfile {
        if let objects { return objects }
        let made = EntityProfile(options: options, budget: budget, depth: depth + 1)
        objects = made
        return made
    }
}
