@testable import Ferry
import Testing

/// Dates into PostgreSQL's microseconds: exact in integers, however far from 2001.
@Suite("dates as PostgreSQL timestamps")
struct PostgresTimestampTests {
    private let offset = PostgresValues.referenceDateOffset

    @Test("the nearest microsecond, before and after 2001, and far in the future where a double's product was off by one")
    func nearestMicrosecond() {
        #expect(PostgresValues.timestamp(0) == offset)
        #expect(PostgresValues.timestamp(0.5) == offset + 500_000)
        #expect(PostgresValues.timestamp(-0.25) == offset - 250_000)
        #expect(PostgresValues.timestamp(-1_000_000_000.000001) == offset - 1_000_000_000_000_001)
        // 30000000000.123456 is the double 30000000000.123455047…: its microsecond is 123455.
        #expect(PostgresValues.timestamp(30_000_000_000.123456) == offset + 30_000_000_000_123_455)
        // …and that microsecond reads back as the same double: no exact column is needed.
        #expect(PostgresValues.isMicrosecondExact(30_000_000_000.123456))
        #expect(!PostgresValues.isMicrosecondExact(0.0000001))
        #expect(PostgresValues.timestamp(.infinity) == nil && PostgresValues.timestamp(.nan) == nil)
        #expect(PostgresValues.timestamp(9.3e12) == nil)
    }
}
