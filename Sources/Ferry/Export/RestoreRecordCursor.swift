import FerryFormats
import FerryMigration
import FerryModel

/// An export or backup folder (already checked against its manifest) as a pipeline source: the
/// records of each entity hierarchy in `Z_PK` order, the files of its concrete entities merged by
/// `Z_PK`, each with its key as `row` so that it keeps it. Once a hierarchy is read, each of its
/// files must have held as many records as the manifest says. Each file is read from the
/// descriptor its check opened (`CheckedBackup`), never opened again by its name.
final class RestoreRecordCursor: RecordCursor {
    let path: String
    let version = 0
    let total: Int?
    /// Both sides of a one-to-one are exported, each from its own column (`RelationshipSide`).
    let keepsOneToOneSides = true
    let bringsNewObjects = false
    private let manifest: ExportManifest
    private let files: [String: FileByteSource]
    private let model: ManagedObjectModel
    /// The roots whose hierarchies are still to be read, last first.
    private var roots: [String]
    private var sources: [RestoreSource] = []
    /// The source whose pending record was handed out last, to move on before the next.
    private var handedOut: RestoreSource?
    private var delivered: [String: Int] = [:]
    /// The pairs named by the side of a relationship whose pairs the other side carries, by
    /// `Entity.relationship` (`RestoreSource.namedPairs`, of every file read).
    private(set) var namedPairs: [String: Int] = [:]

    init(folder: String, checked: CheckedBackup, model: ManagedObjectModel) {
        path = folder
        manifest = checked.manifest
        files = checked.files
        self.model = model
        total = checked.manifest.entities.reduce(0) { $0 + $1.count }
        roots = model.entitiesInStoreOrder.filter { $0.parentName == nil }.map(\.name).reversed()
    }

    func next() throws(PipelineError) -> SourceItem? {
        do throws(ExportError) {
            if let handedOut { try handedOut.advance() }
            handedOut = nil
            while true {
                let next = sources.filter { $0.pending != nil }.min { ($0.pending?.primaryKey ?? 0) < ($1.pending?.primaryKey ?? 0) }
                if let next, let pending = next.pending {
                    handedOut = next
                    delivered[next.schema.entity.name, default: 0] += 1
                    return .record(pending.record, entity: next.schema.entity.name, defaulted: false, row: pending.primaryKey)
                }
                try checkCounts()
                guard let root = roots.popLast() else { return nil }
                sources = try open(root)
            }
        } catch {
            throw .sourceFailure(error)
        }
    }

    func finish(read _: [String: Int], stopped _: Bool) throws(PipelineError) -> SourceEnd { SourceEnd() }

    /// The relationships the restore links from `entity`'s own records
    /// (`RelationshipSide.restoresLinks`): each record's file gives their destinations whenever
    /// it has some. A record without one of a required relationship (NULL in the backed-up
    /// store) is then rejected, as Core Data could not save it; it was written without one, and
    /// the restore's check failed (exit 5).
    func relationshipsInRecords(of entity: String) -> Set<String>? {
        Set(model.allRelationships(of: entity).filter { RelationshipSide.restoresLinks($0, of: entity, model: model) }.map(\.name))
    }

    /// The files of the concrete entities of `root`'s hierarchy.
    private func open(_ root: String) throws(ExportError) -> [RestoreSource] {
        var opened: [RestoreSource] = []
        for entity in model.hierarchy(below: root) where !entity.isAbstract {
            guard let entry = manifest.file(for: entity.name), let file = files[entity.name] else { continue }
            opened.append(try RestoreSource(file, entry: entry, format: manifest.format, model: model))
        }
        return opened
    }

    /// Each file of the hierarchy just read held as many records as the manifest says.
    private func checkCounts() throws(ExportError) {
        for source in sources where delivered[source.schema.entity.name, default: 0] != source.expectedCount {
            throw .verification(path: source.path, reason: "holds \(delivered[source.schema.entity.name, default: 0]) records, the manifest says \(source.expectedCount)")
        }
        for source in sources { namedPairs.merge(source.namedPairs, uniquingKeysWith: +) }
        sources = []
    }
}
