import FerryModel

/// The files of a store's external data folder (`ExternalDataFolder`) that a change lets go of:
/// the values of deleted objects, and the old values `update` replaces. Core Data removes such a
/// file when it saves the change; left behind, the bytes of a deleted object would stay on disk.
///
/// The names are read inside the change's transaction, before its rows change; the files are
/// removed only after it commits, and only those no row of any column that allows external
/// storage still names. A run killed in between leaves the files, as before the change.
extension MutableStore {
    /// The external files the values of `objects` are kept in, by name, sorted.
    func externalFiles(of objects: [ObjectKey]) throws(StoreMutationError) -> [String] {
        var names: Set<String> = []
        let byEntity = Dictionary(grouping: objects, by: \.entity)
        for (entity, keys) in byEntity {
            for column in externallyStoredColumns(of: entity) {
                for chunk in stride(from: 0, to: keys.count, by: 500).map({ keys[$0..<min($0 + 500, keys.count)] }) {
                    let list = chunk.map { String($0.primaryKey) }.joined(separator: ", ")
                    names.formUnion(try externalFileNames("SELECT \(column.column) FROM \(column.table) WHERE Z_PK IN (\(list))"))
                }
            }
        }
        return names.sorted()
    }

    /// The external files `attributes` of the rows `rowSelection` (an SQL query of `Z_PK`s, with
    /// its `parameters`) are kept in, by name.
    func externalFiles(of attributes: [Attribute], in table: TableLayout, entity: String, rowSelection: String,
                       parameters: [StoreValue]) throws(StoreMutationError) -> [String] {
        var names: Set<String> = []
        for attribute in attributes where attribute.allowsExternalBinaryDataStorage {
            guard let owner = model.ancestry(of: entity).first(where: { $0.attribute(named: attribute.name) != nil }),
                  let column = table.column(for: .attribute(entity: owner.name, name: attribute.name)) else { continue }
            names.formUnion(try externalFileNames("SELECT \(column.name) FROM \(table.name) WHERE Z_PK IN (\(rowSelection))",
                                                  parameters: parameters))
        }
        return names.sorted()
    }

    /// Removes the files of `names` that no row names any more; returns how many were removed.
    /// A file that cannot be removed stays (the change is committed either way).
    func removeReleasedExternalFiles(_ names: [String]) -> Int {
        guard !names.isEmpty else { return 0 }
        var stillNamed: Set<String> = []
        for entity in model.entities {
            for column in externallyStoredColumns(of: entity.name, declaredOnly: true) {
                stillNamed.formUnion((try? externalFileNames("SELECT \(column.column) FROM \(column.table)")) ?? Set(names))
            }
        }
        return names.filter { !stillNamed.contains($0) && ExternalDataFolder.remove(fileNamed: $0, besideStore: path) }.count
    }

    /// Refuses a change that lets go of external files (`names`) when the store's folders are not
    /// real folders (`ExternalDataFolder.problem`): the files would be removed wherever a
    /// symbolic link points, and reading the store refuses such folders too.
    func checkExternalFolder(releasing names: [String]) throws(StoreMutationError) -> [String] {
        guard !names.isEmpty, let problem = ExternalDataFolder.problem(besideStore: path) else { return names }
        throw .store(.cannotOpen(path: path, reason: "\(problem): its external data files are not changed"))
    }

    /// The columns of `entity`'s attributes (inherited too, unless `declaredOnly`) that allow
    /// external storage.
    private func externallyStoredColumns(of entity: String, declaredOnly: Bool = false) -> [(table: String, column: String)] {
        guard let table = layout.table(forEntity: entity) else { return [] }
        let owners = declaredOnly ? model.entity(named: entity).map { [$0] } ?? [] : model.ancestry(of: entity)
        return owners.flatMap { owner in
            owner.attributes.filter { $0.allowsExternalBinaryDataStorage && !$0.isTransient }.compactMap { attribute in
                table.column(for: .attribute(entity: owner.name, name: attribute.name)).map { (table.name, $0.name) }
            }
        }
    }

    /// The external file names the first column of `sql`'s rows hold (values kept inline and
    /// NULLs name none). A reference stored as text names its file too: the record reader reads
    /// a text value of such a column as its bytes, so a file it names is still in use.
    private func externalFileNames(_ sql: String, parameters: [StoreValue] = []) throws(StoreMutationError) -> Set<String> {
        try StoreMutationError.sqlite { () throws(SQLiteError) in
            let statement = try database.prepare(sql)
            defer { statement.finalize() }
            for (offset, value) in parameters.enumerated() { try statement.bind(value, at: Int32(offset + 1)) }
            var names: Set<String> = []
            while try statement.step() {
                let value = statement.value(at: 0)
                guard value.storageClass == .blob || value.storageClass == .text,
                      case .external(let name)? = try? value.withBlob({ try ExternalBinaryData.decode($0) }) else { continue }
                names.insert(name)
            }
            return names
        }
    }
}
