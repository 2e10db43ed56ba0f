/// Why talking to PostgreSQL failed. Every message has been scrubbed of the connection's
/// password (`ConnectionTarget.scrub`) before it is stored here, so printing an error, putting it
/// in `--json` or in a receipt never shows a secret.
public enum PostgresError: Error, Sendable, CustomStringConvertible {
    /// The connection string is not one libpq understands.
    case invalidTarget(reason: String)
    /// The server could not be reached or refused the connection.
    case connection(target: String, reason: String)
    /// The server refused a statement: its SQLSTATE, message and, when it gave them, detail and hint.
    case server(ServerMessage)
    /// The conversation broke off or went differently than the protocol says (a lost connection,
    /// an unexpected result).
    case protocolFailure(reason: String)
    /// A value cannot be written in or read from PostgreSQL's binary format (a numeric of the
    /// wrong shape, a field of the wrong length).
    case value(reason: String)

    /// A statement's error as the server reported it.
    public struct ServerMessage: Sendable, Equatable {
        /// The five-character SQLSTATE (`23505` for a unique violation).
        public var sqlState: String
        public var message: String
        public var detail: String?
        public var hint: String?

        public init(sqlState: String, message: String, detail: String? = nil, hint: String? = nil) {
            self.sqlState = sqlState
            self.message = message
            self.detail = detail
            self.hint = hint
        }
    }

    public var description: String {
        switch self {
        case .invalidTarget(let reason): "not a PostgreSQL connection string: \(reason)"
        case let .connection(target, reason): "cannot connect to \(target): \(reason)"
        case .server(let message):
            "PostgreSQL: \(message.message)" + (message.detail.map { " (\($0))" } ?? "") + (message.hint.map { "; hint: \($0)" } ?? "")
                + " [SQLSTATE \(message.sqlState)]"
        case .protocolFailure(let reason): "PostgreSQL connection: \(reason)"
        case .value(let reason): "PostgreSQL value: \(reason)"
        }
    }

    /// The SQLSTATE of a server error, nil for other failures.
    public var sqlState: String? {
        if case .server(let message) = self { return message.sqlState }
        return nil
    }
}
