import FerryModel
import FerryStore

/// One kind of staged link: a relationship of an entity, with destinations found by source key
/// or by one destination attribute.
struct LinkKind {
    let id: Int
    /// The entity whose records carry the links (the relationship is declared or inherited there).
    let entity: String
    let relationship: Relationship
    /// The destination attribute that finds destinations, or nil for source keys.
    let matchAttribute: Attribute?
}

/// An entity's relationship, and the destination attribute its targets are matched by.
private struct KindKey: Hashable {
    let entity: String
    let relationship: String
    let matchAttribute: String?
}

/// The scratch tables that hold source keys and links until they are resolved:
/// `ferry_work.keys (ns, root, key → pk)`, `ferry_work.runs (ns, root, first, count → pk)` and
/// `ferry_work.links (kind, pk, pos, ns, key, value, skey, origin, line, row)`, where `origin`,
/// `line` and `row` say where the link was given (`LinkOrigin`, its file by number in `files`).
///
/// Integer keys that rise by one while their rows' `Z_PK`s do (a store read in key order, a file
/// numbered in order) are kept as runs, one row per run instead of one per record; a run is
/// written when the next key breaks it. A key at or below the end of its namespace and root's
/// current run (out of order, or given again) goes to `keys`, which `lookup` reads first: such a
/// key is always mapped after any run that covers it, so the latest mapping wins, as it would
/// with one row per key. Text keys always go to `keys`.
final class LinkStaging {
    static let schema = "ferry_work"
    private(set) var kinds: [LinkKind] = []
    private var kindIDs: [KindKey: Int] = [:]
    private var relationships: [KindKey: Relationship] = [:]
    private let model: ManagedObjectModel
    private let insertKey: SQLiteStatement
    private let insertRun: SQLiteStatement
    private let insertLink: SQLiteStatement
    /// The run of integer keys being extended, per namespace and root.
    private var runs: [RunKey: KeyRun] = [:]
    /// The files links were given in, by their number in `links.origin`.
    private(set) var files: [String] = []
    private var fileNumbers: [String: Int] = [:]

    private struct RunKey: Hashable {
        let namespace: Int
        let root: Int64
    }

    /// Keys `first ..< first + count` are the rows `pk ..< pk + count`.
    private struct KeyRun {
        let first: Int64
        let pk: Int64
        var count: Int64
    }

    init(writer: CoreDataStoreWriter, model: ManagedObjectModel) throws(GraphWriteError) {
        self.model = model
        let work = Self.schema
        try GraphWriteError.wrap { () throws(StoreWriterError) in
            try writer.attachScratchDatabase(named: work)
            try writer.execute("""
                CREATE TABLE \(work).keys (ns INTEGER, root INTEGER, key, pk INTEGER, PRIMARY KEY (ns, root, key)) WITHOUT ROWID;
                CREATE TABLE \(work).runs (ns INTEGER, root INTEGER, first INTEGER, count INTEGER, pk INTEGER,
                    PRIMARY KEY (ns, root, first)) WITHOUT ROWID;
                CREATE TABLE \(work).links (kind INTEGER, pk INTEGER, pos INTEGER, ns INTEGER, key, value, skey,
                    origin INTEGER, line INTEGER, row INTEGER);
                """)
        }
        insertKey = try GraphWriteError.wrap { () throws(StoreWriterError) in
            try writer.prepareStatement("INSERT OR REPLACE INTO \(work).keys (ns, root, key, pk) VALUES (?, ?, ?, ?)")
        }
        insertRun = try GraphWriteError.wrap { () throws(StoreWriterError) in
            try writer.prepareStatement("INSERT INTO \(work).runs (ns, root, first, count, pk) VALUES (?, ?, ?, ?, ?)")
        }
        insertLink = try GraphWriteError.wrap { () throws(StoreWriterError) in
            try writer.prepareStatement("""
                INSERT INTO \(work).links (kind, pk, pos, ns, key, value, skey, origin, line, row) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        }
    }

    /// Remembers that `key` in source `namespace` is the row `pk` of the root entity numbered `root`.
    func mapKey(_ key: RecordKey, namespace: Int, root: Int64, to pk: Int64) throws(GraphWriteError) {
        if case .integer(let number) = key {
            let runKey = RunKey(namespace: namespace, root: root)
            guard let run = runs[runKey] else {
                runs[runKey] = KeyRun(first: number, pk: pk, count: 1)
                return
            }
            let last = run.first + (run.count - 1), lastRow = run.pk + (run.count - 1)
            if last < .max, number == last + 1, lastRow < .max, pk == lastRow + 1 {
                runs[runKey]?.count += 1
                return
            }
            if number > last {
                try write(run, runKey)
                runs[runKey] = KeyRun(first: number, pk: pk, count: 1)
                return
            }
        }
        let statement = insertKey
        try GraphWriteError.sqlite { () throws(SQLiteError) in
            defer { try? statement.reset() }
            try statement.bind(Int64(namespace), at: 1)
            try statement.bind(root, at: 2)
            try Self.bind(key, to: statement, at: 3)
            try statement.bind(pk, at: 4)
            try statement.run()
        }
    }

    /// Writes the runs still being extended; call before resolving.
    func finishKeys() throws(GraphWriteError) {
        for (runKey, run) in runs { try write(run, runKey) }
        runs.removeAll()
    }

    private func write(_ run: KeyRun, _ runKey: RunKey) throws(GraphWriteError) {
        let statement = insertRun
        try GraphWriteError.sqlite { () throws(SQLiteError) in
            defer { try? statement.reset() }
            try statement.bind(Int64(runKey.namespace), at: 1)
            try statement.bind(runKey.root, at: 2)
            try statement.bind(run.first, at: 3)
            try statement.bind(run.count, at: 4)
            try statement.bind(run.pk, at: 5)
            try statement.run()
        }
    }

    /// SQL for the row a key maps to (NULL when none): `key` and `namespace` are SQL
    /// expressions (columns of the staged link), `root` the root entity's number.
    static func lookup(key: String, namespace: String, root: Int) -> String {
        let work = schema
        return """
            coalesce((SELECT x.pk FROM \(work).keys x WHERE x.ns = \(namespace) AND x.root = \(root) AND x.key = \(key)),
                (SELECT CASE WHEN \(key) - g.first < g.count THEN g.pk + (\(key) - g.first) END FROM \(work).runs g
                    WHERE g.ns = \(namespace) AND g.root = \(root) AND g.first <= \(key) ORDER BY g.first DESC LIMIT 1))
            """
    }

    /// Stages the targets of one link of the record `pk`, given at `origin`.
    func stage(_ link: RecordLink, from entity: String, primaryKey pk: Int64, namespace: Int, origin: LinkOrigin) throws(GraphWriteError) {
        let relationship = try relationship(link.relationship, of: entity)
        if !relationship.isToMany, link.targets.count > 1 {
            throw .unsupportedLink(entity: entity, relationship: relationship.name,
                                   reason: "a to-one relationship takes one destination, not \(link.targets.count)")
        }
        for (position, target) in link.targets.enumerated() {
            try insert(target, position: position, kind: kindID(entity: entity, relationship: relationship, target: target),
                       source: .primaryKey(pk), namespace: namespace, origin: origin)
        }
    }

    /// Stages one target of a link of the record with source key `key`, at `position` among its
    /// targets; its row is found through the key map when the links are resolved (edges read
    /// apart from their records, one at a time), given at `origin`.
    func stage(_ target: RecordLink.Target, position: Int, relationship name: String, from entity: String, sourceKey key: RecordKey,
               namespace: Int, origin: LinkOrigin) throws(GraphWriteError) {
        let relationship = try relationship(name, of: entity)
        if !relationship.isToMany, position > 0 {
            throw .unsupportedLink(entity: entity, relationship: relationship.name,
                                   reason: "a to-one relationship takes one destination, not \(position + 1)")
        }
        try insert(target, position: position, kind: kindID(entity: entity, relationship: relationship, target: target),
                   source: .key(key), namespace: namespace, origin: origin)
    }

    private enum LinkSource {
        case primaryKey(Int64)
        case key(RecordKey)
    }

    private func insert(_ target: RecordLink.Target, position: Int, kind: Int, source: LinkSource, namespace: Int,
                        origin: LinkOrigin) throws(GraphWriteError) {
        let statement = insertLink
        let file = fileNumber(origin.file)
        try GraphWriteError.sqlite { () throws(SQLiteError) in
            defer { try? statement.reset() }
            try statement.bind(Int64(kind), at: 1)
            switch source {
            case .primaryKey(let pk):
                try statement.bind(pk, at: 2)
                try statement.bindNull(at: 7)
            case .key(let key):
                try statement.bindNull(at: 2)
                try Self.bind(key, to: statement, at: 7)
            }
            try statement.bind(Int64(position), at: 3)
            try statement.bind(Int64(namespace), at: 4)
            switch target {
            case .key(let key):
                try Self.bind(key, to: statement, at: 5)
                try statement.bindNull(at: 6)
            case .match(_, let value):
                // In the destination column's form, so that staged values compare with (and become) stored ones.
                let storable = kinds[kind].matchAttribute?.allowsExternalBinaryDataStorage == true
                try statement.bindNull(at: 5)
                try statement.bind(StoreValue(value, externallyStorable: storable), at: 6)
            }
            try statement.bind(Int64(file), at: 8)
            if let line = origin.line { try statement.bind(Int64(line), at: 9) } else { try statement.bindNull(at: 9) }
            if let row = origin.row { try statement.bind(row, at: 10) } else { try statement.bindNull(at: 10) }
            try statement.run()
        }
    }

    /// The number of a file links are given in, given one on first use.
    private func fileNumber(_ file: String) -> Int {
        if let known = fileNumbers[file] { return known }
        files.append(file)
        fileNumbers[file] = files.count - 1
        return files.count - 1
    }

    /// A relationship of an entity (declared or inherited), looked up once per pair.
    private func relationship(_ name: String, of entity: String) throws(GraphWriteError) -> Relationship {
        let key = KindKey(entity: entity, relationship: name, matchAttribute: nil)
        if let known = relationships[key] { return known }
        guard let found = model.allRelationships(of: entity).first(where: { $0.name == name }) else {
            throw .unknownRelationship(entity: entity, relationship: name)
        }
        relationships[key] = found
        return found
    }

    private func kindID(entity: String, relationship: Relationship, target: RecordLink.Target) throws(GraphWriteError) -> Int {
        let matchAttribute: String?
        if case let .match(attribute, _) = target { matchAttribute = attribute } else { matchAttribute = nil }
        let key = KindKey(entity: entity, relationship: relationship.name, matchAttribute: matchAttribute)
        if let id = kindIDs[key] { return id }
        var attribute: Attribute?
        if let matchAttribute {
            attribute = model.allAttributes(of: relationship.destinationEntity).first { $0.name == matchAttribute }
            guard attribute != nil else {
                throw .unsupportedLink(entity: entity, relationship: relationship.name,
                                       reason: "\(relationship.destinationEntity) has no attribute '\(matchAttribute)' to match")
            }
        }
        let id = kinds.count
        kinds.append(LinkKind(id: id, entity: entity, relationship: relationship, matchAttribute: attribute))
        kindIDs[key] = id
        return id
    }

    private static func bind(_ key: RecordKey, to statement: SQLiteStatement, at index: Int32) throws(SQLiteError) {
        switch key {
        case .integer(let number): try statement.bind(number, at: index)
        case .text(let text): try statement.bind(text, at: index)
        }
    }
}
