import FerryMigration
import FerryVerify

/// The objects of a migration's source store that the store it wrote holds: per concrete
/// entity of the source (as version `version` of the chain names it), the `Z_PK`s of its rows
/// that are rows of the entity its records are carried to in the written store. Read from both
/// stores with plain SQL (`StoreVerifier.primaryKeys`) once per entity, for `SourcePairCheck`
/// when records were left out.
final class CarriedObjects {
    private let source: StoreVerifier
    private let written: StoreVerifier
    private let chain: MigrationChain
    private let version: Int
    private var known: [String: Set<Int64>] = [:]
    private var writtenKeys: [String: Set<Int64>] = [:]

    init(source: StoreVerifier, written: StoreVerifier, chain: MigrationChain, version: Int) {
        self.source = source
        self.written = written
        self.chain = chain
        self.version = version
    }

    /// The carried objects of `entity` itself (none for an abstract or dropped entity).
    func keys(of entity: String) throws(VerificationError) -> Set<Int64> {
        if let found = known[entity] { return found }
        var keys: Set<Int64> = []
        if source.model.entity(named: entity)?.isAbstract == false, let final = chain.route(entity: entity, from: version).finalEntity {
            if writtenKeys[final] == nil { writtenKeys[final] = try written.primaryKeys(of: final) }
            keys = try source.primaryKeys(of: entity).intersection(writtenKeys[final] ?? [])
        }
        known[entity] = keys
        return keys
    }

    /// The carried objects of `entity` and every entity below it (one table, so one key each).
    func keys(below entity: String) throws(VerificationError) -> Set<Int64> {
        var keys: Set<Int64> = []
        for member in source.model.hierarchy(below: entity) { keys.formUnion(try self.keys(of: member.name)) }
        return keys
    }
}
