import FerryFormats
import FerryMigration
import FerryModel
import FerryStore
import FerryVerify

/// Proves a migrated store's relationship pairs against its source store itself, not against
/// another run of the writer: each relationship the chain carries (unchanged or renamed), to-one
/// and to-many, must hold exactly the source's pairs (in the source's order where both stores keep
/// a side ordered), both ends named by `Z_PK`, read from each
/// store's own columns and join tables with plain SQL (`StoreVerifier.edgeFingerprint`,
/// FerryStore's `PairKeyScan`), per entity of the new store: the pairs of each source entity's
/// own rows that become its objects, summed (a relationship that gains its inverse: the union of
/// both source sides, which an app may both have set). Each side of a one-to-one is its own
/// relationship here, so a side the source left empty (Apple Notes'
/// `ICCloudState.cloudSyncingObject`) must stay empty, and a side filled from the other fails;
/// pairs of a to-many that the migration dropped (once, every pair of a relationship declared by
/// an abstract entity) fail too. That each end holds its source object's values is not this
/// check's: the carried values are fingerprinted with each kept object's `Z_PK` after a
/// migration (`CarriedValueCheck`), and every record with its `Z_PK` against the re-run
/// (`RecordKeying`), so pairs by key and values by key together tie both to the object.
///
/// It applies when the pairs can only be the source's: one store, whose objects keep their
/// `Z_PK` (the store whose identity the new store keeps; none renumbered because another
/// object took its key in a table it now shares), each record of it written as itself or not at
/// all (none merged), and no record made by a mapping. When records were left out (filtered by
/// a mapping, dropped with their entity, rejected) or links found nothing, the source's pairs
/// expected are those whose two objects are in the new store, each as the entity its own is
/// carried to, with the same `Z_PK` (`KeptPairEnds`), ranked among themselves in ordered lists:
/// a pair lost between two objects carried fails, as does a pair kept to an object left out.
/// Which objects were left out is the record counts' concern (the accounting), not this
/// check's. Otherwise it is left out: with a note saying why when that one store is the only
/// source, silently when the sources are files or several (their pairs mix; the `pairs against
/// sources` of `verify --against` cover them).
enum SourcePairCheck {
    static let sectionName = "pairs against source store"

    /// The section comparing `store` (read with `model`, the chain's last version) with the one
    /// store the migration `summary` read, or nil and the reason it does not apply (nil too when
    /// no source is a store).
    static func section(store: String, model: ManagedObjectModel, chain: MigrationChain, summary: MigrationSummary)
        throws(VerificationError) -> (section: VerificationSection?, note: String?)
    {
        let source: String
        let leftOut: Bool
        switch applicability(summary) {
        case .failure(let reason): return (nil, reason.text.map { "\(sectionName): not checked, \($0)" })
        case .success(let found): (source, leftOut) = found
        }
        // Read as the migration read it: its version, the model narrowed to the store's entities.
        let version: Int
        let sourceModel: ManagedObjectModel
        do { (version, sourceModel) = try StoreRecordCursor.version(of: try CoreDataStoreReader(path: source), in: chain) } catch {
            return (nil, "\(sectionName): not checked, \(ErrorText.reason(of: error, at: source))")
        }
        let sourceStore = try StoreVerifier(path: source, model: .model(sourceModel))
        let written = try StoreVerifier(path: store, model: .model(model))
        let carriedObjects = CarriedObjects(source: sourceStore, written: written, chain: chain, version: version)
        // Per concrete entity (an abstract one has no mapping of its own), its inherited
        // relationships included, each read from the entity's own rows: the pairs of every
        // source entity whose records become one entity are that entity's own rows' pairs.
        var contributions: [Contribution] = []
        for entity in sourceModel.entities where !entity.isAbstract {
            for relationship in sourceModel.allRelationships(of: entity.name) where !relationship.isTransient {
                guard let carried = chain.finalRelationship(relationship.name, of: entity.name, from: version),
                      model.allRelationships(of: carried.entity).contains(where: { $0.name == carried.relationship }),
                      let inverseSources = inverseSources(of: relationship, of: entity.name, becoming: carried, sourceModel: sourceModel,
                                                          model: model, chain: chain, version: version) else { continue }
                // The order too, where both stores keep the same side in order (and the pairs are
                // the relationship's own).
                let ranked = inverseSources.isEmpty ? try sourceStore.orderedEnds(of: relationship.name, of: entity.name)
                    .intersection(try written.orderedEnds(of: carried.relationship, of: carried.entity)) : []
                // Pairs to records the last version's relationship cannot lead to were dropped, and said.
                let concrete = sourceModel.hierarchy(below: relationship.destinationEntity).filter { !$0.isAbstract }.map(\.name)
                let held = concrete.filter { chain.unheldPairs(relationship.name, of: entity.name, to: $0, from: version) == nil }
                contributions.append(Contribution(entity: entity.name, relationship: relationship, carried: carried,
                                                  inverseSources: inverseSources, ranked: ranked,
                                                  heldDestinations: held.count == concrete.count ? nil : held))
            }
        }
        var expected: [FingerprintEntry] = []
        var actual: [FingerprintEntry] = []
        let keys = [EdgeKey.primaryKey.label, EdgeKey.primaryKey.label]
        for subject in Set(contributions.map(\.subject)).sorted() {
            let parts = contributions.filter { $0.subject == subject }
            // Ranked where every part keeps the side in order; a list its destination holds mixes
            // the sources of several parts (each read from its own rows), so its ranks are
            // compared only when one part makes the relationship.
            var ranked = parts.dropFirst().reduce(parts[0].ranked) { $0.intersection($1.ranked) }
            if parts.count > 1 { ranked.remove(.destination) }
            var fingerprint = Fingerprint()
            for part in parts {
                fingerprint.merge(try part.sourcePairs(in: sourceStore, ranked: ranked,
                                                       keeping: leftOut || part.heldDestinations != nil ? carriedObjects : nil))
            }
            let carried = parts[0].carried
            expected.append(FingerprintEntry(subject: subject, attributes: keys, fingerprint: fingerprint))
            actual.append(FingerprintEntry(subject: subject, attributes: keys, fingerprint: try written.edgeFingerprint(
                of: carried.relationship, of: carried.entity, sourceKey: .primaryKey, destinationKey: .primaryKey, rankedEnds: ranked,
                ownRowsOnly: true)))
        }
        return (FingerprintComparison.section(named: sectionName, expected: expected, actual: actual), nil)
    }

    /// A source relationship of a concrete entity carried into a relationship of the last version
    /// (`subject`), with what its pairs there are made from.
    private struct Contribution {
        let entity: String
        let relationship: Relationship
        let carried: (entity: String, relationship: String)
        /// The relationships whose pairs, reversed, are made into the carried one's too.
        let inverseSources: [(entity: String, relationship: String)]
        let ranked: Set<PairOrder.End>
        /// The concrete destination entities whose records the carried relationship can lead to,
        /// when it cannot lead to all of the source's (`MigrationChain.unheldPairs`).
        let heldDestinations: [String]?

        var subject: String { "\(carried.entity).\(carried.relationship)" }

        /// The source pairs of the entity's own rows (those between objects `keeping` says were
        /// carried, when records were left out), ranked at `ranked`; with inverse sources, the
        /// union of theirs, reversed, and its own (an app may have set both sides).
        func sourcePairs(in store: StoreVerifier, ranked: Set<PairOrder.End>, keeping: CarriedObjects?) throws(VerificationError) -> Fingerprint {
            let own = try keeping.map { keeping throws(VerificationError) in
                var destinations: Set<Int64> = []
                if let heldDestinations {
                    for name in heldDestinations { destinations.formUnion(try keeping.keys(of: name)) }
                } else {
                    destinations = try keeping.keys(below: relationship.destinationEntity)
                }
                return KeptPairEnds(sources: try keeping.keys(of: entity), destinations: destinations)
            }
            guard !inverseSources.isEmpty else {
                if let own { return try store.edgeFingerprint(of: relationship.name, of: entity, keeping: own, rankedEnds: ranked, ownRowsOnly: true) }
                return try store.edgeFingerprint(of: relationship.name, of: entity, sourceKey: .primaryKey, destinationKey: .primaryKey,
                                                 rankedEnds: ranked, ownRowsOnly: true)
            }
            var parts = [StoreVerifier.PairPart(relationship: relationship.name, of: entity, keeping: own)]
            for other in inverseSources {
                // The other side's pairs lead to `entity` (which has no sub-entities: `inverseSources`).
                let kept = try keeping.map { keeping throws(VerificationError) in
                    KeptPairEnds(sources: try keeping.keys(of: other.entity), destinations: try keeping.keys(of: entity))
                }
                parts.append(StoreVerifier.PairPart(relationship: other.relationship, of: other.entity, reversed: true, keeping: kept))
            }
            return try store.edgeFingerprint(ofUnion: parts)
        }
    }

    /// The source relationships, other than `relationship`'s inverse, that become the inverse of
    /// what it becomes (`carried`): the two gained each other as inverses in the target, so the
    /// target's pairs are made from both, the others' reversed. Empty when the pairs are
    /// `relationship`'s alone (no inverse in the target, or the source's inverse kept); nil when
    /// the other side's pairs cannot be told apart per concrete entity (its destination has
    /// sub-entities), and the relationship is left out.
    private static func inverseSources(of relationship: Relationship, of entity: String, becoming carried: (entity: String, relationship: String),
                                       sourceModel: ManagedObjectModel, model: ManagedObjectModel, chain: MigrationChain,
                                       version: Int) -> [(entity: String, relationship: String)]? {
        guard let becomes = model.allRelationships(of: carried.entity).first(where: { $0.name == carried.relationship }),
              let targetInverse = model.inverse(of: becomes), !chain.keepsInverse(relationship, of: entity, from: version) else { return [] }
        let ends = Set(model.hierarchy(below: becomes.destinationEntity).map(\.name))
        var sources: [(entity: String, relationship: String)] = []
        for other in sourceModel.entities where !other.isAbstract {
            for candidate in sourceModel.allRelationships(of: other.name) where !candidate.isTransient {
                guard let final = chain.finalRelationship(candidate.name, of: other.name, from: version),
                      final.relationship == targetInverse.name, ends.contains(final.entity) else { continue }
                guard candidate.destinationEntity == entity, sourceModel.subentities(of: entity).isEmpty else { return nil }
                sources.append((other.name, candidate.name))
            }
        }
        return sources
    }

    /// Why the check does not apply; nil when that needs no note (sources other than one store).
    private struct NotApplicable: Error {
        let text: String?
    }

    /// The one source store, when the store's pairs can only be its, and whether some of its
    /// records were left out (filtered, dropped or rejected).
    private static func applicability(_ summary: MigrationSummary) -> Result<(source: String, leftOut: Bool), NotApplicable> {
        let sources = Set(summary.ledgers.map(\.source))
        guard sources.count == 1, let source = sources.first, summary.identity?.keptFrom == source else {
            return .failure(NotApplicable(text: nil))
        }
        guard Set(summary.ledgers.map(\.version)).count == 1 else {
            return .failure(NotApplicable(text: "records were made in another version than \(source)'s"))
        }
        let renumbered = summary.renumbered.values.reduce(0, +)
        guard renumbered == 0 else {
            return .failure(NotApplicable(text: "\(renumbered) object\(renumbered == 1 ? "" : "s") of \(source) got a new Z_PK in a table "
                + "shared with another entity, so pairs name \(renumbered == 1 ? "it" : "them") by other keys than the source's"))
        }
        let writtenFromSource = summary.ledgers.reduce(0) { $0 + $1.written }
        guard summary.ledgers.allSatisfy({ $0.merged == 0 }), summary.written.values.reduce(0, +) == writtenFromSource else {
            return .failure(NotApplicable(text: "records of \(source) were merged, or records were made by the mapping"))
        }
        // A source pair whose other end is missing there (a dangling key) is one the store cannot
        // hold: the run reported it, and only the pairs between objects carried are expected.
        return .success((source, summary.unresolvedLinks > 0 || summary.ledgers.contains { $0.written < $0.read }))
    }
}
