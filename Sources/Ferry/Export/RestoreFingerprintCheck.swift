import FerryModel
import FerryVerify

/// A restore's comparison of the store it built with the store backed up, fingerprint by
/// fingerprint (`ExportManifest.fingerprints`, computed with SQL on that store): every record
/// with all its values and `Z_PK`, every relationship's pairs. The restore's own checks count
/// what it read and wrote; this compares what the new store holds with what the old one held,
/// through neither the files' writer nor their reader.
///
/// What the restore reports as not restored (exit 1) is left out: the records of an entity some
/// of whose records were rejected, or whose file the manifest does not list, and its ancestors',
/// with the pairs of every relationship with such an end. The manifest's pairs are those between
/// records (`ExportManifest.fingerprintRevision`): a link that found nothing named no record in
/// the store backed up, and a destination claimed by several sources is claimed so in no store's
/// files, or the pairs differ and the comparison says so. In a manifest of the revision before
/// (`ExportManifest.pairsAsHeldRevision`), whose pairs include those with an end that names no
/// record, the pairs of a relationship with links that found nothing, were claimed by several
/// records or named records the folder does not list back are left out too, with its inverse's,
/// and those no file could hold (`ExportManifest.pairsWithoutSource`) are compared by count.
/// The manifest is not signed: it catches a fault of the export's writer or the restore's reader,
/// and damage whose file hashes were made to match, not an edit of the fingerprints themselves.
struct RestoreFingerprintCheck {
    private let expected: [FingerprintEntry]
    /// Pair fingerprints of an older manifest left out only for the pairs the export could not
    /// hold: their counts are still compared, less those pairs.
    private let expectedCounts: [(entry: FingerprintEntry, notHeld: Int64)]
    /// The subjects left out of the comparison, as above: the new store's fingerprints of every
    /// other subject must each have one in the manifest.
    private let leftOut: Set<String>
    private let model: ManagedObjectModel

    /// Nil when the manifest has no fingerprints of a revision this Ferry compares (a selection,
    /// an older or newer version).
    /// - Parameters:
    ///   - links: the restore's link reports.
    ///   - rejectedEntities: entities with records the restore rejected (a required link that
    ///     found nothing, a required relationship without a destination).
    ///   - unmatchedPairs: relationships (`Entity.relationship`) with pairs naming records the
    ///     folder does not list back.
    ///   - unlistedEntities: entities with a file in the folder the manifest does not list (not
    ///     restored).
    init?(manifest: ExportManifest, model: ManagedObjectModel, links: [LinkReport], rejectedEntities: Set<String>, unmatchedPairs: Set<String>,
          unlistedEntities: [String] = []) {
        guard let fingerprints = manifest.fingerprints, let revision = manifest.fingerprintRevision,
              ExportManifest.comparedFingerprintRevisions.contains(revision) else { return nil }
        let pairsAsHeld = revision == ExportManifest.pairsAsHeldRevision
        self.model = model
        let notRestored = rejectedEntities.union(unlistedEntities)
        var left = Set(notRestored.flatMap { model.ancestry(of: $0).map(\.name) })
        var unsure = Set(Self.relationships(touching: notRestored, in: model))
        if pairsAsHeld {
            unsure.formUnion(unmatchedPairs.union(links.filter { $0.unresolved > 0 || $0.conflicts > 0 }.map(\.relationship)))
        }
        for name in unsure { left.formUnion(Self.pairSubjects(of: name, in: model)) }
        var counted: [(entry: FingerprintEntry, notHeld: Int64)] = []
        for (name, notHeld) in pairsAsHeld ? manifest.pairsWithoutSource ?? [:] : [:] {
            let subjects = Self.pairSubjects(of: name, in: model)
            if subjects.isDisjoint(with: left) {
                counted += fingerprints.filter { subjects.contains($0.subject) }.map { ($0, notHeld) }
            }
            left.formUnion(subjects)
        }
        expectedCounts = counted
        expected = fingerprints.filter { !left.contains($0.subject) }
        leftOut = left
    }

    /// Refuses fingerprints that cannot be what the manifest says: fingerprints without their
    /// revision or a revision without fingerprints (an edited manifest), a revision no Ferry wrote
    /// (manifests kept fingerprints from revision 2 on: restored as another, a backup would be
    /// checked by its counts alone), or one above this Ferry's (a newer Ferry's backup, which only
    /// it can compare). `path` is the manifest's.
    static func refuseUnknownRevision(in manifest: ExportManifest, path: String) throws(ExportError) {
        switch (manifest.fingerprints, manifest.fingerprintRevision) {
        case (nil, nil): return
        case (_?, nil): throw .notAnExport(path: path, reason: "keeps fingerprints without their fingerprintRevision")
        case (nil, _?): throw .notAnExport(path: path, reason: "names a fingerprintRevision but keeps no fingerprints")
        case (_?, let revision?) where revision < ExportManifest.pairsAsHeldRevision:
            throw .notAnExport(path: path, reason: "fingerprintRevision \(revision) is no revision a manifest was written with "
                + "(they are \(ExportManifest.pairsAsHeldRevision) and up)")
        case (_?, let revision?) where revision > ExportManifest.fingerprintRevision:
            throw .notAnExport(path: path, reason: "its fingerprints are of revision \(revision), written by a newer ferry than this one "
                + "(which compares revisions up to \(ExportManifest.fingerprintRevision)): restore it with that version")
        default: return
        }
    }

    /// Why a whole backup's restore is not compared, for a warning: its manifest carries no
    /// fingerprints (an older version of Ferry, a store written while it was exported). Nil when
    /// it is compared, or is a selection (`--entity`, `--where`), which no store's fingerprints
    /// would match.
    static func omission(in manifest: ExportManifest, model: ManagedObjectModel) -> String? {
        let listed = Set(manifest.entities.map(\.entity))
        guard manifest.predicate == nil, model.entities.allSatisfy({ $0.isAbstract || listed.contains($0.name) }) else { return nil }
        // Fingerprints of a revision this Ferry does not compare are refused before (`refuseUnknownRevision`).
        guard manifest.fingerprintRevision != nil, manifest.fingerprints != nil else {
            let why = manifest.fingerprintsNotKept ?? "exported with --no-fingerprints, by an older ferry, or while the store was written"
            return "the backup carries no fingerprints of its store (\(why)): the restored store is checked by its counts, not compared value by value"
        }
        return nil
    }

    /// Fingerprints `path` and compares; a difference is a verification failure of `outputPath`.
    func compare(with path: String, outputPath: String) throws(ExportError) {
        let actual: [FingerprintEntry]
        do {
            let computed = try StoreVerifier(path: path, model: .model(model)).fingerprints(pairKeying: ExportManifest.pairKeying)
            actual = computed.records + computed.edges
        } catch {
            throw .restore(reason: "\(outputPath): cannot fingerprint the restored store: \(error)")
        }
        var section = FingerprintComparison.section(expected: expected, actual: actual)
        // A whole backup's manifest fingerprints every entity and relationship: one it leaves out
        // (an emptied or shortened list) would let that subject restore unchecked without a word.
        let kept = Set(expected.map(\.subject)).union(expectedCounts.map(\.entry.subject))
        for entry in actual where !kept.contains(entry.subject) && !leftOut.contains(entry.subject) {
            section.failures.append(VerificationFailure(check: "fingerprint-missing", subject: entry.subject,
                message: "the manifest keeps no fingerprint of it (its fingerprints were cut short or edited), so it cannot be compared"))
        }
        for (entry, notHeld) in expectedCounts {
            let found = actual.first { $0.subject == entry.subject && $0.attributes == entry.attributes }?.fingerprint.count ?? 0
            if found != entry.fingerprint.count - notHeld {
                section.failures.append(VerificationFailure(check: "fingerprint-count", subject: entry.subject,
                    message: "expected \(entry.fingerprint.count - notHeld) pairs (\(notHeld) in no file), found \(found)"))
            }
        }
        guard let failure = section.failures.first else { return }
        throw .verification(path: outputPath, reason: "the restored store differs from the store backed up in \(section.failures.count) "
            + "fingerprint(s), first \(failure.subject): \(failure.message)")
    }

    /// Every relationship (`Entity.relationship`, as its entity declares it) with an end whose
    /// records may be among those of `entities`: an end that is one of them, above one of them
    /// (its records include theirs), or below one.
    private static func relationships(touching entities: Set<String>, in model: ManagedObjectModel) -> [String] {
        guard !entities.isEmpty else { return [] }
        let touched = Set(entities.flatMap { model.ancestry(of: $0).map(\.name) + model.hierarchy(below: $0).map(\.name) })
        return model.entities.flatMap { entity in
            entity.relationships.filter { touched.contains(entity.name) || touched.contains($0.destinationEntity) }.map { "\(entity.name).\($0.name)" }
        }
    }

    /// The subjects a relationship's pairs may be fingerprinted under: `Entity.relationship` as
    /// named, as its declaring entity names it, and its inverse's, as the inverse's declaring
    /// entity names it.
    private static func pairSubjects(of name: String, in model: ManagedObjectModel) -> Set<String> {
        var subjects: Set<String> = [name]
        let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
        guard parts.count == 2, let owner = model.declaringEntity(ofProperty: parts[1], in: parts[0]),
              let relationship = owner.relationships.first(where: { $0.name == parts[1] }) else { return subjects }
        subjects.insert("\(owner.name).\(relationship.name)")
        if let inverse = model.inverse(of: relationship),
           let inverseOwner = model.declaringEntity(ofProperty: inverse.name, in: relationship.destinationEntity) {
            subjects.insert("\(relationship.destinationEntity).\(inverse.name)")
            subjects.insert("\(inverseOwner.name).\(inverse.name)")
        }
        return subjects
    }
}
