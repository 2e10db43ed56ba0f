import CSQLite

/// Stand-ins for the SQL functions Core Data registers on its own connections and calls from the
/// triggers that keep derived attributes up to date (`Z_DA_…`): without them, any write to such a
/// table fails with "no such function". The triggers update the derived column themselves; these
/// functions only tell Core Data's in-memory objects about the change, so here they do nothing
/// and return NULL.
enum CoreDataSQLFunctions {
    static let names = ["NSCoreDataDATriggerUpdatedAffectedObjectValue", "NSCoreDataDATriggerInsertUpdatedAffectedObjectValue"]

    /// Registers the stand-ins (any number of arguments) on a connection.
    static func register(on handle: OpaquePointer) -> Int32 {
        for name in names {
            let status = sqlite3_create_function_v2(handle, name, -1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
                                                    { context, _, _ in sqlite3_result_null(context) }, nil, nil, nil)
            guard status == SQLITE_OK else { return status }
        }
        return SQLITE_OK
    }
}
