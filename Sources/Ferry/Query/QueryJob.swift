import FerryFormats
import FerryModel
import FerryStore

/// `ferry query`: the objects a Core Data fetch request would return (the entity and its
/// sub-entities, filtered by the predicate, in sort order with ties broken by `Z_PK`, then
/// offset and limited), each as `Z_PK`, `entity`, the entity's stored attributes, its to-one
/// relationships (as the destination's `Z_PK`) and its to-many relationships (the destinations'
/// `Z_PK`s, in order). The store is opened read-only.
public struct QueryJob {
    public let request: QueryRequest

    public init(request: QueryRequest) {
        self.request = request
    }

    /// Runs the query and writes the rows to `sink` (flushed, not closed).
    /// - Returns: the number of objects written.
    @discardableResult
    public func run(to sink: FileByteSink) throws(QueryError) -> Int {
        let (model, layout) = try StoreModelResolver.resolve(forStore: request.storePath, bundlePath: request.modelPath)
        let compiled: CompiledQuery
        do {
            let query = PredicateQuery(entity: request.entity, predicate: try request.predicate.map { text throws(FetchPredicateError) in
                try FetchPredicate(format: text)
            }, sort: try request.sort.map { text throws(FetchPredicateError) in try FetchSort.parse(text) } ?? [],
                                       limit: request.limit, offset: request.offset, includesToManyKeys: true)
            compiled = try query.compile(with: PredicateCompiler(model: model, layout: layout), variables: request.variables)
        } catch {
            throw .predicate(error)
        }
        let columns = QueryColumn.columns(of: compiled, model: model)
        let names = Dictionary(layout.entityNumbers.map { (Int64($0.value), Array($0.key.utf8)) }, uniquingKeysWith: { first, _ in first })
        var writer = QueryRowWriter(format: request.format, columns: columns, entityNames: names, storePath: request.storePath)
        var count = 0
        do {
            let database = try SQLiteDatabase(path: request.storePath, mode: .readOnly)
            let statement = try compiled.prepare(on: database)
            var buffer: [UInt8] = []
            buffer.reserveCapacity(1 << 17)
            writer.begin(&buffer)
            while try statement.step() {
                try writer.row(statement, &buffer)
                count += 1
                if buffer.count >= 1 << 16 {
                    try sink.write(buffer)
                    buffer.removeAll(keepingCapacity: true)
                }
            }
            writer.end(&buffer)
            try sink.write(buffer)
            try sink.flush()
        } catch let error as QueryError {
            throw error
        } catch let error as SQLiteError {
            throw .sqlite(error)
        } catch let error as ByteSinkError {
            throw .output(error)
        } catch {
            throw .sqlite(SQLiteError(path: request.storePath, code: 1, message: "\(error)"))
        }
        return count
    }
}
