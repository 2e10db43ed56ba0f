import FerryMigration
import FerryModel
import FerryVerify

/// Proves that the values a migration carries unchanged reached the store, without trusting any
/// mapping code: per destination entity, the fingerprint of the carried values
/// (`CarriedAttributes`) of the source records written, taken from the records as read, must
/// equal the store's fingerprint over the same attributes, count included.
///
/// Under keep-newest, a record that replaces an earlier one takes the earlier one's term out of
/// the sum: the terms of such an entity's rows are kept by `Z_PK` (about 40 bytes a row) for that.
///
/// Values are tied to their object where its key is comparable (`RecordKeying`): the objects of
/// the store whose identity the new store keeps keep their `Z_PK`, and the writer gives no other
/// object of a hierarchy a key up to the `Z_MAX` its root starts from (`KeptPrimaryKeys`). So a
/// row at or below it is fingerprinted over its `Z_PK` and values, and so is a source record read
/// with the key of the row it became (or that replaced such a row's values); every other record
/// and row over its values alone (records of
/// files and of other stores get new keys, as does an object whose key another took in a
/// merged hierarchy: there is no key to compare). A writer or mapping that put a record's values
/// on another object of the entity fails the check, not only one that lost or changed them.
///
/// An entity whose rows do not all come from such records is left out, and the report says why:
/// rows of records carried or made by other records, destinations created by links,
/// sub-entities (whose rows the store's fingerprint covers), or routes that carry different
/// attributes into it (`CarriedValueWatch` gives the routes of the sources' records the
/// attributes they all carry).
struct CarriedValueCheck {
    private struct Expected {
        let attributes: [String]
        var fingerprint = Fingerprint()
        /// Each row's term by `Z_PK`, for entities whose records may replace earlier ones.
        var terms: [Fingerprint.Term?] = []

        /// Adds the term of row `row`; with `replacing`, first takes out the row's earlier term
        /// (false when it is not known). The term is kept when it may be replaced later.
        mutating func add(_ term: Fingerprint.Term, row: Int64?, replacing: Bool, remembering: Bool) -> Bool {
            if replacing {
                guard let row, row >= 0, row < terms.count, let earlier = terms[Int(row)] else { return false }
                fingerprint.remove(earlier)
            }
            fingerprint.add(term)
            if replacing || remembering, let row, row >= 0 {
                if terms.count <= Int(row) { terms += repeatElement(nil, count: Int(row) + 1 - terms.count) }
                terms[Int(row)] = term
            }
            return true
        }
    }

    private var expected: [String: Expected] = [:]
    /// Entity → why it is left out (the first reason found).
    private var excluded: [String: String] = [:]
    private var bytes: [UInt8] = []
    /// The rows whose objects keep their `Z_PK` from a source store.
    private let keptKeys: KeptPrimaryKeys

    /// A check tying the values of the rows `keptKeys` names to their key.
    init(keptKeys: KeptPrimaryKeys = .none) {
        self.keptKeys = keptKeys
    }

    /// Adds a source record written as row `row` of `entity`: its `values` as read, and the `Z_PK`
    /// it was read with when it keeps it (`identity`). With `replacing`, the record replaced that
    /// row's values (keep-newest), whose term is taken out; with `remembering`, the row's term is
    /// kept for such a replacement.
    mutating func written(_ values: [AttributeValue], carried: CarriedAttributes, entity: String, row: Int64?,
                          identity: Int64? = nil, replacing: Bool = false, remembering: Bool = false) {
        guard excluded[entity] == nil else { return }
        let attributes = expected[entity]?.attributes ?? carried.names
        guard attributes == carried.names else {
            exclude(entity, because: "its records come by routes that carry different attributes")
            return
        }
        bytes.removeAll(keepingCapacity: true)
        // The row's key, where the store's term has it: the record is the object that keeps it, or now holds its values.
        let key = replacing || (identity != nil && identity == row) ? keptKeys.keying(for: entity).key(for: row) : nil
        carried.encode(values, key: key, to: &bytes)
        let term = bytes.withUnsafeBytes { Fingerprint.Term(encoded: $0) }
        let known = expected[entity, default: Expected(attributes: attributes)]
            .add(term, row: row, replacing: replacing, remembering: remembering)
        if !known { exclude(entity, because: "a record replaced a row whose values are not known") }
    }

    /// Leaves `entity` out of the check.
    mutating func exclude(_ entity: String, because reason: String) {
        if excluded[entity] == nil { excluded[entity] = reason }
    }

    /// The `carried values` section for the store at `path` (read with `model`, its links created
    /// as `links` say), and a note naming the entities left out and why.
    func section(store path: String, model: ManagedObjectModel, links: [LinkReport]) throws(VerificationError)
        -> (section: VerificationSection, note: String?)
    {
        var excluded = excluded
        for link in links where link.created > 0 {
            let parts = link.relationship.split(separator: ".", maxSplits: 1).map(String.init)
            guard parts.count == 2,
                  let destination = model.allRelationships(of: parts[0]).first(where: { $0.name == parts[1] })?.destinationEntity else { continue }
            if excluded[destination] == nil { excluded[destination] = "links created \(link.created) of its records" }
        }
        for link in links where link.rejectedRecords > 0 {
            guard let entity = link.relationship.split(separator: ".", maxSplits: 1).first.map(String.init), excluded[entity] == nil else { continue }
            excluded[entity] = "\(link.rejectedRecords) of its records were removed when their \(link.relationship) found too few destinations"
        }
        for entity in expected.keys where !model.subentities(of: entity).isEmpty && excluded[entity] == nil {
            excluded[entity] = "it has sub-entities, whose rows its fingerprint covers"
        }
        let verifier = try StoreVerifier(path: path, model: .model(model))
        var expectedEntries: [FingerprintEntry] = []
        var actualEntries: [FingerprintEntry] = []
        for (entity, carried) in expected.sorted(by: { $0.key < $1.key }) where excluded[entity] == nil {
            expectedEntries.append(FingerprintEntry(subject: entity, attributes: carried.attributes, fingerprint: carried.fingerprint))
            let actual = try verifier.fingerprint(of: entity, attributes: carried.attributes, keying: keptKeys.keying(for: entity))
            actualEntries.append(FingerprintEntry(subject: entity, attributes: carried.attributes, fingerprint: actual))
        }
        let left = excluded.filter { expected[$0.key] != nil }.sorted { $0.key < $1.key }
        let note = left.isEmpty ? nil : "carried values not checked for " + left.map { "\($0.key) (\($0.value))" }.joined(separator: ", ")
        return (FingerprintComparison.section(named: "carried values", expected: expectedEntries, actual: actualEntries), note)
    }
}
