/// What the records of one entity hold, key by key, gathered as they stream by: the input of
/// `ModelInference`. Memory follows the number of keys (and the uniqueness budget), not the
/// number of records.
public final class EntityProfile {
    /// Records seen.
    public private(set) var records = 0
    /// The keys, in the order first seen.
    public private(set) var keys: [KeyProfile] = []
    /// Whether the records carry `Z_PK`, the row key of a Core Data store: they are a store's
    /// rows (a Ferry export, a dump of a store's table), whose relationship numbers are its keys.
    public var carriesStoreKeys: Bool {
        keys.contains { RelationshipKeys.isStoreRowKey($0.key) }
    }
    /// How many objects deep this entity's records sit (0: the records of the source).
    public let depth: Int
    private var index: [String: Int] = [:]
    private let options: CoercionOptions
    private let budget: DistinctValueBudget

    /// - Parameters:
    ///   - options: the value rules the import will use (date epoch, empty fields).
    ///   - budget: the distinct values the uniqueness checks of the whole inference may hold.
    public init(options: CoercionOptions = .init(), budget: DistinctValueBudget, depth: Int = 0) {
        self.options = options
        self.budget = budget
        self.depth = depth
    }

    /// Notes one record of a document: its keys and values, in order (a key given twice counts
    /// once, with its last value, as import reads it).
    public func observe(_ members: [(key: String, value: DocumentValue)]) {
        var last: [String: DocumentValue] = [:]
        var order: [String] = []
        for (key, value) in members {
            if last.updateValue(value, forKey: key) == nil { order.append(key) }
        }
        observe(order.compactMap { key in last[key].map { (key, ObservedValue.value($0)) } })
    }

    /// Notes one record as keys and values already read (a CSV row under its header).
    public func observe(_ fields: [(key: String, value: ObservedValue)]) {
        records += 1
        var seen = Set<Int>()
        for (key, value) in fields {
            let position = profileIndex(for: key)
            seen.insert(position)
            keys[position].observe(value)
        }
        for position in keys.indices where !seen.contains(position) { keys[position].observe(.missing) }
    }

    private func profileIndex(for key: String) -> Int {
        if let known = index[key] { return known }
        keys.append(KeyProfile(key: key, options: options, budget: budget, depth: depth))
        // A key first seen now was missing from every earlier record.
        if records > 1 { keys[keys.count - 1].observe(.missing) }
        index[key] = keys.count - 1
        return keys.count - 1
    }

    /// The value rules the profile was gathered under.
    public var coercion: CoercionOptions { options }
}
