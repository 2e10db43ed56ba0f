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
}
