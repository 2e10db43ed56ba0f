import FerryMigration
import FerryModel
import FerryVerify

/// Proves a migrated store's to-one pairs against its source store itself, not against another
/// run of the writer: each to-one relationship the chain carries (unchanged or renamed) must
/// hold exactly the source's pairs, both ends named by `Z_PK`, read from each store's own
/// column with plain SQL (`StoreVerifier.edgeFingerprint`, FerryStore's `PairKeyScan`). Each
/// side of a one-to-one is its own relationship here, so a side the source left empty (Apple
/// Notes' `ICCloudState.cloudSyncingObject`) must stay empty, and a side filled from the other
/// fails.
///
/// It applies when the pairs can only be the source's: one store, whose objects keep their
/// `Z_PK` (the store whose identity the new store keeps), every record of it written (none
/// merged, rejected or filtered) and no record made by a mapping. Otherwise it is left out, and
/// the note says why.
enum SourcePairCheck {
    static let sectionName = "to-one pairs against source"

    /// The section comparing `store` (read with `model`, the chain's last version) with the one
    /// store the migration `summary` read, or nil and the reason it does not apply.
    static func section(store: String, model: ManagedObjectModel, chain: MigrationChain, summary: MigrationSummary)
        throws(VerificationError) -> (section: VerificationSection?, note: String?)
    {
        let source: String
        let version: Int
        switch applicability(chain: chain, summary: summary) {
        case .failure(let reason): return (nil, "\(sectionName): not checked, \(reason.text)")
        case .success(let found): (source, version) = found
        }
        let sourceStore = try StoreVerifier(path: source, model: .model(chain.versions[version]))
        let written = try StoreVerifier(path: store, model: .model(model))
        var expected: [FingerprintEntry] = []
        var actual: [FingerprintEntry] = []
        for entity in chain.versions[version].entities {
            for relationship in entity.relationships where !relationship.isToMany && !relationship.isTransient {
                guard let carried = chain.finalRelationship(relationship.name, of: entity.name, from: version),
                      model.allRelationships(of: carried.entity).contains(where: { $0.name == carried.relationship && !$0.isToMany }) else { continue }
                let subject = "\(carried.entity).\(carried.relationship)"
                let keys = [EdgeKey.primaryKey.label, EdgeKey.primaryKey.label]
                expected.append(FingerprintEntry(subject: subject, attributes: keys, fingerprint: try sourceStore.edgeFingerprint(
                    of: relationship.name, of: entity.name, sourceKey: .primaryKey, destinationKey: .primaryKey)))
                actual.append(FingerprintEntry(subject: subject, attributes: keys, fingerprint: try written.edgeFingerprint(
                    of: carried.relationship, of: carried.entity, sourceKey: .primaryKey, destinationKey: .primaryKey)))
            }
        }
        return (FingerprintComparison.section(named: sectionName, expected: expected, actual: actual), nil)
    }

    private struct NotApplicable: Error {
        let text: String
    }

    /// The one source store and the index of its version, when the store's pairs can only be its.
    private static func applicability(chain: MigrationChain, summary: MigrationSummary) -> Result<(String, Int), NotApplicable> {
        let sources = Set(summary.ledgers.map(\.source))
        guard sources.count == 1, let source = sources.first else {
            return .failure(NotApplicable(text: "the store has \(sources.count) sources"))
        }
        guard summary.identity?.keptFrom == source else {
            return .failure(NotApplicable(text: "\(source) is not a store whose objects keep their Z_PK"))
        }
        guard let name = summary.ledgers.first?.version, let version = chain.versions.firstIndex(where: { $0.name == name }),
              Set(summary.ledgers.map(\.version)) == [name] else {
            return .failure(NotApplicable(text: "\(source) is read as more than one version"))
        }
        let read = summary.ledgers.reduce(0) { $0 + $1.read }
        guard summary.ledgers.allSatisfy({ $0.written == $0.read }), summary.written.values.reduce(0, +) == read else {
            return .failure(NotApplicable(text: "not every record of \(source) was written as one record (merged, rejected, filtered or made)"))
        }
        return .success((source, version))
    }
}
