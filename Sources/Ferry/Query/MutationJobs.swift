import FerryMigration
import FerryModel
import FerryStore
import FerryVerify

/// `ferry delete`: deletes the objects of an entity matching a predicate with every delete rule
/// applied, in one SQLite transaction on the store (see `MutableStore.delete`), or with
/// `dryRun` only works out what would happen.
public struct DeleteJob {
    public var storePath: String
    public var modelPath: String?
    public var entity: String
    public var predicate: String
    public var variables: [String: PredicateValue]
    public var dryRun: Bool

    public init(storePath: String, modelPath: String? = nil, entity: String, predicate: String,
                variables: [String: PredicateValue] = [:], dryRun: Bool = false) {
        self.storePath = storePath
        self.modelPath = modelPath
        self.entity = entity
        self.predicate = predicate
        self.variables = variables
        self.dryRun = dryRun
    }

    /// The plan carried out (or, with `dryRun`, the plan alone). A Deny block throws
    /// `QueryError.mutation(.denied)` unless `dryRun`, where it is listed in the plan.
    public func run() throws(QueryError) -> DeletePlan {
        let store = try openMutableStore(storePath, modelPath: modelPath, planningOnly: dryRun)
        let parsed = try parsePredicate(predicate)
        do {
            return dryRun ? try store.planDelete(of: entity, where: parsed, variables: variables)
                : try store.delete(from: entity, where: parsed, variables: variables)
        } catch { throw .mutation(error) }
    }
}

/// `ferry update`: sets attributes of the objects matching a predicate, typed by import's rules
/// (`TextCoercion`; an empty value sets NULL, `""` the empty String or Binary; a Date takes ISO
/// 8601 only), in one transaction (see `MutableStore.update`).
public struct UpdateJob {
    public var storePath: String
    public var modelPath: String?
    public var entity: String
    public var predicate: String
    /// `key=value` pairs, in order.
    public var assignments: [(key: String, value: String)]
    public var variables: [String: PredicateValue]
    public var coercion: CoercionOptions

    public init(storePath: String, modelPath: String? = nil, entity: String, predicate: String,
                assignments: [(key: String, value: String)], variables: [String: PredicateValue] = [:],
                coercion: CoercionOptions = .init()) {
        self.storePath = storePath
        self.modelPath = modelPath
        self.entity = entity
        self.predicate = predicate
        self.assignments = assignments
        self.variables = variables
        self.coercion = coercion
    }

    /// - Returns: the number of objects changed.
    public func run() throws(QueryError) -> Int {
        let (store, predicate, values) = try prepare(planningOnly: false)
        do { return try store.update(entity, where: predicate, set: values, variables: variables) } catch { throw .mutation(error) }
    }

    /// The objects `run` would change, after the same checks; nothing is written
    /// (`ferry update --dry-run`).
    public func plan() throws(QueryError) -> [ObjectKey] {
        let (store, predicate, values) = try prepare(planningOnly: true)
        do { return try store.planUpdate(entity, where: predicate, set: values, variables: variables) } catch { throw .mutation(error) }
    }

    /// The store (read-only when `planningOnly`), the parsed predicate and the assignments typed
    /// by their attributes.
    private func prepare(planningOnly: Bool) throws(QueryError) -> (MutableStore, FetchPredicate, [(key: String, value: AttributeValue)]) {
        let store = try openMutableStore(storePath, modelPath: modelPath, planningOnly: planningOnly)
        let parsed = try parsePredicate(predicate)
        var values: [(key: String, value: AttributeValue)] = []
        for (key, text) in assignments {
            guard let attribute = store.model.allAttributes(of: entity).first(where: { $0.name == key }) else {
                throw .mutation(store.model.entity(named: entity) == nil ? .predicate(.unknownEntity(entity))
                                    : .unknownAttribute(entity: entity, key: key))
            }
            if text.isEmpty {
                values.append((key, .null))
                continue
            }
            // `""` is the empty value, as a quoted empty CSV field is (an empty value is NULL).
            if text == "\"\"" {
                switch attribute.type {
                case .string: values.append((key, .string("")))
                case .binary: values.append((key, .binary([])))
                // An empty Transformable is no archive Core Data could read back.
                default: throw .value(key: key, reason: "\"\" is the empty String or Binary value; \(attribute.type.withArticle) has none (an empty value sets NULL)")
                }
                continue
            }
            // A bare number is a date of another epoch in `--where` (seconds since 2001, as Core
            // Data's SQL compares) than in import's rules (Unix seconds): refused, not guessed.
            if attribute.type == .date, ISO8601Date.parse(text) == nil, Double(text.filter { $0 != " " && $0 != "\t" }) != nil {
                throw .value(key: key, reason: "'\(text)' is a number, which --where reads as seconds since 2001 and import as Unix seconds: "
                    + "give the date in ISO 8601 (2024-05-01T09:00:00Z)")
            }
            switch TextCoercion.value(text, as: attribute.type, options: coercion) {
            case .success(let value): values.append((key, value))
            case .failure(let failure): throw .value(key: key, reason: failure.reason)
            }
        }
        return (store, parsed, values)
    }
}

/// The store opened for a change, held to `verify`'s value and relationship checks: a change
/// that adds a failure to them is rolled back (`StoreChangeChecks`). With `planningOnly` (a dry
/// run) it is opened read-only.
private func openMutableStore(_ path: String, modelPath: String?, planningOnly: Bool) throws(QueryError) -> MutableStore {
    let model = try StoreModelResolver.resolve(forStore: path, bundlePath: modelPath).model
    let store: MutableStore
    do { store = try MutableStore(path: path, model: model, planningOnly: planningOnly) } catch { throw .mutation(error) }
    store.changeCheck = StoreChangeChecks.check(model: model, layout: store.layout)
    return store
}

private func parsePredicate(_ text: String) throws(QueryError) -> FetchPredicate {
    do { return try FetchPredicate(format: text) } catch { throw .predicate(error) }
}
