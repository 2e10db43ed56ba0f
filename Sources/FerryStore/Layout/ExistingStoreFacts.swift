import FerryModel

/// What an existing store says about its own layout where it can differ from what Core Data's
/// rules give for a model today: its entity numbers (`Z_PRIMARYKEY`) and the names of its tables.
///
/// A store's rows carry its own `Z_ENT` numbers, which Core Data gave when it created the store
/// (an older framework's rule, an entity renamed since): reading through recomputed numbers would
/// silently miss or mislabel rows. So readers lay out an existing store with its facts; only a new
/// store is numbered by the rule.
public struct ExistingStoreFacts: Sendable, Equatable {
    /// `Z_PRIMARYKEY` rows of the app's entities (system entities from 16000 up are left out).
    public var primaryKeys: [PrimaryKeyEntry]
    /// Every table the store has.
    public var tableNames: Set<String>
    /// `NSPersistenceFrameworkVersion` of the framework that wrote the store: older ones made
    /// fewer indexes (`StoreLayoutBuilder`). Nil: the current rules.
    public var frameworkVersion: Int?

    public init(primaryKeys: [PrimaryKeyEntry], tableNames: Set<String>, frameworkVersion: Int? = nil) {
        self.primaryKeys = primaryKeys.filter { !$0.isSystemEntity }
        self.tableNames = tableNames
        self.frameworkVersion = frameworkVersion
    }

    /// Whether the store's framework made unique indexes for uniqueness constraints: fw 866 did
    /// (knowledgeC of macOS 10.14), fw 637 and 851 did not (Moody, knowledgeC of macOS 10.13).
    var hasUniquenessIndexes: Bool { (frameworkVersion ?? .max) >= 866 }

    /// Whether the store's framework made the twin index of a one-element fetch index: fw 1044
    /// did (Screen Time's RMAdminStore), fw 866 did not (knowledgeC).
    var hasTwinIndexes: Bool { (frameworkVersion ?? .max) >= 1044 }

    /// The number of every entity of `model` in this store: by `Z_NAME`, then (for an entity
    /// renamed since the store was written) by its renaming identifier. An entity the store does
    /// not know gets a number above every number the store uses, so none of its rows can be
    /// taken for it.
    func entityNumbers(for model: ManagedObjectModel) -> [String: Int] {
        let byName = Dictionary(primaryKeys.map { ($0.name, Int($0.entityNumber)) }, uniquingKeysWith: { first, _ in first })
        var numbers: [String: Int] = [:]
        for entity in model.entities {
            if let number = byName[entity.name] { numbers[entity.name] = number }
        }
        var taken = Set(numbers.values)
        for entity in model.entities where numbers[entity.name] == nil {
            guard let former = entity.renamingIdentifier, model.entity(named: former) == nil,
                  let number = byName[former], taken.insert(number).inserted else { continue }
            numbers[entity.name] = number
        }
        var next = (primaryKeys.map { Int($0.entityNumber) }.max() ?? 0) + 1
        for entity in model.entitiesInStoreOrder where numbers[entity.name] == nil {
            numbers[entity.name] = next
            next += 1
        }
        return numbers
    }
}
