import FerryStore

/// What a verification found: sections of checks with their failures, a tally per entity and
/// per relationship, and the fingerprints computed.
///
/// Store-side checks fill the sections `store`, `relationships` and `values`. Comparisons with the
/// sources (the ledger, edges and fingerprints of a migration) add their own sections with
/// `append(_:)`, so one report says everything about one destination.
public struct VerificationReport: Sendable, Equatable, Codable {
    /// The store verified.
    public var store: String
    /// The model version the store was read with, and how it was chosen.
    public var model: String
    public var sections: [VerificationSection]
    /// One row per entity: records (its own and its sub-entities'), checks run, failures.
    public var entities: [EntityTally]
    /// One row per stored relationship: pairs, dangling pairs, duplicate pairs.
    public var relationships: [RelationshipTally]
    /// Record fingerprints per entity.
    public var fingerprints: [FingerprintEntry]
    /// Pair fingerprints per relationship.
    public var edgeFingerprints: [FingerprintEntry]
    /// How the checks were made, where that needs saying (what a comparison with sources was
    /// compared with, and why).
    public var notes: [String] = []

    public init(store: String, model: String, sections: [VerificationSection] = [], entities: [EntityTally] = [],
                relationships: [RelationshipTally] = [], fingerprints: [FingerprintEntry] = [],
                edgeFingerprints: [FingerprintEntry] = []) {
        self.store = store
        self.model = model
        self.sections = sections
        self.entities = entities
        self.relationships = relationships
        self.fingerprints = fingerprints
        self.edgeFingerprints = edgeFingerprints
    }

    /// Whether every check of every section held.
    public var passed: Bool { sections.allSatisfy(\.failures.isEmpty) }

    /// Every failure, section by section.
    public var failures: [VerificationFailure] { sections.flatMap(\.failures) }

    /// Adds a section (a later one of the same name is kept apart, in order).
    public mutating func append(_ section: VerificationSection) { sections.append(section) }

    /// Takes out of the failures those the store read held as they are, line for line
    /// (`VerificationReportText.line`: the same check, message and sample rows with their keys),
    /// `sourceFailures` naming them: damage a restore or migration kept as the store it read
    /// held it, which that job names, not damage it made. Each is left as a note.
    public mutating func accept(sourceFailures: Set<String>, from source: String) {
        guard !sourceFailures.isEmpty else { return }
        for index in sections.indices {
            sections[index].failures.removeAll { failure in
                let line = VerificationReportText.line(failure)
                guard sourceFailures.contains(line) else { return false }
                notes.append("\(source) held this as it is: \(line)")
                return true
            }
        }
    }

    /// The section with this name.
    public func section(named name: String) -> VerificationSection? { sections.first { $0.name == name } }

    /// The record fingerprint computed for an entity.
    public func fingerprint(of entity: String) -> Fingerprint? {
        fingerprints.first { $0.subject == entity }?.fingerprint
    }

    /// The pair fingerprint computed for a relationship (`Entity.relationship`).
    public func edgeFingerprint(of relationship: String) -> Fingerprint? {
        edgeFingerprints.first { $0.subject == relationship }?.fingerprint
    }
}

/// A group of checks of one kind (`store`, `relationships`, `values`, …).
public struct VerificationSection: Sendable, Equatable, Codable {
    public var name: String
    /// How many checks ran (each check is one condition on one entity, relationship or table).
    public var checks: Int
    public var failures: [VerificationFailure]

    public init(name: String, checks: Int = 0, failures: [VerificationFailure] = []) {
        self.name = name
        self.checks = checks
        self.failures = failures
    }
}

/// One check that did not hold.
public struct VerificationFailure: Sendable, Equatable, Codable {
    /// Which check: a stable code such as `dangling-foreign-key` or `required-attribute`.
    public var check: String
    /// What it is about: an entity, `Entity.relationship`, `Entity.attribute`, or a table.
    public var subject: String
    /// What is wrong, in a sentence.
    public var message: String
    /// How many rows (or pairs, or groups) are wrong.
    public var count: Int64
    /// Up to a few of them.
    public var samples: [FailureSample]

    public init(check: String, subject: String, message: String, count: Int64 = 1, samples: [FailureSample] = []) {
        self.check = check
        self.subject = subject
        self.message = message
        self.count = count
        self.samples = samples
    }
}

/// The summary row of one entity.
public struct EntityTally: Sendable, Equatable, Codable {
    public var entity: String
    /// Rows of the entity and its sub-entities.
    public var rows: Int64
    public var checks: Int
    public var failures: Int

    public init(entity: String, rows: Int64, checks: Int = 0, failures: Int = 0) {
        self.entity = entity
        self.rows = rows
        self.checks = checks
        self.failures = failures
    }
}

/// The summary row of one relationship (`Entity.relationship`).
public struct RelationshipTally: Sendable, Equatable, Codable {
    public var relationship: String
    /// Where its pairs are kept: `ZUPLOAD.ZTASK`, or a join table.
    public var storage: String
    /// Pairs stored.
    public var edges: Int64
    /// Pairs whose source or destination is missing or of the wrong entity.
    public var dangling: Int64
    /// Pairs stored more than once (join tables).
    public var duplicates: Int64
    public var checks: Int
    public var failures: Int

    public init(relationship: String, storage: String, edges: Int64 = 0, dangling: Int64 = 0, duplicates: Int64 = 0,
                checks: Int = 0, failures: Int = 0) {
        self.relationship = relationship
        self.storage = storage
        self.edges = edges
        self.dangling = dangling
        self.duplicates = duplicates
        self.checks = checks
        self.failures = failures
    }
}

/// A fingerprint and what it covers.
public struct FingerprintEntry: Sendable, Equatable, Codable {
    /// The entity, or `Entity.relationship` for pairs.
    public var subject: String
    /// The attributes hashed (records), or the key attributes of both ends (pairs).
    public var attributes: [String]
    public var fingerprint: Fingerprint

    public init(subject: String, attributes: [String], fingerprint: Fingerprint) {
        self.subject = subject
        self.attributes = attributes
        self.fingerprint = fingerprint
    }
}
