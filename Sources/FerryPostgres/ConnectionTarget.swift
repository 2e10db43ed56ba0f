import CLibPQ
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where to connect: a libpq connection URI (`postgresql://user@host:5432/db?sslmode=require`)
/// or `key=value` string. What it leaves out comes from the usual environment variables
/// (`PGHOST`, `PGPORT`, `PGUSER`, `PGDATABASE`, `PGPASSWORD`, `PGSERVICE`, …) and the password
/// file (`~/.pgpass` or `PGPASSFILE`), as libpq reads them.
///
/// The string itself is never shown: `description` is rebuilt from its parts without the
/// password, and `scrub(_:)` removes every password the target knows of from a message.
public struct ConnectionTarget: Sendable, CustomStringConvertible {
    /// The string handed to libpq.
    let connectionString: String
    /// Passwords to keep out of messages: the string's own (as written and decoded) and `PGPASSWORD`.
    let secrets: [String]
    /// `postgresql://user@host:port/database`, without any password.
    public let description: String

    /// Checks the string with libpq's own parser.
    public init(_ connectionString: String) throws(PostgresError) {
        self.connectionString = connectionString
        // The whole string first: libpq's parse errors quote it.
        var secrets = [connectionString] + ConnectionText.passwords(in: connectionString)
        if let variable = getenv("PGPASSWORD") { secrets.append(String(cString: variable)) }
        if let misreading = ConnectionText.misreading(of: connectionString) { throw .invalidTarget(reason: misreading) }
        var message: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(connectionString, &message) else {
            let reason = message.map { String(cString: $0) } ?? "libpq cannot parse it"
            PQfreemem(message)
            throw .invalidTarget(reason: Self.scrub(ConnectionText.withoutQuotedText(reason.trimmingTrailingNewlines), of: secrets))
        }
        defer { PQconninfoFree(options) }
        var parts: [String: String] = [:]
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { parts[String(cString: keyword)] = String(cString: value) }
            option += 1
        }
        if let password = parts["password"] { secrets.append(password) }
        self.secrets = secrets.filter { !$0.isEmpty }
        // The passwords, not the whole string (the display is rebuilt from its parts).
        description = Self.scrub(Self.display(parts), of: Array(self.secrets.dropFirst()))
    }

    /// Whether a command-line argument names a database rather than a file: it starts with
    /// `postgresql://` or `postgres://`.
    public static func isConnectionURI(_ text: String) -> Bool {
        ConnectionText.uriPrefixes.contains(where: text.hasPrefix)
    }

    /// Whether a command-line argument looks meant as a database, mistyped or not: its scheme
    /// (what stands before the first `:`) starts with `postgres` in any case (`postgresql:/user:pw@host`,
    /// `postgresql+psycopg2://…`), or is `jdbc` followed by such a scheme. Where a file is
    /// expected, such an argument is refused rather than used as a path and shown (a file of
    /// that name is `./postgres:…`).
    public static func looksLikeConnection(_ text: String) -> Bool {
        let lowered = text.prefix(64).lowercased()
        let named = lowered.hasPrefix("jdbc:") ? lowered.dropFirst(5) : lowered[...]
        guard named.hasPrefix("postgres"), let colon = named.firstIndex(of: ":") else { return false }
        return named[..<colon].allSatisfy { $0.isLetter || $0.isNumber || "+.-".contains($0) }
    }

    /// A command-line argument as it may be shown (in logs, messages, `--json`, catalogs): a
    /// connection URI as its `description`, rebuilt without any password (one libpq cannot parse
    /// with the passwords it spells out replaced by `***`); any other text as it is. Every place
    /// that shows an argument which may be a URI goes through this.
    public static func shown(_ argument: String) -> String {
        guard looksLikeConnection(argument) else { return argument }
        if let target = try? ConnectionTarget(argument) { return target.description }
        return scrub(argument, of: ConnectionText.passwords(in: argument))
    }

    /// `message` with every password this target knows of replaced by `***`.
    public func scrub(_ message: String) -> String {
        Self.scrub(message, of: secrets)
    }

    static func scrub(_ message: String, of secrets: [String]) -> String {
        secrets.filter { !$0.isEmpty }.sorted { $0.count > $1.count }.reduce(message) { text, secret in
            text.replacing(secret, with: "***")
        }
    }

    private static func display(_ parts: [String: String]) -> String {
        var text = "postgresql://"
        if let user = parts["user"] { text += user + "@" }
        let host = parts["host"] ?? parts["hostaddr"] ?? ""
        if !host.hasPrefix("/") { text += host }
        if let port = parts["port"] { text += ":" + port }
        text += "/" + (parts["dbname"] ?? "")
        if host.hasPrefix("/") { text += "?host=" + host }
        return text
    }
}

extension String {
    var trimmingTrailingNewlines: String {
        var text = self
        while text.last?.isNewline == true { text.removeLast() }
        return text
    }
}
