import FerryFormats
import FerryModel

/// A file of records (any `RecordStream`) as a pipeline source: records of one entity of one
/// model version of the chain.
public final class FileRecordCursor: RecordCursor {
    public let path: String
    public let version: Int
    public let total: Int? = nil
    /// A file names the side of a one-to-one its records give; Core Data fills the other.
    public let keepsOneToOneSides = false
    public let bringsNewObjects = true
    private let entity: String
    private let versionName: String
    private let records: any RecordStream
    private var read = 0
    /// The model when the run reads records of `entity` alone (an import), nil otherwise.
    private let onlyEntityOf: ManagedObjectModel?
    /// The file's records counted by a scanner of their own as they are read.
    private let census: FileCensus?
    /// The links the last version of the migration's chain cannot hold, dropped and counted; nil
    /// in an import (a chain of one version holds every link).
    private var unheld: UnheldPairs?

    /// - Parameters:
    ///   - version: the index in the chain of the version `entity` is read as, named `versionName`.
    ///   - onlyEntityOf: the model, when the run reads records of `entity` and nothing else (an
    ///     import): a to-one that only the records of another entity could fill from its other
    ///     side is then empty when a record does not name it (`relationshipsInRecords`).
    ///   - census: the file's records counted a second time (`CensusTap`); when given, a reader
    ///     that read to the end must have handed out as many, or nothing is written.
    ///   - chain: the migration's chain: the links of a relationship whose pairs its last version
    ///     holds to none of the records they could name are dropped, counted and said
    ///     (`UnheldPairs`), as a store's are.
    public init(path: String, records: any RecordStream, entity: String, version: Int, versionName: String,
                onlyEntityOf: ManagedObjectModel? = nil, census: FileCensus? = nil, chain: MigrationChain? = nil) {
        self.path = path
        self.records = records
        self.entity = entity
        self.version = version
        self.versionName = versionName
        self.onlyEntityOf = onlyEntityOf
        self.census = census
        unheld = chain.map { UnheldPairs(chain: $0, version: version) }
    }

    /// In an import, the relationships whose destination is outside the entity's hierarchy: no
    /// other record of the run can name the record from the other side. Nil in a migration,
    /// where another source may.
    public func relationshipsInRecords(of entity: String) -> Set<String>? {
        guard let model = onlyEntityOf else { return nil }
        let family = Set(model.hierarchy(below: model.rootEntity(of: entity)?.name ?? entity).map(\.name))
        return Set(model.allRelationships(of: entity).filter { !$0.isTransient && !family.contains($0.destinationEntity) }.map(\.name))
    }

    public func next() throws(PipelineError) -> SourceItem? {
        let result: RecordReadResult?
        do { result = try records.next() } catch { throw .source(error) }
        guard let result else { return nil }
        read += 1
        // Consumed, so that the record moves into the item instead of being copied.
        switch consume result {
        case let .record(record, defaulted): return .record(held(record) ?? record, entity: entity, defaulted: defaulted > 0, row: nil)
        case .reject(let reject): return .reject(reject, entity: entity)
        }
    }

    /// A record is handed to `body` where the reader's batch holds it; a reject is an item.
    public func step(record body: (borrowing Record, _ entity: String, _ defaulted: Bool, _ row: Int64?) throws(PipelineError) -> Void)
        throws(PipelineError) -> CursorStep
    {
        var rejected: Reject?
        var failure: PipelineError?
        let found: Bool
        do throws(RecordSourceError) {
            found = try records.withNext { result in
                switch result {
                case let .record(record, defaulted):
                    do throws(PipelineError) {
                        if let kept = held(record) { try body(kept, entity, defaulted > 0, nil) } else { try body(record, entity, defaulted > 0, nil) }
                    } catch {
                        failure = error
                    }
                case .reject(let reject):
                    rejected = copy reject
                }
            }
        } catch {
            throw .source(error)
        }
        guard found else { return .end }
        read += 1
        if let failure { throw failure }
        guard let rejected else { return .handed }
        return .item(.reject(rejected, entity: entity))
    }

    /// `record` without its links that the last version cannot hold (`UnheldPairs.dropsEvery`,
    /// which counts them); nil when it keeps every link, so that it is not copied.
    private func held(_ record: borrowing Record) -> Record? {
        // An import's records, and a record without links, go by without a look (no array made per record).
        guard unheld != nil, !record.links.isEmpty else { return nil }
        var kept: Record?
        for index in record.links.indices.reversed() {
            let link = record.links[index]
            guard !link.targets.isEmpty, unheld?.dropsEvery(link.targets.count, of: link.relationship, of: entity) == true else { continue }
            if kept == nil { kept = copy record }
            kept?.links.remove(at: index)
        }
        return kept
    }

    /// A file none of whose keys matches an attribute would give records of nils only: refused
    /// (unless the run stopped early). So is a file whose second count (`census`) disagrees with
    /// what its reader handed out: a reader that dropped or invented records. Its skipped lines,
    /// unknown keys and duplicate keys are told either way.
    public func finish(read _: [String: Int], stopped: Bool) throws(PipelineError) -> SourceEnd {
        if read > 0, !records.matchesAnyKey, !stopped {
            throw .source(.noMatchingKey(source: path, keys: records.unknownKeys, entity: entity))
        }
        if let census, !stopped {
            let problems = census.disagreements(read: read, skipped: records.skippedLines)
            guard problems.isEmpty else { throw .notAccounted(source: path, problems: problems) }
        }
        let unknown = records.unknownKeys
        return SourceEnd(skippedLines: records.skippedLines, entity: entity,
                         notes: (unknown.isEmpty ? [] : [.unknownKeys(source: path, entity: entity, version: versionName, keys: unknown)])
                             + (unheld?.notes(source: path) ?? []),
                         absentDefaults: records.absentDefaults)
    }
}
