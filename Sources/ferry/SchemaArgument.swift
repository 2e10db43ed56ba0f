import FerryPostgres

/// `--schema S` of the PostgreSQL verbs: 1 to 63 bytes (PostgreSQL cuts longer names), not
/// starting with `pg_` (PostgreSQL keeps those for itself); `ferry` when not given.
enum SchemaArgument {
    static func value(_ arguments: ParsedArguments) throws(UsageError) -> String {
        let schema = arguments.value("schema") ?? "ferry"
        guard !schema.isEmpty, schema.utf8.count <= PostgresIdentifier.maxLength else {
            throw UsageError("--schema takes a name of 1 to \(PostgresIdentifier.maxLength) bytes")
        }
        guard !schema.lowercased().hasPrefix("pg_") else { throw UsageError("--schema \(schema): names starting with pg_ are PostgreSQL's own") }
        return schema
    }
}
