import CSQLite

/// The scratch tables that hold source keys and links until they are resolved, in a database
/// attached to the store writer's connection: `ferry_work.keys (ns, root, scope, key → pk)`,
/// `ferry_work.runs (ns, root, scope, first, count → pk)` and `ferry_work.links (kind, pk, pos, ns,
/// key, scope, value, skey, sscope, missing, origin, line, row, path, account, superseded)`, where `origin`,
/// `line`, `row` and `path` say where the link was given (`LinkOrigin`, its file by number in
/// `files`) and `account` is the caller's number for the record that gave it
/// (`LinkResolution.removeRejectedSources()` hands it back); `ferry_work.copies (root, pk, account,
/// origin, line, row, path, needs)` keeps every record of a row this run wrote that merged several
/// (`noteMergedCopy`, `noteFirstCopies`), and the record of a row this run inserted that left a
/// required to-one empty (`noteUnfilled`: `needs` numbers it), so that removing the row rejects
/// each of them.
///
/// A key is mapped under its source `ns`, the destination `root` its record was written to, and
/// the `scope` it is unique in within its source (`SourceKey`): two source tables' `Z_PK`s may
/// meet in one destination hierarchy, and one source record may become records of two
/// destination hierarchies (`MappingModel.branches`). A link names its source and destination
/// keys with their scopes (`sscope`, `scope`); the roots are its kind's. A link `supersede` names keeps only its row and account (`superseded` 1, no
/// value or key): it finds nothing and is never reported, and still says which records gave a
/// row that is removed.
///
/// Integer keys that rise by one while their rows' `Z_PK`s do (a store read in key order, a file
/// numbered in order) are kept as runs, one row per run instead of one per record; a run is
/// written when the next key breaks it. A key at or below the end of its namespace, root and
/// scope's current run (out of order, or given again) goes to `keys`, which `lookup` reads first: such a
/// key is always mapped after any run that covers it, so the latest mapping wins, as it would
/// with one row per key. Text keys always go to `keys`.
///
/// `LinkResolution` turns the staged links of one kind into the store's foreign keys and join rows.
public final class StagedLinks {
    static let schema = "ferry_work"
    let writer: CoreDataStoreWriter
    private let insertKey: SQLiteStatement
    private let insertAway: SQLiteStatement
    /// `mapKeysAway`'s statement, and `row(of:)`'s per root, prepared on first use (one use per merge).
    private var awayOfRow: SQLiteStatement?
    private var rowOfKey: [Int64: SQLiteStatement] = [:]
    /// `markLeftOut`'s statement, prepared on first use.
    private var insertLeftOut: SQLiteStatement?
    /// `noteMergedCopy`'s and `noteUnfilled`'s statement, prepared on first use.
    private var insertCopy: SQLiteStatement?
    private let insertRun: SQLiteStatement
    private let insertLink: SQLiteStatement
    /// The run of integer keys being extended, per namespace, root and scope.
    private var runs: [RunKey: KeyRun] = [:]
    /// The files links were given in, by their number in `links.origin`.
    private(set) var files: [String] = []
    private var fileNumbers: [String: Int] = [:]
    /// Whether rows written by this run were removed again (`LinkResolution.removeRejectedSources()`):
    /// links staged from them are then dropped when resolved.
    var removedRows = false
    /// Whether some source key was marked left out (`markLeftOut`).
    private(set) var hasLeftOut = false
    /// The rows carried records were inserted into, by their carrier's row; made when the first
    /// is added (`carried()`).
    public private(set) var carriedRows: CarriedRows?
    /// The stored rows whose pairs records merged into them under keep-newest replace; made when
    /// the first is noted (`replaced()`).
    public private(set) var replacedPairs: ReplacedStoredPairs?
    /// Links staged so far: the `rowid` of the last one (links are never deleted before resolving).
    public private(set) var stagedCount: Int64 = 0
    /// The links `supersede` named: those of a row (of one kind, or all), staged in a range of `rowid`s.
    private var superseded: [(row: Int64, kind: Int?, from: Int64, through: Int64)] = []

    private struct RunKey: Hashable {
        let namespace: Int
        let root: Int64
        let scope: Int64
    }

    /// Keys `first ..< first + count` are the rows `pk ..< pk + count`.
    private struct KeyRun {
        let first: Int64
        let pk: Int64
        var count: Int64
    }

    /// Where a staged link starts.
    public enum Source {
        /// The row its record was written to.
        case row(Int64)
        /// Its record's source key, found in the key map when the links are resolved: for
        /// edges read apart from their records.
        case key(SourceKey)
        /// A source key no record of its source has (a pair whose source row the source store
        /// does not hold; `links.missing` 1): the link is counted, and reported as one that found
        /// nothing, this key being what it looked for.
        case missing(SourceKey)
    }

    /// What a staged link points at.
    public enum Destination {
        /// The record with this source key in the link's namespace.
        case key(SourceKey)
        /// The record whose matched attribute (`LinkKind.matchAttribute`) holds this value, in
        /// the storage form of the destination column, so that it compares with (and becomes)
        /// stored ones.
        case value(StoreValue)
    }

    /// Attaches the scratch database to the writer's connection and makes the tables.
    public init(writer: CoreDataStoreWriter) throws(StoreWriterError) {
        self.writer = writer
        let work = Self.schema
        try writer.attachScratchDatabase(named: work)
        try writer.execute("""
            CREATE TABLE \(work).keys (ns INTEGER, root INTEGER, scope INTEGER, key, pk INTEGER, PRIMARY KEY (ns, root, scope, key)) WITHOUT ROWID;
            CREATE INDEX \(work).keys_row ON keys (root, pk);
            CREATE TABLE \(work).away (ns INTEGER, root INTEGER, scope INTEGER, key, PRIMARY KEY (ns, root, scope, key)) WITHOUT ROWID;
            CREATE TABLE \(work).left (ns INTEGER, scope INTEGER, key, PRIMARY KEY (ns, scope, key)) WITHOUT ROWID;
            CREATE TABLE \(work).runs (ns INTEGER, root INTEGER, scope INTEGER, first INTEGER, count INTEGER, pk INTEGER,
                PRIMARY KEY (ns, root, scope, first)) WITHOUT ROWID;
            CREATE TABLE \(work).links (kind INTEGER, pk INTEGER, pos INTEGER, ns INTEGER, key, scope INTEGER, value, skey, sscope INTEGER,
                missing INTEGER, origin INTEGER, line INTEGER, row INTEGER, path TEXT, account INTEGER, superseded INTEGER);
            CREATE TABLE \(work).copies (root INTEGER, pk INTEGER, account INTEGER, origin INTEGER, line INTEGER, row INTEGER, path TEXT,
                needs INTEGER);
            """)
        insertKey = try writer.prepareStatement("INSERT OR REPLACE INTO \(work).keys (ns, root, scope, key, pk) VALUES (?, ?, ?, ?, ?)")
        insertAway = try writer.prepareStatement("INSERT OR IGNORE INTO \(work).away (ns, root, scope, key) VALUES (?, ?, ?, ?)")
        insertRun = try writer.prepareStatement("INSERT INTO \(work).runs (ns, root, scope, first, count, pk) VALUES (?, ?, ?, ?, ?, ?)")
        insertLink = try writer.prepareStatement("""
            INSERT INTO \(work).links (kind, pk, pos, ns, key, scope, value, skey, sscope, missing, origin, line, row, path, account)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
    }

    /// The table of rows carried records were inserted into, made on first use.
    public func carried() throws(StoreWriterError) -> CarriedRows {
        if let carriedRows { return carriedRows }
        let made = try CarriedRows(writer: writer)
        carriedRows = made
        return made
    }

    /// The table of stored rows whose pairs are replaced, made on first use.
    public func replaced() throws(StoreWriterError) -> ReplacedStoredPairs {
        if let replacedPairs { return replacedPairs }
        let made = try ReplacedStoredPairs(writer: writer)
        replacedPairs = made
        return made
    }

    /// Removes the rows of carried records whose copies were not kept (`CarriedRows.removeDropped`);
    /// call after `finishKeys` and before resolving: links from them are dropped, and links to
    /// them find nothing.
    public func removeDroppedCarriedRows() throws(StoreWriterError) -> [CarriedRows.Removal] {
        try removingCarriedRows { rows throws(StoreWriterError) in try rows.removeDropped() }
    }

    /// Removes rows that stand for no record of their own (a nested reference's, which no record
    /// it names ever filled) and that carried records went to (`CarriedRows`: a row without such
    /// entries stays, counted as written), with those entries; call before resolving: links to
    /// them find nothing.
    public func removeRows(_ rows: [SIMD2<Int64>]) throws(StoreWriterError) -> [CarriedRows.Removal] {
        guard !rows.isEmpty else { return [] }
        return try removingCarriedRows { carried throws(StoreWriterError) in try carried.remove(rows: rows) }
    }

    /// Removes the rows of `table` that `rows` (an SQL query of `Z_PK`s) selects, with the rows of
    /// the records they carried that no other record merged into (`CarriedRows`); returns what
    /// those carried records were counted as. Links staged from the removed rows for kinds
    /// resolved later are dropped (`removedRows`), and links to them find nothing.
    func removeRows(of table: EntityTable, selectedBy rows: String) throws(LinkResolutionError) -> [CarriedRows.Removal] {
        let carried = try LinkResolutionError.store { () throws(StoreWriterError) in
            try carriedRows?.remove(carriedBy: table.rootNumber, carriers: rows) ?? []
        }
        try execute("DELETE FROM \(table.table) WHERE Z_PK IN (\(rows))")
        removedRows = true
        return carried
    }

    /// Runs a removal of `carriedRows` (none when no record carried others), noting that rows
    /// went when some did.
    private func removingCarriedRows(_ body: (CarriedRows) throws(StoreWriterError) -> [CarriedRows.Removal])
        throws(StoreWriterError) -> [CarriedRows.Removal]
    {
        guard let carriedRows else { return [] }
        let removals = try body(carriedRows)
        if !removals.isEmpty { removedRows = true }
        return removals
    }

    /// Remembers that `key` names a copy merged into the row `row` and not kept (a duplicate
    /// dropped under keep-first, or an earlier copy under keep-newest), unless the key is the
    /// kept copy's own (it maps to `row` already). The key still maps to the row, so other
    /// records' own links to it follow the merge; pairs a source keeps apart from its records
    /// (`SourceItem.link`: join rows, an ordered list read from the list's side) that name it go
    /// with the copy, superseded, so the row keeps the relationships of the record it keeps.
    public func mapKeyAway(_ key: SourceKey, namespace: Int, root: Int64, row: Int64) throws(StoreWriterError) {
        guard try self.row(of: key, namespace: namespace, root: root) != row else { return }
        try insertAwayKey(key, namespace: namespace, root: root)
    }

    /// Adds `key` to the keys mapped away.
    private func insertAwayKey(_ key: SourceKey, namespace: Int, root: Int64) throws(StoreWriterError) {
        let statement = insertAway
        try StoreWriterError.sqlite { () throws(SQLiteError) in
            defer { try? statement.reset() }
            try statement.bind(Int64(namespace), at: 1)
            try statement.bind(root, at: 2)
            try statement.bind(key.scope, at: 3)
            try statement.bind(key.value, at: 4)
            try statement.run()
        }
    }

    /// Maps away (`mapKeyAway`) every key mapped to `row` so far but `key` of `namespace`: under
    /// keep-newest a later record, given that key, takes the row.
    public func mapKeysAway(ofRow row: Int64, root: Int64, except key: SourceKey, namespace: Int) throws(StoreWriterError) {
        for (runKey, run) in runs where runKey.root == root && run.pk <= row && row - run.pk < run.count {
            let earlier = SourceKey(.integer(run.first + (row - run.pk)), scope: runKey.scope)
            if runKey.namespace != namespace || earlier != key { try insertAwayKey(earlier, namespace: runKey.namespace, root: root) }
        }
        let work = Self.schema
        let away: SQLiteStatement
        if let prepared = awayOfRow { away = prepared } else { away = try writer.prepareStatement("""
            INSERT OR IGNORE INTO \(work).away (ns, root, scope, key)
                SELECT ns, root, scope, key FROM \(work).keys WHERE root = ?1 AND pk = ?2 AND NOT (ns = ?3 AND scope = ?5 AND key = ?4)
                UNION ALL SELECT ns, root, scope, first + (?2 - pk) FROM \(work).runs WHERE root = ?1 AND pk <= ?2 AND ?2 - pk < count
                    AND NOT (ns = ?3 AND scope = ?5 AND first + (?2 - pk) = ?4);
            """) }
        awayOfRow = away
        try StoreWriterError.sqlite { () throws(SQLiteError) in
            defer { try? away.reset() }
            try away.bind(root, at: 1)
            try away.bind(row, at: 2)
            try away.bind(Int64(namespace), at: 3)
            try away.bind(key.value, at: 4)
            try away.bind(key.scope, at: 5)
            try away.run()
        }
    }

    /// The row `key` maps to so far (runs still being extended included), or nil.
    private func row(of key: SourceKey, namespace: Int, root: Int64) throws(StoreWriterError) -> Int64? {
        if case .integer(let number) = key.value, let run = runs[RunKey(namespace: namespace, root: root, scope: key.scope)],
           run.first <= number, number - run.first < run.count {
            return run.pk + (number - run.first)
        }
        let statement: SQLiteStatement
        if let prepared = rowOfKey[root] {
            statement = prepared
        } else {
            statement = try writer.prepareStatement("SELECT \(Self.lookup(key: "?3", scope: "?2", namespace: "?1", root: Int(root)))")
        }
        rowOfKey[root] = statement
        return try StoreWriterError.sqlite { () throws(SQLiteError) -> Int64? in
            defer { try? statement.reset() }
            try statement.bind(Int64(namespace), at: 1)
            try statement.bind(key.scope, at: 2)
            try statement.bind(key.value, at: 3)
            guard try statement.step(), !statement.isNull(at: 0) else { return nil }
            return statement.int64(at: 0)
        }
    }

    /// Remembers that a record (given at `origin`, counted under the caller's `account`) merged
    /// into the row `pk` of the root entity numbered `root`, which this run wrote: when the row is
    /// removed (`LinkResolution.removeRejectedSources`), the record goes with it and is rejected,
    /// whether or not it gave a link of the kind that removes it.
    public func noteMergedCopy(ofRow pk: Int64, root: Int64, account: Int, origin: LinkOrigin) throws(StoreWriterError) {
        try noteRecord(ofRow: pk, root: root, account: account, origin: origin, needs: nil)
    }

    /// Remembers that the record (given at `origin`, counted under the caller's `account`) that
    /// inserted the row `pk` of the root entity numbered `root` gave no destination for a
    /// required to-one, which the caller numbers `need`: links of the run may still fill it from
    /// the other side. Once they are resolved, `UnfilledRequiredRows` finds the rows still
    /// without one, and removing such a row rejects its records.
    public func noteUnfilled(row pk: Int64, root: Int64, need: Int, account: Int, origin: LinkOrigin) throws(StoreWriterError) {
        try noteRecord(ofRow: pk, root: root, account: account, origin: origin, needs: Int64(need))
    }

    /// Adds a record of the row `pk` to `copies`.
    private func noteRecord(ofRow pk: Int64, root: Int64, account: Int, origin: LinkOrigin, needs: Int64?) throws(StoreWriterError) {
        let statement: SQLiteStatement
        if let prepared = insertCopy {
            statement = prepared
        } else {
            statement = try writer.prepareStatement("""
                INSERT INTO \(Self.schema).copies (root, pk, account, origin, line, row, path, needs) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """)
            insertCopy = statement
        }
        let file = Int64(fileNumber(origin.file))
        try StoreWriterError.sqlite { () throws(SQLiteError) in
            defer { try? statement.reset() }
            try statement.bind(root, at: 1)
            try statement.bind(pk, at: 2)
            try statement.bind(Int64(account), at: 3)
            try statement.bind(file, at: 4)
            if let line = origin.line { try statement.bind(Int64(line), at: 5) } else { try statement.bindNull(at: 5) }
            if let row = origin.row { try statement.bind(row, at: 6) } else { try statement.bindNull(at: 6) }
            if let path = origin.path { try statement.bind(path, at: 7) } else { try statement.bindNull(at: 7) }
            if let needs { try statement.bind(needs, at: 8) } else { try statement.bindNull(at: 8) }
            try statement.run()
        }
    }

    /// Adds to `copies` the records that first wrote the rows others merged into
    /// (`noteMergedCopy`), found by the links they staged under an account (of the kinds
    /// `kindsByRoot` lists for each root entity number); call before resolving.
    public func noteFirstCopies(kindsByRoot: [Int64: [Int]]) throws(StoreWriterError) {
        guard insertCopy != nil else { return }
        let work = Self.schema
        try writer.execute("CREATE INDEX \(work).copies_row ON copies (root, pk)")
        for (root, kinds) in kindsByRoot.sorted(by: { $0.key < $1.key }) where !kinds.isEmpty {
            try writer.execute("""
                INSERT INTO \(work).copies (root, pk, account, origin, line, row, path)
                    SELECT DISTINCT \(root), pk, account, origin, line, row, path FROM \(work).links
                        WHERE kind IN (\(kinds.map(String.init).joined(separator: ", "))) AND account IS NOT NULL
                            AND pk IN (SELECT pk FROM \(work).copies WHERE root = \(root))
                    EXCEPT SELECT root, pk, account, origin, line, row, path FROM \(work).copies
                """)
        }
    }

    /// Remembers that the record with `key` in source `namespace` was left out on purpose (a
    /// mapping filtered it, or its entity is not carried): a link to it that finds nothing is
    /// dropped with it (`LinkResolution.droppedWithDestinations`), not reported.
    public func markLeftOut(_ key: SourceKey, namespace: Int) throws(StoreWriterError) {
        let statement: SQLiteStatement
        if let prepared = insertLeftOut {
            statement = prepared
        } else {
            statement = try writer.prepareStatement("INSERT OR IGNORE INTO \(Self.schema).left (ns, scope, key) VALUES (?, ?, ?)")
            insertLeftOut = statement
        }
        hasLeftOut = true
        try StoreWriterError.sqlite { () throws(SQLiteError) in
            defer { try? statement.reset() }
            try statement.bind(Int64(namespace), at: 1)
            try statement.bind(key.scope, at: 2)
            try statement.bind(key.value, at: 3)
            try statement.run()
        }
    }

    /// SQL true when the staged link `alias` points at a key marked left out (`markLeftOut`).
    static func pointsAtLeftOut(_ alias: String) -> String {
        "(\(alias).key IS NOT NULL AND EXISTS (SELECT 1 FROM \(schema).left o WHERE o.ns = \(alias).ns AND o.scope = \(alias).scope AND o.key = \(alias).key))"
    }

    /// Remembers that `key` in source `namespace` is the row `pk` of the root entity numbered `root`.
    public func mapKey(_ key: SourceKey, namespace: Int, root: Int64, to pk: Int64) throws(StoreWriterError) {
        if case .integer(let number) = key.value {
            let runKey = RunKey(namespace: namespace, root: root, scope: key.scope)
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
        try StoreWriterError.sqlite { () throws(SQLiteError) in
            defer { try? statement.reset() }
            try statement.bind(Int64(namespace), at: 1)
            try statement.bind(root, at: 2)
            try statement.bind(key.scope, at: 3)
            try statement.bind(key.value, at: 4)
            try statement.bind(pk, at: 5)
            try statement.run()
        }
    }

    /// Writes the runs still being extended and sets the superseded links aside; call before resolving.
    public func finishKeys() throws(StoreWriterError) {
        for (runKey, run) in runs { try write(run, runKey) }
        runs.removeAll()
        try setSupersededAside()
    }

    /// Names the links of the row `row` (of the kind `kind`, or of every kind) staged as
    /// `rowid`s `from...through` (`stagedCount` before and after staging them) as superseded:
    /// a merged duplicate's own under keep-first, the row's earlier ones under keep-newest, so
    /// that the row's relationships are those of the record it keeps.
    public func supersede(linksOf row: Int64, kind: Int? = nil, from: Int64, through: Int64) {
        guard from <= through else { return }
        superseded.append((row, kind, from, through))
    }

    /// Clears the value and key of every superseded link, in one pass over the links.
    private func setSupersededAside() throws(StoreWriterError) {
        guard !superseded.isEmpty else { return }
        let work = Self.schema
        try writer.execute("CREATE TABLE \(work).sup (row INTEGER, kind INTEGER, lo INTEGER, hi INTEGER)")
        let insert = try writer.prepareStatement("INSERT INTO \(work).sup (row, kind, lo, hi) VALUES (?, ?, ?, ?)")
        defer { insert.finalize() }
        try StoreWriterError.sqlite { () throws(SQLiteError) in
            for range in superseded {
                try insert.bind(range.row, at: 1)
                if let kind = range.kind { try insert.bind(Int64(kind), at: 2) } else { try insert.bindNull(at: 2) }
                try insert.bind(range.from, at: 3)
                try insert.bind(range.through, at: 4)
                try insert.run()
                try insert.reset()
            }
        }
        try writer.execute("""
            CREATE INDEX \(work).sup_row ON sup (row);
            UPDATE \(work).links SET value = NULL, key = NULL, superseded = 1
                WHERE pk IN (SELECT row FROM \(work).sup) AND EXISTS (SELECT 1 FROM \(work).sup s WHERE s.row = links.pk AND links.rowid BETWEEN s.lo AND s.hi
                    AND (s.kind IS NULL OR s.kind = links.kind));
            DROP TABLE \(work).sup;
            """)
        superseded.removeAll()
    }

    private func write(_ run: KeyRun, _ runKey: RunKey) throws(StoreWriterError) {
        let statement = insertRun
        try StoreWriterError.sqlite { () throws(SQLiteError) in
            defer { try? statement.reset() }
            try statement.bind(Int64(runKey.namespace), at: 1)
            try statement.bind(runKey.root, at: 2)
            try statement.bind(runKey.scope, at: 3)
            try statement.bind(run.first, at: 4)
            try statement.bind(run.count, at: 5)
            try statement.bind(run.pk, at: 6)
            try statement.run()
        }
    }

    /// SQL true when `key` of `scope` in `namespace` names a copy merged away (`mapKeyAway`).
    static func isAway(key: String, scope: String, namespace: String, root: Int) -> String {
        "EXISTS (SELECT 1 FROM \(schema).away a WHERE a.ns = \(namespace) AND a.root = \(root) AND a.scope = \(scope) AND a.key = \(key))"
    }

    /// SQL for the row a key maps to (NULL when none): `key`, `scope` and `namespace` are SQL
    /// expressions (columns of the staged link), `root` the root entity's number.
    static func lookup(key: String, scope: String, namespace: String, root: Int) -> String {
        let work = schema
        return """
            coalesce((SELECT x.pk FROM \(work).keys x WHERE x.ns = \(namespace) AND x.root = \(root) AND x.scope = \(scope) AND x.key = \(key)),
                (SELECT CASE WHEN \(key) - g.first < g.count THEN g.pk + (\(key) - g.first) END FROM \(work).runs g
                    WHERE g.ns = \(namespace) AND g.root = \(root) AND g.scope = \(scope) AND g.first <= \(key) ORDER BY g.first DESC LIMIT 1))
            """
    }

    /// Stages one link of the kind numbered `kind`, at `position` among its record's targets,
    /// given where `origin` says (handed back for a link that finds nothing; its file is kept by
    /// number). `account`: the caller's number for the record (nil: none), handed back when the
    /// record is rejected for a link that finds nothing.
    public func stage(kind: Int, from source: Source, position: Int, namespace: Int, to destination: Destination,
                      origin: LinkOrigin, account: Int?) throws(StoreWriterError) {
        let statement = insertLink
        let origin = (file: Int64(fileNumber(origin.file)), line: origin.line.map(Int64.init), row: origin.row, path: origin.path,
                      account: account.map(Int64.init))
        try StoreWriterError.sqlite { () throws(SQLiteError) in
            defer { try? statement.reset() }
            try statement.check(Self.bind(kind: Int64(kind), source: source, position: Int64(position), namespace: Int64(namespace),
                                          destination: destination, origin: origin, to: try statement.live()))
            try statement.run()
        }
        stagedCount += 1
    }

    /// Binds the row of one staged link to `links`' insert with one look at the statement (a link
    /// is staged for every target of every record); returns the first status that is not
    /// `SQLITE_OK`, or `SQLITE_OK`.
    private static func bind(kind: Int64, source: Source, position: Int64, namespace: Int64, destination: Destination,
                             origin: (file: Int64, line: Int64?, row: Int64?, path: String?, account: Int64?),
                             to statement: OpaquePointer) -> Int32 {
        var status = BindStatus()
        status.take(sqlite3_bind_int64(statement, 1, kind))
        switch source {
        case .row(let pk):
            status.take(sqlite3_bind_int64(statement, 2, pk))
            status.take(sqlite3_bind_null(statement, 8))
            status.take(sqlite3_bind_null(statement, 9))
            status.take(sqlite3_bind_null(statement, 10))
        case .key(let key), .missing(let key):
            status.take(sqlite3_bind_null(statement, 2))
            status.take(SQLiteStatement.bind(key.value, at: 8, to: statement))
            status.take(sqlite3_bind_int64(statement, 9, key.scope))
            if case .missing = source { status.take(sqlite3_bind_int64(statement, 10, 1)) } else { status.take(sqlite3_bind_null(statement, 10)) }
        }
        status.take(sqlite3_bind_int64(statement, 3, position))
        status.take(sqlite3_bind_int64(statement, 4, namespace))
        switch destination {
        case .key(let key):
            status.take(SQLiteStatement.bind(key.value, at: 5, to: statement))
            status.take(sqlite3_bind_int64(statement, 6, key.scope))
            status.take(sqlite3_bind_null(statement, 7))
        case .value(let value):
            status.take(sqlite3_bind_null(statement, 5))
            status.take(sqlite3_bind_null(statement, 6))
            status.take(SQLiteStatement.bind(value, at: 7, to: statement))
        }
        status.take(sqlite3_bind_int64(statement, 11, origin.file))
        status.take(origin.line.map { sqlite3_bind_int64(statement, 12, $0) } ?? sqlite3_bind_null(statement, 12))
        status.take(origin.row.map { sqlite3_bind_int64(statement, 13, $0) } ?? sqlite3_bind_null(statement, 13))
        status.take(origin.path.map { SQLiteStatement.bind(.text($0), at: 14, to: statement) } ?? sqlite3_bind_null(statement, 14))
        status.take(origin.account.map { sqlite3_bind_int64(statement, 15, $0) } ?? sqlite3_bind_null(statement, 15))
        return status.code
    }

    /// The first status of a row's bindings that is not `SQLITE_OK`.
    private struct BindStatus {
        var code = SQLITE_OK

        mutating func take(_ status: Int32) {
            if code == SQLITE_OK { code = status }
        }
    }

    /// The number of a file links are given in, given one on first use.
    private func fileNumber(_ file: String) -> Int {
        if let known = fileNumbers[file] { return known }
        files.append(file)
        fileNumbers[file] = files.count - 1
        return files.count - 1
    }
}
