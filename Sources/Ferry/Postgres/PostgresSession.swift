import FerryModel
import FerryPostgres

/// One worker's hold on the database during a fleet load: a connection kept from one store to
/// the next, and the layouts whose tables it has already made or checked in the schema.
///
/// A new connection per store cost a new server process each time (about 5 ms of the server's
/// CPU, its catalog caches filled again) and the catalog check eight round trips; with 100 small
/// stores that was a tenth of the server's work. A store that fails drops the connection (`discard()`),
/// so the next one starts afresh: reconnected, and the schema prepared again, as the first was.
///
/// Used by one thread at a time (a worker owns it).
final class PostgresSession {
    let target: ConnectionTarget
    private var open: PostgresConnection?
    /// Digests (`PostgresTableDefinitions.digest`) of the layouts prepared through `open`, by schema.
    private var prepared: Set<String> = []

    init(target: ConnectionTarget) {
        self.target = target
    }

    /// The open connection, or a new one when there is none or it is no longer idle and sound.
    func connection() throws(PostgresTransferError) -> PostgresConnection {
        if let open, open.isIdle { return open }
        discard()
        let made = try database { () throws(PostgresError) in try PostgresConnection(target) }
        open = made
        return made
    }

    /// Makes or checks the layout's tables in the schema (`PostgresCatalog.prepare`), in the
    /// transaction `catalog`'s connection (this session's) has begun, unless this connection
    /// already did so for the same tables in the same schema. A load that fails rolls them back
    /// and discards the session, so nothing is remembered of them.
    func prepare(_ definitions: PostgresTableDefinitions, with catalog: PostgresCatalog, model: String) throws(PostgresTransferError) {
        let key = catalog.schema + "\u{0}" + definitions.digest
        guard !prepared.contains(key) else { return }
        try catalog.prepare(definitions, model: model)
        prepared.insert(key)
    }

    /// Closes the connection and forgets what was prepared through it (after a store failed).
    func discard() {
        open = nil
        prepared.removeAll()
    }
}
