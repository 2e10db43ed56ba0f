import FerryStore

/// One source of records for `RecordPipeline`: a file of records, a Core Data store, an export
/// folder. Every source reads as records of entities of one model version of the chain.
public protocol RecordCursor: AnyObject {
    /// The source as ledgers, rejects and errors name it.
    var path: String { get }
    /// The index in the chain of the model version its records are read as.
    var version: Int { get }
    /// How many records the source holds, when that is known before reading (for progress).
    var total: Int? { get }
    /// Whether the source keeps each side of a one-to-one in a column of its own and gives the
    /// links of both (a Core Data store, a backup or export folder, a store's rows in
    /// PostgreSQL): each side is then written as the source has it, never filled from the other
    /// (Apple Notes sets `ICCloudSyncingObject.cloudState` and never its inverse). A file names
    /// what it names, often one side only, and Core Data fills the other: false.
    var keepsOneToOneSides: Bool { get }
    /// Whether its records are new objects (a file's legacy records) rather than objects a
    /// store already holds (a store, a backup or export folder, PostgreSQL). New objects are held
    /// to the model's validation (`RecordValidation`), as Core Data validates an object it saves;
    /// existing ones are carried as they are, as Core Data's migration carries them.
    var bringsNewObjects: Bool { get }
    /// The next item; nil after the last.
    func next() throws(PipelineError) -> SourceItem?
    /// The next item, or a record handed to `record` where the cursor holds it (borrowed, not
    /// copied into a `SourceItem`); by default every item comes from `next()`, and its records
    /// are handed on from there.
    func step(record: (borrowing Record, _ entity: String, _ defaulted: Bool, _ row: Int64?) throws(PipelineError) -> Void)
        throws(PipelineError) -> CursorStep
    /// The checks of the whole source once its items are read (`stopped`: the run stopped at
    /// its reject limit before the end), and what is left to account for. `read` is what the
    /// pipeline counted as read from this source, per entity: a source that can count its
    /// records another way compares the two.
    func finish(read: [String: Int], stopped: Bool) throws(PipelineError) -> SourceEnd
    /// The relationships of `entity` whose links each of its records carries whenever it has
    /// destinations (a store's foreign-key column, an import's keys), so that a record without
    /// one has none; nil when a link may come from elsewhere (a file's other side in a
    /// migration, a parent's ordered list).
    func relationshipsInRecords(of entity: String) -> Set<String>?
}

extension RecordCursor {
    public func relationshipsInRecords(of entity: String) -> Set<String>? { nil }

    public func step(record: (borrowing Record, _ entity: String, _ defaulted: Bool, _ row: Int64?) throws(PipelineError) -> Void)
        throws(PipelineError) -> CursorStep
    {
        guard let item = try next() else { return .end }
        switch consume item {
        case let .record(next, entity, defaulted, row):
            try record(next, entity, defaulted, row)
            return .handed
        case let other:
            return .item(other)
        }
    }
}

/// What one `RecordCursor.step(record:)` did.
///
/// A word in size (an item is boxed): a step is returned and moved once per record, and an
/// unboxed item (a record's worth of bytes, 153 of them) made each of those moves a `memmove`
/// even for `.handed`, which carries nothing.
public enum CursorStep {
    /// An item, given as `next()` gives it: a reject or a link (records are handed).
    indirect case item(SourceItem)
    /// A record, handed to the closure (which has written it).
    case handed
    /// Nothing: the last item was given before.
    case end
}

/// What a `RecordCursor` delivers.
public enum SourceItem {
    /// A record of `entity`. `defaulted`: a required attribute was empty and took its model
    /// default. `row`: the `Z_PK` of a store's row, named in the location of its reject.
    case record(Record, entity: String, defaulted: Bool, row: Int64?)
    /// A record that could not be read, counted against `entity`.
    case reject(Reject, entity: String)
    /// A link the source keeps apart from its records (a store's many-to-many pairs, ordered
    /// children, to-many destinations without an inverse), already named as the last version
    /// names the relationship.
    case link(SeparateLink)
}

/// A link staged by the key of the record that holds it, once its records are in.
public struct SeparateLink {
    public var entity: String
    public var relationship: String
    public var source: RecordKey
    public var target: RecordKey
    /// Its position among the links of its source record (order of an ordered relationship).
    public var position: Int
    /// Where the source keeps `source` when no record of the source has it (`table ZITEM, row 4,
    /// column ZOWNER`: a foreign key pointing nowhere): the link is reported as one that found
    /// nothing, there. Nil when `source` names a record (written or not).
    public var missingSourceAt: String?
    /// Whether it was read where the relationship's inverse, a to-one in the last version, was a
    /// to-many or none (`MigrationChain.inverseBecomesToOne`).
    public var inverseWasToMany: Bool

    public init(entity: String, relationship: String, source: RecordKey, target: RecordKey, position: Int, missingSourceAt: String? = nil,
                inverseWasToMany: Bool = false) {
        self.entity = entity
        self.relationship = relationship
        self.source = source
        self.target = target
        self.position = position
        self.missingSourceAt = missingSourceAt
        self.inverseWasToMany = inverseWasToMany
    }
}

/// What a source leaves to account for once read.
public struct SourceEnd {
    /// Lines that hold no record (empty lines, comments of CSV), counted against `entity`.
    public var skippedLines = 0
    public var entity: String?
    /// Notes for the summary, in order.
    public var notes: [SourceNote] = []
    /// The attributes whose model default records of the source took for want of their key.
    public var absentDefaults: [AbsentDefault] = []

    public init(skippedLines: Int = 0, entity: String? = nil, notes: [SourceNote] = [], absentDefaults: [AbsentDefault] = []) {
        self.skippedLines = skippedLines
        self.entity = entity
        self.notes = notes
        self.absentDefaults = absentDefaults
    }
}

/// Something a source told about itself that the summary reports.
public enum SourceNote: Sendable, Equatable, CustomStringConvertible {
    /// Keys of a file that matched no attribute of `entity` in `version`, each once.
    case unknownKeys(source: String, entity: String, version: String, keys: [String])
    /// Relationship pairs of a source that the last version cannot hold, and why (it has no
    /// relationship they become; what they become leads to other records): counted as the source
    /// holds them, dropped on purpose.
    case droppedPairs(source: String, count: Int64, entity: String, relationship: String, reason: String)
    /// Values of an attribute that a step of the chain carries nowhere (`nextVersion` has no
    /// attribute they become), counted as the records went through.
    case droppedValues(count: Int, entity: String, attribute: String, nextVersion: String)
    /// What a store holds that no job carries (Core Data's own records, tables outside its
    /// layout); never empty.
    case leftBehind(source: String, LeftBehind)

    /// Whether the note says that something of the source is lost (a warning, not a hint).
    public var isWarning: Bool {
        switch self {
        case .leftBehind, .droppedPairs, .droppedValues: true
        case .unknownKeys: false
        }
    }

    /// What the summary prints, one line each (a store may leave two kinds of things behind).
    public var lines: [String] {
        guard case let .leftBehind(source, leftBehind) = self else { return [description] }
        return leftBehind.warnings.map { "\(source): \($0)" }
    }

    public var description: String {
        switch self {
        case let .unknownKeys(source, entity, version, keys):
            "\(source): keys matching nothing in \(entity) (\(version)), ignored: " + NameListText.summary(keys)
        case let .droppedPairs(source, count, entity, relationship, reason):
            "\(source): \(count) pair\(count == 1 ? "" : "s") of \(entity).\(relationship) not carried: \(reason)"
        case let .droppedValues(count, entity, attribute, nextVersion):
            "\(count) value\(count == 1 ? "" : "s") of \(entity).\(attribute) not carried: \(nextVersion) has no attribute they become"
        case .leftBehind:
            lines.joined(separator: "\n")
        }
    }
}
