import FerryMigration
import FerryModel

/// Feeds a `CarriedValueCheck` from a record pipeline: the carried values of every record read
/// from a source itself, as it is written.
final class CarriedValueWatch: RecordPipelineObserver {
    private(set) var check: CarriedValueCheck
    private let chain: MigrationChain
    /// What each watched route carries, by token.
    private var attributes: [CarriedAttributes] = []
    /// Entity of the last version → the attributes every route of the sources' records into it
    /// carries unchanged: the ways of two versions may carry different ones (a store of `V1` keeps
    /// an attribute that a file of `V2` has not), and its records are checked on those.
    private var common: [String: Set<String>] = [:]

    /// - Parameters:
    ///   - keptKeys: the rows whose objects keep their `Z_PK` from the store whose identity the
    ///     new store keeps (through their root's `Z_MAX`; none when no store's is kept).
    ///   - sourceEntities: the entities the run's sources hold records of, by version
    ///     (`RecordPipeline.sourceEntities`).
    init(chain: MigrationChain, keptKeys: KeptPrimaryKeys = .none, sourceEntities: [Int: Set<String>] = [:]) {
        self.chain = chain
        check = CarriedValueCheck(keptKeys: keptKeys)
        for (version, entities) in sourceEntities {
            for entity in entities where chain.versions[version].entity(named: entity)?.isAbstract == false {
                let route = chain.route(entity: entity, from: version)
                guard let final = route.finalEntity, let schema = chain.schema(version: version, entity: entity) else { continue }
                let names = Set(CarriedAttributes(route: route, chain: chain, schema: schema).names)
                common[final] = common[final].map { $0.intersection(names) } ?? names
            }
        }
    }

    func watch(route: MigrationChain.Route, schema: RecordSchema) -> Int? {
        attributes.append(CarriedAttributes(route: route, chain: chain, schema: schema, within: route.finalEntity.flatMap { common[$0] }))
        return attributes.count - 1
    }

    /// Under keep-newest a merged record replaces the row's earlier values; otherwise the row
    /// keeps them, and a record merged into it leaves no term.
    func written(_ values: [AttributeValue], identity: Int64?, token: Int, entity: String, row: Int64?, merged: Bool,
                 policy: DuplicatePolicy) {
        if merged {
            guard policy == .keepNewest else { return }
            check.written(values, carried: attributes[token], entity: entity, row: row, identity: identity, replacing: true)
        } else {
            check.written(values, carried: attributes[token], entity: entity, row: row, identity: identity,
                          remembering: policy == .keepNewest)
        }
    }

    func carriedRecordWritten(entity: String) {
        check.exclude(entity, because: "records carried or made by other records")
    }
}
