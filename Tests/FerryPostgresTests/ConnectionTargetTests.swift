import FerryPostgres
import Testing

@Suite("connection targets: parsed by libpq, shown without the password")
struct ConnectionTargetTests {
    @Test("the description is rebuilt from the parts, without the password")
    func redacted() throws {
        let target = try ConnectionTarget("postgresql://ann:hunter2@db.example.com:6543/sales?sslmode=disable")
        #expect(target.description == "postgresql://ann@db.example.com:6543/sales")
        let socket = try ConnectionTarget("postgresql://ann:p%40ss@/sales?host=/var/run/postgresql")
        #expect(socket.description == "postgresql://ann@/sales?host=/var/run/postgresql")
        #expect(!socket.description.contains("p%40ss") && !socket.description.contains("p@ss"))
    }

    @Test("a password, as written or decoded, is scrubbed from messages")
    func scrubbed() throws {
        let target = try ConnectionTarget("postgresql://ann:p%40ss@host/db")
        #expect(target.scrub("failed for p@ss and p%40ss") == "failed for *** and ***")
        let keyValue = try ConnectionTarget("host=/tmp dbname=x password=sesame")
        #expect(keyValue.scrub("sesame!") == "***!")
    }

    @Test("a string libpq cannot parse is refused, and its error keeps the password out")
    func invalid() throws {
        let error = try #require(throws: PostgresError.self) { try ConnectionTarget("postgresql://ann:topsecret@host:notaport%zz/db") }
        #expect(!error.description.contains("topsecret"))
        #expect(error.description.hasPrefix("not a PostgreSQL connection string"))
    }

    @Test("an argument is shown without its password: a URI rebuilt, one libpq cannot parse scrubbed, a path as it is")
    func shown() {
        #expect(ConnectionTarget.shown("postgresql://ann:hunter2@db/sales") == "postgresql://ann@db/sales")
        #expect(ConnectionTarget.shown("postgresql://ann@db/sales?password=hunter2&sslmode=disable") == "postgresql://ann@db/sales")
        #expect(!ConnectionTarget.shown("postgresql://ann:hunter2@db:notaport%zz/sales").contains("hunter2"))
        #expect(!ConnectionTarget.shown("postgres://ann@db:x%zz/sales?password=hunter2").contains("hunter2"))
        #expect(ConnectionTarget.shown("Workspace.sqlite") == "Workspace.sqlite")
    }

    @Test("URIs are told apart from file paths")
    func uriDetection() {
        #expect(ConnectionTarget.isConnectionURI("postgresql://x/y"))
        #expect(ConnectionTarget.isConnectionURI("postgres:///y"))
        #expect(!ConnectionTarget.isConnectionURI("Workspace.sqlite"))
    }

    /// libpq splits user-info at the first '@' and reads a URI of another scheme (or none) as
    /// key=value pairs: its messages then quoted a part of the password Ferry did not scrub.
    @Test("a text libpq would misread (an '@' in the password, another scheme, no scheme) is refused without quoting any of it")
    func misreadings() throws {
        let secret = "Xy7-SECRET-pw-42"
        let texts = [
            "postgresql://ferry_secret:p@ss\(secret)@localhost/t5",
            "postgres://u:\(secret)@x@localhost/t5?sslmode=disable",
            "postgresql://u:ab/\(secret)@/db",
            "postgresql://u:a?b/\(secret)@host/db",
            "jdbc:postgresql://ferry_secret:\(secret)@localhost/t5?sslmode=disable",
            "postgresql+psycopg2://ferry_secret:\(secret)@localhost/t5?sslmode=require",
            "ferry_secret:\(secret)@localhost/t5?sslmode=require",
            "host=localhost \(secret)@x=1",
        ]
        for text in texts {
            let error = try #require(throws: PostgresError.self, "\(text)") { try ConnectionTarget(text) }
            #expect(!error.description.contains("SECRET"), "\(text): \(error)")
            #expect(error.description.hasPrefix("not a PostgreSQL connection string"), "\(text): \(error)")
            if ConnectionTarget.looksLikeConnection(text) {
                #expect(!ConnectionTarget.shown(text).contains("SECRET"), "\(text): \(ConnectionTarget.shown(text))")
            }
        }
        // What libpq reads as written stays accepted: an '@' encoded, or in a query parameter's value.
        #expect(try ConnectionTarget("postgresql://host/db?user=ann@corp&sslmode=disable").description == "postgresql://ann@corp@host/db")
        let keyValue = try ConnectionTarget("host=/tmp user=ann@corp dbname=x password='a b@c'")
        #expect(keyValue.description == "postgresql://ann@corp@/x?host=/tmp" && keyValue.scrub("a b@c") == "***")
    }

    @Test("every reading of a password is scrubbed: user-info up to the first '@' and up to the last, password= and sslpassword= quoted or not, decoded")
    func everyReadingScrubbed() throws {
        let target = try ConnectionTarget("postgresql://ann:s%3Ecret@host/db?sslpassword=key%20pw&password=other")
        #expect(target.scrub("s>cret s%3Ecret key pw key%20pw other") == "*** *** *** *** ***")
        let quoted = try ConnectionTarget("host=/tmp dbname=x password='a b\\'c'")
        #expect(quoted.scrub("[a b'c]") == "[***]")
    }

    @Test("libpq's parse errors are shown without what they quote of the text")
    func parseErrorsQuoteNothing() throws {
        let error = try #require(throws: PostgresError.self) { try ConnectionTarget("host=/tmp sslmode=disable dbname") }
        #expect(error.description == "not a PostgreSQL connection string: missing \"…\" in connection info string", "\(error)")
    }
}
